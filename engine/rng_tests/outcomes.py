"""The game's outcomes in bulk, as a lab collects them: ``uth rng deal`` deals rounds with
the game service's own :func:`engine.uth.dealing.deal_round` and writes each round's
final cards and commitment in a fixed binary layout that :func:`read_outcomes` (or a
lab's own decoder) reads back.

The file (all fields bytes, cards 0..51 as ``4 * rank + suit``, rank 0 the deuce, suit
order clubs, diamonds, hearts, spades):

* a 16-byte header: the magic ``UTHDEAL1`` (8 bytes), the number of seats ``S`` (1 byte,
  1..7), 7 zero bytes;
* then one record of ``2 S + 107`` bytes per round, in deal order: each seat's two hole
  cards (seat 1 first, ``2 S`` bytes), the dealer's two cards (2), the board (5), the
  whole deck in deal order (52), the commitment's salt (16) and the commitment, the raw
  SHA-256 of ``salt + deck`` (32).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from engine.rng import RandomSource
from engine.uth.dealing import SALT_BYTES, deal_round
from engine.uth.paytable import Paytable
from engine.uth.round import MAX_SEATS, BetsPlaced

MAGIC = b"UTHDEAL1"
HEADER_BYTES = 16


def record_bytes(seats: int) -> int:
    """The size of one round's record at ``seats`` seats."""
    return 2 * seats + 2 + 5 + 52 + SALT_BYTES + 32


class OutcomeFileError(ValueError):
    """An outcome file that is not in the documented layout."""


@dataclass(frozen=True)
class Outcomes:
    """The rounds of an outcome file: ``holes`` (n, S, 2), ``dealer`` (n, 2), ``board``
    (n, 5), ``decks`` (n, 52) as uint8 card numbers; ``salts`` (n, 16) and
    ``commitments`` (n, 32) as raw bytes."""

    seats: int
    holes: np.ndarray
    dealer: np.ndarray
    board: np.ndarray
    decks: np.ndarray
    salts: np.ndarray
    commitments: np.ndarray

    @property
    def rounds(self) -> int:
        return len(self.decks)


def header(seats: int) -> bytes:
    if not 1 <= seats <= MAX_SEATS:
        raise OutcomeFileError(f"seats must be 1..{MAX_SEATS}, not {seats}")
    return MAGIC + bytes([seats]) + bytes(7)


def write_outcomes(
    out: BinaryIO,
    rng: RandomSource,
    paytable: Paytable,
    rounds: int,
    seats: int,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Deal ``rounds`` rounds of ``seats`` seats (each the paytable's smallest Ante) with
    :func:`deal_round` over ``rng`` and write the cards each deal fixed
    (:meth:`~engine.uth.round.UthRound.dealt_cards`) and their commitments to ``out``,
    header first."""
    if rounds < 0:
        raise OutcomeFileError(f"rounds must not be negative, not {rounds}")
    out.write(header(seats))
    ante = paytable.limits.ante_min
    placed = [BetsPlaced(seat=s, ante=ante, blind=ante, trips=0) for s in range(1, seats + 1)]
    step = 10_000
    for start in range(0, rounds, step):
        chunk = bytearray()
        for _ in range(min(step, rounds - start)):
            dealt = deal_round(rng, paytable, placed)
            cards = dealt.round.dealt_cards()
            for _, hole in cards.holes:
                chunk += bytes(hole)
            chunk += bytes(cards.dealer) + bytes(cards.board)
            chunk += bytes(dealt.deck) + dealt.salt + bytes.fromhex(dealt.commitment)
        out.write(chunk)
        if progress is not None:
            progress(min(start + step, rounds), rounds)


def read_outcomes(path: str | Path) -> Outcomes:
    """An outcome file decoded (raises :class:`OutcomeFileError` when it is not one)."""
    return decode_outcomes(Path(path).read_bytes(), str(path))


def decode_outcomes(data: bytes, path: str = "outcomes") -> Outcomes:
    """The bytes of an outcome file decoded (:class:`OutcomeFileError` when they are not
    in the layout)."""
    if len(data) < HEADER_BYTES or data[:8] != MAGIC:
        raise OutcomeFileError(f"{path}: not an outcome file (no {MAGIC.decode()} header)")
    seats = data[8]
    size = record_bytes(seats)
    body = len(data) - HEADER_BYTES
    if not 1 <= seats <= MAX_SEATS or body % size:
        raise OutcomeFileError(f"{path}: {body} bytes are not whole records of {size}")
    rows = np.frombuffer(data, np.uint8, offset=HEADER_BYTES).reshape(-1, size)
    at = 2 * seats
    return Outcomes(
        seats,
        rows[:, :at].reshape(-1, seats, 2),
        rows[:, at : at + 2],
        rows[:, at + 2 : at + 7],
        rows[:, at + 7 : at + 59],
        rows[:, at + 59 : at + 59 + SALT_BYTES],
        rows[:, at + 59 + SALT_BYTES :],
    )
