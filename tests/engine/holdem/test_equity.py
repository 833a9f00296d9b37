"""engine.holdem.equity: Monte-Carlo equity against unknown cards, the equity assist."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.holdem.bots import CHEN_TABLE
from engine.holdem.equity import ASSIST_SAMPLES, EquityAssist, estimate_equity, pot_odds
from engine.holdem.hand import HoldemHand
from engine.rng import SeededRandomSource


def test_seed_pot_odds_example() -> None:
    """ "If calling costs 100 to win a pot of 300, you put in 100 to end up with 400, so the
    call pays off in the long run if you win more than 100 ÷ 400 = 25% of the time." """
    assert pot_odds(100, 300) == 0.25
    assert pot_odds(0, 300) == 0.0


@pytest.mark.parametrize(
    ("hole", "opponents", "expected"),
    [("AsAd", 1, 0.852), ("AsAd", 5, 0.492), ("7c2d", 1, 0.346), ("AhKh", 1, 0.670)],
)
def test_preflop_equities_match_published_values(
    hole: str, opponents: int, expected: float
) -> None:
    e = estimate_equity(parse_cards(hole), [], opponents, samples=20_000, rng=7)
    assert abs(e.equity - expected) < 0.012


def test_board_that_plays_is_a_tie_for_everyone() -> None:
    e = estimate_equity(parse_cards("2c3d"), parse_cards("AdKdQdJdTd"), 3, samples=500, rng=1)
    assert e.tie == 1.0 and e.win == 0.0 and e.equity == pytest.approx(0.25)


def test_nuts_on_the_river_always_wins() -> None:
    e = estimate_equity(parse_cards("AdKd"), parse_cards("QdJdTd2c3h"), 4, samples=300, rng=1)
    assert e.win == 1.0 and e.equity == 1.0


def test_reproducible_with_a_seed_or_random_source() -> None:
    a = estimate_equity(parse_cards("QsJs"), parse_cards("Ts9d2c"), 2, samples=400, rng=5)
    b = estimate_equity(parse_cards("QsJs"), parse_cards("Ts9d2c"), 2, samples=400, rng=5)
    c = estimate_equity(
        parse_cards("QsJs"), parse_cards("Ts9d2c"), 2, samples=400, rng=SeededRandomSource(5)
    )
    assert a == b and 0 < c.equity < 1


def test_ranges_make_opponents_stronger() -> None:
    hole = parse_cards("AsJd")
    wide = estimate_equity(hole, [], 1, samples=6000, rng=np.random.default_rng(3))
    tight = estimate_equity(
        hole,
        [],
        1,
        samples=6000,
        rng=np.random.default_rng(3),
        hand_scores=CHEN_TABLE,
        min_scores=[9],
    )
    assert tight.equity < wide.equity - 0.1


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="twice"):
        estimate_equity(parse_cards("AsAd"), parse_cards("As2c3d"), 1, samples=10)
    with pytest.raises(ValueError, match="two hole cards"):
        estimate_equity(parse_cards("As"), [], 1, samples=10)


def test_assist_recomputes_only_when_cards_come_out_or_someone_folds() -> None:
    assist = EquityAssist(rng=1)
    assert assist.samples == ASSIST_SAMPLES == 1500
    hand = HoldemHand([1000] * 4, 0, 10, 20, rng=SeededRandomSource(2))
    me = 0
    first = assist.update(hand.view(me))
    assert first is not None and first.samples == 1500 and first.opponents == 3
    hand.call()  # seat 3 calls: no new card, nobody folded
    assert assist.update(hand.view(me)) is first and assist.computations == 1
    hand.call()  # me
    hand.fold()  # the small blind folds -> recomputed against two
    second = assist.update(hand.view(me))
    assert assist.computations == 2 and second.opponents == 2
    hand.check()  # the flop comes -> recomputed
    assert assist.update(hand.view(me)).opponents == 2 and assist.computations == 3
