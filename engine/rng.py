"""Random sources and the Fisher-Yates shuffle.

The cabinet shuffles with the operating system's cryptographic generator
(:class:`SystemRandomSource`); simulations and tests inject a seeded
:class:`SeededRandomSource`.  Both expose ``randbelow(n)``, an unbiased integer in
``0..n-1`` obtained by rejection sampling of ``bit_length(n)`` random bits (no modulo
bias), so the round code cannot tell them apart.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class RandomSource(Protocol):
    """Anything that returns an unbiased integer in ``0..n-1``."""

    def randbelow(self, n: int) -> int: ...


class SystemRandomSource:
    """The OS cryptographic generator (``secrets``), used on the cabinet."""

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        k = n.bit_length()
        while True:
            r = secrets.randbits(k)
            if r < n:
                return r


class SeededRandomSource:
    """A reproducible generator for tests and simulations (Mersenne Twister bits).

    Uses the same rejection sampling as :class:`SystemRandomSource`.
    """

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        k = n.bit_length()
        getrandbits = self._random.getrandbits
        while True:
            r = getrandbits(k)
            if r < n:
                return r


def shuffle(items: Sequence[T], rng: RandomSource) -> list[T]:
    """Return a uniformly shuffled copy of ``items`` (Fisher-Yates, Durstenfeld form)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_deck(rng: RandomSource) -> list[int]:
    """A shuffled 52-card deck (cards 0..51)."""
    return shuffle(range(52), rng)


def deck_commitment(deck: Sequence[int], salt: bytes = b"") -> str:
    """SHA-256 hex digest committing to the order of ``deck`` (and a salt, if any).

    The canonical form is the salt followed by one byte per card in deal order.
    Recorded before the first card is shown; the deck itself is published at
    settlement so anyone can recompute the digest.
    """
    return hashlib.sha256(salt + bytes(int(c) for c in deck)).hexdigest()
