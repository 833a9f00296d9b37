"""Batch evaluation shapes that the maths needs and :mod:`engine.hands.evaluator` does not offer.

:func:`board_plus_one` gives, for each five-card board, the strength of the board plus
each of the 52 cards (the "dealer outs" of the simple river rule).  It reads the same
tables as :func:`engine.hands.evaluator.evaluate_batch` (see :mod:`engine.hands.tables`),
so it agrees with it exactly (a test checks this), but shares the board's key sum and
evaluates a six-card non-flush hand once per rank instead of once per card.
"""

from __future__ import annotations

import numpy as np

from engine.hands import tables as _t

_tables = _t.load()
_KEYS = _t.card_keys()
_LOW6 = _tables["low_base_6"].astype(np.intp)
_HIGH = _tables["high_index"].astype(np.intp)
_RANKS6 = _tables["ranks_6"]
_FLUSH = _tables["flush"]
_RANK_KEY = _KEYS[0::4] & ((1 << _t.SUIT_SHIFT) - 1)  # (13,) rank part of each rank's key


def board_plus_one(boards: np.ndarray) -> np.ndarray:
    """``(N, 52)`` uint16: strength of each board (``(N, 5)`` cards) plus card ``c``.

    Entries for cards already on the board are meaningless (the caller masks them).
    """
    boards = np.asarray(boards, dtype=np.intp)
    n = len(boards)
    key = _KEYS[boards].sum(axis=1)  # (N,)
    rank_part = key & ((1 << _t.SUIT_SHIFT) - 1)
    s = rank_part[:, None] + _RANK_KEY[None, :]  # (N, 13): board + a card of each rank
    # a fifth card of a rank the board holds four times is no card: clamp its lookups
    idx = _LOW6[np.minimum(s & _t.LOW_MASK, len(_LOW6) - 1)]
    idx += _HIGH[np.minimum((s >> _t.HIGH_SHIFT) & _t.HIGH_MASK, len(_HIGH) - 1)]
    np.clip(idx, 0, len(_RANKS6) - 1, out=idx)
    by_rank = _RANKS6[idx]  # (N, 13) non-flush strengths
    out = np.repeat(by_rank, 4, axis=1)  # card c = 4 * rank + suit
    # a suit with four or more board cards makes a flush with every card of that suit
    suits = boards & 3
    counts = np.stack([(suits == s_).sum(axis=1) for s_ in range(4)], axis=1)
    heavy = np.flatnonzero(counts.max(axis=1) >= 4)
    if heavy.size:
        hb = boards[heavy]
        suit = counts[heavy].argmax(axis=1)
        bits = np.where((hb & 3) == suit[:, None], 1 << (hb >> 2), 0).sum(axis=1)  # (H,)
        cards = np.arange(52)
        same = (cards[None, :] & 3) == suit[:, None]  # (H, 52)
        flush_with = _FLUSH[bits[:, None] | (1 << (cards[None, :] >> 2))]
        five = counts[heavy].max(axis=1) >= 5
        rows = out[heavy]
        rows = np.where(same, flush_with, rows)
        rows = np.where(five[:, None] & ~same, _FLUSH[bits][:, None], rows)
        out[heavy] = rows
    assert out.shape == (n, 52)
    return out


def rank_counts(cards: np.ndarray) -> np.ndarray:
    """``(N, 13)`` int64: how many cards of each rank each row of ``cards`` holds."""
    cards = np.asarray(cards, dtype=np.intp)
    n, k = cards.shape
    keys = (np.arange(n, dtype=np.intp) * 13)[:, None] + (cards >> 2)
    return np.bincount(keys.ravel(), minlength=13 * n).reshape(n, 13)


_LOW_KEYS = np.array([_KEYS[4 * r] & _t.LOW_MASK for r in range(7)], np.intp)
_HIGH_KEYS = np.array(
    [(_KEYS[4 * r] >> _t.HIGH_SHIFT) & _t.HIGH_MASK for r in range(7, 13)], np.intp
)
# padded so that a (impossible) fifth card of a rank never indexes past the end
_LOW6_PAD = np.concatenate([_LOW6, np.zeros(int(_LOW_KEYS.max()) + 1, np.intp)])
_HIGH_PAD = np.concatenate([_HIGH, np.zeros(int(_HIGH_KEYS.max()) + 1, np.intp)])
# [low_sum, r]: six-card base index of the board's low half plus a low card of rank r
# (likewise for the high half): one row lookup per board instead of seven
_LOW_PLUS = _LOW6_PAD[np.arange(len(_LOW6))[:, None] + _LOW_KEYS[None, :]]
_HIGH_PLUS = _HIGH_PAD[np.arange(len(_HIGH))[:, None] + _HIGH_KEYS[None, :]]
_RANKS6_PAD = np.concatenate(
    [_RANKS6, np.zeros(int(_HIGH.max()) + int(_LOW6.max()) + 2, _RANKS6.dtype)]
)
_FOUR_OF_A_SUIT = 0x4444 << _t.SUIT_SHIFT  # a suit counter of 4 or 5 (five cards)


def dealer_outs(
    holes: np.ndarray,
    boards: np.ndarray,
    strengths: np.ndarray,
    deck_mask: np.ndarray | None = None,
) -> np.ndarray:
    """Per row: unseen cards ``c`` with ``strength(board + c) > strength`` (ties are not outs).

    Unseen: in ``deck_mask`` (default all 52) and neither a hole nor a board card.
    Without four cards of a suit on the board no card makes a flush, so the six-card
    strength depends on the card's rank alone: 13 lookups per row; the outs are then the
    deck's cards of the beating ranks less the seven known cards of those ranks.  Boards
    with four or more of a suit are counted card by card (:func:`board_plus_one`).
    """
    holes = np.asarray(holes, dtype=np.intp)
    boards = np.asarray(boards, dtype=np.intp)
    mine = np.asarray(strengths).astype(np.int32)
    n = len(boards)
    key = _KEYS[boards[:, 0]]
    for j in range(1, 5):
        key = key + _KEYS[boards[:, j]]
    low = key & _t.LOW_MASK
    high = (key >> _t.HIGH_SHIFT) & _t.HIGH_MASK
    idx = np.empty((n, 13), np.intp)
    idx[:, :7] = _LOW_PLUS[low]  # a low card added: the low half changes
    idx[:, :7] += _HIGH_PAD[high][:, None]
    idx[:, 7:] = _HIGH_PLUS[high]  # a high card added
    idx[:, 7:] += _LOW6_PAD[low][:, None]
    beats = _RANKS6_PAD[idx] > mine[:, None]  # (N, 13): a card of this rank beats the player
    if deck_mask is None:
        outs = 4 * np.count_nonzero(beats, axis=1)
    else:
        mask = np.asarray(deck_mask, bool)
        outs = beats @ mask.reshape(13, 4).sum(axis=1)
    # the seven known cards are not unseen
    known = np.concatenate([holes, boards], axis=1) >> 2
    known += (np.arange(n, dtype=np.intp) * 13)[:, None]
    outs -= np.take(beats.ravel(), known).sum(axis=1)
    heavy = np.flatnonzero(key & _FOUR_OF_A_SUIT)
    if heavy.size:
        mask = np.ones(52, bool) if deck_mask is None else np.asarray(deck_mask, bool)
        full = board_plus_one(boards[heavy])
        un = np.broadcast_to(mask, full.shape).copy()
        hr = np.arange(len(heavy))[:, None]
        un[hr, holes[heavy]] = False
        un[hr, boards[heavy]] = False
        outs[heavy] = ((full > mine[heavy, None]) & un).sum(axis=1)
    return outs
