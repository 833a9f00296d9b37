"""``uth tournament host``: a cabinet-less host of a friends game, to try the web seat.

::

    uth tournament host [--bind ADDR] [--port P] [--advertise HOST] [--players N]
                        [--chips C] [--every H] [--speed slow|normal|fast]
                        [--start-after S] [--qr FILE.png]
                        [--link-pairing FOLDER --link-port P]

Prints the link, the game code and the QR code (in the terminal; ``--qr`` also writes a
PNG), then waits for friends: the game starts ``--start-after`` seconds after the first
one takes a seat.  The cabinet's own seat is played by the computer.  It ends when the
tournament does (or on Ctrl-C); exit code 0.  With ``--link-pairing`` (the table host's
pairing folder) cabinets paired with it also join over the table link on ``--link-port``.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

import segno

from engine.holdem.bots import SEED003_PLAYERS
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec
from kiosk.friends.game import FriendsGame
from kiosk.friends.host import FriendsHost
from kiosk.friends.invite import invite_png
from kiosk.link.pairing import HostPairing


def add_host(tsub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    h = tsub.add_parser("host", help="host a game for friends' phones, the computer in the cabinet's seat")
    h.add_argument("--bind", default="127.0.0.1", help="address to listen on (the LAN interface)")
    h.add_argument("--port", type=int, default=8765)
    h.add_argument("--advertise", default=None, help="host name in the link (default: --bind)")
    h.add_argument("--players", type=int, default=6, choices=range(2, 7), metavar="2..6")
    h.add_argument("--chips", type=int, default=1500)
    h.add_argument("--every", type=int, default=5, help="hands between blind rises")
    h.add_argument("--speed", choices=("slow", "normal", "fast"), default="normal")
    h.add_argument("--start-after", type=float, default=15.0, dest="start_after")
    h.add_argument("--qr", type=Path, default=None, help="also write the QR code as a PNG")
    h.add_argument("--link-pairing", type=Path, default=None, help="the table host's pairing folder")
    h.add_argument("--link-port", type=int, default=8766, help="port of the paired cabinets' link")
    h.set_defaults(func=run_host)


def demo_config(players: int, chips: int, every: int) -> TournamentConfig:
    seats = [SeatSpec("Host", kind="human")]
    seats += [SeatSpec(name, "bot", "normal", name) for name in SEED003_PLAYERS[: players - 1]]
    return TournamentConfig("custom", tuple(seats), chips, 0, every)


def run_host(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    game = FriendsGame(demo_config(args.players, args.chips, args.every), ai_speed=args.speed, host_plays="bot")
    pairing = HostPairing(args.link_pairing) if args.link_pairing is not None else None
    host = FriendsHost(game, bind=args.bind, port=args.port, advertise=args.advertise,
                       link_pairing=pairing, link_port=args.link_port)
    link = host.start()
    print(f"Game {game.code}\nLink {link}", flush=True)
    if host.link_seats is not None:
        print(f"Paired cabinets: port {host.link_seats.port}", flush=True)
    segno.make_qr(link, error="m").terminal(out=sys.stdout, compact=True)
    if args.qr is not None:
        args.qr.write_bytes(invite_png(link))
        print(f"QR code written to {args.qr}", flush=True)
    host.run_in_background()
    try:
        first: float | None = None
        while not host.call(lambda g: g.started):
            if first is None and host.call(lambda g: bool(g.friends())):
                first = time.monotonic()
                print(f"A friend sat down: the game starts in {args.start_after:.0f} s", flush=True)
            if first is not None and time.monotonic() - first >= args.start_after:
                host.call(lambda g: g.start())
                print("Started", flush=True)
            time.sleep(0.2)
        while not host.call(lambda g: g.finished):
            time.sleep(0.5)
        time.sleep(1.0)
        print("The game is over", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        host.stop()
    return 0
