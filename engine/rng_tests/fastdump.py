"""The raw dump at battery speed: the tap on the cabinet's source, vectorised over decks.

Outside batteries need far more bits than the tap gives (:func:`engine.rng_tests.tapped_dump`,
the cabinet's :class:`engine.rng.SystemRandomSource` with its :class:`engine.rng.DrawTap`
running the cabinet's shuffle, one OS read per draw: 0.1 to 0.2 MB/s here, where this
module gives 1.4 to 4 MB/s (``bench.rng_speed``); ``dieharder -a`` reads tens of gigabytes).  :func:`shuffle_draws`
runs the same Fisher-Yates with rejection sampling on many decks at once: each deck reads
its own row of OS bytes, one byte per draw, and keeps the top ``k`` bits of it, ``k =
bit_length(n)`` for a draw below ``n`` (what the cabinet's source reads and keeps for
``k <= 8``).  Every draw is kept, accepted or not, in deal order, deck after deck: the bit
stream the tap records (a test feeds both the same bytes for each deck and compares them
bit for bit, and the decks).  ``uth rng dump --fast`` writes it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

#: Bytes each deck's row starts with (about 66 draws are needed on average, with a
#: standard deviation near 8; a row that runs out is extended by :data:`EXTEND_BYTES`).
ROW_BYTES = 128
EXTEND_BYTES = 32
#: Decks shuffled per batch of :func:`dump_stream`.
BATCH_DECKS = 16_384
#: The bit count of a draw at each Fisher-Yates step (below 52, 51, ..., 2).
STEP_WIDTHS = np.array([(i + 1).bit_length() for i in range(51, 0, -1)], dtype=np.uint8)


@dataclass(frozen=True)
class Draws:
    """The draws of a batch of shuffles: ``values`` and ``widths`` (uint8, one per draw,
    deck after deck, in deal order), ``per_deck`` the number of draws of each deck, and
    ``decks`` (D, 52) when asked for."""

    values: np.ndarray
    widths: np.ndarray
    per_deck: np.ndarray
    decks: np.ndarray | None


def shuffle_draws(
    rows: np.ndarray, more: Callable[[int], np.ndarray] | None = None, with_decks: bool = False
) -> Draws:
    """Shuffle one deck per row of OS bytes ``rows`` (uint8, (D, R)), one byte per draw.

    ``more(count)`` gives ``count`` further bytes when a row runs out (default: the OS
    generator); ``with_decks`` also returns the decks, card by position."""
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    d = rows.shape[0]
    ptr = np.zeros(d, dtype=np.intp)
    starts = np.empty((len(STEP_WIDTHS) + 1, d), dtype=np.intp)
    deck = np.tile(np.arange(52, dtype=np.int8), (d, 1)) if with_decks else None
    every = np.arange(d)
    for step, k in enumerate(STEP_WIDTHS):
        i = 51 - step
        n = i + 1
        starts[step] = ptr
        active = every
        while active.size:
            at = ptr[active]
            if int(at.max()) >= rows.shape[1]:
                fresh = np.asarray((more or _urandom_rows)(d * EXTEND_BYTES), np.uint8)
                rows = np.concatenate([rows, fresh.reshape(d, EXTEND_BYTES)], axis=1)
            r = rows[active, at] >> (8 - int(k))
            ptr[active] += 1
            ok = r < n
            if deck is not None:
                done = active[ok]
                j = r[ok].astype(np.intp)
                swap = deck[done, i].copy()
                deck[done, i] = deck[done, j]
                deck[done, j] = swap
            active = active[~ok]
    starts[-1] = ptr
    runs = np.diff(starts, axis=0).T.ravel()  # draws per (deck, step), deck-major
    widths = np.repeat(np.tile(STEP_WIDTHS, d), runs)
    consumed = np.arange(rows.shape[1])[None, :] < ptr[:, None]
    values = rows[consumed] >> (8 - widths)
    return Draws(values, widths, ptr.copy(), deck)


def _urandom_rows(count: int) -> np.ndarray:
    return np.frombuffer(os.urandom(count), dtype=np.uint8)


def draw_bits(values: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """The draws as one bit array (0/1, uint8), each draw's ``k`` bits most significant
    first (for tests; :func:`pack_draws` is the fast form)."""
    w = widths.astype(np.intp)
    first = np.cumsum(w) - w
    within = np.arange(int(w.sum())) - np.repeat(first, w)
    shift = (np.repeat(w, w) - 1 - within).astype(np.uint8)
    return ((np.repeat(values, w) >> shift) & 1).astype(np.uint8)


def pack_draws(values: np.ndarray, widths: np.ndarray) -> tuple[bytes, int, int]:
    """The draws packed into bytes (each draw's ``k`` bits most significant first, draws
    of up to 7 bits): ``(whole_bytes, rest_value, rest_bits)``, the last incomplete byte's
    bits left over (to lead the next batch)."""
    w = widths.astype(np.int64)
    offset = np.cumsum(w) - w
    total = int(offset[-1] + w[-1]) if len(w) else 0
    byte = offset >> 3
    # each draw within the 16-bit window starting at its first byte (no two overlap)
    window = values.astype(np.int64) << (16 - (offset & 7) - w)
    size = (total + 7) // 8 + 1
    out = np.bincount(byte, weights=window >> 8, minlength=size)
    out += np.bincount(byte + 1, weights=window & 0xFF, minlength=size)
    packed = out.astype(np.uint8)
    whole = total // 8
    rest_bits = total - 8 * whole
    rest_value = int(packed[whole]) >> (8 - rest_bits) if rest_bits else 0
    return packed[:whole].tobytes(), rest_value, rest_bits


def dump_stream(
    count: int | None, urandom: Callable[[int], bytes] = os.urandom, batch: int = BATCH_DECKS
) -> Iterator[bytes]:
    """``count`` bytes of the shuffle's raw draws (``None``: without end), in chunks."""
    if count is not None and count < 0:
        raise ValueError("count must not be negative")
    left = count
    rest_value, rest_bits = 0, 0

    def more(n: int) -> np.ndarray:
        return np.frombuffer(urandom(n), dtype=np.uint8)

    while left is None or left > 0:
        draws = shuffle_draws(more(batch * ROW_BYTES).reshape(batch, ROW_BYTES), more)
        values = np.concatenate([np.array([rest_value], np.uint8), draws.values])
        widths = np.concatenate([np.array([rest_bits], np.uint8), draws.widths])
        chunk, rest_value, rest_bits = pack_draws(values, widths)
        if left is not None:
            chunk = chunk[:left]
            left -= len(chunk)
        yield chunk
