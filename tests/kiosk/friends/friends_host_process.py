"""The host of the full-table and link tests, as a process of its own: a friends game
hosted the way the cabinet hosts it (:class:`CabinetHost`, pumped by a frame loop, its
game saved in a real SQLite store), the cabinet's own seat played by the computer, with
no screen.

``python friends_host_process.py DIR FRIENDS SEED [--link]``: prints one JSON line with
the link, the code and the port (``--link``: a table of four that also seats paired
cabinets over the table link with the pairing folder ``DIR/host``, and the link's
``link_port``); deals the first hand once ``FRIENDS`` friends have taken seats;
at the end writes ``DIR/truth.json``: each hand's hole cards by seat, board and the
hands shown (what no seat may see before showdown), the chips on the table at every
change of each hand, and every seat's place.  Exit code 0 at the end of the game.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import kiosk.tournament.session as session_module
from engine.cards import card_name
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec
from engine.rng import SeededRandomSource
from kiosk.friends import CabinetHost, FriendsGame, FriendsHost, FriendsTimers
from kiosk.link.pairing import HostPairing
from kiosk.tournament.store import TournamentStore

session_module.AI_DELAYS["fast"] = 0.01
session_module.BOARD_PAUSE["fast"] = 0.0


def main(out: Path, friends: int, seed: int, link: bool = False) -> int:
    bots = ("Ike", "Max", "Rosa") if link else ("Ike", "Max", "Rosa", "Jules", "Nina")
    seats = [SeatSpec("Host", kind="human")]
    seats += [SeatSpec(n, "bot", "easy", n) for n in bots]
    config = TournamentConfig("custom", tuple(seats), 200, 2, 1)
    store = TournamentStore.open(out / "host.db", create=True)
    game = FriendsGame(
        config,
        ai_speed="fast",
        host_plays="bot",
        rng=SeededRandomSource(seed),
        bot_samples=0,
        store=store,
        timers=FriendsTimers(
            next_hand_s=0.5 if link else 0.8, finish_s=2.0 if link else 4.0, turn_s=20.0
        ),
    )
    pairing = HostPairing(out / "host") if link else None
    cabinet = CabinetHost(game, FriendsHost(game, link_pairing=pairing))
    cabinet.host.start()
    hello: dict[str, object] = {
        "link": cabinet.link,
        "code": cabinet.code,
        "port": cabinet.host.port,
    }
    if cabinet.host.link_seats is not None:
        hello["link_port"] = cabinet.host.link_seats.port
    print(json.dumps(hello), flush=True)
    truth: dict[str, dict[str, object]] = {"holes": {}, "boards": {}, "shown": {}, "chips": {}}

    def record(session: session_module.TournamentSession) -> None:
        t = session.t
        h, n = t.hand, str(t.hand_number)
        if h is None:
            return
        truth["holes"][n] = {
            str(s): sorted(card_name(c) for c in cards)
            for s, cards in enumerate(h.hole_cards)
            if cards
        }
        truth["boards"][n] = [card_name(c) for c in h.board]
        total = sum(t.stacks) if h.is_over else sum(h.stacks) + h.pot_total
        seen = truth["chips"].setdefault(n, [])
        assert isinstance(seen, list)
        if total not in seen:
            seen.append(total)
        if h.is_over:
            truth["shown"][n] = sorted({card_name(c) for r in h.result().shown for c in r.cards})

    last = time.monotonic()
    while not game.finished:
        now = time.monotonic()
        cabinet.pump(now - last)
        last = now
        if cabinet.can_start and len(cabinet.friends()) >= friends:
            session = cabinet.start()
            session.listeners.append(record)
            record(session)
        time.sleep(0.01)
    assert cabinet.session is not None
    truth["places"] = {str(s): p for s, p in cabinet.session.t.places.items()}
    truth["hands"] = cabinet.session.t.hand_number
    (out / "truth.json").write_text(json.dumps(truth))
    end = time.monotonic() + 10
    # the phones' sockets close themselves; a cabinet on the link gets 3 s for the last words
    linger = time.monotonic() + (3 if link else 0)
    while time.monotonic() < end and (
        cabinet.host.server.open_connections() or time.monotonic() < linger
    ):
        cabinet.pump(0.02)
        time.sleep(0.02)
    cabinet.close()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), "--link" in sys.argv[4:]))
