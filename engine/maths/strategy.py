"""Playing strategies: what one seat does pre-flop, on the flop and on the river.

A strategy sees only what a player sees (own cards, board, bets), never the dealer's
cards.  Each comes in two forms that must agree (a test checks them on random views):

* scalar: :meth:`Strategy.decide` takes an :class:`engine.uth.round.SeatView` and returns an
  :class:`engine.uth.round.Action` (the cabinet's autoplay uses the simple strategy);
* vectorised: :meth:`Strategy.preflop_batch`, :meth:`Strategy.flop_batch` and
  :meth:`Strategy.river_batch` decide for numpy batches of seats (the simulator), and
  :meth:`Strategy.river_par` for every board and hand of one flop (the exact analysis).

Strategies (the optimal one is :class:`engine.maths.optimal.OptimalStrategy`; every
strategy by name is in :mod:`engine.maths.strategies`):

``optimal``
    maximises the expected return for the paytable: pre-flop from the table of the 169
    starting hands derived by the exact analysis (:mod:`engine.maths.par`), on the flop and
    the river from exact expected values.  :func:`engine.maths.strategies.get_strategy`
    binds it to a paytable.
``simple``
    the widely published simple strategy.  Pre-flop raise 4x with 33 or better, any ace,
    K2s+, K5o+, Q6s+, Q8o+, J8s+ or JTo.  Flop raise 2x with two pair or better (the
    category of the five cards, board included), a hidden pair except pocket deuces,
    or four to a flush holding a ten or better of that suit.  River raise 1x with a
    hidden pair or better, or when fewer than 21 of the unseen cards are dealer outs;
    otherwise fold.
``cautious``
    checks pre-flop and on the flop, then plays the simple river rule.

Definitions used by the simple rules (the published wording leaves them open):

* a *hidden pair* (flop or river): one of the player's own cards has the rank of the
  other one or of a board card;
* *hidden pair or better* (river): a hidden pair, or a straight or better whose
  strength beats the board's own five cards (the player's cards improve the board);
* *dealer outs* (river): the unseen cards ``c`` (45 in a full deck: neither the
  player's two nor the board's five) such that the board plus ``c`` alone, six cards,
  beats the player's seven-card hand.  Ties are not outs.  This is the usual reading:
  "a card that, in the dealer's hand, would beat you".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.hands.categories import HandCategory, category, category_floors
from engine.hands.evaluator import evaluate, evaluate_batch
from engine.maths.par_eval import dealer_outs as dealer_outs_batch
from engine.maths.par_flop import FlopContext
from engine.uth.paytable import Paytable
from engine.uth.round import Action, Phase, SeatView

FULL_DECK: tuple[int, ...] = tuple(range(52))
OUTS_LIMIT = 21  # raise on the river with fewer dealer outs than this
TEN = 8  # rank index of the ten
_STRAIGHT_FLOOR = category_floors()[HandCategory.STRAIGHT]


def deck_mask(deck: Sequence[int] | None) -> np.ndarray:
    """A 52-entry boolean mask of the cards of ``deck`` (None: the full deck)."""
    mask = np.zeros(52, bool)
    mask[list(FULL_DECK if deck is None else deck)] = True
    return mask


class Strategy:
    """Base class.  ``name`` keys :data:`engine.maths.strategies.STRATEGIES`; subclasses set
    the rules.

    Vectorised arguments: ``holes`` ``(N, 2)``, ``flops`` ``(N, 3)``, ``boards`` ``(N, 5)``
    integer card arrays.  Pre-flop results are Play multiples (4, 3 or 0 for check);
    flop and river results are booleans (True: raise 2x / play 1x).
    """

    name = "strategy"
    description = ""

    # -- scalar ------------------------------------------------------------------------------
    def decide(self, view: SeatView) -> Action:
        """The action for ``view`` (its phase must be pre-flop, flop or river)."""
        hole = tuple(int(c) for c in view.hole)
        board = tuple(int(c) for c in view.board)
        if view.phase == Phase.PREFLOP:
            m = self.preflop_one(hole)
            action = {4: Action.PLAY_4X, 3: Action.PLAY_3X, 0: Action.CHECK}[m]
        elif view.phase == Phase.FLOP:
            action = Action.PLAY_2X if self.flop_one(hole, board[:3]) else Action.CHECK
        elif view.phase == Phase.RIVER:
            action = Action.PLAY_1X if self.river_one(hole, board[:5]) else Action.FOLD
        else:
            raise ValueError(f"no decision to take in the {view.phase} phase")
        if view.legal and action not in view.legal:
            raise ValueError(f"{self.name} chose {action.value}, not legal here ({view.legal})")
        return action

    def preflop_one(self, hole: Sequence[int]) -> int:
        raise NotImplementedError

    def flop_one(self, hole: Sequence[int], flop: Sequence[int]) -> bool:
        raise NotImplementedError

    def river_one(self, hole: Sequence[int], board: Sequence[int]) -> bool:
        raise NotImplementedError

    # -- vectorised --------------------------------------------------------------------------
    def preflop_batch(self, holes: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def flop_batch(self, holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def river_batch(
        self, holes: np.ndarray, boards: np.ndarray, deck: Sequence[int] | None = None
    ) -> np.ndarray:
        raise NotImplementedError

    def river_par(self, ctx: FlopContext) -> np.ndarray:
        """River decisions for every (board ``b``, hand ``i``) of one flop (``(P, P)`` bool).

        The default builds the explicit batch (slow); rule strategies override it.
        """
        valid = ctx.valid
        bi, ii = np.nonzero(valid)
        out = np.zeros(valid.shape, bool)
        out[bi, ii] = self.river_batch(ctx.holes[ii], ctx.boards[bi], deck=ctx.deck)
        return out

    def for_paytable(self, table: Paytable, deck: Sequence[int] | None = None) -> Strategy:
        """This strategy for ``table`` (rule strategies do not depend on the paytable)."""
        return self

    def __repr__(self) -> str:
        return f"<strategy {self.name}>"


# -- the simple rules, scalar form (plain Python) ---------------------------------------------


def _simple_preflop_raises(hi: int, lo: int, suited: bool) -> bool:
    """The simple 4x chart; ranks 0..12 for 2..A, ``hi >= lo``."""
    A, K, Q, J = 12, 11, 10, 9
    if hi == lo:
        return hi >= 1  # 33 or better
    if hi == A:
        return True
    if hi == K:
        return suited or lo >= 3  # K2s+, K5o+
    if hi == Q:
        return lo >= (4 if suited else 6)  # Q6s+, Q8o+
    if hi == J:
        return lo >= (6 if suited else TEN)  # J8s+, JTo
    return False


def hidden_pair(hole: Sequence[int], board: Sequence[int]) -> bool:
    """One of the player's cards pairs the other or a board card."""
    r1, r2 = hole[0] >> 2, hole[1] >> 2
    board_ranks = {c >> 2 for c in board}
    return r1 == r2 or r1 in board_ranks or r2 in board_ranks


