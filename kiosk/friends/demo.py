"""``uth tournament host``: a cabinet-less host of a friends game, to try the web seat.

::

    uth tournament host [--bind ADDR] [--port P] [--advertise HOST] [--players N]
                        [--chips C] [--every H] [--speed slow|normal|fast]
                        [--start-after S] [--turn-s S] [--qr FILE.png] [--db PATH] [--new]
                        [--link-pairing FOLDER --link-port P]

Prints the link, the game code and the QR code (in the terminal; ``--qr`` also writes a
PNG), then waits for friends: the game starts ``--start-after`` seconds after the first
one takes a seat (it says so, with the countdown).  The game is saved in ``--db`` (a
SQLite file, created when missing) after every action; run the same command after a
power cut and it resumes that game (its code, its port, every seat, every stack and the
hand in progress at its last action); the phones and joined cabinets take their seats
back by their tokens.  ``--new`` discards a saved game first.  The cabinet's own seat is played by the computer.  It ends when the
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
from kiosk.friends.roster import FriendsTimers
from kiosk.link.pairing import HostPairing
from kiosk.tournament.session import TournamentSession
from kiosk.tournament.store import TournamentStore, TournamentStoreError


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
    h.add_argument("--turn-s", type=float, default=None, dest="turn_s",
                   help="seconds a friend has for a move (default 30)")
    h.add_argument("--db", type=Path, default=Path("var/friends-host.db"),
                   help="SQLite file the game is saved in after every action (created when missing)")
    h.add_argument("--new", action="store_true", help="discard the saved game and start a new one")
    h.set_defaults(func=run_host)


def demo_config(players: int, chips: int, every: int) -> TournamentConfig:
    seats = [SeatSpec("Host", kind="human")]
    seats += [SeatSpec(name, "bot", "normal", name) for name in SEED003_PLAYERS[: players - 1]]
    return TournamentConfig("custom", tuple(seats), chips, 0, every)


def _open_game(args: argparse.Namespace, store: TournamentStore | None) -> tuple[FriendsGame, bool]:
    """The saved game of ``store`` (resumed) or a new one; True when resumed."""
    timers = FriendsTimers() if args.turn_s is None else FriendsTimers(turn_s=args.turn_s)
    if store is not None:
        if args.new and store.has_saved_game():
            store.discard()
        session = TournamentSession.resume(store) if store.has_saved_game() else None
        if session is not None and session.state.friends and not session.is_over:
            return FriendsGame.resumed(session, host_plays="bot", timers=timers), True
        if session is not None:
            store.discard()
    config = demo_config(args.players, args.chips, args.every)
    return FriendsGame(config, ai_speed=args.speed, host_plays="bot", store=store, timers=timers,
                       start_after_s=args.start_after), False


def run_host(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    store: TournamentStore | None = None
    try:
        args.db.parent.mkdir(parents=True, exist_ok=True)
        store = TournamentStore.open(args.db, create=True)
    except (OSError, TournamentStoreError) as exc:
        print(f"cannot keep the game in {args.db}: {exc}", flush=True)
        return 2
    try:
        return _serve(args, store)
    finally:
        store.close()


def _serve(args: argparse.Namespace, store: TournamentStore) -> int:
    game, resumed = _open_game(args, store)
    pairing = HostPairing(args.link_pairing) if args.link_pairing is not None else None
    port = game.port if resumed and game.port else args.port
    host = FriendsHost(game, bind=args.bind, port=port, advertise=args.advertise,
                       link_pairing=pairing, link_port=args.link_port)
    try:
        link = host.start()
    except OSError as exc:
        host.stop()
        print(f"cannot listen on {args.bind}:{port}: {exc.strerror or exc} "
              "(another host on that port? choose another with --port)", flush=True)
        return 2
    if resumed:
        assert game.session is not None
        print(f"Resumed game {game.code} at hand {game.session.t.hand_number} (saved in {args.db})", flush=True)
    print(f"Game {game.code}\nLink {link}", flush=True)
    if host.link_seats is not None:
        print(f"Paired cabinets: port {host.link_seats.port}", flush=True)
    segno.make_qr(link, error="m").terminal(out=sys.stdout, compact=True)
    if args.qr is not None:
        args.qr.write_bytes(invite_png(link))
        print(f"QR code written to {args.qr}", flush=True)
    host.run_in_background()
    try:
        announced = False
        while not host.call(lambda g: g.started):
            if not announced and host.call(lambda g: g.starts_at is not None):
                announced = True
                print(f"A friend sat down: the game starts in {args.start_after:.0f} s", flush=True)
            time.sleep(0.2)
        print("Started", flush=True)
        while not host.call(lambda g: g.finished):
            time.sleep(0.5)
        time.sleep(1.0)
        print("The game is over", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        host.stop()
    return 0
