"""The turn clock between a move played for a friend out of time and that move on the
table: the seat still to act shows 0 s left (not "no clock", not a fresh clock) and the
clock does not run out a second time for the same decision."""

from __future__ import annotations

from kiosk.friends.turns import TurnClock


def test_a_spent_decision_shows_zero_and_runs_out_once_then_the_next_decision_has_its_clock():
    clock = TurnClock(turn_s=4.0, expiries_away=3)
    decision = (7, 3, 1)
    clock.watch(decision, now=100.0)
    assert clock.seconds_left(101.0) == 3.0 and not clock.expired(103.9)
    assert clock.expired(104.0)
    assert clock.expire(1) is False  # one expiry: the seat stays the friend's
    # the computer's move is delivered, not yet on the table: the same decision is watched
    clock.watch(decision, now=104.1)
    assert clock.seconds_left(104.1) == 0.0 and clock.seconds_left(200.0) == 0.0
    assert not clock.expired(200.0), "one decision runs out once"
    # the move is on the table; the seat's next decision has a whole clock of its own
    clock.watch((7, 5, 1), now=104.2)
    assert clock.seconds_left(104.2) == 4.0 and not clock.expired(108.1) and clock.expired(108.2)


def test_no_friend_to_act_is_no_clock():
    clock = TurnClock(turn_s=4.0, expiries_away=3)
    clock.watch((1, 0, 2), now=0.0)
    clock.watch(None, now=1.0)
    assert clock.seconds_left(1.0) is None and not clock.expired(10.0)
