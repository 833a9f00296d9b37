"""The turn clock between a move played for a friend out of time and that move on the
table: the seat still to act shows 0 s left (not "no clock", not a fresh clock) and the
clock does not run out a second time for the same decision."""

from __future__ import annotations

import json

from support.friends_table import Table

from kiosk.friends.messages import decode
from kiosk.friends.roster import FriendsTimers
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


def test_every_state_that_says_your_turn_carries_the_clock(small_table, fast_pacing):
    """What a move or a new hand sends at once (before the game's next step) says whose
    turn it is with that turn's clock."""
    t = Table(small_table(players=2, chips=5000), timers=FriendsTimers(next_hand_s=1.0))
    t.join(1, "Mia")
    t.game.start()
    turns = 0
    for _ in range(4000):
        messages, _ = t.game.outgoing()  # sent as it is, no step of the game in between
        states = [json.loads(text) for conn, text in messages if conn == 1]
        states = [m for m in states if m["type"] == "state"]
        mine = [m for m in states if m["phase"] == "play" and m["your_turn"]]
        for m in mine:
            assert m["turn_s"] is not None, m
        if mine and turns < 60:
            turns += 1
            m = mine[-1]
            action = "check" if m["legal"]["can_check"] else "call"
            t.game.receive(1, decode(json.dumps({"type": "act", "hand": m["hand"], "seq": m["seq"],
                                                 "action": action})))
            continue
        if any(m["phase"] == "hand_over" for m in states):
            t.game.receive(1, decode(json.dumps({"type": "next", "hand": states[-1]["hand"]})))
        t.clock.now += 0.05
        t.game.update(0.05)
    assert turns >= 20, turns
