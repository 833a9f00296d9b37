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
