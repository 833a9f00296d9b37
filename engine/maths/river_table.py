"""The optimal river decision of every full-deck spot, as one table look-up.

On the river the player knows seven cards (two own, five on the board) and plays 1x
exactly when the total return over the 990 possible dealer hands beats folding
(:func:`engine.maths.optimal.river_terms`).  That total depends on the cards only
through a few facts, which give the table its index:

* a board with at most two cards of every suit makes no flush for anyone (seven
  cards hold at most four of a suit), so only the ranks of the seven cards count;
* a board with three or more of one suit (the *flush suit*; at most one suit can have
  three of five cards) makes flushes in that suit only, so a card counts by its rank
  and by whether it is of the flush suit.

A card's *type* is its rank (0..12), plus 13 when it is of the board's flush suit.  A
board's *class* is the multiset of its five types (42,783 classes among the 2,598,960
boards); the player's two types complete the index.  The dealer's unseen cards, their
types and every strength follow from the class and the two types, so every spot with
the same index has the same exact river values: :func:`build_river_table` computes them
on one board of each class, for all 1,081 two-card hands, and checks that the hands
sharing an index agree.

The counts (dealer hands beaten, tied, not qualifying) come from the 1,081 seven-card
strengths of the board by inclusion-exclusion, as in :mod:`engine.maths.par_flop`: the
dealer hands below a hand ``(x, y)`` are those below it among all 1,081 two-card sets,
less those holding ``x`` and those holding ``y``.  The decision itself uses the same
integer values as the exact analysis, scaled by the pay denominator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from math import comb

import numpy as np

from engine.hands.categories import HandCategory
from engine.hands.evaluator import category_batch, evaluate_batch
from engine.maths.par_flop import MainParams, river_margins, row_ranks
from engine.maths.par_tables import colex_subsets

N_TYPES = 26
HOLE_CELLS = N_TYPES * N_TYPES
N_DEALER = comb(45, 2)
N_BOARD_CLASSES = 42_783
_STRAIGHT = int(HandCategory.STRAIGHT)
_SENTINEL = 8191  # above every strength: never below or equal to a hand
_RANK = np.arange(52, dtype=np.int64) >> 2
_FLUSH_BIT = np.left_shift(8, 4 * (np.arange(52) & 3)).astype(np.int64)
_SUIT_NIBBLE = np.left_shift(1, 4 * (np.arange(52) & 3)).astype(np.int64)
# class key of a board: five types summed, rank counts in base 5, flush-suit ranks as bits
_TYPE_KEY = np.array([5**t for t in range(13)] + [5**13 << t for t in range(13)], np.int64)

Progress = Callable[[int, int], None]
"""Called with (board classes done, board classes in all)."""


def card_types(cards: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Type (0..25) of each card of ``cards`` (``(N, k)``) on the board of its row (``(N, 5)``)."""
    boards = np.asarray(boards, dtype=np.intp)
    cards = np.asarray(cards, dtype=np.intp)
    nibbles = _SUIT_NIBBLE[boards].sum(axis=1)
    flush = (nibbles + 0x5555) & 0x8888  # bit 3 of a suit counter of 3..5 cards
    flagged = (flush[:, None] & _FLUSH_BIT[cards]) != 0
    return _RANK[cards] + 13 * flagged


def board_keys(boards: np.ndarray) -> np.ndarray:
    """Class key (int64) of each board of ``(N, 5)`` cards: equal keys, equal classes."""
    return _TYPE_KEY[card_types(boards, boards)].sum(axis=1)


@cache
def board_classes() -> tuple[np.ndarray, np.ndarray]:
    """``(keys, boards)``: the sorted class keys and one board (``(K, 5)`` cards) of each."""
    boards = colex_subsets(52, 5)
    keys, first = np.unique(board_keys(boards), return_index=True)
    reps = boards[first].astype(np.int64)
    keys.setflags(write=False)
    reps.setflags(write=False)
    return keys, reps


_HASH_BITS = 17  # 131,072 slots for at most 42,783 keys
_HASH_MULT = np.uint64(0x9E3779B97F4A7C15)


def _slots(keys: np.ndarray) -> np.ndarray:
    """Home slot of each key in a table of ``2**_HASH_BITS`` slots (multiplicative hashing)."""
    return ((keys.astype(np.uint64) * _HASH_MULT) >> np.uint64(64 - _HASH_BITS)).astype(np.intp)


