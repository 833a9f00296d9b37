"""Game-level tests on dealt decks (what bit batteries cannot see): 25 CFR 547.14's list.

Every test reads a :class:`engine.rng_tests.tally.GameTally` (the counts over decks in
deal order) and returns a :class:`GameTest`; a test passes at the 99% level
(``p >= ALPHA``).  The per-position and per-seat tests also keep their p-values, which
should be uniform on a good shuffle.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from engine.hands.categories import SEVEN_CARD_COUNTS as PUBLISHED_SEVEN_CARD_COUNTS
from engine.hands.categories import HandCategory
from engine.rng_tests.stats import chi2_sf, normal_two_sided
from engine.rng_tests.tally import COUPON_LAST, GameTally
from engine.uth.round import HOLE_POSITIONS

#: The significance level: a test fails when its p-value is below it (99% confidence).
ALPHA = 0.01
#: Per-position p-values below ALPHA allowed out of 52 (P(Binomial(52, 0.01) > 4) < 0.2%).
POSITION_FAILS_ALLOWED = 4
#: Seven-card hands by category out of C(52, 7) = 133,784,560 (royal flush with the
#: straight flushes): high card .. straight flush.
SEVEN_CARD_COUNTS = (
    *(PUBLISHED_SEVEN_CARD_COUNTS[c] for c in HandCategory if c < HandCategory.STRAIGHT_FLUSH),
    PUBLISHED_SEVEN_CARD_COUNTS[HandCategory.STRAIGHT_FLUSH] + PUBLISHED_SEVEN_CARD_COUNTS[HandCategory.ROYAL_FLUSH],
)
#: The first deck position of each seat at a seven-seat table (engine.uth.round).
SEAT_FIRST_POSITIONS = tuple(HOLE_POSITIONS[seat][0] for seat in sorted(HOLE_POSITIONS))


@dataclass(frozen=True)
class GameTest:
    """One test's result: ``statistic`` (chi-square or |z|), ``df`` (0 for a z-test)."""

    name: str
    statistic: float
    df: int
    p_value: float
    passed: bool
    p_values: tuple[float, ...] = field(default_factory=tuple)
    detail: str = ""


def _chi2(observed: np.ndarray, expected: np.ndarray) -> float:
    return float(((observed - expected) ** 2 / expected).sum())


def _pooled(observed: np.ndarray, expected: np.ndarray, minimum: float = 5.0
            ) -> tuple[np.ndarray, np.ndarray]:
    """Merge classes from the end until each expected count is at least ``minimum``."""
    obs, exp = list(observed.astype(float)), list(expected.astype(float))
    while len(exp) > 2 and exp[-1] < minimum:
        exp[-2] += exp.pop()
        obs[-2] += obs.pop()
    return np.array(obs), np.array(exp)


def position_matrix(decks: np.ndarray) -> np.ndarray:
    """Counts (52 cards, 52 positions): how often each card lay at each position."""
    flat = np.asarray(decks).astype(np.int64) * 52 + np.arange(52)
    return np.bincount(flat.ravel(), minlength=52 * 52).reshape(52, 52)


def card_position(t: GameTally) -> GameTest:
    """Chi-square of the 52 x 52 card-by-position matrix: per position (df 51) and
    overall (df 51 x 51, the rows and columns both sum to n)."""
    counts = t.positions
    expected = t.decks / 52.0
    per = [chi2_sf(_chi2(counts[:, p], np.full(52, expected)), 51) for p in range(52)]
    stat = _chi2(counts, np.full((52, 52), expected))
    p = chi2_sf(stat, 51 * 51)
    fails = sum(q < ALPHA for q in per)
    return GameTest("card x position", stat, 51 * 51, p,
                    p >= ALPHA and fails <= POSITION_FAILS_ALLOWED, tuple(per),
                    f"{fails} of 52 positions below {ALPHA}")


def seat_first_card(t: GameTally) -> GameTest:
    """Each of the seven seats' first card against the uniform 1/52 (chi-square, df
    7 x 51)."""
    stat, per = 0.0, []
    for pos in SEAT_FIRST_POSITIONS:
        one = _chi2(t.positions[:, pos], np.full(52, t.decks / 52))
        per.append(chi2_sf(one, 51))
        stat += one
    df = 51 * len(SEAT_FIRST_POSITIONS)
    p = chi2_sf(stat, df)
    return GameTest("seat first card (7 seats)", stat, df, p, p >= ALPHA, tuple(per))


