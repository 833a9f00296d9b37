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
#: Until the tenth cut both friends check or fold, so they never risk more than their
#: blinds: up every five hands at a table of four, the blinds take a friend 1,387 chips
#: over the first 50 hands, so neither can be knocked out before hand 50 and, with both
#: of them in, the game cannot end.  A cut comes at a random moment, and at the latest
#: four hands after the last one (the first, four hands after the first deal), so the
#: tenth comes by hand 41 whatever the computer players do.
LAST_SAFE_HAND = 50
EVERY = 5


def _chips_on_table(state: dict[str, Any]) -> int:
    """The seats' stacks and every chip put in this hand (the pots hold this round's bets)."""
    return sum(s["chips"] for s in state["seats"]) + sum(state["pots"])


def _play(seat: Seat, all_in: bool) -> None:
    """Check, else fold (``all_in``: all in, to bring the end near)."""
    s = seat.state
    if not s:
        return
    if s.get("phase") == "play" and s.get("your_turn"):
        action = "allin" if all_in else "check" if s["legal"]["can_check"] else "fold"
        seat.send(type="act", hand=s["hand"], seq=s["seq"], action=action)
        seat.state = dict(s, your_turn=False)
    elif s.get("phase") == "hand_over" and s.get("vote") and not s["vote"]["voted"] and s["vote"]["counts"]:
        seat.send(type="next", hand=s["hand"])
        seat.state = dict(s, vote=dict(s["vote"], voted=True))


def _back(link: str, source: str, token: str) -> Seat:
    end = time.monotonic() + 60
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
               "--chips", str(CHIPS), "--every", str(EVERY), "--start-after", "2")
    host = CliHost(*command)
    link, code = host.link, host.code
    seats = {"127.0.0.2": Seat(link, "127.0.0.2"), "127.0.0.3": Seat(link, "127.0.0.3")}
    tokens = {}
    for source, name in (("127.0.0.2", "Ann"), ("127.0.0.3", "Bob")):
        seats[source].send(type="join", name=name, lang="en")
        seats[source].wait_for(lambda c: c.welcome is not None)
        tokens[source] = seats[source].welcome["token"]
    places: dict[int, int] = {}
    out_seen: dict[int, int] = {}  # seat -> the place the tables gave it when it went out
    tables = cuts = 0
    hands_at_cut: list[int] = []
    next_cut = time.monotonic() + rng.uniform(0.5, 2.0)
    end = time.monotonic() + 480  # generous: ten restarts and the end game on a loaded machine
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
                    for p in s["seats"]:
                        if p.get("place"):
                            assert out_seen.setdefault(p["seat"], p["place"]) == p["place"], "a place never changes"
            over = [s for s in states if s.get("phase") == "over"]
            if over:
                places = {p["seat"]: p["place"] for p in over[0]["standings"]}
                champion = next(p["name"] for p in over[0]["standings"] if p["place"] == 1)
                break
            started = any(s.get("phase") in ("play", "hand_over") for s in states)
            hand = max((s.get("hand", 0) for s in states), default=0)
            due = time.monotonic() >= next_cut or hand >= (hands_at_cut[-1] if hands_at_cut else 1) + 4
            if started and due and cuts < 10:
                assert hand <= LAST_SAFE_HAND, f"cut {cuts + 1} at hand {hand}: the friends' blinds are no longer safe"
                host.kill()  # the power cut
                cuts += 1
                hands_at_cut.append(hand)
                host = CliHost(*command, name=f"host after cut {cuts}")
                assert (host.link, host.code) == (link, code), "the same game on the same link"
                line = host.proc.wait_line(r"^Resumed game (\S+) at hand (\d+)", timeout=60)
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
    assert all(places[seat] == place for seat, place in out_seen.items()), (out_seen, places)
    assert tables > 0
    assert host.proc.finish(60) == 0
    assert any(line.endswith(f"{champion} is the champion") for line in host.proc.lines), \
        "the host's champion is the one the seats were told"
