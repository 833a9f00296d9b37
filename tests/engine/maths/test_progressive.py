"""The progressive's exact figures against an outside count, and its return curve."""

from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest

from engine.hands.categories import HandCategory
from engine.hands.evaluator import category_batch, evaluate_batch
from engine.maths.progressive import FIVE_CARD_HANDS, ProgressiveFigures, five_card_counts
from engine.uth.paytable import load_paytable, parse_paytable

DATA = Path(__file__).resolve().parents[2] / "data" / "paytables"
EXAMPLE = load_paytable(DATA / "progressive-example.toml").progressive
QUADS = load_paytable(DATA / "progressive-quads.toml").progressive

#: The published counts of the five-card hands of a 52-card deck.
PUBLISHED = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "pair": 1_098_240,
    "high_card": 1_302_540,
}


@pytest.fixture(scope="module")
def every_hand() -> np.ndarray:
    """All C(52, 5) hands, one a row; card = 4 * rank + suit."""
    flat = np.fromiter(combinations(range(52), 5), dtype=np.dtype((np.uint8, 5)))
    assert flat.shape == (comb(52, 5), 5)
    return flat


def categories_by_hand(hands: np.ndarray) -> np.ndarray:
    """Each hand's category counted here from ranks and suits, not by the engine."""
    ranks = np.sort(hands // 4, axis=1).astype(np.int16)
    suits = hands % 4
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = 1 + (np.diff(ranks, axis=1) != 0).sum(axis=1)
    wheel = (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight = (distinct == 5) & ((ranks[:, 4] - ranks[:, 0] == 4) | wheel)
    quads = (ranks[:, 0] == ranks[:, 3]) | (ranks[:, 1] == ranks[:, 4])
    trips = (
        (ranks[:, 0] == ranks[:, 2]) | (ranks[:, 1] == ranks[:, 3]) | (ranks[:, 2] == ranks[:, 4])
    )
    c = HandCategory
    out = np.full(len(hands), c.HIGH_CARD, dtype=np.int8)
    out[distinct == 4] = c.PAIR
    out[(distinct == 3) & ~trips] = c.TWO_PAIR
    out[(distinct == 3) & trips] = c.THREE_OF_A_KIND
    out[straight] = c.STRAIGHT
    out[flush] = c.FLUSH
    out[(distinct == 2) & ~quads] = c.FULL_HOUSE
    out[(distinct == 2) & quads] = c.FOUR_OF_A_KIND
    out[straight & flush] = c.STRAIGHT_FLUSH
    out[straight & flush & (ranks[:, 0] == 8)] = c.ROYAL_FLUSH
    return out


@pytest.fixture(scope="module")
def counted(every_hand) -> dict[HandCategory, int]:
    cats = categories_by_hand(every_hand)
    return {c: int(n) for c, n in zip(HandCategory, np.bincount(cats, minlength=10), strict=True)}


def test_the_hand_counts_agree_with_every_hand_counted(counted):
    assert sum(counted.values()) == FIVE_CARD_HANDS == 2_598_960
    assert {c.name.lower(): n for c, n in counted.items()} == PUBLISHED
    assert five_card_counts() == counted


def test_the_evaluator_the_simulation_uses_agrees_hand_by_hand(every_hand):
    mine = categories_by_hand(every_hand)
    assert np.array_equal(category_batch(evaluate_batch(every_hand)), mine)


def test_the_return_curve_is_the_direct_sum_over_every_hand(counted):
    fig = ProgressiveFigures.of(EXAMPLE)
    lines = EXAMPLE.awards.lines()
    for meter in (EXAMPLE.reset, 2_500_001, 16_053_053, EXAMPLE.ceiling):
        total = Fraction(0)
        for cat, n in counted.items():
            award = lines.get(cat)
            if award is None:
                continue
            pay = Fraction(award.meter_bp * meter, 10_000) if award.on_meter else award.cents
            total += n * pay
        assert fig.return_at(meter) == total / (FIVE_CARD_HANDS * EXAMPLE.wager)
    assert fig.return_at(fig.break_even) == 1
    # By hand: fixed 624*30000 + 3744*5000 + 5108*4000 + 10200*3000 + 54912*900 cents,
    # meter 4 * 1,000,000 + 36 * 100,000 cents, over 2,598,960 wagers of 100 cents.
    assert fig.return_at(EXAMPLE.reset) == Fraction(137_892_800 + 7_600_000, 259_896_000)
    assert round(float(fig.break_even)) == 16_053_053
    assert fig.wagers_between_top == 649_740
    assert fig.hours_between_top(60) == Fraction(649_740, 60)


def test_long_run_return_and_reserve_cover():
    fig = ProgressiveFigures.of(EXAMPLE)
    resets = Fraction(4, FIVE_CARD_HANDS) * EXAMPLE.reset / EXAMPLE.wager
    assert fig.long_run_return == fig.fixed_return + Fraction(2000, 10_000) + resets
    assert fig.reserve_cover == Fraction(2) / (EXAMPLE.reset * Fraction(4, FIVE_CARD_HANDS))


def test_the_meter_at_a_top_award_without_other_meter_lines_is_reset_plus_c_over_p():
    text = (DATA / "progressive-quads.toml").read_text()
    text = text.replace("full_house = { meter_bp = 500 }", "full_house = { cents = 500 }")
    t = parse_paytable(text).progressive
    fig = ProgressiveFigures.of(t)
    p = fig.top_probability
    assert fig.expected_meter_at_top() == t.reset + t.meter_contribution / p
    assert fig.expected_meter_at_top(7) == fig.expected_meter_at_top(1)


def test_the_meter_at_a_top_award_is_the_recurrence_summed():
    fig = ProgressiveFigures.of(QUADS)
    p = float(fig.top_probability)
    q = float(fig.probability(HandCategory.FULL_HOUSE)) / (1 - p)
    m, weight, total = QUADS.reset + QUADS.meter_contribution, p, 0.0
    for _ in range(400_000):
        total += weight * m
        m = m * (1 - q * 0.05) + QUADS.meter_contribution
        weight *= 1 - p
    assert float(fig.expected_meter_at_top()) == pytest.approx(total, rel=1e-9)


def test_a_lower_line_of_the_whole_meter_refills_it_to_the_reset():
    text = (DATA / "progressive-quads.toml").read_text()
    text = text.replace("full_house = { meter_bp = 500 }", "full_house = { meter_bp = 10000 }")
    t = parse_paytable(text).progressive
    fig = ProgressiveFigures.of(t)
    assert t.top == HandCategory.FOUR_OF_A_KIND  # the stronger of two 100% lines
    p = float(fig.top_probability)
    q = float(fig.probability(HandCategory.FULL_HOUSE)) / (1 - p)
    m, weight, total = t.reset + t.meter_contribution, p, 0.0
    for _ in range(400_000):
        total += weight * m
        m = (1 - q) * m + q * t.reset + t.meter_contribution
        weight *= 1 - p
    assert float(fig.expected_meter_at_top()) == pytest.approx(total, rel=1e-9)


def test_without_a_reset_line_the_meter_at_a_hit_is_the_stationary_meter():
    text = (DATA / "progressive-quads.toml").read_text()
    text = text.replace(
        "four_of_a_kind = { meter_bp = 10000 }", "four_of_a_kind = { meter_bp = 5000 }"
    )
    fig = ProgressiveFigures.of(parse_paytable(text).progressive)
    drain = fig.probability(HandCategory.FOUR_OF_A_KIND) / 2
    drain += fig.probability(HandCategory.FULL_HOUSE) / 20
    assert fig.expected_meter_at_top() == 25 / drain
    assert fig.reset_probability == 0 and fig.reserve_cover == 0


def test_the_curve_levels_span_reset_to_ceiling_with_the_break_even():
    fig = ProgressiveFigures.of(EXAMPLE)
    levels = fig.curve_levels()
    assert levels[0] == EXAMPLE.reset and int(fig.break_even) in levels
    assert levels[-1] <= EXAMPLE.ceiling
    d = fig.to_dict()
    assert [p["meter"] for p in d["return_curve"]] == levels
    assert d["lines"][0] == {
        "hand": "royal_flush",
        "count": 4,
        "probability": 4 / 2_598_960,
        "meter_bp": 10_000,
        "cents": None,
    }
