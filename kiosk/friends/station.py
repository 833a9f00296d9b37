"""``uth tournament join``: a seat in another cabinet's game played by the computer, the
technician's burn-in of the joining side.

::

    uth tournament join --host ADDR:PORT --code CODE [--name NAME] --autoplay random|passive
                        [--seed S] --headless [--db PATH] [--trace FILE.jsonl] [--wait S]
    uth tournament join --link --pairing FOLDER --host ADDR --port P --code CODE ...

Joins game ``CODE`` on the host (:class:`~kiosk.friends.client.FriendsClient`, the same
socket and checks as a cabinet's Join a game; with ``--link``, over the table link to
``ADDR:P`` with the station pairing saved in ``FOLDER``), then plays every decision with a random
legal move (:class:`RandomPlayer`, reproducible with ``--seed``; ``passive``: check, else
fold, :class:`PassivePlayer`, a seat that never risks more than its blinds), taps Next hand after
each hand and, when the game ends, records the result under ``NAME`` in the cabinet's
records (``--db``, :mod:`kiosk.friends.joined`).  ``--trace`` writes every message the
host sent, one JSON object a line.  Prints the seat, each hand's number and the final
place; exit code 0 at the end of the game, 2 when the game cannot be joined, 1 when the
host went away before the end.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from pathlib import Path
from typing import IO, Any

from kiosk.friends.client import FriendsClient, JoinRefused
from kiosk.friends.joined import record_joined
from kiosk.tournament.store import TournamentStore, TournamentStoreError

Json = dict[str, Any]
log = logging.getLogger("kiosk.friends")


class RandomPlayer:
    """Random legal moves from a seat's ``legal`` (see :func:`kiosk.friends.views.legal_of`):
    mostly check or call, sometimes a bet or raise to a random total between the least
    and all in, now and then a fold when there is something to call."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def move(self, legal: Json) -> tuple[str, int | None]:
        r = self.rng.random()
        if (legal["can_bet"] or legal["can_raise"]) and r < 0.25:
            lo, hi = int(legal["min_to"]), int(legal["max_to"])
            amount = self.rng.randint(lo, hi) if hi > lo else hi
            if amount >= hi:
                return ("allin", None)
            return ("bet" if legal["can_bet"] else "raise", amount)
        if legal["can_fold"] and not legal["can_check"] and r > 0.85:
            return ("fold", None)
        return ("check", None) if legal["can_check"] else ("call", None)


class PassivePlayer:
    """Check when it may, else fold: the seat never puts in more than its blinds, so it
    cannot be knocked out before the blinds have eaten its stack (a burn-in that keeps a
    game going)."""

    def move(self, legal: Json) -> tuple[str, int | None]:
        return ("check", None) if legal["can_check"] else ("fold", None)


def play(
    client: FriendsClient,
    player: RandomPlayer | PassivePlayer,
    *,
    timeout_s: float = 3600.0,
    wait_s: float = 120.0,
    tick_s: float = 0.01,
    out: IO[str] | None = None,
) -> Json | None:
    """Play ``client``'s seat until the game ends; the ``over`` table, or ``None`` when
    the host went away and did not come back within ``wait_s`` seconds (a host restarted
    after a power cut gives the seat back by its token), or ``timeout_s`` passed."""
    acted: tuple[int, int] | None = None
    voted: int | None = None
    hand: int | None = None
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        client.poll()
        s = client.state
        if client.refused is not None:
            acted = None  # refused: look at the table again and choose again
            client.refused = None
        if s is not None:
            phase = s.get("phase")
            if phase == "over":
                return s
            if phase == "play" and s.get("your_turn") and (s["hand"], s["seq"]) != acted:
                action, amount = player.move(s["legal"])
                if client.act(action, amount):
                    acted = (s["hand"], s["seq"])
            elif (
                phase == "hand_over" and voted != s["hand"] and (s.get("vote") or {}).get("counts")
            ):
                if client.next_hand():
                    voted = s["hand"]
            if out is not None and phase in ("play", "hand_over") and s["hand"] != hand:
                hand = s["hand"]
                print(f"hand {hand}", file=out, flush=True)
        if client.closed:
            client.poll()
            if client.state is not None and client.state.get("phase") == "over":
                return client.state
            if client.welcome is None or not client.reopen(min(wait_s, end - time.monotonic())):
                return None
            acted = None  # the host came back (a power cut): the seat is taken back by its token
        time.sleep(tick_s)
    return None


