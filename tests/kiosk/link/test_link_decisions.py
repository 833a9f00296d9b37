"""The host's check on decisions: only the open round and phase, made after seeing it,
once."""

import pytest

from engine.uth.round import Action, Phase
from kiosk.link import Decide, DecisionGuard, Verdict, accept_decision


def decide(round_id=7, phase=Phase.FLOP, last_seen=20, action=Action.CHECK):
    return Decide(round_id=round_id, phase=phase, action=action, last_seen=last_seen)


@pytest.mark.parametrize(
    "msg, verdict",
    [
        (decide(), Verdict.ACCEPTED),
        (decide(last_seen=25), Verdict.ACCEPTED),
        (decide(round_id=6), Verdict.WRONG_ROUND),
        (decide(phase=Phase.PREFLOP), Verdict.WRONG_PHASE),
        (decide(last_seen=19), Verdict.STALE),
        (decide(last_seen=31), Verdict.FROM_THE_FUTURE),
    ],
)
def test_accept_decision(msg, verdict):
    assert accept_decision(7, Phase.FLOP, 20, msg, sent=30) is verdict


def test_accept_decision_is_pure():
    msg = decide()
    assert accept_decision(7, Phase.FLOP, 20, msg) is accept_decision(7, Phase.FLOP, 20, msg)


def test_the_guard_lands_a_decision_once():
    guard = DecisionGuard()
    assert guard.check(decide()) is Verdict.NOT_OPEN
    guard.open(7, Phase.FLOP, opened_at=20)
    assert guard.check(decide(last_seen=19)) is Verdict.STALE
    assert guard.check(decide()) is Verdict.ACCEPTED
    assert guard.check(decide()) is Verdict.ALREADY_DECIDED  # repeated
    guard.open(7, Phase.RIVER, opened_at=24)
    assert guard.check(decide()) is Verdict.ALREADY_DECIDED  # replayed from the flop
    assert guard.check(decide(phase=Phase.RIVER, last_seen=23)) is Verdict.STALE
    assert guard.check(decide(phase=Phase.RIVER, last_seen=24)) is Verdict.ACCEPTED


def test_a_timed_out_phase_takes_no_late_decision():
    guard = DecisionGuard()
    guard.open(7, Phase.PREFLOP, opened_at=3)
    guard.close()  # the default applied
    assert guard.check(decide(phase=Phase.PREFLOP, last_seen=3)) is Verdict.ALREADY_DECIDED


def test_a_new_round_forgets_the_old_one_but_refuses_its_decisions():
    guard = DecisionGuard()
    guard.open(7, Phase.PREFLOP, opened_at=3)
    assert guard.check(decide(phase=Phase.PREFLOP, last_seen=3)) is Verdict.ACCEPTED
    guard.open(8, Phase.PREFLOP, opened_at=40)
    assert guard.check(decide(round_id=7, phase=Phase.PREFLOP, last_seen=41)) is Verdict.WRONG_ROUND
    assert guard.check(decide(round_id=8, phase=Phase.PREFLOP, last_seen=41)) is Verdict.ACCEPTED