def simple_flop_raises(hole: Sequence[int], flop: Sequence[int]) -> bool:
    """Two pair or better, a hidden pair except pocket deuces, or a four-flush with T+."""
    hole, flop = list(hole), list(flop)
    if category(evaluate(hole + flop)) >= HandCategory.TWO_PAIR:
        return True
    r1, r2 = hole[0] >> 2, hole[1] >> 2
    flop_ranks = {c >> 2 for c in flop}
    if r1 in flop_ranks or r2 in flop_ranks or (r1 == r2 and r1 != 0):
        return True
    suits = [c & 3 for c in hole + flop]
    return any(suits.count(h & 3) >= 4 and h >> 2 >= TEN for h in hole)


def count_dealer_outs(
    hole: Sequence[int], board: Sequence[int], deck: Sequence[int] | None = None
) -> int:
    """Unseen cards that with the board alone beat the player's hand (ties are not outs)."""
    mine = evaluate(list(hole) + list(board))
    seen = set(hole) | set(board)
    return sum(
        1
        for c in (FULL_DECK if deck is None else deck)
        if c not in seen and evaluate([*board, c]) > mine
    )


def hidden_pair_or_better(hole: Sequence[int], board: Sequence[int]) -> bool:
    """A hidden pair, or a straight or better that beats the board's own five cards."""
    if hidden_pair(hole, board):
        return True
    mine = evaluate(list(hole) + list(board))
    return mine >= _STRAIGHT_FLOOR and mine > evaluate(list(board))


def simple_river_plays(
    hole: Sequence[int], board: Sequence[int], deck: Sequence[int] | None = None
) -> bool:
    """Hidden pair or better, or fewer than 21 dealer outs."""
    return hidden_pair_or_better(hole, board) or count_dealer_outs(hole, board, deck) < OUTS_LIMIT


