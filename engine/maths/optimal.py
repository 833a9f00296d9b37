"""The optimal strategy: the play that maximises the expected return of a paytable.

Pre-flop and flop decisions come from the exact analysis (:mod:`engine.maths.par`);
river decisions from the river table (:mod:`engine.maths.river_table`, one look-up per
spot) when it is loaded and the deck is full, otherwise, like flop decisions without an
analysis at hand, exactly from every dealer hand.  Values are integers scaled by the paytable's pay denominator
(:attr:`engine.maths.par_flop.MainParams.scale`), Ante = Blind = 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from engine.hands.evaluator import category_batch, evaluate_batch
from engine.maths.par import Progress, main_analysis, river_base
from engine.maths.par_flop import (
    FlopContext,
    MainParams,
    dealer_counts,
    main_params,
    optimal_decisions,
)
from engine.maths.par_main import N_FLOPS52, MainAnalysis
from engine.maths.par_tables import flop_index_table, pair_index_table
from engine.maths.river_table import N_BOARD_CLASSES, RiverTable, build_river_table
from engine.maths.strategy import FULL_DECK, Strategy, deck_mask
from engine.uth.paytable import PAYTABLE_DIR, Paytable, load_paytable


def river_terms(
    holes: np.ndarray, boards: np.ndarray, params: MainParams, deck: Sequence[int] | None = None
) -> tuple[np.ndarray, np.ndarray, int]:
    """Exact river values over every dealer hand, per row, scaled by ``params.scale``.

    Returns ``(A, C, fold)``: with Ante = Blind = 1 and a Play of ``k`` Antes the total
    return over the dealer hands is ``A + k * C``; folding returns ``fold`` (-2 each).
    """
    holes = np.asarray(holes, dtype=np.intp).reshape(-1, 2)
    boards = np.asarray(boards, dtype=np.intp).reshape(-1, 5)
    n = len(holes)
    D = params.scale
    mask = np.broadcast_to(deck_mask(deck), (n, 52)).copy()
    rows = np.arange(n)[:, None]
    mask[rows, holes] = False
    mask[rows, boards] = False
    k = int(mask.sum()) // n if n else 0
    unseen = (np.flatnonzero(mask.ravel()) % 52).reshape(n, k)
    pairs = np.array(list(combinations(range(k), 2)), dtype=np.intp).reshape(-1, 2)
    nd = len(pairs)
    A = np.empty(n, np.int64)
    C = np.empty(n, np.int64)
    pays = np.asarray(params.blind_scaled, np.int64)
    step = max(1, 250_000 // max(nd, 1))
    for start in range(0, n, step):
        sl = slice(start, min(n, start + step))
        h, b, u = holes[sl], boards[sl], unseen[sl]
        mine = evaluate_batch(np.concatenate([h, b], axis=1).astype(np.uint8)).astype(np.int32)
        cards = np.empty((len(h), nd, 7), np.uint8)
        cards[:, :, :5] = b[:, None, :]
        cards[:, :, 5:] = u[:, pairs]
        theirs = evaluate_batch(cards.reshape(-1, 7)).reshape(len(h), nd).astype(np.int32)
        qualifies = theirs >= params.qualify
        win = theirs < mine[:, None]
        lose = theirs > mine[:, None]
        W = win.sum(axis=1)
        L = lose.sum(axis=1)
        Wq = (win & qualifies).sum(axis=1)
        Lq = (lose & qualifies).sum(axis=1)
        # the Ante pushes when the dealer does not qualify: a loss then costs Blind + Play
        A[sl] = D * Wq + pays[category_batch(mine)] * W - 2 * D * Lq - D * (L - Lq)
        C[sl] = D * (W - L)
    return A, C, -2 * D * nd


def river_values(
    hole: Sequence[int], board: Sequence[int], params: MainParams, deck: Sequence[int] | None = None
) -> tuple[int, int]:
    """Exact total return of (play 1x, fold) over every dealer hand, scaled by ``params.scale``."""
    A, C, fold = river_terms(np.array([hole]), np.array([board]), params, deck)
    return int(A[0] + C[0]), fold


def flop_values(
    hole: Sequence[int], flop: Sequence[int], params: MainParams, deck: Sequence[int] | None = None
) -> tuple[int, int]:
    """Exact total return of (raise 2x, check then play the river optimally) on a flop.

    Summed over every turn-river pair and dealer hand, scaled by ``params.scale``.
    """
    seen = set(hole) | set(flop)
    unseen = [c for c in (FULL_DECK if deck is None else deck) if c not in seen]
    tr = np.array(list(combinations(unseen, 2)), dtype=np.intp)
    boards = np.concatenate([np.broadcast_to(np.array(flop), (len(tr), 3)), tr], axis=1)
    holes = np.broadcast_to(np.array(hole), (len(tr), 2))
    A, C, fold = river_terms(holes, boards, params, deck)
    return int((A + 2 * C).sum()), int(np.maximum(A + C, fold).sum())


@dataclass
class OptimalStrategy(Strategy):
    """Optimal play for one paytable (default: the standard table) and deck.

    Pre-flop and flop decisions come from the exact analysis (:func:`engine.maths.par.main_analysis`,
    read from the cache or computed: minutes the first time); river decisions are
    computed exactly for each view (990 dealer hands), or looked up in ``river_table``
    (:meth:`get_river_table`) in batches.  Without an analysis at hand the flop decision
    is computed exactly too (about a million evaluations, well under a second).
    """

    table: Paytable | None = None
    deck: tuple[int, ...] = FULL_DECK
    analysis: MainAnalysis | None = field(default=None, repr=False)
    river_table: RiverTable | None = field(default=None, repr=False)
    _flop_memo: dict[Any, bool] = field(default_factory=dict, repr=False)
    name: str = "optimal"
    description: str = "maximises expected return for the paytable (exact analysis)"

    @cached_property
    def paytable(self) -> Paytable:
        return (
            self.table if self.table is not None else load_paytable(PAYTABLE_DIR / "standard.toml")
        )

    @cached_property
    def params(self) -> MainParams:
        return main_params(self.paytable)

    def for_paytable(self, table: Paytable, deck: Sequence[int] | None = None) -> OptimalStrategy:
        return OptimalStrategy(
            table=table, deck=tuple(sorted(deck)) if deck is not None else FULL_DECK
        )

    def get_analysis(self) -> MainAnalysis:
        if self.analysis is None:
            self.analysis = main_analysis(self.paytable, "optimal", deck=self.deck)
        return self.analysis

    def get_river_table(
        self,
        *,
        workers: int | None = None,
        cache: str | Path | None = None,
        progress: Progress | None = None,
    ) -> RiverTable:
        """The river table of every full-deck spot (cached on disk; built the first time)."""
        if self.deck != FULL_DECK:
            raise ValueError("the river table is for the full deck")
        if self.river_table is None or len(self.river_table.keys) != N_BOARD_CLASSES:
            base = river_base(self.params.qualify, workers=workers, cache=cache, progress=progress)
            self.river_table = base.for_params(self.params)
        return self.river_table

    def prepare_river(self, boards: np.ndarray) -> None:
        """Make sure the river table covers ``boards`` (``(N, 5)`` cards), building just
        their classes if need be: a sub-problem's few boards need no whole table."""
        if self.deck != FULL_DECK:
            return
        boards = np.asarray(boards).reshape(-1, 5)
        if self.river_table is None or not self.river_table.covers(boards):
            self.river_table = build_river_table(self.params, boards)

    # scalar
    def preflop_one(self, hole: Sequence[int]) -> int:
        return int(self.preflop_batch(np.array([hole]))[0])

    def flop_one(self, hole: Sequence[int], flop: Sequence[int]) -> bool:
        if self.analysis is not None:
            return bool(self.get_analysis().flop_bets(np.array([hole]), np.array([flop]))[0])
        key = (tuple(sorted(hole)), tuple(sorted(flop)))
        if key not in self._flop_memo:
            bet2, check = flop_values(hole, flop, self.params, self.deck)
            self._flop_memo[key] = bet2 > check
        return self._flop_memo[key]

    def river_one(self, hole: Sequence[int], board: Sequence[int]) -> bool:
        play, fold = river_values(hole, board, self.params, self.deck)
        return play > fold

    @cached_property
    def _spot_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Full deck: the pre-flop multiple of each two-card hand (by :func:`pair_index52`)
        and the flop decision of each (hand, flop) (index ``pair * 22100 + flop``)."""
        analysis = self.get_analysis()
        preflop = analysis.preflop[analysis.hand_class].astype(np.int8)
        if analysis.flop_bits is None:
            raise ValueError("the optimal analysis has no flop table")
        flop = np.unpackbits(analysis.flop_bits)[: 1326 * N_FLOPS52].astype(bool)
        return preflop, flop

    def _full_deck_analysis(self) -> bool:
        return self.deck == FULL_DECK and self.get_analysis().deck == FULL_DECK

    # vectorised
    def preflop_batch(self, holes: np.ndarray) -> np.ndarray:
        if self._full_deck_analysis():
            h = np.asarray(holes, dtype=np.intp).reshape(-1, 2)
            return self._spot_tables[0][pair_index_table()[h[:, 0] * 52 + h[:, 1]]]
        return self.get_analysis().preflop_multiples(holes)

    def flop_batch(self, holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
        holes = np.asarray(holes).reshape(-1, 2)
        flops = np.asarray(flops).reshape(-1, 3)
        if self.analysis is None:
            # a few distinct spots (a sub-problem): exact values beat loading the analysis
            keys = np.concatenate([np.sort(holes, axis=1), np.sort(flops, axis=1)], axis=1)
            uniq, inverse = np.unique(keys, axis=0, return_inverse=True)
            if len(uniq) <= 8:
                dec = np.array(
                    [
                        self.flop_one(tuple(int(c) for c in u[:2]), tuple(int(c) for c in u[2:]))
                        for u in uniq
                    ],
                    dtype=np.bool_,
                )
                return dec[inverse.ravel()]
        if self._full_deck_analysis():
            h, f = holes.astype(np.intp), flops.astype(np.intp)
            pair = pair_index_table()[h[:, 0] * 52 + h[:, 1]].astype(np.intp)
            spot = pair * N_FLOPS52 + flop_index_table()[(f[:, 0] * 52 + f[:, 1]) * 52 + f[:, 2]]
            return self._spot_tables[1][spot]
        return self.get_analysis().flop_bets(holes, flops)

    def river_batch(
        self, holes: np.ndarray, boards: np.ndarray, deck: Sequence[int] | None = None
    ) -> np.ndarray:
        A, C, fold = river_terms(holes, boards, self.params, self.deck if deck is None else deck)
        return A + C > fold

    def river_batch_known(
        self,
        holes: np.ndarray,
        boards: np.ndarray,
        strengths: np.ndarray,
        deck: Sequence[int] | None = None,
    ) -> np.ndarray:
        """:meth:`river_batch` in the simulator: a table look-up when the river table covers
        the boards and the deck is full, else the exact values."""
        full = self.deck == FULL_DECK and (deck is None or tuple(sorted(deck)) == FULL_DECK)
        table = self.river_table
        if not full or table is None:
            return self.river_batch(holes, boards, deck)
        play, known = table.lookup(holes, boards)
        if not known.all():
            rest = np.flatnonzero(~known)
            play[rest] = self.river_batch(np.asarray(holes)[rest], np.asarray(boards)[rest], deck)
        return play

    def river_par(self, ctx: FlopContext) -> np.ndarray:
        # only the river decisions are used: the identity stands in for the flop's symmetries
        identity = np.arange(ctx.fi.n_pairs)[None, :]
        return optimal_decisions(
            ctx, dealer_counts(ctx, self.params.qualify), self.params, identity
        )[0]

    def __hash__(self) -> int:
        return id(self)
