"""Playing cards as small integers.

A card is an ``int`` in ``0..51`` equal to ``4 * rank + suit``: rank ``0..12`` stands
for 2..A and suit ``0..3`` for clubs, diamonds, hearts, spades.  Text notation is
two characters per card, rank then suit: ``"As Kd 7h Tc 2s"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Card = int

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
DECK: tuple[Card, ...] = tuple(range(52))


class CardParseError(ValueError):
    """Raised when card text is malformed or repeats a card; ``token`` is the culprit."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(f"bad card {token!r}: {reason}")
        self.token = token
        self.reason = reason


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0..12 for 2..A) and ``suit`` (0..3 for c, d, h, s)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"rank {rank} / suit {suit} out of range")
    return 4 * rank + suit


def rank_of(card: Card) -> int:
    """Rank 0..12 (2..A) of ``card``."""
    return card >> 2


def suit_of(card: Card) -> int:
    """Suit 0..3 (c, d, h, s) of ``card``."""
    return card & 3


def card_name(card: Card) -> str:
    """Two-character notation of ``card``, for example ``"As"``."""
    if not 0 <= card < 52:
        raise ValueError(f"card {card} out of range 0..51")
    return RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3]


def parse_card(token: str) -> Card:
    """Parse one card such as ``"As"`` or ``"td"`` (rank letter case-insensitive)."""
    if len(token) != 2:
        raise CardParseError(token, "a card is a rank (2-9, T, J, Q, K, A) and a suit (c, d, h, s)")
    rank = RANK_CHARS.find(token[0].upper())
    suit = SUIT_CHARS.find(token[1].lower())
    if rank < 0:
        raise CardParseError(token, f"unknown rank {token[0]!r}")
    if suit < 0:
        raise CardParseError(token, f"unknown suit {token[1]!r}")
    return 4 * rank + suit


def parse_cards(text: str) -> list[Card]:
    """Parse cards written with or without spaces: ``"As Kd 7h"`` or ``"AsKd7h"``.

    Raises :class:`CardParseError` naming the first bad token, or the first repeated card.
    """
    tokens = text.split()
    if len(tokens) == 1 and len(tokens[0]) > 2:
        word = tokens[0]
        if len(word) % 2:
            raise CardParseError(word, "odd number of characters in run-together cards")
        tokens = [word[i : i + 2] for i in range(0, len(word), 2)]
    cards: list[Card] = []
    seen: set[Card] = set()
    for token in tokens:
        card = parse_card(token)
        if card in seen:
            raise CardParseError(token, "card appears twice")
        seen.add(card)
        cards.append(card)
    return cards


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    """Inverse of :func:`parse_cards`: ``[51, 46]`` -> ``"As Kd"``."""
    return sep.join(card_name(int(c)) for c in cards)


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise :class:`CardParseError` if a card is out of range or appears twice."""
    seen: set[int] = set()
    for c in cards:
        if not 0 <= int(c) < 52:
            raise CardParseError(str(c), "card number out of range 0..51")
        if c in seen:
            raise CardParseError(card_name(int(c)), "card appears twice")
        seen.add(int(c))