# -- the simple rules, vectorised --------------------------------------------------------------


def _chart() -> np.ndarray:
    """``[hi, lo, suited]`` -> 4x raise, from the scalar chart."""
    chart = np.zeros((13, 13, 2), bool)
    for hi in range(13):
        for lo in range(hi + 1):
            for s in (0, 1):
                if not (hi == lo and s):
                    chart[hi, lo, s] = _simple_preflop_raises(hi, lo, bool(s))
    return chart


_CHART = _chart()


_RANK_BIT = np.left_shift(1, np.arange(52) >> 2).astype(np.int64)
_SUIT_NIBBLE = np.left_shift(1, 4 * (np.arange(52) & 3)).astype(np.int64)


def simple_river_batch(
    holes: np.ndarray,
    boards: np.ndarray,
    deck: Sequence[int] | None = None,
    strengths: np.ndarray | None = None,
) -> np.ndarray:
    """Vectorised :func:`simple_river_plays`; ``strengths``: the players' seven-card
    strengths if already known."""
    holes = np.asarray(holes, dtype=np.intp)
    boards = np.asarray(boards, dtype=np.intp)
    h0, h1 = _RANK_BIT[holes[:, 0]], _RANK_BIT[holes[:, 1]]
    board_ranks = _RANK_BIT[boards[:, 0]]
    for j in range(1, 5):
        board_ranks = board_ranks | _RANK_BIT[boards[:, j]]
    out = (h0 == h1) | (((h0 | h1) & board_ranks) != 0)  # hidden pair
    rest = np.flatnonzero(~out)
    if rest.size == 0:
        return out
    h, b = holes[rest], boards[rest]
    if strengths is None:
        mine = evaluate_batch(np.concatenate([h, b], axis=1).astype(np.uint8)).astype(np.int32)
    else:
        mine = np.asarray(strengths)[rest].astype(np.int32)
    better = mine >= _STRAIGHT_FLOOR
    if better.any():
        sel = np.flatnonzero(better)
        better[sel] = mine[sel] > evaluate_batch(b[sel].astype(np.uint8))
    outs = dealer_outs_batch(h, b, mine, None if deck is None else deck_mask(deck))
    out[rest] = better | (outs < OUTS_LIMIT)
    return out


