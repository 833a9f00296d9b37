"""The deal of a round: the one function the game service deals with.

:func:`deal_round` shuffles a deck with the caller's :class:`~engine.rng.RandomSource`,
draws the commitment's 16-byte salt from the same source, deals the bets placed
(:func:`~engine.uth.replay.replay`) and commits to the deck (:func:`~engine.rng.deck_commitment`,
SHA-256 of the salt and the deck).  The cabinet and the table deal every round through it
(:class:`kiosk.game.round_book.RoundBook`), and ``uth rng deal`` writes its outcomes in
bulk for a lab (:mod:`engine.rng_tests.outcomes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rng import RandomSource, deck_commitment, shuffled_deck
from engine.uth.paytable import Paytable
from engine.uth.replay import replay
from engine.uth.round import BetsPlaced, UthRound

#: Bytes of the salt mixed into the deck's commitment.
SALT_BYTES = 16


@dataclass(frozen=True)
class DealtRound:
    """A round just dealt: the round (every seat's hole cards, the dealer's and the board
    fixed), its deck (cards 0..51 in deal order), the salt and the deck's commitment
    (SHA-256 hex of ``salt + deck``)."""

    round: UthRound
    deck: list[int]
    salt: bytes
    commitment: str


def deal_round(rng: RandomSource, paytable: Paytable, placed: Sequence[BetsPlaced]) -> DealtRound:
    """Shuffle with ``rng``, draw the salt from it, and deal the bets ``placed``."""
    deck = shuffled_deck(rng)
    salt = bytes(rng.randbelow(256) for _ in range(SALT_BYTES))
    rnd = replay(paytable, deck, list(placed))
    return DealtRound(rnd, deck, salt, deck_commitment(deck, salt))
