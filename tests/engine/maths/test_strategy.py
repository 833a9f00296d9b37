"""Strategies: the published rules on examples, and scalar against vectorised forms."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.hands.evaluator import evaluate, evaluate_batch
from engine.maths.optimal import OptimalStrategy, flop_values, river_terms, river_values
from engine.maths.par_eval import board_plus_one, dealer_outs
from engine.maths.par_flop import FlopContext, dealer_counts, main_params, optimal_decisions
from engine.maths.par_tables import FULL_DECK, deck_symmetry
from engine.maths.strategies import STRATEGIES, get_strategy
from engine.maths.strategy import (
    count_dealer_outs,
    hidden_pair_or_better,
    simple_flop_raises,
    simple_river_plays,
)
from engine.rng import SeededRandomSource, shuffled_deck
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from engine.uth.round import Action, Phase, UthRound

STANDARD = load_paytable(PAYTABLE_DIR / "standard.toml")
SIMPLE = STRATEGIES["simple"]


@pytest.fixture(autouse=True, scope="module")
def _private_par_cache(tmp_path_factory):
    """Keep the tests' results out of the user's PAR cache (and its stale results out of them)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UTH_PAR_CACHE", str(tmp_path_factory.mktemp("par-cache")))
        yield


def hand(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


# -- the simple chart ---------------------------------------------------------------------------

RAISE = ["As 2d", "3c 3d", "Ks 2s", "Kc 5d", "Qh 6h", "Qc 8d", "Jd 8d", "Jc Td", "Ah Kh"]
CHECK = ["2c 2d", "Kc 4d", "Qh 5h", "Qc 7d", "Jd 7d", "Jc 9d", "Tc 9c", "7c 2d"]


@pytest.mark.parametrize("cards", RAISE)
def test_simple_raises_4x(cards):
    assert SIMPLE.preflop_one(hand(cards)) == 4


@pytest.mark.parametrize("cards", CHECK)
def test_simple_checks(cards):
    assert SIMPLE.preflop_one(hand(cards)) == 0


def test_simple_chart_size():
    """33+, any ace, K2s+, K5o+, Q6s+, Q8o+, J8s+, JTo: 69 of the 169 hands, 500 of 1,326."""
    sym = deck_symmetry()
    multiples = SIMPLE.preflop_batch(sym.class_reps)
    assert int((multiples == 4).sum()) == 69
    assert int(sym.class_sizes[multiples == 4].sum()) == 500


@pytest.mark.parametrize(
    "hole, flop, raises",
    [
        ("As Kd", "Ah 7c 2d", True),  # hidden pair
        ("9s 9d", "Kh 7c 2d", True),  # pocket pair
        ("2s 2d", "Kh 7c 4d", False),  # pocket deuces do not count
        ("2s 2d", "2h 7c 4d", True),  # ...but a set is better than two pair
        ("As Kd", "Qh Qc 2d", False),  # a board pair is not a hidden pair
        ("7s 2d", "7h 2c Kd", True),  # two pair
        ("As 3s", "Ks 7s 2d", True),  # four to a flush with the ace of that suit
        ("Ts 3d", "Ks 7s 2s", True),  # ten of the suit
        ("9s 3d", "Ks 7s 2s", False),  # nine is too low
        ("Ad 9s", "Ks 7s 2s", False),  # the high card is not of the suit
        ("As Kd", "Qh Jc Td", True),  # a straight is better than two pair
        ("Kd Qc", "7h 7c 7d", True),  # trips on the board: the five cards are three of a kind
    ],
)
def test_simple_flop_examples(hole, flop, raises):
    assert simple_flop_raises(hand(hole), hand(flop)) is raises
    assert bool(SIMPLE.flop_batch(np.array([hand(hole)]), np.array([hand(flop)]))[0]) is raises


def test_dealer_outs_by_hand():
    board = hand("2c 2d 7h 9s Jc")
    # A-K: deuces with A-K-J.  Outs: a 7, 9 or J (two pair, 9 cards) and a deuce (2): 11.
    assert count_dealer_outs(hand("Ac Kd"), board) == 11
    assert simple_river_plays(hand("Ac Kd"), board) is True
    # 4-3: deuces with J-9-7.  Also every A, K, Q, T, 8 (20 cards) beats it: 31 outs;
    # a 6, 5, 4 or 3 only ties.
    assert count_dealer_outs(hand("4c 3d"), board) == 31
    assert simple_river_plays(hand("4c 3d"), board) is False
    assert simple_river_plays(hand("7c 3d"), board) is True  # hidden pair


def test_hidden_pair_or_better_needs_the_players_cards():
    board = hand("Ts Js Qs Ks 2d")
    assert hidden_pair_or_better(hand("3s 4d"), board)  # flush with own card
    assert not hidden_pair_or_better(hand("3c 4d"), hand("Ts Jd Qs Kh Ac"))  # board straight plays
    assert hidden_pair_or_better(
        hand("9c 4d"), hand("Ts Jd Qs Kh 2c")
    )  # own nine makes the straight


# -- scalar and vectorised forms agree ------------------------------------------------------------


def random_deals(n: int, seed: int) -> np.ndarray:
    rng = SeededRandomSource(seed)
    return np.array([shuffled_deck(rng)[:9] for _ in range(n)])


@pytest.mark.parametrize("name", ["simple", "cautious"])
def test_rule_strategies_scalar_equals_vectorised(name):
    s = STRATEGIES[name]
    deals = random_deals(3000, 7)
    holes, boards = deals[:, :2], deals[:, 2:7]
    pre = s.preflop_batch(holes)
    flop = s.flop_batch(holes, boards[:, :3])
    river = s.river_batch(holes, boards)
    known = s.river_batch_known(holes, boards, evaluate_batch(np.concatenate([holes, boards], 1)))
    assert np.array_equal(river, known)
    for i in range(len(deals)):
        h, b = tuple(holes[i]), tuple(boards[i])
        assert s.preflop_one(h) == pre[i]
        assert s.flop_one(h, b[:3]) == flop[i]
        assert s.river_one(h, b) == river[i], (h, b)
    assert 0.3 < river.mean() < 0.95  # both branches are exercised


def test_outs_batch_equals_brute_force_with_flush_boards():
    rng = np.random.default_rng(3)
    rows = []
    for _ in range(400):
        rows.append(rng.permutation(52)[:7])
    for _ in range(200):  # boards with four or five cards of one suit
        suit = rng.integers(4)
        suited = [4 * r + suit for r in rng.permutation(13)[:5]]
        k = rng.integers(4, 6)
        board = suited[:k] + [c for c in rng.permutation(52) if c not in suited][: 5 - k]
        hole = [c for c in rng.permutation(52) if c not in board][:2]
        rows.append(np.array(hole + board))
    cards = np.array(rows)
    holes, boards = cards[:, :2], cards[:, 2:]
    mine = evaluate_batch(cards)
    got = dealer_outs(holes, boards, mine)
    for i in range(len(cards)):
        assert got[i] == count_dealer_outs(tuple(holes[i]), tuple(boards[i])), cards[i]
    plus = board_plus_one(boards)
    for i in range(0, len(cards), 7):
        for c in range(52):
            if c not in boards[i]:
                assert plus[i, c] == evaluate(list(boards[i]) + [c])


def test_decide_on_a_real_round():
    for seed in range(30):
        deck = shuffled_deck(SeededRandomSource(seed))
        rnd = UthRound(STANDARD, deck)
        rnd.place_bets(1, 1000)
        rnd.deal()
        while rnd.to_act():
            view = rnd.view(1)
            action = SIMPLE.decide(view)
            assert action in view.legal
            assert action == SIMPLE.decide(view)  # pure
            if view.phase == Phase.RIVER:
                assert action in (Action.PLAY_1X, Action.FOLD)
            rnd.act(1, action)
        assert rnd.outcome() is not None


# -- optimal: exact values against a direct enumeration ------------------------------------------


def test_optimal_river_and_flop_decisions_of_the_flop_kernel():
    """The kernel's (board, hand) river decisions and per-hand flop decisions on a full-deck
    flop agree with direct enumeration of the dealer hands (and turn-river pairs)."""
    params = main_params(STANDARD)
    flop = hand("Kh 8s 5s")
    ctx = FlopContext(flop, FULL_DECK)
    river_play, flop_bet = optimal_decisions(ctx, dealer_counts(ctx, params.qualify), params)
    rng = np.random.default_rng(11)
    b_idx, i_idx = np.nonzero(ctx.valid)
    pick = rng.choice(len(b_idx), 300, replace=False)
    holes, boards = ctx.holes[i_idx[pick]], ctx.boards[b_idx[pick]]
    A, C, fold = river_terms(holes, boards, params)
    assert np.array_equal(A + C > fold, river_play[b_idx[pick], i_idx[pick]])
    assert 0 < (A + C > fold).mean() < 1
    opt = OptimalStrategy(STANDARD)
    for i in rng.choice(ctx.fi.n_pairs, 3, replace=False):
        bet2, check = flop_values(tuple(ctx.holes[i]), flop, params)
        assert (bet2 > check) == flop_bet[i]
        assert opt.flop_one(tuple(ctx.holes[i]), flop) == flop_bet[i]


def test_optimal_river_scalar_equals_batch():
    opt = OptimalStrategy(STANDARD)
    deals = random_deals(40, 5)
    holes, boards = deals[:, :2], deals[:, 2:7]
    batch = opt.river_batch(holes, boards)
    for i in range(len(deals)):
        play, fold = river_values(
            tuple(holes[i]), tuple(boards[i]), params := main_params(STANDARD)
        )
        assert (play > fold) == batch[i] == opt.river_one(tuple(holes[i]), tuple(boards[i]))
    assert params.scale == 2


def test_river_values_by_hand():
    """Nuts on the river: every dealer hand loses or ties; the Blind pays the straight flush."""
    hole, board = hand("9h 8h"), hand("7h 6h 5h 2c 2d")
    params = main_params(STANDARD)
    play, fold = river_values(hole, board, params)
    # 990 dealer hands; ties impossible (no dealer straight flush 9-high with these cards)
    nd = 990
    D = params.scale
    # win against all: Ante 1 if dealer qualifies (board pair: always) + Blind 50 + Play 1
    assert play == D * nd * (1 + 50 + 1)
    assert fold == -2 * D * nd


def test_get_strategy():
    assert get_strategy("simple") is SIMPLE
    assert isinstance(get_strategy("optimal", STANDARD), OptimalStrategy)
    with pytest.raises(ValueError, match="unknown strategy"):
        get_strategy("reckless")
