"""The raw dump at battery speed: the tap on the cabinet's source, vectorised over decks.

Outside batteries need far more bits than the tap gives (:func:`engine.rng_tests.tapped_dump`,
the cabinet's :class:`engine.rng.SystemRandomSource` with its :class:`engine.rng.DrawTap`
running the cabinet's shuffle, one OS read per draw: 0.1 to 0.2 MB/s here); ``dieharder -a``
reads 250 to 300 GB through a pipe.  :func:`shuffle_draws` runs the same Fisher-Yates with
rejection sampling on many decks at once: each deck reads its own row of OS bytes, one byte
per draw, and keeps the top ``k`` bits of it, ``k = bit_length(n)`` for a draw below ``n``
(what the cabinet's source reads and keeps for ``k <= 8``).  Every draw is kept, accepted or
not, in deal order, deck after deck: the bit stream the tap records (a test feeds both the
same bytes for each deck and compares them bit for bit, and the decks).  ``uth rng dump
--fast`` writes it.

How it runs: a batch is shuffled :data:`PART_DECKS` decks at a time (the arrays stay in
the processor's cache).  The part's bytes are turned column-major (one row per draw index,
one column per deck) and one pass over the columns advances every deck's Fisher-Yates step
at once, with a handful of ufuncs on whole columns and no fancy indexing; the bound ``n``
each byte met gives its width and value.  Packing pairs neighbouring draws three times (8
draws, at most 48 bits, in one 64-bit item; unread bytes are draws of width 0), then adds
each item into its one or two big-endian 64-bit words (the items' bits never overlap).

Measured with ``bench.rng_speed --fast --megabytes 200`` on a shared two-core machine
(load average 4 to 5): 20 to 28 MB/s by the clock, 37 to 40 MB per second of this
process's CPU, where the per-step rejection loop with bincount packing this module had gave
5 to 6.4 MB/s and 10 MB per CPU second.  Of a batch's CPU time (16,384 decks, about 770 kB
out), the OS reads (128 bytes a deck) take about a third, the column pass a third, the
packing the rest.  Streamed into ``dieharder -g 200`` on the same machine, the stream is
what limits (about 17 MB/s, where ``/dev/urandom`` feeds it 85 MB/s), so ``dieharder -a``
takes hours, not minutes.  ``uth rng dump --fast --workers N`` runs whole batches in N
processes; on two cores beside dieharder it measured no faster.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

#: Bytes each deck's row starts with (about 66 draws are needed on average, with a
#: standard deviation near 8; a row that runs out is extended by :data:`EXTEND_BYTES`).
ROW_BYTES = 128
EXTEND_BYTES = 32
#: Decks shuffled per batch of :func:`dump_stream`, and per part of a batch.
BATCH_DECKS = 16_384
PART_DECKS = 4096
#: The bit count of a draw at each Fisher-Yates step (below 52, 51, ..., 2).
STEP_WIDTHS = np.array([(i + 1).bit_length() for i in range(51, 0, -1)], dtype=np.uint8)
#: Steps in a shuffle; a deck at step :data:`DONE` reads no more bytes.
DONE = len(STEP_WIDTHS)


#: A draw's width by the bound ``n`` it is drawn below (0: the deck is done, ``n <= 1``),
#: as a byte table for ``bytes.translate``.
_WIDTH_BY_BOUND = bytes([0, 0] + [n.bit_length() for n in range(2, 256)])


@dataclass(frozen=True)
class Draws:
    """The draws of a batch of shuffles: ``values`` and ``widths`` (uint8, one per draw,
    deck after deck, in deal order), ``per_deck`` the number of draws of each deck, and
    ``decks`` (D, 52) when asked for."""

    values: np.ndarray
    widths: np.ndarray
    per_deck: np.ndarray
    decks: np.ndarray | None


def _lookup(a: np.ndarray, table: bytes) -> np.ndarray:
    """``table[a]`` for a uint8 array, through ``bytes.translate``."""
    return np.frombuffer(a.tobytes().translate(table), np.uint8).reshape(a.shape)


def _columns(
    rows: np.ndarray, more: Callable[[int], np.ndarray] | None
) -> tuple[np.ndarray, np.ndarray]:
    """Each deck's bytes column-major (C, D), and the bound ``n`` each byte was drawn
    below (1 or 0: not read), ``C`` a multiple of 8.  A row that runs out is extended, all
    rows at once, by ``more(D * EXTEND_BYTES)``: what the per-deck loop read, in order.

    Every deck advances at once, column by column: ``r = byte >> (8 - k)`` is accepted if
    below ``n``, and ``k`` drops by one when an accepted draw leaves ``n`` one below a
    power of two; a done deck (``n = 1``, ``k = 1``) may pass one more byte to ``n = 0``,
    which no byte passes (neither is a draw)."""
    d, width = rows.shape
    cols = np.zeros((width + 8, d), np.uint8)
    cols[:width] = rows.T
    bounds = np.empty_like(cols)
    n = np.full(d, 52, np.uint8)
    shift = np.full(d, 8 - int(STEP_WIDTHS[0]), np.uint8)
    r, low = np.empty(d, np.uint8), np.empty(d, np.uint8)
    accepted, narrower = np.empty(d, np.bool_), np.empty(d, np.bool_)
    c = 0
    while d and (c < DONE or int(n.max()) > 1):
        if c == width:
            fresh = np.asarray((more or _urandom_rows)(d * EXTEND_BYTES), np.uint8)
            pad = np.zeros((8, d), np.uint8)
            cols = np.concatenate([cols[:width], fresh.reshape(d, EXTEND_BYTES).T, pad])
            bounds = np.concatenate([bounds[:width], np.empty_like(cols[width:])])
            width += EXTEND_BYTES
        bounds[c] = n
        np.right_shift(cols[c], shift, out=r)
        np.less(r, n, out=accepted)
        np.subtract(n, accepted, out=n)
        np.add(n, 1, out=low)
        np.bitwise_and(low, n, out=low)  # 0 when n is one below a power of two
        np.equal(low, 0, out=narrower)
        narrower &= accepted
        shift += narrower
        c += 1
    used = -(-c // 8) * 8
    bounds[c:used] = 0
    return cols[:used], bounds[:used]


def _urandom_rows(count: int) -> np.ndarray:
    return np.frombuffer(os.urandom(count), dtype=np.uint8)


def shuffle_draws(
    rows: np.ndarray, more: Callable[[int], np.ndarray] | None = None, with_decks: bool = False
) -> Draws:
    """Shuffle one deck per row of OS bytes ``rows`` (uint8, (D, R)), one byte per draw.

    ``more(count)`` gives ``count`` further bytes when a row runs out (default: the OS
    generator); ``with_decks`` also returns the decks, card by position."""
    cols, bounds = _columns(np.ascontiguousarray(rows, dtype=np.uint8), more)
    widths = _lookup(bounds, _WIDTH_BY_BOUND)
    values = cols >> (8 - widths)
    read = (widths > 0).T
    deck = _decks(values, bounds) if with_decks else None
    return Draws(values.T[read], widths.T[read], read.sum(axis=1), deck)


def _decks(values: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The decks dealt by the draws ``values`` (C, D) below ``bounds``: at step ``s`` the
    accepted draw ``j`` (below ``n = 52 - s``) swaps positions ``51 - s`` and ``j``."""
    d = values.shape[1]
    accepted = (values < bounds) & (bounds > 1)
    chosen = values.T[accepted.T].reshape(d, DONE).astype(np.intp)
    deck = np.tile(np.arange(52, dtype=np.int8), (d, 1))
    every = np.arange(d)
    for s in range(DONE):
        i, j = 51 - s, chosen[:, s]
        swap = deck[every, j]
        deck[every, j] = deck[:, i]
        deck[:, i] = swap
    return deck


