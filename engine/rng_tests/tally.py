"""What the game-level tests count, accumulated batch by batch (10^7 decks never sit in
memory at once): :class:`GameTally`.

A tally follows one stream of decks in deal order; the tests between successive decks
(serial correlation, gap, coupon collector) carry their state from one batch to the
next.  Tallies of independent streams (worker processes) :meth:`GameTally.merge` into
one: counts add, and no pair is formed across two streams.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.hands import category_batch, evaluate_batch
from engine.uth.round import BOARD_POSITIONS, DEALER_POSITIONS

#: The dealer's two cards and the board (:mod:`engine.uth.round`).
DEALER_AND_BOARD = (*DEALER_POSITIONS, *BOARD_POSITIONS)
#: Gap lengths counted one by one; longer gaps share the last class.
GAP_CLASSES = 160
#: Coupon-collector sequence lengths counted one by one (13 ranks: 13 .. COUPON_LAST - 1).
COUPON_LAST = 100
#: Sum over the 52 positions of (position - 25.5)^2: the serial correlation's denominator.
_CENTRED_SQUARES = float(sum((p - 25.5) ** 2 for p in range(52)))


@dataclass
class GameTally:
    """The counts of the game-level tests over the decks added so far."""

    decks: int = 0
    positions: np.ndarray = field(default_factory=lambda: np.zeros((52, 52), np.int64))
    dealer_categories: np.ndarray = field(default_factory=lambda: np.zeros(9, np.int64))
    adjacency: np.ndarray = field(default_factory=lambda: np.zeros((52, 52), np.int64))
    serial_r_sum: float = 0.0
    serial_pairs: int = 0
    runs_total: int = 0
    gaps: np.ndarray = field(default_factory=lambda: np.zeros(GAP_CLASSES + 1, np.int64))
    coupons: np.ndarray = field(
        default_factory=lambda: np.zeros(COUPON_LAST - 12, np.int64))
    #: The lengths of the independent streams merged in (this one's is ``own_decks``).
    merged_streams: list[int] = field(default_factory=list)
    own_decks: int = 0
    _last_positions: np.ndarray | None = None
    _last_top: np.ndarray = field(default_factory=lambda: np.full(52, -1, np.int64))
    _coupon_seen: int = 0
    _coupon_count: int = 0

    def add(self, decks: np.ndarray) -> None:
        """Count a batch of decks (n, 52), card by position, following the ones before."""
        decks = np.asarray(decks)
        n = decks.shape[0]
        if n == 0:
            return
        cards = decks.astype(np.int64)
        self.positions += np.bincount((cards * 52 + np.arange(52)).ravel(),
                                      minlength=52 * 52).reshape(52, 52)
        strengths = evaluate_batch(cards[:, DEALER_AND_BOARD])
        cats = np.minimum(category_batch(strengths).astype(np.int64), 8)
        self.dealer_categories += np.bincount(cats, minlength=9)[:9]
        self.adjacency += np.bincount((cards[:, :-1] * 52 + cards[:, 1:]).ravel(),
                                      minlength=52 * 52).reshape(52, 52)
        self._add_serial(cards)
        self.runs_total += int(n + (np.diff(cards, axis=1) < 0).sum())
        self._add_gaps(cards[:, 0])
        self._add_coupons(cards[:, 0] // 4)
        self.decks += n
        self.own_decks += n

    def _add_serial(self, cards: np.ndarray) -> None:
        pos = np.argsort(cards, axis=1).astype(np.float64) - 25.5  # each card's position
        if self._last_positions is not None:
            pos_all = np.vstack([self._last_positions[None, :], pos])
        else:
            pos_all = pos
        r = (pos_all[:-1] * pos_all[1:]).sum(axis=1) / _CENTRED_SQUARES
        self.serial_r_sum += float(r.sum())
        self.serial_pairs += len(r)
        self._last_positions = pos[-1].copy()

    def _add_gaps(self, top: np.ndarray) -> None:
        index = self.own_decks + np.arange(len(top), dtype=np.int64)
        known = np.flatnonzero(self._last_top >= 0)
        card = np.concatenate([known, top])
        at = np.concatenate([self._last_top[known], index])
        order = np.lexsort((at, card))
        card, at = card[order], at[order]
        same = card[1:] == card[:-1]
        gaps = (at[1:] - at[:-1] - 1)[same]
        self.gaps += np.bincount(np.minimum(gaps, GAP_CLASSES), minlength=GAP_CLASSES + 1)
        last = np.flatnonzero(np.append(~same, True))
        self._last_top[card[last]] = at[last]

    def _add_coupons(self, ranks: np.ndarray) -> None:
        seen, count = self._coupon_seen, self._coupon_count
        full = (1 << 13) - 1
        lengths = []
        for r in ranks.tolist():
            count += 1
            seen |= 1 << r
            if seen == full:
                lengths.append(count)
                seen, count = 0, 0
        self._coupon_seen, self._coupon_count = seen, count
        if lengths:
            clipped = np.minimum(np.array(lengths, np.int64), COUPON_LAST) - 13
            self.coupons += np.bincount(clipped, minlength=COUPON_LAST - 12)

    def merge(self, other: GameTally) -> None:
        """Add the counts of another, independent stream's tally."""
        self.decks += other.decks
        for name in ("positions", "dealer_categories", "adjacency", "gaps", "coupons"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.serial_r_sum += other.serial_r_sum
        self.serial_pairs += other.serial_pairs
        self.runs_total += other.runs_total
        self.merged_streams += other.stream_lengths()

    def stream_lengths(self) -> list[int]:
        """The number of decks of each independent stream counted here."""
        return [n for n in (self.own_decks, *self.merged_streams) if n]

    def gap_shape(self) -> np.ndarray:
        """The expected share of each gap class (lengths 0 .. GAP_CLASSES - 1, then the
        rest): in a stream of ``n`` top cards a gap of ``g`` between two appearances of
        one card is expected ``(n - g - 1) q (1 - q)^g`` times (``q`` = 1/52), which
        counts that gaps near the stream's end are cut short."""
        q = 1 / 52
        expected = np.zeros(GAP_CLASSES + 1)
        for n in self.stream_lengths():
            g = np.arange(max(n - 1, 0), dtype=np.float64)
            each = (n - g - 1) * q * (1 - q) ** g
            expected[:GAP_CLASSES] += each[:GAP_CLASSES]
            expected[GAP_CLASSES] += each[GAP_CLASSES:].sum()
        total = expected.sum()
        return expected / total if total else expected
