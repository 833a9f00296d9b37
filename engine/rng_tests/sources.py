"""What the RNG tests deal with: the cabinet's generator recorded as the shuffle consumes
it, seeded decks, and two deliberately biased shuffles that the tests must reject.

:class:`RecordingSource` is :class:`engine.rng.SystemRandomSource`'s rejection sampling
over any ``randbits`` (default the OS generator, ``secrets.randbits``) that also keeps
every raw draw, accepted or rejected, as ``k`` bits (most significant first) in deal
order: the bit stream ``uth rng dump`` writes for outside batteries.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

import numpy as np

from engine.rng import RandomSource, shuffled_deck


class RecordingSource:
    """The cabinet's rejection sampling, keeping the raw bits it drew."""

    def __init__(self, randbits: Callable[[int], int] = secrets.randbits) -> None:
        self._randbits = randbits
        self._acc = 0
        self._nbits = 0
        self._out = bytearray()

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        k = n.bit_length()
        while True:
            r = self._randbits(k)
            self._acc = (self._acc << k) | r
            self._nbits += k
            if self._nbits >= 64:
                extra = self._nbits - 64
                self._out += (self._acc >> extra).to_bytes(8, "big")
                self._acc &= (1 << extra) - 1
                self._nbits = extra
            if r < n:
                return r

    def take(self) -> bytes:
        """The whole bytes recorded so far (leftover bits stay for the next call)."""
        out = bytes(self._out)
        self._out.clear()
        return out


def dump_bytes(count: int, randbits: Callable[[int], int] = secrets.randbits) -> bytes:
    """``count`` bytes of raw generator output, drawn by shuffling decks as the cabinet
    does (Fisher-Yates with rejection sampling)."""
    if count < 0:
        raise ValueError("count must not be negative")
    source = RecordingSource(randbits)
    out = bytearray()
    while len(out) < count:
        shuffled_deck(source)
        out += source.take()
    return bytes(out[:count])


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


def lcg_bytes(count: int, seed: int = 1) -> bytes:
    """A deliberately weak bit source for the batteries: the low byte of the C library's
    classic linear congruential generator ``x = 1103515245 x + 12345 mod 2^31`` (its
    low bits have short periods).  For showing that the batteries can fail."""
    out = np.empty(count, dtype=np.uint8)
    x = seed & 0x7FFFFFFF
    block = 1 << 16
    # x_{k+j} = a^j x_k + c (a^j - 1) / (a - 1) mod 2^31, for j = 1..block, vectorised
    a, c, mod = 1103515245, 12345, 1 << 31
    mult = np.empty(block, dtype=object)
    add = np.empty(block, dtype=object)
    m, s = 1, 0
    for j in range(block):
        m, s = (m * a) % mod, (s * a + c) % mod
        mult[j], add[j] = m, s
    mult64 = mult.astype(np.int64)
    add64 = add.astype(np.int64)
    for start in range(0, count, block):
        xs = (((mult64 * x) % mod) + add64) % mod  # products fit: both below 2^31
        n = min(block, count - start)
        out[start:start + n] = (xs[:n] & 0xFF).astype(np.uint8)
        x = int(xs[-1])
    return out.tobytes()
