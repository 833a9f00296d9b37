"""A paytable with a progressive for the tests: the example's main game and a
progressive of a $1 wager (15 cents of each to the meter, 5 to the reserve, reset
$1,000), signed with a table's key and put in force at its station 1 by a technician;
and a random source that deals the decks a test stacks (:class:`DeckSource`,
:func:`deck_with`).

Imported as ``support.progressive_paytable`` (``tests/`` is on the import path)."""

from __future__ import annotations

import re
from pathlib import Path

from support.signed_paytables import signed

from engine.cards import parse_cards
from engine.rng import SeededRandomSource
from engine.uth.round import BOARD_POSITIONS, DEALER_POSITIONS, HOLE_POSITIONS
from kiosk.game.commands import OperatorLogin, SetDoor, SetPaytable
from kiosk.service.table import Table

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "paytables" / "progressive-example.toml"
TECHNICIAN = "2222"
WAGER, TO_METER, RESET = 100, 15, 100_000

PROGRESSIVE = f"""
[progressive]
wager = {WAGER}
cards = "first_five"
contribution_bp = 1500
reserve_bp = 500
reset = {RESET}
ceiling = 10000000
split = "share"

[progressive.awards]
royal_flush = {{ meter_bp = 10000 }}
straight_flush = {{ meter_bp = 1000 }}
four_of_a_kind = {{ cents = 30000 }}
full_house = {{ cents = 5000 }}
flush = {{ cents = 4000 }}
straight = {{ cents = 3000 }}
three_of_a_kind = {{ cents = 900 }}
"""


def progressive_paytable(folder: Path) -> Path:
    """The paytable file, written in ``folder``."""
    text = EXAMPLE.read_text(encoding="utf-8")
    main = text[: text.index("[progressive]")]
    main = re.sub(r'name = ".*"', 'name = "Standard with a test progressive"', main, count=1)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "progressive-test.toml"
    path.write_text(main + PROGRESSIVE, encoding="utf-8")
    return path


def put_in_force(table: Table, path: Path) -> None:
    """The paytable at ``path`` signed and put in force (a technician at station 1)."""
    signed(table.ledger.key, path)
    table.execute(1, SetDoor(True))
    table.execute(1, OperatorLogin(TECHNICIAN))
    table.execute(1, SetPaytable(str(path)))
    table.execute(1, SetDoor(False))


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
