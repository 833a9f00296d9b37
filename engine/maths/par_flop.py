"""The exact analysis of one flop: every turn-river pair, every player hand, every dealer hand.

For a flop ``F`` the ``m`` cards left (49 in a full deck) form ``P = comb(m, 2)`` pairs,
which are both the turn-river *boards* ``b`` and the player *hands* ``i``.  The seven
cards ``F + b + i`` are the same set as ``F + i + b``, so one evaluation per four-card
subset of the ``m`` cards (211,876) gives the player's strength ``S[b, i]`` for every
board and hand, and the dealer's: a dealer hand ``j`` on board ``b`` has strength
``S[b, j]``.

Counting the dealer hands that a hand ``i = (x, y)`` beats on board ``b`` without
looking at them one by one (inclusion-exclusion):

* rank ``S[b, i]`` among the whole row ``S[b, :]`` (all ``comb(m - 2, 2)`` hands on the
  board: 1,081);
* subtract the dealer hands that share ``x`` with the player: they are the completions
  ``z`` of the six-card set ``F + b + x``, ranked once per six-card set (18,424 of them);
* the same for ``y``.  The hand ``i`` itself is never below itself, so nothing is added
  back.  Ties and non-qualifying dealer hands are counted the same way.

That gives, per ``(b, i)``, the dealer hands (990) the player beats ``W``, ties ``T`` and
the non-qualifying ones ``NQ``, hence each outcome's count.  With Ante = Blind = 1 and a
Play of ``k`` Antes, the player's net return over those dealer hands is ``A + k * C``
with ``A = Wq + blind_pay * W - 2 * Lq - Lnq`` and ``C = W - L`` (``Wq``: wins against a
qualifying dealer; ``Lq`` / ``Lnq``: losses to a dealer who qualifies / does not: the
Ante pushes when the dealer does not qualify, whoever wins - seed 004, rule 4).  Everything is kept in integers, scaled by
the paytable's pay denominator: the analysis is exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, cached_property
from math import comb
from typing import Protocol

import numpy as np

from engine.hands.categories import HandCategory
from engine.hands.evaluator import category_batch, category_floors, evaluate_batch
from engine.maths.par_tables import FlopIndex, board_orbits, flop_index
from engine.uth.paytable import Paytable

#: Outcome columns of a count table: win / push / loss, each against a dealer who
#: qualifies (Q) or not (NQ).
WIN_Q, WIN_NQ, PUSH_Q, PUSH_NQ, LOSS_Q, LOSS_NQ = range(6)
N_OUTCOMES = 6
N_CATEGORIES = len(HandCategory)
_STRAIGHT_FLOOR = category_floors()[HandCategory.STRAIGHT]
_PACK = float(1 << 23)  # per-bin sums (x orbit size <= 6) stay below 2**23: two fit in a float64


@dataclass(frozen=True)
class MainParams:
    """What the main-bet analysis needs from a paytable, as exact integers.

    ``blind_scaled[k]`` is the Blind pay of category ``k`` times ``scale`` (0 when the
    Blind pushes); ``qualify`` the dealer's weakest qualifying strength and
    ``qualify_category`` its category.
    """

    scale: int
    blind_scaled: tuple[int, ...]
    qualify: int
    qualify_category: int

    @property
    def key(self) -> str:
        """A short text that changes whenever anything the main bets depend on changes."""
        return f"s{self.scale}-b{'.'.join(map(str, self.blind_scaled))}-q{self.qualify}"


def main_params(table: Paytable) -> MainParams:
    """The main-bet parameters of ``table``: the Blind lines and the dealer's qualifier."""
    lines = table.blind.lines()
    scale = math.lcm(*(p.denominator for p in lines.values()))
    scaled = [0] * N_CATEGORIES
    for cat, pay in lines.items():
        scaled[cat] = pay.numerator * (scale // pay.denominator)
    qc = int(table.dealer.category)
    return MainParams(scale, tuple(scaled), category_floors()[qc], qc)


@dataclass
class FlopResult:
    """Outcome counts of one flop, for every player hand (local pair index ``i``).

    ``cells[i, r, k, o]``: number of (board, dealer hand) combinations where the hand
    ends with category ``k`` and outcome ``o``, split by the river decision ``r``
    (0 fold, 1 play) that the strategy takes on that board.  ``flop_bet[i]``: whether
    the strategy bets 2x on this flop.  Folded cells still record the outcome the
    hand would have had (for the dealer-qualification figures).
    """

    cells: np.ndarray
    flop_bet: np.ndarray
    holes: np.ndarray  # (P, 2) global cards of each hand
    category_counts: np.ndarray  # seven-card categories of flop + 4 cards, over all 4-subsets
    pay_dependent: bool = False  # optimal play: a river decision depends on the Blind's pays


class FlopContext:
    """Everything known about one flop, for the kernel and for strategies' river rules.

    Arrays are ``(R, P)`` over the analysed boards ``b`` (rows: all ``P`` turn-river pairs,
    or one per orbit of the flop's own suit symmetries, see :func:`board_orbits`) and
    all hands ``i`` (columns), unless said.  ``rows`` are the boards' pair indices and
    ``weights`` how many boards each row stands for.
    """

    def __init__(
        self,
        flop: tuple[int, int, int],
        deck: tuple[int, ...],
        rows: np.ndarray | None = None,
        weights: np.ndarray | None = None,
    ) -> None:
        self.flop = tuple(int(c) for c in flop)
        self.deck = tuple(deck)
        in_deck = np.zeros(52, bool)
        in_deck[list(deck)] = True
        in_deck[list(self.flop)] = False
        self.rem = np.flatnonzero(in_deck).astype(np.int64)  # local -> global card
        self.m = len(self.rem)
        self.fi: FlopIndex = flop_index(self.m)
        self.n_dealer = comb(self.m - 4, 2)
        n_p = self.fi.n_pairs
        self.all_rows = rows is None
        self.rows = np.arange(n_p, dtype=np.intp) if rows is None else np.asarray(rows, np.intp)
        self.weights = (
            np.ones(len(self.rows), np.int64) if weights is None else np.asarray(weights, np.int64)
        )

    def _r(self, table: np.ndarray) -> np.ndarray:
        """``table`` restricted to the analysed board rows."""
        return table if self.all_rows else table[self.rows]

    @cached_property
    def e4(self) -> np.ndarray:
        """Strength of flop + each four-card subset (colex), plus a trailing 0 sentinel."""
        fi = self.fi
        cards = np.empty((len(fi.quads), 7), np.uint8)
        cards[:, :3] = self.flop
        cards[:, 3:] = self.rem[fi.quads]
        out = np.zeros(len(fi.quads) + 1, np.uint16)
        out[:-1] = evaluate_batch(cards)
        return out

    @cached_property
    def strength(self) -> np.ndarray:
        """``S[b, i]``: the player's (and dealer's) seven-card strength; 0 when b, i overlap."""
        return self.e4[self._r(self.fi.quad)]

    @cached_property
    def category(self) -> np.ndarray:
        return category_batch(self.strength)

    @cached_property
    def valid(self) -> np.ndarray:
        return self._r(self.fi.valid)

    @cached_property
    def valid_i32(self) -> np.ndarray:
        return self._r(self.fi.valid_i32)

    @cached_property
    def holes(self) -> np.ndarray:
        """``(P, 2)`` global cards of each hand (and of each turn-river pair)."""
        return self.rem[self.fi.pairs]

    @cached_property
    def board_pairs(self) -> np.ndarray:
        """``(R, 2)`` local cards (turn, river) of each analysed board."""
        return self.fi.pairs[self.rows]

    @cached_property
    def boards(self) -> np.ndarray:
        """``(R, 5)`` global cards of each analysed board: flop, turn, river."""
        out = np.empty((len(self.rows), 5), np.int64)
        out[:, :3] = self.flop
        out[:, 3:] = self.rem[self.board_pairs]
        return out

    @cached_property
    def board_strength(self) -> np.ndarray:
        """``(R,)`` strength of the five board cards alone."""
        return evaluate_batch(self.boards.astype(np.uint8))

    def six_card_terms(self, qualify: int) -> np.ndarray:
        """``(R, P)``: the :func:`six_card_ranks` entries of the hand's two cards' six-card
        sets (``flop + b + x`` completed by ``y``, and by ``x``), summed."""
        fi = self.fi
        g = six_card_ranks(self.e4[fi.g_quad], qualify)
        pg = g[self._r(fi.g1)]
        pg += g[self._r(fi.g2)]
        return pg

    @cached_property
    def e6(self) -> np.ndarray:
        """``(R, m)``: strength of board ``b`` plus one more card ``z`` (0 when z is on b)."""
        fi = self.fi
        cards = np.empty((len(fi.triples), 6), np.uint8)
        cards[:, :3] = self.flop
        cards[:, 3:] = self.rem[fi.triples]
        e3 = np.zeros(len(fi.triples) + 1, np.uint16)
        e3[:-1] = evaluate_batch(cards)
        return e3[self._r(fi.b_triple)]


def _runs(sv: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """For a flat array of rows of length ``n``, each sorted: per position, how many
    entries of its row are smaller (start of its run of equal values) and the run length."""
    size = sv.size
    change = np.empty(size, bool)
    change[0] = True
    np.not_equal(sv[1:], sv[:-1], out=change[1:])
    change[::n] = True
    starts = np.flatnonzero(change)
    lengths = np.diff(starts, append=size).astype(np.int32)
    less = np.repeat((starts % n).astype(np.int32), lengths)
    equal = np.repeat(lengths, lengths)
    return less, equal


def row_ranks(S: np.ndarray, row_offset: np.ndarray) -> np.ndarray:
    """Per entry of ``S`` (rows of uint16): ``less | equal << 16`` within its row (int32)."""
    n = S.shape[1]
    perm = np.argsort(S, axis=1, kind="stable")  # radix sort for uint16
    perm += row_offset
    perm = perm.ravel()
    less, equal = _runs(S.ravel()[perm], n)
    equal <<= 16
    less |= equal
    out = np.empty(S.size, np.int32)
    out[perm] = less
    return out.reshape(S.shape)


def six_card_ranks(SG: np.ndarray, qualify: int) -> np.ndarray:
    """Per entry of ``SG`` (short rows): ``less | equal << 8 | not_qualifying_in_row << 16``.

    The three sentinel entries of each row (value 0) are counted in ``less`` and in
    ``not_qualifying``.
    """
    rows, n = SG.shape
    keys = SG.astype(np.int32)
    keys <<= 8
    keys |= np.arange(n, dtype=np.int32)
    keys.sort(axis=1)
    keys = keys.ravel()
    perm = (keys & 0xFF).astype(np.intp)
    perm += _row_starts(rows, n)
    keys >>= 8
    less, equal = _runs(keys, n)
    equal <<= 8
    less |= equal
    nq = (SG < qualify).sum(axis=1, dtype=np.int32)
    nq <<= 16
    less.reshape(rows, n)[...] += nq[:, None]
    out = np.empty(SG.size, np.int32)
    out[perm] = less
    return out


@cache
def _row_starts(rows: int, n: int) -> np.ndarray:
    out = np.repeat(np.arange(rows, dtype=np.intp) * n, n)
    out.setflags(write=False)
    return out


@dataclass
class DealerCounts:
    """Per (board, hand): dealer hands beaten ``W``, tied ``T``, not qualifying ``NQ``.

    Overlapping (board, hand) entries hold ``W = NQ = 0`` and ``T = n_dealer`` (all push),
    so that they add nothing to any expected value.
    """

    W: np.ndarray
    T: np.ndarray
    NQ: np.ndarray
    below: np.ndarray  # the player's hand does not qualify (strength < qualify)


def dealer_counts(ctx: FlopContext, qualify: int) -> DealerCounts:
    """Count the dealer hands each hand beats, ties and that do not qualify, on each board."""
    fi, S = ctx.fi, ctx.strength
    m = ctx.m
    ranks = row_ranks(S, fi.row_offset[: len(ctx.rows)])
    pg = ctx.six_card_terms(qualify)
    below = S < qualify
    # sentinels: 2m-3 overlapping hands per board row, 3 per six-card row (all below qualify)
    W = ranks & 0xFFFF
    W -= pg & 0xFF
    W -= (2 * m - 3) - 6
    T = ranks >> 16
    T -= (pg >> 8) & 0xFF
    T += 1
    nq_row = below.sum(axis=1, dtype=np.int32) - (2 * m - 3)
    NQ = nq_row[:, None] - (pg >> 16)
    NQ += 6
    NQ += below
    valid = ctx.valid_i32
    W *= valid
    NQ *= valid
    T *= valid
    T += (1 - valid) * ctx.n_dealer
    return DealerCounts(W, T, NQ, below)


def optimal_decisions(
    ctx: FlopContext, dc: DealerCounts, params: MainParams, pair_perms: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """River decisions (play iff strictly better than folding) and flop decisions.

    Returns ``(river_play[b, i], flop_bet[i])``.  Values are totals over the dealer hands,
    scaled by ``params.scale``: exact integers (int32 per entry when they fit, sums in int64).
    The flop decision sums every board: each analysed row counts for its orbit
    (``ctx.weights``) and the sums are symmetrised over the flop's symmetries
    (``pair_perms``, see :func:`board_orbits`).
    """
    A, C, fold = spot_values(ctx, dc, params)
    play1 = A + C
    river_play = play1 > fold
    np.maximum(play1, fold, out=play1)
    play1 *= ctx.valid_i32
    bet2 = board_sum(A, ctx, pair_perms) + 2 * board_sum(C, ctx, pair_perms)
    check = board_sum(play1, ctx, pair_perms)
    return river_play, bet2 > check


def spot_values(
    ctx: FlopContext, dc: DealerCounts, params: MainParams
) -> tuple[np.ndarray, np.ndarray, int]:
    """``(A, C, fold)`` per (board, hand): over the dealer hands, scaled by ``params.scale``,
    with Ante = Blind = 1 and a Play of ``k`` Antes the hand returns ``A + k C``; folding
    returns ``fold``.  Exact integers (int32 when they fit); 0 where board and hand overlap.
    """
    D = params.scale
    nd = ctx.n_dealer
    pays = blind_table(params)
    bound = (int(pays.max()) + 5 * D) * nd
    dtype = np.int32 if bound < 2**30 else np.int64
    W: np.ndarray = dc.W.astype(dtype, copy=False)
    L: np.ndarray = nd - W
    L -= dc.T
    # a non-qualifying dealer hand is a win for the player when the player's hand
    # qualifies, and below it (where the player loses) only when it does not
    Wq: np.ndarray = W - dc.NQ
    Lnq: np.ndarray = dc.NQ - W
    Lnq -= dc.T
    Wq[dc.below] = 0
    Lnq[~dc.below] = 0
    A: np.ndarray = pays.astype(dtype)[ctx.strength]
    A *= W
    Wq *= D
    A += Wq
    L *= 2 * D
    A -= L
    Lnq *= ctx.valid_i32
    Lnq *= D  # the Ante pushes when the dealer does not qualify, even if the dealer wins
    A += Lnq
    C: np.ndarray = W * (2 * D)  # D * (W - L) = D * (2W + T - nd)
    C += dc.T * D
    C -= D * nd
    return A, C, -2 * D * nd


def river_margins(
    S: np.ndarray, W: np.ndarray, T: np.ndarray, NQ: np.ndarray, qualify: int, n_dealer: int
) -> np.ndarray:
    """What playing 1x on the river returns more than folding, less the Blind's pay.

    Per spot, over its ``n_dealer`` dealer hands, in Antes (Ante = Blind = 1): ``X = 3 W +
    Wq + 2 T - Lq`` (``Wq``: wins against a qualifying dealer, ``Lq``: losses to one),
    from the player's strength ``S`` and the counts of :class:`DealerCounts`.  Playing
    beats folding by ``X + b W``, ``b`` the Blind's pay of the player's category (0
    below a straight).
    """
    L = n_dealer - W - T
    below = S < qualify
    Wq = np.where(below, 0, W - NQ)
    Lnq = np.where(below, NQ - W - T, 0)
    return 3 * W + Wq + 2 * T - (L - Lnq)


def pay_dependent(ctx: FlopContext, dc: DealerCounts, qualify: int) -> bool:
    """Whether a river decision of this flop depends on the Blind's pays.

    Only a spot with a straight or better (the Blind pays), ``X <= 0`` and ``W > 0``
    (see :func:`river_margins`) can be played for one paytable and folded for another.
    Elsewhere the optimal decisions and counts of the flop are those of any paytable of
    the same dealer qualifier: the Blind pays the same whatever the Play multiple, so
    its pays cancel between the options, and a folded straight or better is always one
    of these spots.
    """
    strong = np.flatnonzero((ctx.strength >= _STRAIGHT_FLOOR).ravel() & ctx.valid.ravel())
    if not strong.size:
        return False
    W = dc.W.ravel()[strong]
    X = river_margins(
        ctx.strength.ravel()[strong].astype(np.int64),
        W,
        dc.T.ravel()[strong],
        dc.NQ.ravel()[strong],
        qualify,
        ctx.n_dealer,
    )
    return bool(((X <= 0) & (W > 0)).any())


def board_sum(values: np.ndarray, ctx: FlopContext, pair_perms: np.ndarray | None) -> np.ndarray:
    """Per hand, the sum over every board of ``values`` (given on the analysed rows).

    With one row per orbit of the flop's symmetry group ``H``: the sum over an orbit of
    ``v(b', i)`` is ``o(b) / |H|`` times the sum over ``h`` in ``H`` of ``v(b, h(i))``.
    """
    if ctx.all_rows:
        return values.sum(axis=0, dtype=np.int64)
    weighted = (values * ctx.weights[:, None]).sum(axis=0, dtype=np.int64)
    assert pair_perms is not None
    total = weighted[pair_perms].sum(axis=0)
    assert not (total % len(pair_perms)).any()
    return total // len(pair_perms)


@cache
def blind_table(params: MainParams) -> np.ndarray:
    """Scaled Blind pay (int64) indexed by strength 0..7462 (0: no hand)."""
    out = np.zeros(7463, np.int64)
    out[1:] = np.asarray(params.blind_scaled, np.int64)[category_batch(np.arange(1, 7463))]
    return out


_CAT = np.zeros(7463, np.intp)
_CAT[1:] = category_batch(np.arange(1, 7463))


@cache
def _key_base(n_p: int) -> np.ndarray:
    """Bincount bin of each (board, hand) before adding river decision and category."""
    fi = flop_index_for_pairs(n_p)
    base = np.broadcast_to(np.arange(n_p, dtype=np.intp) * (2 * N_CATEGORIES), (n_p, n_p))
    out = np.where(fi.valid, base, n_p * 2 * N_CATEGORIES)
    out.setflags(write=False)
    return out


def flop_index_for_pairs(n_p: int) -> FlopIndex:
    m = int(round((1 + (1 + 8 * n_p) ** 0.5) / 2))
    return flop_index(m)


class RuleStrategy(Protocol):
    """What the analysis asks of a strategy that decides by its own rules (not optimal
    play): Play multiples pre-flop (4, 3 or 0), 2x bets on a flop, and the river decisions
    of every (board, hand) of one flop (see :class:`engine.maths.strategy.Strategy`)."""

    def preflop_batch(self, holes: np.ndarray) -> np.ndarray: ...

    def flop_batch(self, holes: np.ndarray, flops: np.ndarray) -> np.ndarray: ...

    def river_par(self, ctx: FlopContext) -> np.ndarray: ...


def analyse_flop(
    flop: tuple[int, int, int],
    deck: tuple[int, ...],
    params: MainParams,
    strategy: RuleStrategy | None = None,
    card_maps: np.ndarray | None = None,
) -> FlopResult:
    """Outcome counts for every hand on every board of ``flop``.

    ``strategy`` None means optimal play (decisions from the exact expected values);
    otherwise the strategy's own flop and river rules decide.  With ``card_maps`` (the
    deck's suit symmetries) only one board per orbit of the flop's own symmetries is
    analysed and weighted by the orbit's size: the counts are then right for every
    class of hands (summed over the class), not hand by hand; decisions stay exact.
    """
    rows = weights = pair_perms = None
    if card_maps is not None:
        rows, weights, pair_perms = board_orbits(flop, deck, card_maps)
        if len(pair_perms) == 1:
            rows = weights = pair_perms = None
    ctx = FlopContext(flop, deck, rows, weights)
    n_p = ctx.fi.n_pairs
    dc = dealer_counts(ctx, params.qualify)
    dependent = False
    if strategy is None:
        river_play, flop_bet = optimal_decisions(ctx, dc, params, pair_perms)
        dependent = pay_dependent(ctx, dc, params.qualify)
    else:
        river_play = np.asarray(strategy.river_par(ctx), dtype=bool)
        flop_bet = np.asarray(
            strategy.flop_batch(ctx.holes, np.broadcast_to(ctx.flop, (n_p, 3))), bool
        )
    cells = flop_cells(ctx, dc, river_play, params.qualify_category)
    cat_counts = np.bincount(_CAT[ctx.e4[:-1]], minlength=N_CATEGORIES).astype(np.int64)
    return FlopResult(
        cells=cells,
        flop_bet=flop_bet,
        holes=ctx.holes,
        category_counts=cat_counts,
        pay_dependent=dependent,
    )


def flop_cells(
    ctx: FlopContext,
    dc: DealerCounts,
    river_play: np.ndarray,
    qualify_category: int,
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """:attr:`FlopResult.cells` of the analysed rows: each row counts ``weights`` times
    (default ``ctx.weights``; 0 leaves a row out)."""
    n_p = ctx.fi.n_pairs
    key = ctx._r(_key_base(n_p)) + _CAT[ctx.strength]
    np.add(key, N_CATEGORIES, out=key, where=river_play)
    key = key.ravel()
    nbins = (n_p + 1) * 2 * N_CATEGORIES
    keep = n_p * 2 * N_CATEGORIES
    # two bincounts, two sums packed in each (exact in float64: every sum < 2**23)
    first = dc.NQ * _PACK
    first += dc.W
    second = dc.T * _PACK
    second += 1
    if weights is not None or not ctx.all_rows:
        w = (ctx.weights if weights is None else weights)[:, None]
        first *= w
        second *= w
    sum_nq, sum_w = _unpack(np.bincount(key, weights=first.ravel(), minlength=nbins)[:keep])
    sum_t, n = _unpack(np.bincount(key, weights=second.ravel(), minlength=nbins)[:keep])
    shape = (n_p, 2, N_CATEGORIES)
    return outcome_cells(
        n.reshape(shape),
        sum_w.reshape(shape),
        sum_t.reshape(shape),
        sum_nq.reshape(shape),
        ctx.n_dealer,
        qualify_category,
    )


def _unpack(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    high = np.floor(packed / _PACK)
    return high.astype(np.int64), (packed - high * _PACK).astype(np.int64)


def outcome_cells(
    n: np.ndarray,
    W: np.ndarray,
    T: np.ndarray,
    NQ: np.ndarray,
    n_dealer: int,
    qualify_category: int,
) -> np.ndarray:
    """Outcome counts (last axis, :data:`WIN_Q`...) from summed counts; the axis before
    the last is the player's category ``k`` (which decides if the ties qualify)."""
    qual = np.arange(N_CATEGORIES) >= qualify_category
    out = np.zeros((*n.shape, N_OUTCOMES), np.int64)
    L = n_dealer * n - W - T
    out[..., WIN_Q] = np.where(qual, W - NQ, 0)
    out[..., WIN_NQ] = np.where(qual, NQ, W)
    out[..., PUSH_Q] = np.where(qual, T, 0)
    out[..., PUSH_NQ] = np.where(qual, 0, T)
    loss_nq = np.where(qual, 0, NQ - W - T)
    out[..., LOSS_NQ] = loss_nq
    out[..., LOSS_Q] = L - loss_nq
    return out