def hash_index(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An open-addressing table of ``keys`` (distinct): ``(slot_keys, slot_values)`` with
    ``slot_values[s]`` the position in ``keys`` of the key held in slot ``s``, -1 if empty."""
    size = 1 << _HASH_BITS
    if len(keys) > size // 2:
        raise ValueError("too many keys for the hash table")
    slot_keys = np.full(size, -1, np.int64)
    slot_values = np.full(size, -1, np.int64)
    pending = np.arange(len(keys))
    slots = _slots(keys)
    while pending.size:
        s = slots[pending]
        free = slot_values[s] < 0
        # of the keys that want one free slot, the first takes it; the rest probe on
        s_free, first = np.unique(s[free], return_index=True)
        taken = pending[free][first]
        slot_keys[s_free] = keys[taken]
        slot_values[s_free] = taken
        done = np.zeros(len(keys), bool)
        done[taken] = True
        pending = pending[~done[pending]]
        slots[pending] = (slots[pending] + 1) & (size - 1)
    return slot_keys, slot_values


def hash_lookup(slot_keys: np.ndarray, slot_values: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Position of each of ``keys`` in the table of :func:`hash_index`, -1 if absent."""
    size = len(slot_keys)
    out = np.full(len(keys), -1, np.int64)
    slots = _slots(keys)
    pending = np.arange(len(keys))
    while pending.size:
        s = slots[pending]
        held = slot_keys[s]
        hit = held == keys[pending]
        out[pending[hit]] = slot_values[s[hit]]
        pending = pending[~hit & (held >= 0)]
        slots[pending] = (slots[pending] + 1) & (size - 1)
    return out


@dataclass(frozen=True)
class RiverTable:
    """Optimal river decisions of one set of main-bet parameters, full deck.

    ``play[k, 26 * t1 + t2]``: play 1x (True) or fold with hole types ``t1``, ``t2``
    on a board of class ``k`` (the class of key ``keys[k]``, keys ascending); both
    orders of the two types hold the same value.  A whole table has every class
    (:data:`N_BOARD_CLASSES`); a table built for a few boards only theirs.
    """

    params_key: str
    keys: np.ndarray
    play: np.ndarray

    @cached_property
    def _index(self) -> tuple[np.ndarray, np.ndarray]:
        return hash_index(self.keys)

    def classes(self, boards: np.ndarray) -> np.ndarray:
        """Class of each board of ``(N, 5)`` cards (index into ``keys``, -1 if absent)."""
        return hash_lookup(*self._index, board_keys(np.asarray(boards).reshape(-1, 5)))

    def covers(self, boards: np.ndarray) -> bool:
        """Whether the table holds the class of every board of ``(N, 5)`` cards."""
        return bool((self.classes(boards) >= 0).all())

    def lookup(self, holes: np.ndarray, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(play, known)`` for each row of ``holes`` ``(N, 2)`` on ``boards`` ``(N, 5)``:
        play 1x (True) or fold, where ``known`` (the table holds the board's class)."""
        holes = np.asarray(holes, dtype=np.intp).reshape(-1, 2)
        boards = np.asarray(boards, dtype=np.intp).reshape(-1, 5)
        nibbles = _SUIT_NIBBLE[boards].sum(axis=1)
        flush = (nibbles + 0x5555) & 0x8888
        seven = np.concatenate([boards, holes], axis=1)
        types = _RANK[seven] + 13 * ((flush[:, None] & _FLUSH_BIT[seven]) != 0)
        k = hash_lookup(*self._index, _TYPE_KEY[types[:, :5]].sum(axis=1))
        known = k >= 0
        play = self.play[np.maximum(k, 0), types[:, 5] * N_TYPES + types[:, 6]]
        play &= known
        return play, known

    def plays(self, holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """Play 1x (True) or fold for each row of ``holes`` ``(N, 2)`` on ``boards`` ``(N, 5)``.

        Raises ``ValueError`` if the table lacks a board's class (see :meth:`covers`).
        """
        play, known = self.lookup(holes, boards)
        if not known.all():
            raise ValueError("a board of a class this river table was not built for")
        return play


def spot_counts(
    boards: np.ndarray, qualify: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per board of ``(B, 5)`` cards and each two-card hand of its 47 other cards.

    Returns ``(hands, S, W, T, NQ)``, each ``(B, 1081)`` except ``hands`` ``(B, 1081, 2)``
    (the cards): the hand's seven-card strength ``S`` and, over the 990 dealer hands of
    the 45 unseen cards, how many it beats (``W``), ties (``T``) and do not qualify
    (``NQ``: below the strength ``qualify``).
    """
    boards = np.asarray(boards, dtype=np.int64)
    n_b = len(boards)
    in_board = np.zeros((n_b, 52), bool)
    in_board[np.arange(n_b)[:, None], boards] = True
    rem = np.flatnonzero(~in_board.ravel()).reshape(n_b, 47) % 52
    pairs = colex_subsets(47, 2).astype(np.intp)
    x, y = pairs[:, 0], pairs[:, 1]
    hands = rem[:, pairs]
    cards = np.empty((n_b, len(pairs), 7), np.uint8)
    cards[:, :, :5] = boards[:, None, :]
    cards[:, :, 5:] = hands
    S = evaluate_batch(cards.reshape(-1, 7)).reshape(n_b, len(pairs))
    M = np.full((n_b, 47, 47), _SENTINEL, np.uint16)
    M[:, x, y] = S
    M[:, y, x] = S
    r_all = row_ranks(S, (np.arange(n_b, dtype=np.intp) * len(pairs))[:, None])
    r_row = row_ranks(M.reshape(n_b * 47, 47), (np.arange(n_b * 47, dtype=np.intp) * 47)[:, None])
    r_row = r_row.reshape(n_b, 47, 47)
    rx, ry = r_row[:, x, y], r_row[:, y, x]  # rank of the hand in the rows of x and of y
    W = (r_all & 0xFFFF) - (rx & 0xFFFF) - (ry & 0xFFFF)
    T = (r_all >> 16) - (rx >> 16) - (ry >> 16) + 1
    below = S < qualify
    nq_row = (M < qualify).sum(axis=2)
    NQ = below.sum(axis=1)[:, None] - nq_row[:, x] - nq_row[:, y] + below
    return hands, S, W.astype(np.int64), T.astype(np.int64), NQ.astype(np.int64)


@dataclass(frozen=True)
class RiverBase:
    """River decisions that hold for every paytable of one dealer qualifier, and the rest.

    ``play[k, cell]`` is the decision when the Blind's pay does not matter: play iff
    ``X > 0``.  It does matter only where the player holds a straight or better (the
    Blind pays), ``X <= 0`` and ``W > 0``: those *pay-dependent* entries are listed
    (``dep_class``, ``dep_cell`` with both orders of the types, ``dep_category``,
    ``dep_x``, ``dep_w``) and :meth:`for_params` decides them for a paytable: play iff
    ``scale * X + blind_scaled[category] * W > 0``.
    """

    qualify: int
    keys: np.ndarray
    play: np.ndarray
    dep_class: np.ndarray
    dep_cell: np.ndarray
    dep_category: np.ndarray
    dep_x: np.ndarray
    dep_w: np.ndarray

    def for_params(self, params: MainParams) -> RiverTable:
        """The river table of ``params`` (whose qualifier must be this base's)."""
        if params.qualify != self.qualify:
            raise ValueError("a river table is built for one dealer qualifier")
        play = self.play.copy()
        pays = np.asarray(params.blind_scaled, np.int64)
        play[self.dep_class, self.dep_cell] = (
            params.scale * self.dep_x + pays[self.dep_category] * self.dep_w > 0
        )
        play.setflags(write=False)
        return RiverTable(params.key, self.keys, play)

    @property
    def whole(self) -> bool:
        """Whether the base has every board class."""
        return len(self.keys) == N_BOARD_CLASSES


_Block = tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]


def _build_block(qualify: int, ks: np.ndarray, boards: np.ndarray) -> _Block:
    """The base's rows of the classes ``ks`` (one board of each in ``boards``), and their
    pay-dependent entries."""
    hands, S, W, T, NQ = spot_counts(boards, qualify)
    X = river_margins(S, W, T, NQ, qualify, N_DEALER)
    types = _hand_types(hands, boards)
    cell = np.arange(len(ks))[:, None] * HOLE_CELLS + types[..., 0] * N_TYPES + types[..., 1]
    cell = cell.ravel()
    X, W, cat = X.ravel(), W.ravel(), category_batch(S).ravel().astype(np.int64)
    order = np.argsort(cell, kind="stable")
    c, x, w, k = cell[order], X[order], W[order], cat[order]
    same = c[1:] == c[:-1]
    if (same & ((x[1:] != x[:-1]) | (w[1:] != w[:-1]) | (k[1:] != k[:-1]))).any():
        raise AssertionError("two hands of one river-table index have different values")
    first = np.concatenate([[True], ~same])
    c, x, w, k = c[first], x[first], w[first], k[first]
    block = np.zeros(len(ks) * HOLE_CELLS, bool)
    block[c] = x > 0
    rows = block.reshape(len(ks), N_TYPES, N_TYPES)
    rows |= rows.transpose(0, 2, 1)
    sel = (k >= _STRAIGHT) & (x <= 0) & (w > 0)
    cls, cl = ks[c[sel] // HOLE_CELLS], c[sel] % HOLE_CELLS
    swapped = (cl % N_TYPES) * N_TYPES + cl // N_TYPES
    both = (np.concatenate([a, a]) for a in (cls, k[sel], x[sel], w[sel]))
    dcls, dk, dx, dw = both
    return ks, rows.reshape(len(ks), HOLE_CELLS), (dcls, np.concatenate([cl, swapped]), dk, dx, dw)


def build_river_base(
    qualify: int,
    boards: np.ndarray | None = None,
    *,
    workers: int = 1,
    chunk: int = 64,
    progress: Progress | None = None,
) -> RiverBase:
    """The river base of the dealer qualifier ``qualify`` (a strength floor): every board
    class (about 30 s of one core, shared by ``workers`` processes), or only the classes
    of ``boards`` (``(N, 5)`` cards: a sub-problem, or a sample to check).

    Raises ``AssertionError`` if two hands that share an index have different values
    (they cannot).
    """
    if boards is None:
        keys, reps = board_classes()
    else:
        boards = np.asarray(boards, np.int64).reshape(-1, 5)
        keys, first = np.unique(board_keys(boards), return_index=True)
        reps = boards[first]
    todo = np.arange(len(keys))
    play = np.zeros((len(keys), HOLE_CELLS), bool)
    dep: list[tuple[np.ndarray, ...]] = []
    chunks = [todo[i : i + chunk] for i in range(0, len(todo), chunk)]
    done = 0

    def absorb(block: _Block) -> None:
        nonlocal done
        ks, rows, deps = block
        play[ks] = rows
        dep.append(deps)
        done += len(ks)
        if progress:
            progress(done, len(todo))

    if workers <= 1 or len(chunks) <= 1:
        for ks in chunks:
            absorb(_build_block(qualify, ks, reps[ks]))
    else:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
        with ProcessPoolExecutor(min(workers, len(chunks)), mp_context=ctx) as pool:
            futures = [pool.submit(_build_block, qualify, ks, reps[ks]) for ks in chunks]
            for fut in as_completed(futures):
                absorb(fut.result())
    cols = [
        np.concatenate([d[i] for d in dep]).astype(np.int64) if dep else np.zeros(0, np.int64)
        for i in range(5)
    ]
    for a in (play, *cols):
        a.setflags(write=False)
    return RiverBase(qualify, keys, play, *cols)


def build_river_table(params: MainParams, boards: np.ndarray | None = None) -> RiverTable:
    """The river table of ``params`` (see :func:`build_river_base`)."""
    return build_river_base(params.qualify, boards).for_params(params)


def _hand_types(hands: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Types ``(B, H, 2)`` of the hands ``(B, H, 2)`` on their boards ``(B, 5)``."""
    nibbles = _SUIT_NIBBLE[boards].sum(axis=1)
    flush = (nibbles + 0x5555) & 0x8888
    flagged = (flush[:, None, None] & _FLUSH_BIT[hands]) != 0
    return _RANK[hands] + 13 * flagged


__all__ = [
    "HOLE_CELLS",
    "N_BOARD_CLASSES",
    "N_TYPES",
    "RiverBase",
    "RiverTable",
    "board_classes",
    "board_keys",
    "build_river_base",
    "build_river_table",
    "card_types",
    "spot_counts",
]