def draw_bits(values: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """The draws as one bit array (0/1, uint8), each draw's ``k`` bits most significant
    first (for tests; :func:`pack_draws` is the fast form)."""
    w = widths.astype(np.intp)
    first = np.cumsum(w) - w
    within = np.arange(int(w.sum())) - np.repeat(first, w)
    shift = (np.repeat(w, w) - 1 - within).astype(np.uint8)
    return ((np.repeat(values, w) >> shift) & 1).astype(np.uint8)


def _octets(values: np.ndarray, widths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Draws of up to 8 bits (axis 0, a multiple of 8 long) paired three times: each
    8 neighbours as one uint64 item (the first draw most significant) and its width."""
    v16 = values[0::2].astype(np.uint16)
    v16 <<= widths[1::2]
    v16 |= values[1::2]
    w = widths[0::2] + widths[1::2]
    v32 = v16[0::2].astype(np.uint32)
    v32 <<= w[1::2]
    v32 |= v16[1::2]
    w = w[0::2] + w[1::2]
    v64 = v32[0::2].astype(np.uint64)
    v64 <<= w[1::2].astype(np.uint64)
    v64 |= v32[1::2]
    return v64, (w[0::2] + w[1::2]).astype(np.int64)


def _place(
    items: np.ndarray, widths: np.ndarray, lead_value: int, lead_bits: int
) -> tuple[bytes, int, int]:
    """Items (uint64, at most 64 bits each, in order) after ``lead_bits`` bits
    ``lead_value``, packed: ``(whole_bytes, rest_value, rest_bits)``."""
    offsets = np.cumsum(widths)
    total = lead_bits + (int(offsets[-1]) if len(offsets) else 0)
    offsets -= widths
    offsets += lead_bits
    words = np.zeros(total // 64 + 2, np.uint64)
    words[0] = np.uint64(lead_value << (64 - lead_bits)) if lead_bits else 0
    end = offsets & 63
    end += widths
    over = np.flatnonzero(end > 64)  # items running into the next word
    spill = end[over] - 64
    end[over] = 64
    word = offsets >> 6
    placed = items << (64 - end).astype(np.uint64)
    low = items[over]
    placed[over] = low >> spill.astype(np.uint64)
    np.add.at(words, word, placed)
    np.add.at(words, word[over] + 1, low << (64 - spill).astype(np.uint64))
    data = words.astype(">u8").tobytes()
    whole, rest_bits = divmod(total, 8)
    rest_value = data[whole] >> (8 - rest_bits) if rest_bits else 0
    return data[:whole], rest_value, rest_bits


def pack_draws(values: np.ndarray, widths: np.ndarray) -> tuple[bytes, int, int]:
    """The draws packed into bytes (each draw's ``k`` bits most significant first, draws
    of up to 8 bits): ``(whole_bytes, rest_value, rest_bits)``, the last incomplete byte's
    bits left over (to lead the next batch)."""
    n = len(values)
    v = np.zeros(-(-n // 8) * 8, np.uint8)
    w = np.zeros_like(v)
    v[:n] = values
    w[:n] = widths
    return _place(*_octets(v, w), 0, 0)


class _RanOut(Exception):
    """A row ran out in a part of a batch: the batch is shuffled whole instead."""


def _ran_out(count: int) -> np.ndarray:
    raise _RanOut


def _batch_bytes(
    rows: np.ndarray, more: Callable[[int], np.ndarray], lead_value: int, lead_bits: int
) -> tuple[bytes, int, int]:
    """One batch's draws packed after the previous batch's leftover bits.

    The decks are shuffled :data:`PART_DECKS` at a time (whose arrays stay in the
    processor's cache: half the time of the whole batch at once); if a row runs out, the
    batch is shuffled whole, its rows all extended, as the per-deck loop extended them."""
    parts, value, bits = [], lead_value, lead_bits
    try:
        for start in range(0, len(rows), PART_DECKS):
            chunk, value, bits = _pack_part(rows[start : start + PART_DECKS], _ran_out, value, bits)
            parts.append(chunk)
    except _RanOut:
        return _pack_part(rows, more, lead_value, lead_bits)
    return b"".join(parts), value, bits


def _pack_part(
    rows: np.ndarray, more: Callable[[int], np.ndarray], lead_value: int, lead_bits: int
) -> tuple[bytes, int, int]:
    cols, bounds = _columns(rows, more)
    widths = _lookup(bounds, _WIDTH_BY_BOUND)
    items, item_widths = _octets(cols >> (8 - widths), widths)  # (C / 8, D)
    return _place(items.T.ravel(), item_widths.T.ravel(), lead_value, lead_bits)


def _join(
    lead_value: int, lead_bits: int, packed: tuple[bytes, int, int]
) -> tuple[bytes, int, int]:
    """A batch packed on its own (``(whole_bytes, rest_value, rest_bits)``) after
    ``lead_bits`` leftover bits: the same as packing it after them."""
    chunk, rest_value, rest_bits = packed
    if not lead_bits:
        return packed
    a = np.frombuffer(chunk, np.uint8)
    out = np.empty(len(a) + 1, np.uint8)
    out[0] = lead_value << (8 - lead_bits)
    out[1:] = a << (8 - lead_bits)  # each byte's low bits lead the next output byte
    out[:-1] |= a >> lead_bits
    tail_bits = lead_bits + rest_bits
    tail = (int(out[-1]) >> (8 - lead_bits) << rest_bits) | rest_value
    if tail_bits < 8:
        return out[:-1].tobytes(), tail, tail_bits
    out[-1] = tail >> (tail_bits - 8)
    return out.tobytes(), tail & ((1 << (tail_bits - 8)) - 1), tail_bits - 8


def _batch_from(urandom: Callable[[int], bytes], batch: int) -> tuple[bytes, int, int]:
    """One batch read from ``urandom`` and packed on its own (a worker's job)."""

    def more(n: int) -> np.ndarray:
        return np.frombuffer(urandom(n), dtype=np.uint8)

    return _batch_bytes(more(batch * ROW_BYTES).reshape(batch, ROW_BYTES), more, 0, 0)


def _batches(
    urandom: Callable[[int], bytes], batch: int, workers: int
) -> Generator[tuple[bytes, int, int]]:
    """Batches packed on their own by ``workers`` processes, each reading ``urandom``
    itself, in order; a few per worker run ahead."""
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        ahead: deque[Future[tuple[bytes, int, int]]] = deque()
        try:
            while True:
                while len(ahead) < 2 * workers:
                    ahead.append(pool.submit(_batch_from, urandom, batch))
                yield ahead.popleft().result()
        finally:
            for job in ahead:
                job.cancel()


def dump_stream(
    count: int | None,
    urandom: Callable[[int], bytes] = os.urandom,
    batch: int = BATCH_DECKS,
    workers: int = 1,
) -> Iterator[bytes]:
    """``count`` bytes of the shuffle's raw draws (``None``: without end), in chunks.

    ``workers`` above 1 runs whole batches in that many processes, each reading
    ``urandom`` (which must pickle, as ``os.urandom`` does) for its own batches; each
    batch is the same function of the bytes it read, and the batches are written in the
    order they were started."""
    if count is not None and count < 0:
        raise ValueError("count must not be negative")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    left = count
    rest_value, rest_bits = 0, 0

    def more(n: int) -> np.ndarray:
        return np.frombuffer(urandom(n), dtype=np.uint8)

    pool = _batches(urandom, batch, workers) if workers > 1 else None
    try:
        while left is None or left > 0:
            if pool is None:
                rows = more(batch * ROW_BYTES).reshape(batch, ROW_BYTES)
                packed = _batch_bytes(rows, more, rest_value, rest_bits)
            else:
                packed = _join(rest_value, rest_bits, next(pool))
            chunk, rest_value, rest_bits = packed
            if left is not None:
                chunk = chunk[:left]
                left -= len(chunk)
            yield chunk
    finally:
        if pool is not None:
            pool.close()
