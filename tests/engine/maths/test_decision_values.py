"""Every decision's exact value agrees with the optimal analysis that decides it."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from engine.cards import parse_cards
from engine.maths.decision_values import DecisionValuer, DecisionValues
from engine.maths.optimal import OptimalStrategy
from engine.maths.par import main_analysis
from engine.maths.par_report import cell_values
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from engine.uth.round import Action, Phase

STANDARD = load_paytable(PAYTABLE_DIR / "standard.toml")


@pytest.fixture(scope="module")
def valuer() -> DecisionValuer:
    return DecisionValuer(STANDARD, main_analysis(STANDARD, "optimal", workers=1))


def test_folding_on_the_river_is_worth_minus_two_antes_and_the_nuts_beat_it(valuer):
    hole, board = parse_cards("As Ks"), parse_cards("Qs Js Ts 2d 3c")
    v = valuer.river(hole, board)
    assert v.value(Action.FOLD) == -2
    assert v.best is Action.PLAY_1X and v.value(Action.PLAY_1X) > 2
    assert v.loss(Action.FOLD) == v.value(Action.PLAY_1X) + 2


def test_the_flop_check_value_is_the_average_of_the_best_river_values(valuer):
    hole, flop = parse_cards("7h 2c"), parse_cards("9d Td Js")
    seen = set(hole) | set(flop)
    rest = [c for c in range(52) if c not in seen]
    total = sum(
        valuer.river(hole, (*flop, t, r)).best_value for t, r in combinations(rest, 2)
    )
    assert valuer.flop(hole, flop).value(Action.CHECK) == total / 1081


def test_the_best_actions_are_the_optimal_strategys(valuer):
    strategy = OptimalStrategy(STANDARD, analysis=valuer.analysis)
    hands = ["As Ad", "Ks 5s", "7h 2c", "Qd Jc", "4c 4d", "9h 8h"]
    boards = ["2c 7d Kh 9s 3s", "Ah Kc 5d 5c Jd", "Th 9c 3h 6h 2s"]
    for text in hands:
        hole = parse_cards(text)
        pre = valuer.preflop(hole)
        assert {Action.PLAY_4X: 4, Action.PLAY_3X: 3, Action.CHECK: 0}[pre.best] == (
            strategy.preflop_one(hole)
        )
        for btext in boards:
            board = parse_cards(btext)
            if set(board) & set(hole):
                continue
            assert (valuer.flop(hole, board[:3]).best is Action.PLAY_2X) == strategy.flop_one(
                hole, board[:3]
            )
            assert (valuer.river(hole, board).best is Action.PLAY_1X) == strategy.river_one(
                hole, board
            )


def test_pre_flop_values_are_the_reports_and_do_not_depend_on_suits(valuer):
    aa = valuer.preflop(parse_cards("As Ad"))
    assert aa.best is Action.PLAY_4X
    assert aa.values == valuer.preflop(parse_cards("Ac Ah")).values
    evs = valuer.analysis.option_ev(cell_values(STANDARD))
    assert aa.value(Action.PLAY_4X) in {e["4x"] for e in evs}
    trash = valuer.preflop(parse_cards("7h 2c"))
    assert trash.best is Action.CHECK and trash.loss(Action.PLAY_4X) > 0


def test_a_tie_names_the_passive_action():
    tie = DecisionValues(Phase.RIVER, {Action.PLAY_1X: Fraction(-2), Action.FOLD: Fraction(-2)})
    assert tie.best is Action.FOLD and tie.loss(Action.PLAY_1X) == 0
