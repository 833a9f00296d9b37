"""No seat can freeze or stall the game, through the real ``uth tournament host``
process and raw seat sockets from loopback addresses of their own: a friend who left in
the lobby is never part of the game; a reconnect never gives a decision its clock back;
every seat sees whose turn it is and that seat's time."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from support.friends_cli_host import CliHost, Seat


@pytest.fixture
def hosts(tmp_path) -> Iterator[list[CliHost]]:
    made: list[CliHost] = []
    yield made
    for h in made:
        if h.proc.p.poll() is None:
            h.kill()


def _host(hosts: list[CliHost], tmp_path, *args: str) -> CliHost:
    h = CliHost("--port", "0", "--db", str(tmp_path / "host.db"), "--speed", "fast", *args)
    hosts.append(h)
    return h


def _vote(seat: Seat) -> None:
    s = seat.state
    if s and s.get("phase") == "hand_over" and s.get("vote") and not s["vote"]["voted"] and s["vote"]["counts"]:
        seat.send(type="next", hand=s["hand"])
        seat.state = dict(s, vote=dict(s["vote"], voted=True))


def _answer(seat: Seat) -> bool:
    """Check, else fold: the seat never risks more than its blinds, so the game cannot
    end while it is in (the others cannot all be knocked out within a few hands)."""
    s = seat.state
    if not s or s.get("phase") != "play" or not s.get("your_turn"):
        return False
    seat.send(type="act", hand=s["hand"], seq=s["seq"], action="check" if s["legal"]["can_check"] else "fold")
    seat.state = dict(s, your_turn=False)
    return True


@pytest.mark.heavy
def test_a_friend_who_left_in_the_lobby_is_not_part_of_the_game_and_it_plays_on(hosts, tmp_path):
    h = _host(hosts, tmp_path, "--players", "3", "--start-after", "2")
    a = Seat(h.link, "127.0.0.2")
    a.send(type="join", name="Ann", lang="en")
    a.wait_for(lambda c: c.welcome is not None)
    a.send(type="leave")
    a.wait_for(lambda c: c.closed or any(m.get("type") == "closed" for m in c.messages))
    b = Seat(h.link, "127.0.0.3")
    b.send(type="join", name="Bob", lang="en")
    b.wait_for(lambda c: c.welcome is not None)
    h.proc.wait_line("Started", timeout=30)
    names = b.wait_for(lambda c: bool(c.state and c.state["phase"] in ("play", "hand_over")))["seats"]
    assert "Ann" not in [s["name"] for s in names], "the friend who left is not seated"
    # the game goes on: three hands dealt with Bob answering his turns
    end = time.monotonic() + 60
    while not (b.state and b.state.get("phase") in ("play", "hand_over") and b.state["hand"] >= 3):
        assert time.monotonic() < end, f"the game stalled at {b.state}"
        b.poll(0.05)
        _answer(b)
        s = b.state
        if s and s.get("phase") == "hand_over" and s.get("vote") and not s["vote"]["voted"]:
            b.send(type="next", hand=s["hand"])
            b.state = dict(s, vote=dict(s["vote"], voted=True))


@pytest.mark.heavy
def test_reconnecting_at_your_turn_never_gives_the_decision_its_clock_back(hosts, tmp_path):
    h = _host(hosts, tmp_path, "--players", "2", "--start-after", "0", "--turn-s", "4", "--chips", "20000")
    token_seat = Seat(h.link, "127.0.0.2")
    token_seat.send(type="join", name="Mia", lang="en")
    token_seat.wait_for(lambda c: c.welcome is not None)
    token, seat_no = token_seat.welcome["token"], token_seat.welcome["seat"]
    state = token_seat.wait_for(lambda c: bool(c.state and c.state.get("your_turn")), timeout=20)
    decision = (state["hand"], state["seq"])
    first_seen = time.monotonic()
    seat, clocks = token_seat, [state["turn_s"]]
    # close and come back every 1.5 s: the clock goes on from where it was
    while True:
        seat.wait_for(lambda c: time.monotonic() - first_seen > 1.5 * len(clocks) or c.closed, timeout=5)
        seat.close()
        seat = Seat(h.link, "127.0.0.3" if len(clocks) % 2 else "127.0.0.2")
        seat.send(type="resume", token=token)
        s = seat.wait_for(lambda c: c.welcome is not None and c.state is not None)
        if (s.get("hand"), s.get("seq")) != decision or not s.get("your_turn"):
            break  # the computer has played the move
        clocks.append(s["turn_s"])
        assert time.monotonic() - first_seen < 10, f"the decision was held {time.monotonic() - first_seen:.1f} s"
    held = time.monotonic() - first_seen
    assert held < 8.0, f"the decision was held {held:.1f} s on a 4 s clock"
    assert None not in clocks, f"a state said your turn without its clock: {clocks}"
    assert clocks == sorted(clocks, reverse=True) and clocks[-1] < clocks[0], clocks
    assert seat.welcome["seat"] == seat_no


@pytest.mark.heavy
def test_closing_the_socket_at_your_turn_never_holds_the_table_past_the_clock(hosts, tmp_path):
    h = _host(hosts, tmp_path, "--players", "3", "--start-after", "2", "--turn-s", "3", "--chips", "20000")
    mia, tom = Seat(h.link, "127.0.0.2"), Seat(h.link, "127.0.0.3")
    for seat, name in ((mia, "Mia"), (tom, "Tom")):
        seat.send(type="join", name=name, lang="en")
        seat.wait_for(lambda c: c.welcome is not None)
    mia_seat = mia.welcome["seat"]
    end = time.monotonic() + 60
    while not (mia.state and mia.state.get("phase") == "play" and mia.state.get("your_turn")):
        assert time.monotonic() < end, f"Mia's turn never came: {mia.state}"
        mia.poll(0.02)
        tom.poll(0.02)
        _answer(tom)
        _vote(tom)
        _vote(mia)
    decision = (mia.state["hand"], mia.state["seq"])
    mia.close()  # and never comes back: the away timer would take 45 s
    gone = time.monotonic()

    def moved_on(c: Seat) -> bool:  # a later decision point than the one Mia left
        s = c.state
        return bool(s) and (s["hand"], s.get("seq", 1 << 30)) > decision

    tom.wait_for(moved_on, timeout=60)
    held = time.monotonic() - gone
    assert held < 20.0, f"a closed socket held the table {held:.1f} s on a 3 s clock"
    assert not any(s["status"] == "away" for s in tom.state["seats"] if s["seat"] == mia_seat), \
        "one move out of time: the seat is still hers"


@pytest.mark.heavy
def test_every_seat_sees_whose_turn_it_is_and_their_time(hosts, tmp_path):
    h = _host(hosts, tmp_path, "--players", "3", "--start-after", "2", "--turn-s", "20", "--chips", "20000")
    mia, tom = Seat(h.link, "127.0.0.2"), Seat(h.link, "127.0.0.3")
    mia.send(type="join", name="Mia", lang="en")
    mia.wait_for(lambda c: c.welcome is not None)
    tom.send(type="join", name="Tom", lang="en")
    tom.wait_for(lambda c: c.welcome is not None)
    mia_seat = mia.welcome["seat"]
    end = time.monotonic() + 60
    while not (mia.state and mia.state.get("phase") == "play" and mia.state.get("your_turn")):
        assert time.monotonic() < end, f"Mia's turn never came: {mia.state}"
        mia.poll(0.02)
        tom.poll(0.02)
        _answer(tom)
        _vote(tom)
        _vote(mia)
    hand, seq = mia.state["hand"], mia.state["seq"]
    other = tom.wait_for(lambda c: bool(c.state and c.state.get("hand") == hand and c.state.get("seq") == seq))
    assert other["to_act"] == mia_seat, "another seat is told who is to act"
    assert not other["your_turn"]
    assert other["turn_s"] is not None and 0 < other["turn_s"] <= 20, "and that seat's time"
    # a computer seat's turn is named too
    seen = [m for m in tom.messages if m.get("type") == "state" and m.get("phase") == "play"]
    assert all("to_act" in m for m in seen)
