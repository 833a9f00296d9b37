"""Decks a test chooses, dealt through the real shuffle: a random source that deals the
decks it is given, and a deck giving each seat, the dealer and the flop chosen cards."""

from __future__ import annotations

from engine.cards import parse_cards
from engine.rng import SeededRandomSource
from engine.uth.round import BOARD_POSITIONS, DEALER_POSITIONS, HOLE_POSITIONS


class DeckSource:
    """A random source that deals the decks it is given (each through the real
    Fisher-Yates shuffle of :func:`engine.rng.shuffled_deck`), then seeded draws."""

    def __init__(self, seed: int = 11) -> None:
        self.draws: list[int] = []
        self.fallback = SeededRandomSource(seed)

    def stack(self, deck: list[int]) -> None:
        out = list(range(52))
        for i in range(51, 0, -1):
            j = out.index(deck[i])
            out[i], out[j] = out[j], out[i]
            self.draws.append(j)

    def randbelow(self, n: int) -> int:
        if self.draws:
            return self.draws.pop(0)
        return self.fallback.randbelow(n)


def deck_with(seats: dict[int, str], flop: str, dealer: str = "2c 3d") -> list[int]:
    """A deck giving each seat its hole cards, the dealer its two and the flop; the
    rest in order."""
    placed: dict[int, int] = {}
    for seat, text in seats.items():
        for pos, card in zip(HOLE_POSITIONS[seat], parse_cards(text), strict=True):
            placed[pos] = card
    for pos, card in zip(DEALER_POSITIONS, parse_cards(dealer), strict=True):
        placed[pos] = card
    for pos, card in zip(BOARD_POSITIONS[:3], parse_cards(flop), strict=True):
        placed[pos] = card
    rest = iter(c for c in range(52) if c not in placed.values())
    return [placed[p] if p in placed else next(rest) for p in range(52)]