def add_join(tsub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    j = tsub.add_parser(
        "join", help="take a seat in another cabinet's game, played by the computer (burn-in)"
    )
    j.add_argument(
        "--host",
        required=True,
        action="append",
        dest="hosts",
        metavar="ADDR:PORT",
        help="the host cabinet (repeat for several); with --link its address only",
    )
    j.add_argument(
        "--link", action="store_true", help="join over the table link (this cabinet is paired)"
    )
    j.add_argument(
        "--pairing", type=Path, default=None, help="with --link: the station's pairing folder"
    )
    j.add_argument("--port", type=int, default=None, help="with --link: the host's link port")
    j.add_argument("--code", required=True, help="the game code shown on the host")
    j.add_argument(
        "--name", default="Station", help="the name the table sees, and the records' player"
    )
    j.add_argument("--autoplay", choices=("random", "passive"), required=True,
                   help="how the seat is played: random legal moves, or passive (check, else fold)")
    j.add_argument("--seed", type=int, default=None, help="seed of the random moves")
    j.add_argument(
        "--headless", action="store_true", help="no screen (required: the screen is Join a game)"
    )
    j.add_argument(
        "--db",
        type=Path,
        default=None,
        help="the cabinet's SQLite file: the result goes to its records",
    )
    j.add_argument(
        "--trace", type=Path, default=None, help="write every message received here (JSON lines)"
    )
    j.add_argument("--timeout", type=float, default=3600.0, help="seconds before giving up")
    j.add_argument("--wait", type=float, default=120.0,
                   help="seconds to wait for a host that went away (a power cut) to come back")
    j.set_defaults(func=run_join)


def run_join(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if not args.headless:
        print(
            "the joining screen is the kiosk's Join a game; use --headless for the burn-in",
            flush=True,
        )
        return 2
    store: TournamentStore | None = None
    if args.db is not None:
        try:
            store = TournamentStore.open(args.db, create=args.db.parent.is_dir())
        except TournamentStoreError as exc:
            print(f"cannot keep the result in {args.db}: {exc} "
                  f"(make the folder {args.db.parent} first, or give another --db)", flush=True)
            return 2
    try:
        if args.link:
            if args.pairing is None or args.port is None:
                print("cannot join: --link needs --pairing and --port (usage)", flush=True)
                if store is not None:
                    store.close()
                return 2
            client = FriendsClient.open_link(args.pairing, args.hosts[0], args.port, args.code)
        else:
            client = FriendsClient.open(args.hosts, args.code)
    except JoinRefused as exc:
        print(f"cannot join: {exc.detail} ({exc.reason})", flush=True)
        if store is not None:
            store.close()
        return 2
    trace = args.trace.open("w", encoding="utf-8") if args.trace is not None else None
    try:
        if trace is not None:
            client.trace = lambda msg: print(json.dumps(msg), file=trace, flush=True)
        client.join(args.name)
        player = RandomPlayer(args.seed) if args.autoplay == "random" else PassivePlayer()
        over = play(client, player, timeout_s=args.timeout, wait_s=args.wait, out=sys.stdout)
        if over is None:
            print(f"the host went away before the end and did not come back within {args.wait:.0f} s",
                  flush=True)
            return 1
        place = int(over["summary"]["place"])
        print(f"seat {over['you']} place {place} of {over['summary']['players']}", flush=True)
        if store is not None and client.welcome is not None:
            record_joined(store, over, player=args.name, token=str(client.welcome["token"]))
            print(f"recorded for {args.name}", flush=True)
        return 0
    finally:
        client.close()
        if trace is not None:
            trace.close()
        if store is not None:
            store.close()
