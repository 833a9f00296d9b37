"""The host of the full-table test, as a process of its own: a friends game hosted the
way the cabinet hosts it (:class:`CabinetHost`, pumped by a frame loop, its game saved
in a real SQLite store), the cabinet's own seat played by the computer, with no screen.

``python friends_host_process.py DIR FRIENDS SEED``: prints one JSON line with the link,
the code and the port; deals the first hand once ``FRIENDS`` friends have taken seats;
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
from kiosk.tournament.store import TournamentStore

session_module.AI_DELAYS["fast"] = 0.01
session_module.BOARD_PAUSE["fast"] = 0.0


def main(out: Path, friends: int, seed: int) -> int:
    seats = [SeatSpec("Host", kind="human")]
    seats += [SeatSpec(n, "bot", "easy", n) for n in ("Ike", "Max", "Rosa", "Jules", "Nina")]
    config = TournamentConfig("custom", tuple(seats), 200, 2, 1)
    store = TournamentStore.open(out / "host.db", create=True)
    game = FriendsGame(
        config,
        ai_speed="fast",
        host_plays="bot",
        rng=SeededRandomSource(seed),
        bot_samples=0,
        store=store,
        timers=FriendsTimers(next_hand_s=0.8, finish_s=4.0, turn_s=20.0),
    )
    cabinet = CabinetHost(game, FriendsHost(game))
    cabinet.host.start()
    print(
        json.dumps({"link": cabinet.link, "code": cabinet.code, "port": cabinet.host.port}),
        flush=True,
    )
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
    while time.monotonic() < end and cabinet.host.server.open_connections():
        cabinet.pump(0.02)
        time.sleep(0.02)
    cabinet.close()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
