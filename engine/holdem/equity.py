"""Monte-Carlo hand equity against unknown cards (equity assist, computer players).

Nobody's cards are known: the rest of the board and each opponent's two cards are dealt
at random from the unseen cards, ``samples`` times, and the hands compared with
:func:`engine.hands.evaluator.evaluate_batch`.  Equity is the expected share of the pot: a win
counts 1, a tie among ``k`` players ``1/k``.  The human's assist uses 1,500 deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.hands.evaluator import HandCategory, category_batch, evaluate_batch
from engine.rng import RandomSource

ASSIST_SAMPLES = 1500
MAX_RANGE_DRAWS = 16  # at most this many deals per sample when filtering by hand ranges
MIN_RANGE_SAMPLES = 50  # fewer surviving deals than this: ranges are ignored

RandomLike = np.random.Generator | RandomSource | int | None


def numpy_generator(rng: RandomLike) -> np.random.Generator:
    """A numpy Generator from a Generator, a :class:`RandomSource` (seeded from it), a seed
    or ``None`` (fresh OS entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, int):
        return np.random.default_rng(rng)
    return np.random.default_rng(rng.randbelow(1 << 63))


@dataclass(frozen=True, slots=True)
class Equity:
    win: float  # share of deals won outright
    tie: float  # share of deals tied for the best hand
    equity: float  # expected share of the pot, 0..1
    samples: int
    opponents: int


def pot_odds(call: int, pot: int) -> float:
    """Share of the final pot a call pays for: ``call / (pot + call)``.

    "If calling costs 100 to win a pot of 300 ... 100 ÷ 400 = 25%."  ``pot`` is what is in
    the middle before the call (bets included).
    """
    if call <= 0:
        return 0.0
    return call / (pot + call)


def estimate_equity(
    hole: Sequence[int],
    board: Sequence[int],
    opponents: int,
    *,
    samples: int = ASSIST_SAMPLES,
    rng: RandomLike = None,
    dead: Sequence[int] = (),
    hand_scores: np.ndarray | None = None,
    min_scores: Sequence[float] | None = None,
    connected: Sequence[bool] | None = None,
) -> Equity:
    """Equity of ``hole`` on ``board`` (0, 3, 4 or 5 cards) against ``opponents`` random hands.

    ``dead`` cards are known to be out of play (never dealt to anyone).  Optional hand
    ranges: ``hand_scores`` is a 52x52 table scoring two hole cards (e.g. Chen points) and
    ``min_scores[i]`` the least score opponent ``i`` is assumed to hold; deals outside
    those ranges are rejected (when too few deals survive, the ranges are ignored).
    ``connected[i]`` true: opponent ``i`` holds a hand that connects with the board as it
    is now (:func:`connects`: a better hand than the board's own, or a flush draw before
    the river), as a player who bets after the flop usually does.
    """
    hole = [int(c) for c in hole]
    board = [int(c) for c in board]
    if len(hole) != 2 or len(board) not in (0, 3, 4, 5):
        raise ValueError("equity needs two hole cards and a board of 0, 3, 4 or 5 cards")
    if opponents < 1:
        return Equity(1.0, 0.0, 1.0, 0, 0)
    known = set(hole) | set(board) | {int(c) for c in dead}
    if len(known) != len(hole) + len(board) + len(set(dead) - set(hole) - set(board)):
        raise ValueError("a card appears twice")
    unseen = np.array([c for c in range(52) if c not in known], dtype=np.uint8)
    need_board = 5 - len(board)
    k = need_board + 2 * opponents
    if k > len(unseen):
        raise ValueError("not enough cards for that many opponents")
    gen = numpy_generator(rng)
    ranged = hand_scores is not None and min_scores is not None and len(min_scores) == opponents
    must_connect = (
        np.asarray(connected, dtype=bool)
        if connected is not None and len(connected) == opponents and any(connected) and board
        else None
    )
    if not ranged and must_connect is None:
        drawn = _draw(gen, unseen, k, samples)
    else:
        floors = np.asarray(min_scores if ranged else [], dtype=np.float64)[None, :]
        kept: list[np.ndarray] = []
        have, tried = 0, 0
        while have < samples and tried < MAX_RANGE_DRAWS * samples:
            batch = _draw(gen, unseen, k, 4 * samples)
            tried += len(batch)
            pairs = batch[:, need_board:].reshape(len(batch), opponents, 2)
            keep = np.ones(len(batch), dtype=bool)
            if ranged:
                scores = hand_scores[pairs[:, :, 0], pairs[:, :, 1]]  # type: ignore[index]
                keep &= (scores >= floors).all(axis=1)
            if must_connect is not None:
                for i in np.flatnonzero(must_connect):
                    keep &= connects(pairs[:, i, :], board)
            good = batch[keep]
            kept.append(good)
            have += len(good)
        if have >= MIN_RANGE_SAMPLES:
            drawn = np.concatenate(kept)[:samples]
        else:  # ranges too narrow for these cards: fall back to random hands
            drawn = _draw(gen, unseen, k, samples)
        samples = len(drawn)
    full_board = np.empty((samples, 5), dtype=np.uint8)
    full_board[:, : len(board)] = board
    full_board[:, len(board) :] = drawn[:, :need_board]
    hands = np.empty((samples, opponents + 1, 7), dtype=np.uint8)
    hands[:, :, 2:] = full_board[:, None, :]
    hands[:, 0, 0] = hole[0]
    hands[:, 0, 1] = hole[1]
    opp = drawn[:, need_board:].reshape(samples, opponents, 2)
    hands[:, 1:, :2] = opp
    strength = evaluate_batch(hands.reshape(-1, 7)).reshape(samples, opponents + 1)
    mine = strength[:, 0].astype(np.int32)
    best_other = strength[:, 1:].max(axis=1).astype(np.int32)
    wins = mine > best_other
    ties = mine == best_other
    tied_with = (strength[:, 1:] == strength[:, :1]).sum(axis=1)
    share = np.where(wins, 1.0, np.where(ties, 1.0 / (tied_with + 1), 0.0))
    return Equity(
        win=float(wins.mean()),
        tie=float(ties.mean()),
        equity=float(share.mean()),
        samples=samples,
        opponents=opponents,
    )


