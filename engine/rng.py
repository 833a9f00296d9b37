"""Random sources and the Fisher-Yates shuffle.

The cabinet shuffles with the operating system's cryptographic generator
(:class:`SystemRandomSource`, which can record every draw it hands out through a
:class:`DrawTap`); simulations and tests inject a seeded
:class:`SeededRandomSource`.  Both expose ``randbelow(n)``, an unbiased integer in
``0..n-1`` obtained by rejection sampling of ``bit_length(n)`` random bits (no modulo
bias), so the round code cannot tell them apart.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class RandomSource(Protocol):
    """Anything that returns an unbiased integer in ``0..n-1``."""

    def randbelow(self, n: int) -> int: ...


class DrawTap:
    """A recorder of the raw draws a source hands out: each ``k``-bit draw (accepted or
    rejected by the rejection sampling) appended as ``k`` bits, most significant first,
    in the order drawn; :meth:`take` returns the whole bytes so far."""

    def __init__(self) -> None:
        self._acc = 0
        self._nbits = 0
        self._out = bytearray()

    def record(self, value: int, bits: int) -> None:
        self._acc = (self._acc << bits) | value
        self._nbits += bits
        if self._nbits >= 64:
            extra = self._nbits - 64
            self._out += (self._acc >> extra).to_bytes(8, "big")
            self._acc &= (1 << extra) - 1
            self._nbits = extra

    def take(self) -> bytes:
        """The whole bytes recorded so far (the leftover bits stay for the next call)."""
        out = bytes(self._out)
        self._out.clear()
        return out


class SystemRandomSource:
    """The OS cryptographic generator, used on the cabinet.

    A draw below ``n`` reads ``ceil(k / 8)`` bytes of ``urandom`` (default
    :func:`os.urandom`) and keeps their top ``k = bit_length(n)`` bits, exactly as
    ``secrets.randbits(k)`` does; a ``tap`` (:class:`DrawTap`) records every draw,
    accepted or not.  ``uth rng dump`` is this source with a tap, running the shuffle."""

    def __init__(
        self, tap: DrawTap | None = None, urandom: Callable[[int], bytes] = os.urandom
    ) -> None:
        self.tap = tap
        self._urandom = urandom

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        k = n.bit_length()
        size = (k + 7) // 8
        shift = 8 * size - k
        urandom, tap = self._urandom, self.tap
        while True:
            r = int.from_bytes(urandom(size), "big") >> shift
            if tap is not None:
                tap.record(r, k)
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
