"""A host of a friends game in a process of its own, for the power-cut test.

::

    python tests/support/friends_host_process.py DB INFO [--resume]

Opens the tournament tables in ``DB``; serves a new game (the cabinet's seat played by
the computer, the game started as soon as a friend sits down) or, with ``--resume``,
the saved one on the port its links name; writes ``{"port", "code"}`` to ``INFO`` once
it listens, and runs until the game has ended.  Killing it is the power cut.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import kiosk.tournament.session as session_module  # noqa: E402
from engine.holdem.config import TournamentConfig  # noqa: E402
from engine.holdem.seats import SeatSpec  # noqa: E402
from kiosk.friends.game import FriendsGame  # noqa: E402
from kiosk.friends.host import FriendsHost  # noqa: E402
from kiosk.friends.roster import FriendsTimers  # noqa: E402
from kiosk.tournament.session import TournamentSession  # noqa: E402
from kiosk.tournament.store import TournamentStore  # noqa: E402

TIMERS = FriendsTimers(next_hand_s=0.3, finish_s=1.0)
#: Seconds a computer player takes over a move.  The friend of the power-cut test answers
#: at once: at 0.02 s a move it sent up to 24 frames a second, over the server's flood
#: limit (20 a second, :class:`kiosk.friends.server.ServerLimits`), and the server closed
#: its socket (``rate``) while the game went on without it.  At 0.05 s it still averaged
#: 15 a second; at 0.08 s at most 15 in any second and 11 on average (the limit: 20).
AI_DELAY_S = 0.08


def main(argv: list[str]) -> int:
    db, info = Path(argv[0]), Path(argv[1])
    session_module.AI_DELAYS["fast"] = AI_DELAY_S
    session_module.BOARD_PAUSE["fast"] = 0.0
    store = TournamentStore.open(db, create=True)
    if "--resume" in argv:
        session = TournamentSession.resume(store, bot_samples=0)
        assert session is not None, "no saved game"
        game = FriendsGame.resumed(session, host_plays="bot", timers=TIMERS)
    else:
        seats = [SeatSpec("Host", kind="human")] + [
            SeatSpec(n, "bot", "easy", n) for n in ("Ike", "Max", "Rosa")
        ]
        game = FriendsGame(
            TournamentConfig("custom", tuple(seats), 400, 1, 3),
            ai_speed="fast",
            host_plays="bot",
            store=store,
            bot_samples=0,
            timers=TIMERS,
        )
    host = FriendsHost(game, port=game.port or 0)
    host.start()
    tmp = info.with_suffix(".tmp")
    tmp.write_text(json.dumps({"port": host.port, "code": game.code}))
    tmp.replace(info)
    host.run_in_background(0.01)
    try:
        while not host.call(lambda g: g.finished):
            host.call(lambda g: g.started or not g.friends() or g.start())
            time.sleep(0.05)
        time.sleep(0.5)
    finally:
        host.stop()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