def simple_flop_batch(holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
    """Vectorised :func:`simple_flop_raises`, with rank bit masks and suit counters.

    Five cards make two pair or better exactly when they hold at most three ranks, or
    five ranks in a row (a straight), or five cards of a suit (a flush).
    """
    holes = np.asarray(holes, dtype=np.intp)
    flops = np.asarray(flops, dtype=np.intp)
    h0, h1 = _RANK_BIT[holes[:, 0]], _RANK_BIT[holes[:, 1]]
    flop_ranks = _RANK_BIT[flops[:, 0]] | _RANK_BIT[flops[:, 1]] | _RANK_BIT[flops[:, 2]]
    ranks = flop_ranks | h0 | h1
    distinct = np.bitwise_count(ranks)
    suits = _SUIT_NIBBLE[holes[:, 0]] + _SUIT_NIBBLE[holes[:, 1]]
    for j in range(3):
        suits += _SUIT_NIBBLE[flops[:, j]]
    flush = ((suits + 0x3333) & 0x8888) != 0  # a suit counter of 5
    lowest = ranks & -ranks
    straight = (distinct == 5) & ((ranks == lowest * 31) | (ranks == 0x100F))
    made = (distinct <= 3) | straight | flush
    paired = ((h0 | h1) & flop_ranks) != 0
    pocket = (h0 == h1) & (h0 != 1)  # pocket pair, not deuces
    draw = np.zeros(len(holes), bool)
    for j in range(2):
        c = holes[:, j]
        same_suit = (suits >> (4 * (c & 3))) & 0xF
        draw |= (same_suit >= 4) & (c >= 4 * TEN)
    return made | paired | pocket | draw


def simple_river_par(ctx: FlopContext) -> np.ndarray:
    """The simple river rule for every (board, hand) of one flop, without per-entry evaluation.

    Dealer outs come from the six-card strengths ``board + z`` (``ctx.e6``): the count of
    unseen cards above ``v`` is below 21 exactly when the (21 + e)-th largest of the
    row is at most ``v``, where ``e`` (0..2) is how many of the player's own two cards
    are above ``v`` (they are in the row but not unseen).
    """
    fi = ctx.fi
    S = ctx.strength  # (R, P)
    R = len(ctx.rows)
    m = ctx.m
    ranks = ctx.rem >> 2
    x, y = fi.pairs[:, 0], fi.pairs[:, 1]
    hole_bits = (1 << ranks[x]) | (1 << ranks[y])  # (P,)
    flop_bits = 0
    for c in ctx.flop:
        flop_bits |= 1 << (c >> 2)
    bp = ctx.board_pairs
    board_bits = flop_bits | (1 << ranks[bp[:, 0]]) | (1 << ranks[bp[:, 1]])  # (R,)
    hidden = (board_bits[:, None] & hole_bits[None, :]) != 0
    hidden |= (ranks[x] == ranks[y])[None, :]
    better = S >= _STRAIGHT_FLOOR
    better &= S > ctx.board_strength[:, None]
    e6 = ctx.e6  # (R, m), 0 where z is on the board
    desc = -np.sort(-e6.astype(np.int32), axis=1)  # descending
    k = OUTS_LIMIT
    thresholds = np.zeros((R, 3), np.int32)
    for e in range(3):
        if k + e <= m:
            thresholds[:, e] = desc[:, k + e - 1]
    flat = e6.ravel()
    rows = (np.arange(R) * m)[:, None]
    above = (flat[rows + x[None, :]] > S).astype(np.intp)
    above += flat[rows + y[None, :]] > S
    few_outs = S >= thresholds[np.arange(R)[:, None], above]
    return (hidden | better | few_outs) & ctx.valid


class SimpleStrategy(Strategy):
    name = "simple"
    description = "the published simple strategy (4x chart, 2x on made hands and draws, 1x by outs)"

    def preflop_one(self, hole: Sequence[int]) -> int:
        hi, lo = max(hole[0] >> 2, hole[1] >> 2), min(hole[0] >> 2, hole[1] >> 2)
        return 4 if _simple_preflop_raises(hi, lo, (hole[0] & 3) == (hole[1] & 3)) else 0

    def flop_one(self, hole: Sequence[int], flop: Sequence[int]) -> bool:
        return simple_flop_raises(hole, flop)

    def river_one(self, hole: Sequence[int], board: Sequence[int]) -> bool:
        return simple_river_plays(hole, board)

    def preflop_batch(self, holes: np.ndarray) -> np.ndarray:
        r = np.asarray(holes, dtype=np.intp) >> 2
        suited = (holes[:, 0] & 3) == (holes[:, 1] & 3)
        raise_ = _CHART[r.max(axis=1), r.min(axis=1), suited.astype(np.intp)]
        return np.where(raise_, 4, 0).astype(np.int8)

    def flop_batch(self, holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
        return simple_flop_batch(holes, flops)

    def river_batch(
        self, holes: np.ndarray, boards: np.ndarray, deck: Sequence[int] | None = None
    ) -> np.ndarray:
        return simple_river_batch(holes, boards, deck)

    def river_batch_known(
        self,
        holes: np.ndarray,
        boards: np.ndarray,
        strengths: np.ndarray,
        deck: Sequence[int] | None = None,
    ) -> np.ndarray:
        """:meth:`river_batch` when the players' strengths are already known (the simulator)."""
        return simple_river_batch(holes, boards, deck, strengths)

    def river_par(self, ctx: FlopContext) -> np.ndarray:
        return simple_river_par(ctx)


class CautiousStrategy(SimpleStrategy):
    name = "cautious"
    description = "never raises before the river, then the simple river rule"

    def preflop_one(self, hole: Sequence[int]) -> int:
        return 0

    def flop_one(self, hole: Sequence[int], flop: Sequence[int]) -> bool:
        return False

    def preflop_batch(self, holes: np.ndarray) -> np.ndarray:
        return np.zeros(len(holes), np.int8)

    def flop_batch(self, holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
        return np.zeros(len(holes), bool)


RULE_STRATEGIES: dict[str, Strategy] = {
    "simple": SimpleStrategy(),
    "cautious": CautiousStrategy(),
}
"""The strategies that decide by their own rules, whatever the paytable."""


def rule_strategy(name: str) -> Strategy:
    """The rule strategy ``name``; raises ``ValueError`` for any other name."""
    try:
        return RULE_STRATEGIES[name]
    except KeyError:
        names = ", ".join(["optimal", *RULE_STRATEGIES])
        raise ValueError(f"unknown strategy {name!r}; choose from {names}") from None