def dealer_category(t: GameTally) -> GameTest:
    """The dealer's seven-card category (two cards and the board) against the exact
    distribution of seven-card hands."""
    total = float(sum(SEVEN_CARD_COUNTS))
    expected = np.array(SEVEN_CARD_COUNTS) / total * t.decks
    order = np.argsort(-expected, kind="stable")  # pool the rare categories together
    obs, exp = _pooled(t.dealer_categories[order], expected[order])
    stat = _chi2(obs, exp)
    p = chi2_sf(stat, len(exp) - 1)
    return GameTest("dealer hand category", stat, len(exp) - 1, p, p >= ALPHA)


def pair_adjacency(t: GameTally) -> GameTest:
    """Ordered pairs of neighbouring cards: each of the 52 x 51 pairs expected n/52 times."""
    off = ~np.eye(52, dtype=bool)
    stat = _chi2(t.adjacency[off], np.full(52 * 51, t.decks / 52.0))
    df = 52 * 51 - 1
    p = chi2_sf(stat, df)
    return GameTest("card pair adjacency", stat, df, p, p >= ALPHA)


def serial_correlation(t: GameTally) -> GameTest:
    """Pearson correlation of every card's position in one deck and the next; under
    independence the mean over n - 1 pairs is N(0, 1 / (51 (n - 1)))."""
    pairs = max(t.serial_pairs, 1)
    mean = t.serial_r_sum / pairs
    z = float(mean * math.sqrt(51 * pairs))
    p = normal_two_sided(z)
    return GameTest("serial correlation between decks", abs(z), 0, p, p >= ALPHA,
                    detail=f"mean r = {mean:.2e}")


def runs_up(t: GameTally) -> GameTest:
    """Ascending runs in each deck: for a random permutation of 52 the count has mean
    53/2 and variance 53/12; the total over n decks is tested as a z-score."""
    n = t.decks
    z = float((t.runs_total - n * 26.5) / math.sqrt(n * 53 / 12))
    p = normal_two_sided(z)
    return GameTest("runs (ascending runs per deck)", abs(z), 0, p, p >= ALPHA)


def gap(t: GameTally) -> GameTest:
    """Gaps (decks between) successive appearances of each card on top of the deck:
    geometric with p = 1/52 on a good shuffle, cut short at the stream's end
    (:meth:`GameTally.gap_shape`); chi-square over gap lengths."""
    obs, exp = _pooled(t.gaps, t.gap_shape() * int(t.gaps.sum()))
    stat = _chi2(obs, exp)
    p = chi2_sf(stat, len(exp) - 1)
    return GameTest("gap (top card)", stat, len(exp) - 1, p, p >= ALPHA)


def coupon_probabilities(d: int, last: int) -> np.ndarray:
    """P(T = t) for t = d..last-1 and P(T >= last), T the draws to see all ``d``
    equally likely coupons."""
    state = np.zeros(d + 1)
    state[0] = 1.0
    out = []
    for _t in range(1, last):
        nxt = np.zeros(d + 1)
        nxt[1:] += state[:-1] * (d - np.arange(d)) / d
        nxt[:-1] += state[:-1] * np.arange(d) / d
        out.append(nxt[d])
        nxt[d] = 0.0
        state = nxt
    probs = np.array(out[d - 1:])
    return np.append(probs, 1 - probs.sum())


def coupon_collector(t: GameTally) -> GameTest:
    """Decks until the top card has shown all 13 ranks, against the exact distribution."""
    sets = int(t.coupons.sum())
    probs = coupon_probabilities(13, COUPON_LAST)
    obs, exp = _pooled(t.coupons, probs * sets)
    # pool the rare short sequences at the front too
    while len(exp) > 2 and exp[0] < 5:
        exp[1] += exp[0]
        obs[1] += obs[0]
        exp, obs = exp[1:], obs[1:]
    stat = _chi2(obs, exp)
    p = chi2_sf(stat, len(exp) - 1)
    return GameTest("coupon collector (13 ranks on top)", stat, len(exp) - 1, p, p >= ALPHA,
                    detail=f"{sets} complete sets")


#: Every game-level test, in report order.
GAME_TESTS: tuple[Callable[[GameTally], GameTest], ...] = (
    card_position, seat_first_card, dealer_category, pair_adjacency, serial_correlation,
    runs_up, gap, coupon_collector,
)


def game_results(tally: GameTally) -> list[GameTest]:
    """Every game-level test on the decks counted in ``tally``."""
    return [test(tally) for test in GAME_TESTS]


def run_game_tests(decks: np.ndarray) -> list[GameTest]:
    """Every game-level test on ``decks`` (n, 52), one stream in deal order."""
    tally = GameTally()
    tally.add(decks)
    return game_results(tally)
