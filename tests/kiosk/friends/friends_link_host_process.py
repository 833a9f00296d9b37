"""The host of the link test, as a process of its own: a friends game hosted the way the
cabinet hosts it (:class:`CabinetHost`, pumped by a frame loop), seating paired cabinets
over the table link with the pairing folder ``DIR/host``; the cabinet's own seat and the
seats nobody took are played by the computer.

``python friends_link_host_process.py DIR FRIENDS SEED``: prints one JSON line with the
code and the link's port; deals the first hand once ``FRIENDS`` friends have taken
seats; at the end writes ``DIR/truth.json`` (each hand's hole cards by seat, board and
the hands shown, every seat's place and the number of hands).  Exit code 0 at the end.
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

session_module.AI_DELAYS["fast"] = 0.01
session_module.BOARD_PAUSE["fast"] = 0.0


def main(out: Path, friends: int, seed: int) -> int:
    seats = [SeatSpec("Host", kind="human")]
    seats += [SeatSpec(n, "bot", "easy", n) for n in ("Ike", "Max", "Rosa")]
    config = TournamentConfig("custom", tuple(seats), 200, 2, 1)
    game = FriendsGame(
        config,
        ai_speed="fast",
        host_plays="bot",
        rng=SeededRandomSource(seed),
        bot_samples=0,
        timers=FriendsTimers(next_hand_s=0.5, finish_s=2.0, turn_s=20.0),
    )
    cabinet = CabinetHost(game, FriendsHost(game, link_pairing=HostPairing(out / "host")))
    cabinet.host.start()
    seats_link = cabinet.host.link_seats
    assert seats_link is not None
    print(json.dumps({"code": cabinet.code, "link_port": seats_link.port}), flush=True)
    truth: dict[str, dict[str, object]] = {"holes": {}, "boards": {}, "shown": {}}

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
    end = time.monotonic() + 3
    while time.monotonic() < end:
        cabinet.pump(0.02)
        time.sleep(0.02)
    cabinet.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
