"""A power cut of the CLI host, again and again: ``uth tournament host`` is killed with
SIGKILL at random moments (a fixed seed) and started again with the same command; it
resumes the same game (code, port, seats, stacks, the hand in progress), the friends'
seats (raw sockets from two loopback addresses) take their seats back by their tokens,
and the game goes on to a champion with every chip accounted for at every table."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from support.friends_cli_host import CliHost, Seat

PLAYERS, CHIPS = 4, 3000


def _chips_on_table(state: dict[str, Any]) -> int:
    """The seats' stacks and every chip put in this hand (the pots hold this round's bets)."""
    return sum(s["chips"] for s in state["seats"]) + sum(state["pots"])


def _play(seat: Seat, all_in: bool) -> None:
    """Check or call (``all_in``: all in, to bring the end near)."""
    s = seat.state
    if not s:
        return
    if s.get("phase") == "play" and s.get("your_turn"):
        action = "allin" if all_in else "check" if s["legal"]["can_check"] else "call"
        seat.send(type="act", hand=s["hand"], seq=s["seq"], action=action)
        seat.state = dict(s, your_turn=False)
    elif s.get("phase") == "hand_over" and s.get("vote") and not s["vote"]["voted"] and s["vote"]["counts"]:
        seat.send(type="next", hand=s["hand"])
        seat.state = dict(s, vote=dict(s["vote"], voted=True))


def _back(link: str, source: str, token: str) -> Seat:
    end = time.monotonic() + 20
    while True:
        try:
            seat = Seat(link, source)
            seat.send(type="resume", token=token)
            seat.wait_for(lambda c: c.welcome is not None and c.state is not None, timeout=10)
            return seat
        except (OSError, AssertionError):
            assert time.monotonic() < end, f"{source} could not take its seat back"


@pytest.mark.heavy
def test_ten_power_cuts_of_the_host_and_the_game_goes_on_to_a_champion(tmp_path):
    rng = random.Random(23)
    command = ("--port", "0", "--db", str(tmp_path / "host.db"), "--speed", "fast", "--players", str(PLAYERS),
               "--chips", str(CHIPS), "--every", "3", "--start-after", "2")
    host = CliHost(*command)
    link, code = host.link, host.code
    seats = {"127.0.0.2": Seat(link, "127.0.0.2"), "127.0.0.3": Seat(link, "127.0.0.3")}
    tokens = {}
    for source, name in (("127.0.0.2", "Ann"), ("127.0.0.3", "Bob")):
        seats[source].send(type="join", name=name, lang="en")
        seats[source].wait_for(lambda c: c.welcome is not None)
        tokens[source] = seats[source].welcome["token"]
    places: dict[int, int] = {}
    tables = cuts = 0
    hands_at_cut: list[int] = []
    next_cut = time.monotonic() + rng.uniform(0.5, 2.0)
    end = time.monotonic() + 120
    try:
        while True:
            assert time.monotonic() < end, f"no champion after {cuts} cuts: {seats['127.0.0.2'].state}"
            for seat in seats.values():
                seat.poll(0.01)
                _play(seat, all_in=cuts >= 10)
            states = [s.state for s in seats.values() if s.state]
            for s in states:
                if s.get("phase") in ("play", "hand_over"):
                    tables += 1
                    assert _chips_on_table(s) == PLAYERS * CHIPS, f"chips not conserved: {s}"
            over = [s for s in states if s.get("phase") == "over"]
            if over:
                places = {p["seat"]: p["place"] for p in over[0]["standings"]}
                break
            started = any(s.get("phase") in ("play", "hand_over") for s in states)
            if started and time.monotonic() >= next_cut and cuts < 10:
                hand = max(s.get("hand", 0) for s in states)
                host.kill()  # the power cut
                cuts += 1
                hands_at_cut.append(hand)
                host = CliHost(*command, name=f"host after cut {cuts}")
                assert (host.link, host.code) == (link, code), "the same game on the same link"
                line = host.proc.wait_line(r"^Resumed game (\S+) at hand (\d+)")
                assert line.group(1) == code and int(line.group(2)) >= hand
                for source in seats:
                    seats[source].close()
                    seats[source] = _back(link, source, tokens[source])
                    s = seats[source].state
                    assert s["phase"] == "over" or s["hand"] >= hand, "the hand in progress, or a later one"
                next_cut = time.monotonic() + rng.uniform(0.1, 0.8)
    finally:
        for seat in seats.values():
            seat.close()
    assert cuts >= 10, f"only {cuts} cuts before the champion (hands {hands_at_cut})"
    assert sorted(places.values()) == list(range(1, PLAYERS + 1)), places
    assert tables > 0
    assert host.proc.finish(30) == 0
