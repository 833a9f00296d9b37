"""Poker hand evaluation for 5, 6 or 7 cards, one hand at a time or in numpy batches.

``evaluate(cards)`` returns a strength in ``1..7462`` (higher beats lower, equal ties);
``evaluate_batch(array)`` does the same for an ``(N, 5|6|7)`` array and agrees with
``evaluate`` exactly.  Both use the tables of :mod:`engine.hands.tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from engine.hands import tables as _t
from engine.hands.categories import (
    STRENGTH_MAX,
    STRENGTH_MIN,
    HandCategory,
    HandClass,
    category,
    category_floors,
    describe,
    hand_class,
)

__all__ = [
    "HandCategory",
    "HandClass",
    "STRENGTH_MAX",
    "STRENGTH_MIN",
    "best_five",
    "category",
    "category_batch",
    "category_floors",
    "describe",
    "evaluate",
    "evaluate_batch",
    "hand_class",
]

_tables = _t.load()
_CARD_KEYS = _t.card_keys()
_RANK_BIT = np.array([1 << (c >> 2) for c in range(52)], dtype=np.int32)
_SUIT = np.array([c & 3 for c in range(52)], dtype=np.int8)
_HIGH_INDEX = _tables["high_index"]
_FLUSH = _tables["flush"]
_LOW_BASE = {n: _tables[f"low_base_{n}"] for n in _t.HAND_SIZES}
_RANKS = {n: _tables[f"ranks_{n}"] for n in _t.HAND_SIZES}
_CATEGORY_OF = np.zeros(STRENGTH_MAX + 1, dtype=np.int8)
for _s in range(STRENGTH_MIN, STRENGTH_MAX + 1):
    _CATEGORY_OF[_s] = category(_s)

# Plain-Python copies for the scalar path (list indexing beats numpy scalar indexing).
_KEYS_PY = [int(k) for k in _CARD_KEYS]
_BITS_PY = [int(b) for b in _RANK_BIT]
_HIGH_PY = _HIGH_INDEX.tolist()
_FLUSH_PY = _FLUSH.tolist()
_LOW_PY = {n: v.tolist() for n, v in _LOW_BASE.items()}
_RANKS_PY = {n: v.tolist() for n, v in _RANKS.items()}
_PROBE_ADD, _PROBE_BITS = _t.FLUSH_PROBE_ADD, _t.FLUSH_PROBE_BITS
_PAIR_KEYS = np.zeros(52 << 6, dtype=np.int64)
for _a in range(52):
    _PAIR_KEYS[_a << 6 : (_a << 6) + 52] = _CARD_KEYS[_a] + _CARD_KEYS
_SUIT_OF_PROBE = {0x8 << 32: 0, 0x80 << 32: 1, 0x800 << 32: 2, 0x8000 << 32: 3}

CHUNK = 1 << 15  # rows per block: the buffers stay in L2


def evaluate(cards: Sequence[int]) -> int:
    """Strength (1..7462) of the best five-card hand within 5, 6 or 7 distinct cards."""
    n = len(cards)
    keys = _KEYS_PY
    s = 0
    for c in cards:
        s += keys[c]
    probe = (s + _PROBE_ADD) & _PROBE_BITS
    if probe:
        suit = _SUIT_OF_PROBE[probe]
        bits = _BITS_PY
        mask = 0
        for c in cards:
            if c & 3 == suit:
                mask |= bits[c]
        return _FLUSH_PY[mask]
    try:
        return _RANKS_PY[n][_LOW_PY[n][s & 0xFFFF] + _HIGH_PY[(s >> 16) & 0x3FFF]]
    except KeyError:
        raise ValueError(f"evaluate takes 5, 6 or 7 cards, got {n}") from None


def evaluate_batch(cards: np.ndarray) -> np.ndarray:
    """Strengths (uint16) of an ``(N, k)`` integer array of hands, k in 5, 6, 7.

    Cards in a row must be distinct; rows are independent.  Works in cache-sized
    chunks with reused buffers, so memory stays flat whatever N is.  Two cards at a
    time are looked up in :data:`_PAIR_KEYS` (index ``card_a << 6 | card_b``).
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.shape[1] not in _RANKS:
        raise ValueError(f"evaluate_batch takes an (N, 5|6|7) array, got shape {arr.shape}")
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise ValueError("cards must be in 0..51")
        arr = arr.astype(np.uint8)
    n_rows, n_cards = arr.shape
    out = np.empty(n_rows, dtype=np.uint16)
    low_base, ranks = _LOW_BASE[n_cards], _RANKS[n_cards]
    size = min(CHUNK, max(n_rows, 1))
    key_sum = np.empty(size, np.int64)
    scratch = np.empty(size, np.int64)
    index = np.empty(size, np.int32)
    index_high = np.empty(size, np.int32)
    pair = np.empty(size, np.uint16)
    is_flush = np.empty(size, bool)
    columns = arr.T
    for start in range(0, n_rows, CHUNK):
        m = min(CHUNK, n_rows - start)
        cols = np.ascontiguousarray(columns[:, start : start + m])
        s, tmp, idx, idx_high = key_sum[:m], scratch[:m], index[:m], index_high[:m]
        pr, fl = pair[:m], is_flush[:m]
        for j in range(0, n_cards - 1, 2):
            np.left_shift(cols[j], 6, out=pr, dtype=np.uint16)
            pr |= cols[j + 1]
            if j == 0:
                np.take(_PAIR_KEYS, pr, out=s)
            else:
                np.take(_PAIR_KEYS, pr, out=tmp)
                s += tmp
        if n_cards % 2:
            np.take(_CARD_KEYS, cols[n_cards - 1], out=tmp)
            s += tmp
        np.bitwise_and(s, _t.LOW_MASK, out=tmp)
        np.take(low_base, tmp, out=idx)
        np.right_shift(s, _t.HIGH_SHIFT, out=tmp)
        tmp &= _t.HIGH_MASK
        np.take(_HIGH_INDEX, tmp, out=idx_high)
        idx += idx_high
        res = out[start : start + m]
        np.take(ranks, idx, out=res)
        np.add(s, _PROBE_ADD, out=tmp)
        tmp &= _PROBE_BITS
        np.not_equal(tmp, 0, out=fl)
        flush_rows = np.flatnonzero(fl)
        if flush_rows.size:
            probe = tmp[flush_rows] >> (_t.SUIT_SHIFT + 3)
            suit = (probe > 0x1).astype(np.int8) + (probe > 0x10) + (probe > 0x100)
            sub = cols[:, flush_rows]
            mask = np.where(_SUIT[sub] == suit, _RANK_BIT[sub], 0).sum(axis=0)
            res[flush_rows] = _FLUSH[mask]
    return out


def category_batch(strengths: np.ndarray) -> np.ndarray:
    """Categories (int8, values of :class:`HandCategory`) of an array of strengths."""
    return _CATEGORY_OF[np.asarray(strengths)]


def best_five(cards: Sequence[int]) -> list[int]:
    """The five cards that make the best hand of ``cards`` (5 to 7 cards).

    Ordered by importance: the cards of the made hand first (quads, trips, pairs),
    highest rank first, kickers last; straights from the top card down.
    """
    hand = [int(c) for c in cards]
    best: Sequence[int] = hand
    if len(hand) != 5:
        best = max(combinations(hand, 5), key=evaluate)
    hc = hand_class(evaluate(best))
    counts: dict[int, int] = {}
    for c in best:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    if hc.category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH) and hc.ranks[0] == 3:
        return sorted(best, key=lambda c: ((c >> 2) + 1) % 13, reverse=True)
    return sorted(best, key=lambda c: (counts[c >> 2], c >> 2, c & 3), reverse=True)
