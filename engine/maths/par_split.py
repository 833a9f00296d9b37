"""A flop whose optimal decisions depend on the Blind's pays, split into what does and what not.

On such a flop (see :func:`engine.maths.par_flop.pay_dependent`) only a few boards (one
per orbit of the flop's own suit symmetries is kept: ``rows``) hold a spot whose river
decision depends on the pays: on the full deck, the boards of four of a kind.  Every
other board's river decisions, counts and share of each hand's 2x-or-check comparison
are the same for every paytable of the dealer qualifier.

:func:`split_flop` computes, once per qualifier, that pay-independent part: for each
hand, what 2x returns more than checking over the other boards (``delta``, in Antes
times dealer hands), and bounds on what the few boards can add whatever the pays.  A
hand whose decision those bounds settle keeps it (``fixed_bet``) and its counts are
summed with the baseline's; only the others (``variable``) keep their counts here.
:func:`evaluate_split` then analyses the few boards for one paytable (a sparse
context: only the four-card sets they need are evaluated) and returns the flop's counts
and 2x decisions: the integers a whole analysis of the flop gives.

Per spot, with ``X`` of :func:`engine.maths.par_flop.river_margins` and ``C`` of
:func:`engine.maths.par_flop.spot_values` (scaled by ``D``): raising 2x beats checking
by ``C / D`` when the river is played and by ``C / D + X + b W`` when it is folded
(``b >= 0`` the Blind's pay, in Antes), which lies between ``C / D + min(X, 0)`` and
``C / D`` whatever ``b``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from engine.hands.categories import HandCategory, category_floors
from engine.hands.evaluator import evaluate_batch
from engine.maths.par_flop import (
    N_CATEGORIES,
    N_OUTCOMES,
    DealerCounts,
    FlopContext,
    MainParams,
    board_sum,
    dealer_counts,
    flop_cells,
    river_margins,
    six_card_ranks,
    spot_values,
)
from engine.maths.par_tables import board_orbits

_STRAIGHT_FLOOR = category_floors()[HandCategory.STRAIGHT]
N_CELLS = N_CATEGORIES * N_OUTCOMES


class SparseFlopContext(FlopContext):
    """A :class:`FlopContext` for a few board rows: only the four-card sets that their
    strengths and six-card ranks read are evaluated (the rest of ``e4`` stays 0)."""

    @cached_property
    def _triples(self) -> np.ndarray:
        fi = self.fi
        both = np.concatenate([self._r(fi.g1_triple).ravel(), self._r(fi.g2_triple).ravel()])
        t = np.unique(both)
        return t[t < len(fi.triples)]

    @cached_property
    def e4(self) -> np.ndarray:
        fi = self.fi
        need = np.unique(
            np.concatenate([self._r(fi.quad).ravel(), fi.g_quad[self._triples].ravel()])
        )
        need = need[need < len(fi.quads)]
        cards = np.empty((len(need), 7), np.uint8)
        cards[:, :3] = self.flop
        cards[:, 3:] = self.rem[fi.quads[need]]
        out = np.zeros(len(fi.quads) + 1, np.uint16)
        out[need] = evaluate_batch(cards)
        return out

    def six_card_terms(self, qualify: int) -> np.ndarray:
        fi, m = self.fi, self.m
        g = six_card_ranks(self.e4[fi.g_quad[self._triples]], qualify)
        pos = np.zeros(len(fi.triples) + 1, np.intp)
        pos[self._triples] = np.arange(len(self._triples))
        g1, g2 = self._r(fi.g1), self._r(fi.g2)
        pg = g[pos[g1 // m] * m + g1 % m]
        pg += g[pos[g2 // m] * m + g2 % m]
        return pg


@dataclass(frozen=True)
class SplitFlop:
    """The pay-independent part of one pay-dependent flop (hands by local pair index).

    ``rows``/``weights``: the boards with a pay-dependent spot, one per orbit, and the
    orbit sizes.  ``fixed_bet[i]``: the 2x decision of a hand not in ``variable``.
    ``variable``: the hands whose decision depends on the pays, with ``delta`` (2x less
    check over the other boards, Antes times dealer hands) and ``cells`` (``(V, 2, 60)``:
    their counts over the other boards by river decision, times the flop's class size).
    ``fixed_counts``: the counts over the other boards of the other hands, as rows
    ``class * 3 + multiple`` (``(classes * 3, 60)``, times the flop's class size).
    """

    rows: np.ndarray
    weights: np.ndarray
    fixed_bet: np.ndarray
    variable: np.ndarray
    delta: np.ndarray
    cells: np.ndarray
    fixed_counts: np.ndarray


def _orbits(
    flop: tuple[int, int, int], deck: tuple[int, ...], card_maps: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows, weights, perms = board_orbits(flop, deck, card_maps)
    if len(perms) == 1:
        n = perms.shape[1]
        return np.arange(n, dtype=np.intp), np.ones(n, np.int64), perms
    return rows, weights, perms


def _dependent_spots(ctx: FlopContext, dc: DealerCounts, qualify: int) -> np.ndarray:
    X = river_margins(ctx.strength.astype(np.int64), dc.W, dc.T, dc.NQ, qualify, ctx.n_dealer)
    return (ctx.strength >= _STRAIGHT_FLOOR) & ctx.valid & (dc.W > 0) & (X <= 0)


def _gain(ctx: FlopContext, dc: DealerCounts, params: MainParams) -> tuple[np.ndarray, np.ndarray]:
    """Per spot: what 2x returns more than checking (scaled), and the river decision."""
    A, C, fold = spot_values(ctx, dc, params)
    A, C = A.astype(np.int64), C.astype(np.int64)
    play1 = A + C
    river_play = play1 > fold
    gain = A + 2 * C - np.maximum(play1, fold)
    gain *= ctx.valid_i32
    return gain, river_play


def _rows_of(hand_class: np.ndarray, bet: np.ndarray) -> np.ndarray:
    """Count rows ``class * 3 + multiple`` of each hand's (fold, play) river cells."""
    mp = np.where(bet[:, None], 2, np.array([[0, 1]]))
    return hand_class[:, None] * 3 + mp


def split_flop(
    flop: tuple[int, int, int],
    deck: tuple[int, ...],
    params: MainParams,
    card_maps: np.ndarray,
    flop_weight: int,
    hand_class: np.ndarray,
    n_classes: int,
) -> SplitFlop:
    """Split a pay-dependent flop (any paytable of the qualifier: the result is the same).

    ``hand_class``: the class of each local hand; ``flop_weight``: the flop's class size.
    """
    rows, weights, perms = _orbits(flop, deck, card_maps)
    ctx = FlopContext(flop, deck, rows, weights)
    dc = dealer_counts(ctx, params.qualify)
    D = params.scale
    dep_row: np.ndarray = np.asarray(_dependent_spots(ctx, dc, params.qualify).any(axis=1))
    gain, river_play = _gain(ctx, dc, params)
    other = np.where(dep_row[:, None], 0, gain)
    base = board_sum(other, ctx, perms)
    if (base % D).any():
        raise AssertionError("the Blind's pays do not cancel on a board without a dependent spot")
    base //= D
    C = (2 * dc.W.astype(np.int64) + dc.T - ctx.n_dealer) * ctx.valid_i32
    X = river_margins(
        ctx.strength.astype(np.int64), dc.W, dc.T, dc.NQ, params.qualify, ctx.n_dealer
    )
    low = np.where(dep_row[:, None], C + np.minimum(X, 0) * ctx.valid_i32, 0)
    high = np.where(dep_row[:, None], C, 0)
    bet_now = base * D + board_sum(np.where(dep_row[:, None], gain, 0), ctx, perms) > 0
    sure_bet = base + board_sum(low, ctx, perms) > 0
    sure_check = base + board_sum(high, ctx, perms) <= 0
    if (sure_bet & ~bet_now).any() or (sure_check & bet_now).any():
        raise AssertionError("a flop decision outside its bounds")
    variable = np.flatnonzero(~(sure_bet | sure_check))
    cells = flop_cells(
        ctx, dc, river_play, params.qualify_category, np.where(dep_row, 0, ctx.weights)
    ).reshape(len(hand_class), 2, N_CELLS)
    cells *= flop_weight
    fixed = np.ones(len(hand_class), bool)
    fixed[variable] = False
    fixed_counts = np.zeros((n_classes * 3, N_CELLS), np.int64)
    np.add.at(
        fixed_counts,
        _rows_of(hand_class, sure_bet)[fixed].ravel(),
        cells[fixed].reshape(-1, N_CELLS),
    )
    return SplitFlop(
        rows=ctx.rows[dep_row].copy(),
        weights=ctx.weights[dep_row].copy(),
        fixed_bet=sure_bet,
        variable=variable.astype(np.int64),
        delta=base[variable].astype(np.int64),
        cells=cells[variable].copy(),
        fixed_counts=fixed_counts,
    )


def evaluate_split(
    flop: tuple[int, int, int],
    deck: tuple[int, ...],
    params: MainParams,
    card_maps: np.ndarray,
    split: SplitFlop,
    flop_weight: int,
    hand_class: np.ndarray,
    n_classes: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The flop's counts for ``params`` less ``split.fixed_counts`` (``(classes * 3, 60)``,
    times the flop's class size) and every hand's 2x decision."""
    _, _, perms = _orbits(flop, deck, card_maps)
    ctx = SparseFlopContext(flop, deck, split.rows, split.weights)
    dc = dealer_counts(ctx, params.qualify)
    gain, river_play = _gain(ctx, dc, params)
    bet = split.fixed_bet.copy()
    v = split.variable
    bet[v] = split.delta * params.scale + board_sum(gain, ctx, perms)[v] > 0
    cells = flop_cells(ctx, dc, river_play, params.qualify_category)
    cells = cells.reshape(len(hand_class), 2, N_CELLS) * flop_weight
    out = np.zeros((n_classes * 3, N_CELLS), np.int64)
    np.add.at(out, _rows_of(hand_class, bet).ravel(), cells.reshape(-1, N_CELLS))
    np.add.at(out, _rows_of(hand_class[v], bet[v]).ravel(), split.cells.reshape(-1, N_CELLS))
    return out, bet
