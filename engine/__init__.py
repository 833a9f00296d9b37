"""The pure engine of the cabinet: cards, randomness, money formatting and the games.

Nothing here touches the kiosk, devices, pygame or sqlite.  Subpackages:
:mod:`engine.hands` (hand categories and the table-driven evaluator), :mod:`engine.uth`
(Ultimate Texas Hold'em: paytables, settlement, the round), :mod:`engine.maths`
(strategies, the exact PAR analysis, the simulator, their cache) and
:mod:`engine.holdem` (No-limit Hold'em hands, bots and tournaments).  This package
re-exports the names of its own modules (:mod:`engine.cards`, :mod:`engine.rng`,
:mod:`engine.money`, :mod:`engine.errors`); modules inside ``engine`` import from the
defining module, never from a package.
"""

from engine.cards import (
    DECK,
    RANK_CHARS,
    RANK_NAMES,
    RANK_PLURALS,
    SUIT_CHARS,
    SUIT_SYMBOLS,
    Card,
    CardParseError,
    card_name,
    check_distinct,
    format_cards,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from engine.errors import IllegalActionError
from engine.money import format_cents
from engine.rng import (
    RandomSource,
    SeededRandomSource,
    SystemRandomSource,
    deck_commitment,
    shuffle,
    shuffled_deck,
)

__all__ = [
    "DECK",
    "RANK_CHARS",
    "RANK_NAMES",
    "RANK_PLURALS",
    "SUIT_CHARS",
    "SUIT_SYMBOLS",
    "Card",
    "CardParseError",
    "IllegalActionError",
    "RandomSource",
    "SeededRandomSource",
    "SystemRandomSource",
    "card_name",
    "check_distinct",
    "deck_commitment",
    "format_cards",
    "format_cents",
    "make_card",
    "parse_card",
    "parse_cards",
    "rank_of",
    "shuffle",
    "shuffled_deck",
    "suit_of",
]