def _board_category(board: Sequence[int]) -> int:
    """The category the board makes on its own (``HandCategory`` values; 3 to 5 cards)."""
    if len(board) == 5:
        return int(category_batch(evaluate_batch(np.asarray([board], dtype=np.uint8)))[0])
    counts = sorted(np.bincount([c >> 2 for c in board], minlength=13), reverse=True)
    if counts[0] == 4:
        return int(HandCategory.FOUR_OF_A_KIND)
    if counts[0] == 3:
        return int(HandCategory.THREE_OF_A_KIND)
    if counts[0] == 2:
        return int(HandCategory.TWO_PAIR if counts[1] == 2 else HandCategory.PAIR)
    return int(HandCategory.HIGH_CARD)


def connects(holes: np.ndarray, board: Sequence[int]) -> np.ndarray:
    """Which of the ``(N, 2)`` hole-card pairs connect with ``board`` (3 to 5 cards): they
    make a better category than the board alone, or before the river hold a flush draw
    (four of a suit with the board, at least one of them in the hand)."""
    n = len(holes)
    cards = np.empty((n, 2 + len(board)), dtype=np.uint8)
    cards[:, :2] = holes
    cards[:, 2:] = np.asarray(board, dtype=np.uint8)
    made = category_batch(evaluate_batch(cards)) > _board_category(board)
    if len(board) < 5:
        board_suits = np.bincount([c & 3 for c in board], minlength=4)
        s0, s1 = holes[:, 0] & 3, holes[:, 1] & 3
        with_first = board_suits[s0] + 1 + (s1 == s0)
        with_second = board_suits[s1] + 1 + (s1 == s0)
        made |= (with_first >= 4) | (with_second >= 4)
    return np.asarray(made, dtype=bool)


def _draw(gen: np.random.Generator, unseen: np.ndarray, k: int, rows: int) -> np.ndarray:
    """``rows`` independent uniform ordered draws of ``k`` of the ``unseen`` cards.

    A partial Fisher-Yates shuffle applied to every row at once.
    """
    m = len(unseen)
    perm = np.tile(unseen, (rows, 1))
    index = np.arange(rows)
    for j in range(k):
        r = gen.integers(j, m, size=rows)
        picked = perm[index, r]
        perm[index, r] = perm[:, j]
        perm[:, j] = picked
    return perm[:, :k]


class EquityAssist:
    """The human's equity label: recomputed only when cards come out or someone folds.

    Call :meth:`update` with the player's :class:`engine.holdem.views.PlayerView` whenever the
    screen refreshes; the estimate is cached on (hole cards, board, players still in).
    """

    def __init__(self, *, samples: int = ASSIST_SAMPLES, rng: RandomLike = None) -> None:
        self.samples = samples
        self._rng = numpy_generator(rng)
        self._key: tuple[Any, ...] | None = None
        self._value: Equity | None = None
        self.computations = 0

    def update(self, view: Any) -> Equity | None:
        """Equity for ``view`` (``None`` if the seat holds no cards or has folded)."""
        if not view.hole_cards or not view.in_hand[view.seat]:
            self._key, self._value = None, None
            return None
        key = (tuple(view.hole_cards), tuple(view.board), view.opponents)
        if key != self._key:
            self._key = key
            self._value = estimate_equity(
                view.hole_cards, view.board, view.opponents, samples=self.samples, rng=self._rng
            )
            self.computations += 1
        return self._value
