"""A power cut of the host: the host runs in a process of its own, a friend plays from a
real socket, the process is killed mid-game and started again from the saved game.  The
game resumes with every seat as it was (names, chips, the friend's seat and token) on
the port the friend's link names; the friend takes the seat back by opening the link
again with the same token, and plays to the end: the friend gets the results page, the
cabinet's player the game in their records."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.friend_client import FriendClient

from kiosk.tournament.store import TournamentStore

ROOT = Path(__file__).resolve().parents[3]
RUNNER = ROOT / "tests" / "support" / "friends_host_process.py"


def _start(db: Path, info: Path, *resume: str) -> tuple[subprocess.Popen, dict]:
    info.unlink(missing_ok=True)
    proc = subprocess.Popen(
        [sys.executable, str(RUNNER), str(db), str(info), *resume],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    end = time.monotonic() + 60
    while not info.exists():
        assert proc.poll() is None, "the host process died"
        assert time.monotonic() < end, "the host process did not start"
        time.sleep(0.05)
    return proc, json.loads(info.read_text())


def _play(
    client: FriendClient,
    host: subprocess.Popen,
    until,
    timeout: float = 120.0,
    passive: bool = False,
) -> None:
    """Answer the friend's turns (``passive``: check, else fold; otherwise check, else
    call) and vote for the next hand until ``until()``; a socket the host closed fails at
    once, with the host's exit code (a table that stopped moving is never waited out)."""
    end = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < end, f"timed out at {json.dumps(client.state)[:300]}"
        client.poll(0.02)
        if client.closed and not until():
            raise AssertionError(
                f"the host closed the socket (host process exit code {host.poll()}) "
                f"at {json.dumps(client.state)[:300]}"
            )
        s = client.state
        if passive and client.my_turn():
            action = "check" if s["legal"]["can_check"] else "fold"
            client.send(type="act", hand=s["hand"], seq=s["seq"], action=action)
            client.state = dict(s, your_turn=False)
        elif not passive:
            client.play()
        client.vote()


@pytest.fixture
def processes():
    procs: list[subprocess.Popen] = []
    yield procs
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait(10)


@pytest.mark.heavy
def test_a_power_cut_of_the_host_resumes_every_seat_and_the_friend_takes_theirs_back(
    tmp_path, processes
):
    db, info = tmp_path / "uth.db", tmp_path / "host.json"
    proc, where = _start(db, info)
    processes.append(proc)
    link = f"http://127.0.0.1:{where['port']}/g/{where['code']}"
    mia = FriendClient(link)
    mia.join("Mia")
    mia.wait_for(lambda c: c.welcome is not None)
    seat, token = mia.welcome["seat"], mia.welcome["token"]
    # Mia checks or folds until the power cut: she never risks more than her blinds, so
    # with her still in, the game cannot end before the cut (the others cannot all be
    # knocked out by then), whatever the computer players do.
    _play(
        mia,
        proc,
        lambda: bool(
            mia.state and mia.state.get("phase") in ("play", "hand_over") and mia.state["hand"] >= 2
        ),
        passive=True,
    )
    proc.send_signal(signal.SIGKILL)  # the power cut
    proc.wait(10)
    mia.poll(0.5)
    assert mia.closed
    # what the saved game holds
    store = TournamentStore.open(db)
    game_id, state, session = store.load()
    store.close()
    saved = session["friends"]
    assert saved["code"] == where["code"] and saved["port"] == where["port"]
    assert saved["friends"] == [
        {"seat": seat, "name": "Mia", "token": token, "lang": "en", "away": False, "left": False}
    ]
    assert state["config"]["seats"][seat]["name"] == "Mia"
    # started again from the saved game, on the same port
    proc, again = _start(db, info, "--resume")
    processes.append(proc)
    assert again == where, "the friend's link works again"
    back = FriendClient(link)
    back.wait_for(lambda c: any(m["type"] == "hello" for m in c.messages))
    back.resume(token)
    table = back.wait_for(lambda c: c.welcome is not None and c.state is not None)
    assert back.welcome["seat"] == seat
    assert table["phase"] in ("play", "hand_over")
    assert table["hand"] == state["hand_number"], "the hand being played when the power went"
    assert [s["name"] for s in table["seats"]] == [s["name"] for s in state["config"]["seats"]]
    assert table["seats"][seat]["status"] == "you"
    _play(back, proc, lambda: bool(back.state and back.state.get("phase") == "over"), timeout=300)
    over = back.state
    assert over["you"] == seat and sorted(s["place"] for s in over["standings"]) == [1, 2, 3, 4]
    assert proc.wait(60) == 0
    store = TournamentStore.open(db)
    try:
        games = store.games("Host")
        assert len(games) == 1, "the cabinet's player has the game in their records"
        assert games[0][1].online
        assert store.load() is None
    finally:
        store.close()
    back.close()
