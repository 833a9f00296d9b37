"""The exact analysis on reduced decks, against a brute-force enumeration of every deal.

A reduced deck (some ranks, some suits) keeps every rule of the game and every step of
the analysis (suit symmetry, flop classes, counting by inclusion-exclusion, strategy
rules) but is small enough to deal out in full: every player hand, board and dealer
hand, compared one by one.  The brute force below shares nothing with the analysis
except the evaluator and the strategies' vectorised rules.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import pytest

from engine.hands.categories import HandCategory
from engine.hands.evaluator import category_batch, evaluate_batch
from engine.maths.par import main_analysis
from engine.maths.par_report import cell_values
from engine.maths.par_tables import pair_index52
from engine.maths.strategies import get_strategy
from engine.uth.paytable import PAYTABLE_DIR, load_paytable

STANDARD = load_paytable(PAYTABLE_DIR / "standard.toml")
# 2, 3, 4, 5, 7 in clubs, diamonds, hearts: three of a kind and full houses, never a
# straight (S3 symmetry).
DECK_TRIPS = tuple(sorted(4 * r + s for r in (0, 1, 2, 3, 5) for s in range(3)))
# 7..A in clubs and diamonds: high-card hands, so dealers who do not qualify; flushes,
# straight flushes, straights.
DECK_NQ = tuple(sorted(4 * r + s for r in range(5, 13) for s in range(2)))
# J..A in all four suits: four of a kind; all 24 suit symmetries.
DECK_QUADS = tuple(sorted(4 * r + s for r in range(9, 13) for s in range(4)))
DECKS = {"3x5": DECK_TRIPS, "2x8": DECK_NQ, "4x4": DECK_QUADS}

WQ, WNQ, PQ, PNQ, LQ, LNQ = range(6)


_BIN = np.array([[comb(v, j) for j in range(6)] for v in range(64)], np.int64)


@pytest.fixture(autouse=True, scope="module")
def _private_par_cache(tmp_path_factory):
    """Keep the tests' results out of the user's PAR cache (and its stale results out of them)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UTH_PAR_CACHE", str(tmp_path_factory.mktemp("par-cache")))
        yield


def _lex5(rows: np.ndarray, n: int) -> np.ndarray:
    """Index of each sorted 5-subset in ``combinations(range(n), 5)`` order (via a lookup)."""
    return _LEX[n][tuple(np.sort(rows, axis=-1)[..., j] for j in range(5))]


class _Lex(dict):
    def __missing__(self, n):
        table = np.full((n,) * 5, -1, np.int64)
        for i, c in enumerate(combinations(range(n), 5)):
            table[c] = i
        self[n] = table
        return table


_LEX = _Lex()


@cache
def river_table(deck: tuple[int, ...], qualify: int) -> dict[str, np.ndarray]:
    """For every (player hand, board): strength and the six outcome counts over dealer hands."""
    d = np.array(deck)
    n = len(d)
    hands = np.array(list(combinations(range(n), 2)))
    boards = np.array(list(combinations(range(n), 5)))
    H, B = len(hands), len(boards)
    strength = np.zeros((H, B), np.int32)
    out = np.full((H, B, 6), -1, np.int64)
    dealer_pos = np.array(list(combinations(range(n - 7), 2)))
    for h, (a, b) in enumerate(hands):
        ok = ~((boards == a) | (boards == b)).any(axis=1)
        bi = np.flatnonzero(ok)
        bl = boards[bi]
        mine = evaluate_batch(
            np.concatenate([np.broadcast_to(d[[a, b]], (len(bl), 2)), d[bl]], 1).astype(np.uint8)
        )
        strength[h, bi] = mine
        used = np.zeros((len(bl), n), bool)
        used[np.arange(len(bl))[:, None], bl] = True
        used[:, [a, b]] = True
        left = np.flatnonzero(~used.ravel()).reshape(len(bl), n - 7) % n
        dealer = left[:, dealer_pos]  # (nb, nd, 2)
        cards = np.concatenate(
            [np.broadcast_to(bl[:, None, :], (*dealer.shape[:2], 5)), dealer], axis=2
        )
        theirs = (
            evaluate_batch(d[cards.reshape(-1, 7)].astype(np.uint8))
            .reshape(dealer.shape[:2])
            .astype(np.int32)
        )
        v = mine.astype(np.int32)[:, None]
        q = theirs >= qualify
        out[h, bi] = np.stack(
            [
                ((theirs < v) & q).sum(1),
                ((theirs < v) & ~q).sum(1),
                ((theirs == v) & q).sum(1),
                ((theirs == v) & ~q).sum(1),
                ((theirs > v) & q).sum(1),
                ((theirs > v) & ~q).sum(1),
            ],
            axis=1,
        )
    return {"strength": strength, "counts": out, "hands": hands, "boards": boards}


