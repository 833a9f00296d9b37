"""What the RNG tests deal with: the cabinet's generator tapped as the shuffle consumes
it, seeded decks, and two deliberately biased shuffles that the tests must reject.

:func:`tapped_dump` is :class:`engine.rng.SystemRandomSource` itself with its
:class:`engine.rng.DrawTap`: every raw draw, accepted or rejected, as ``k`` bits (most
significant first) in deal order: the bit stream ``uth rng dump`` writes for outside
batteries.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator

import numpy as np

from engine.rng import DrawTap, RandomSource, SystemRandomSource, shuffled_deck


def tapped_dump(
    count: int | None,
    urandom: Callable[[int], bytes] = os.urandom,
) -> Iterator[bytes]:
    """The cabinet's source (:class:`engine.rng.SystemRandomSource` over ``urandom``)
    with a :class:`engine.rng.DrawTap`, shuffling decks as the cabinet does: ``count``
    bytes (``None``: without end) of every draw the shuffle consumed, in chunks."""
    if count is not None and count < 0:
        raise ValueError("count must not be negative")
    tap = DrawTap()
    source = SystemRandomSource(tap, urandom)
    left = count
    while left is None or left > 0:
        for _ in range(1000):
            shuffled_deck(source)
        chunk = tap.take()
        if left is not None:
            chunk = chunk[:left]
            left -= len(chunk)
        yield chunk


def dump_bytes(count: int, urandom: Callable[[int], bytes] = os.urandom) -> bytes:
    """``count`` bytes of :func:`tapped_dump`."""
    return b"".join(tapped_dump(count, urandom))


class ModuloBiasedSource:
    """A deliberately bad source: one random byte modulo ``n`` (values below 256 mod n
    come up more often).  For showing that the tests can fail."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self._random.getrandbits(8) % n


def decks(source: RandomSource, count: int) -> np.ndarray:
    """``count`` decks shuffled from ``source``: an int8 array (count, 52), card by position."""
    return np.array([shuffled_deck(source) for _ in range(count)], dtype=np.int8)


def cut_card_decks(seed: int, count: int) -> np.ndarray:
    """A deliberately bad shuffle: each deck is the previous one cut near the middle
    (20..32 cards).  Every position still sees every card, but order survives."""
    rng = random.Random(seed)
    deck = np.arange(52, dtype=np.int8)
    out = np.empty((count, 52), dtype=np.int8)
    for i in range(count):
        deck = np.roll(deck, -(20 + rng.randrange(13)))
        out[i] = deck
    return out


def lcg_stream(seed: int = 1, block: int = 1 << 16) -> Iterator[bytes]:
    """A deliberately weak bit source for the batteries, without end, in blocks of
    ``block`` bytes: the low byte of the C library's classic linear congruential
    generator ``x = 1103515245 x + 12345 mod 2^31`` (its low bits have short periods).
    For showing that the batteries can fail."""
    x = seed & 0x7FFFFFFF
    # x_{k+j} = a^j x_k + c (a^j - 1) / (a - 1) mod 2^31, for j = 1..block, vectorised
    a, c, mod = 1103515245, 12345, 1 << 31
    mult = np.empty(block, dtype=np.int64)
    add = np.empty(block, dtype=np.int64)
    m, s = 1, 0
    for j in range(block):
        m, s = (m * a) % mod, (s * a + c) % mod
        mult[j], add[j] = m, s
    while True:
        xs = (((mult * x) % mod) + add) % mod  # products fit: both below 2^31
        yield (xs & 0xFF).astype(np.uint8).tobytes()
        x = int(xs[-1])


def lcg_bytes(count: int, seed: int = 1) -> bytes:
    """The first ``count`` bytes of :func:`lcg_stream`."""
    out = bytearray()
    for chunk in lcg_stream(seed):
        if len(out) >= count:
            break
        out += chunk
    return bytes(out[:count])