def brute_force(table, strategy_name: str, deck: tuple[int, ...]):
    """Game cell counts (5, 10, 6) and per-hand option EVs, by dealing everything out."""
    from engine.maths.par_flop import main_params

    params = main_params(table)
    rt = river_table(deck, params.qualify)
    d = np.array(deck)
    n = len(d)
    hands, counts, strength = rt["hands"], rt["counts"], rt["strength"]
    cat = category_batch(np.maximum(strength, 1))
    D = params.scale
    pays = np.array(params.blind_scaled, np.int64)
    W = counts[..., WQ] + counts[..., WNQ]
    L = counts[..., LQ] + counts[..., LNQ]
    # Ante pushes against a dealer who does not qualify, even when the dealer wins
    A = D * counts[..., WQ] + pays[cat] * W - 2 * D * counts[..., LQ] - D * counts[..., LNQ]
    C = D * (W - L)
    nd = comb(n - 7, 2)
    fold = -2 * D * nd
    strat = None if strategy_name == "optimal" else get_strategy(strategy_name)
    values = cell_values(table)
    net = np.array(
        [
            [
                [
                    float(
                        values["ante"][m][k][o]
                        + values["blind"][m][k][o]
                        + values["play"][m][k][o]
                        - 2
                        - m
                    )
                    for o in range(6)
                ]
                for k in range(10)
            ]
            for m in range(5)
        ]
    )
    assert all(float(x) == x for x in net.ravel() * 2)  # halves at worst: exact in float
    flop_pos = np.array(list(combinations(range(n - 2), 3)))
    tr_pos = np.array(list(combinations(range(n - 5), 2)))
    F, T = len(flop_pos), len(tr_pos)
    game = np.zeros((5, 10, 6), np.int64)
    evs = {}
    for h in range(len(hands)):
        a, b = hands[h]
        hole = d[[a, b]]
        rest = np.array([c for c in range(n) if c not in (a, b)])
        used = np.zeros((F, n - 2), bool)
        used[np.arange(F)[:, None], flop_pos] = True
        left = np.flatnonzero(~used.ravel()).reshape(F, n - 5) % (n - 2)
        full = np.concatenate(
            [np.broadcast_to(flop_pos[:, None, :], (F, T, 3)), left[:, tr_pos]], axis=2
        )
        full = rest[full]  # (F, T, 5) deck-local cards
        bi = _lex5(full, n)
        Ah, Ch = A[h, bi], C[h, bi]
        if strat is None:
            river = Ah + Ch > fold
            flop = (Ah + 2 * Ch).sum(axis=1) > np.maximum(Ah + Ch, fold).sum(axis=1)
        else:
            boards = d[full.reshape(-1, 5)]
            river = strat.river_batch(
                np.broadcast_to(hole, (len(boards), 2)), boards, deck=deck
            ).reshape(F, T)
            flop = strat.flop_batch(np.broadcast_to(hole, (F, 2)), d[rest[flop_pos]])
        mult = np.where(flop[:, None], 2, np.where(river, 1, 0))  # (F, T)
        key = (mult * 10 + cat[h, bi]).ravel()
        cells = counts[h, bi].reshape(-1, 6)
        check = np.stack(
            [np.bincount(key, weights=cells[:, o], minlength=30) for o in range(6)], axis=1
        )
        check = check.round().astype(np.int64).reshape(3, 10, 6)
        raised = check.sum(axis=0)
        denom = F * T * nd
        ev = {
            "4x": Fraction(int((raised * net[4] * 2).sum()), 2 * denom),
            "3x": Fraction(int((raised * net[3] * 2).sum()), 2 * denom),
            "check": Fraction(int((check * net[:3] * 2).sum()), 2 * denom),
        }
        evs[(int(min(hole)), int(max(hole)))] = ev
        if strat is None:
            m = 4 if ev["4x"] > max(ev["3x"], ev["check"]) else (3 if ev["3x"] > ev["check"] else 0)
        else:
            m = int(strat.preflop_batch(hole[None, :])[0])
        if m:
            game[m] += raised
        else:
            game[:3] += check
    return game, evs


def _hand_of(name_rep: np.ndarray) -> tuple[int, int]:
    a, b = int(name_rep[0]), int(name_rep[1])
    return (min(a, b), max(a, b))


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
@pytest.mark.parametrize("strategy", ["optimal", "simple", "cautious"])
def test_analysis_equals_brute_force(deck, strategy):
    analysis = main_analysis(STANDARD, strategy, deck=deck, workers=1, use_cache=False)
    game, evs = brute_force(STANDARD, strategy, deck)
    np.testing.assert_array_equal(analysis.game_counts(), game)
    values = cell_values(STANDARD)
    per_class = analysis.option_ev(values)
    for hand, want in evs.items():
        c = analysis.hand_class[pair_index52(hand[0], hand[1])]
        assert per_class[c] == want, (analysis.class_names[c], per_class[c], want)


def test_reduced_decks_cover_what_they_claim():
    from engine.hands.categories import category_floors

    pair = category_floors()[HandCategory.PAIR]
    nq = river_table(DECK_NQ, pair)["counts"]
    assert nq[..., [WNQ, PNQ, LNQ]].max() > 0  # non-qualifying dealers occur
    seen = set()
    for deck in DECKS.values():
        s = river_table(deck, pair)["strength"]
        seen |= set(category_batch(s[s > 0]).tolist())
    assert seen == set(HandCategory)


def test_parallel_workers_give_the_same_counts():
    one = main_analysis(STANDARD, "optimal", deck=DECK_NQ, workers=1, use_cache=False)
    two = main_analysis(STANDARD, "optimal", deck=DECK_NQ, workers=2, use_cache=False)
    np.testing.assert_array_equal(one.check_counts, two.check_counts)
    np.testing.assert_array_equal(one.flop_bits, two.flop_bits)
