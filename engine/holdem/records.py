"""The frozen records of a Hold'em hand: what each player action and dealer job did.

A hand's ``history`` is the list of these records in the order they happened; they are
the hand history and the audit trail.  Chips are whole numbers (tournament points).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from engine.holdem.actions import Street


@dataclass(frozen=True, slots=True)
class BlindPosted:
    seat: int
    blind: str  # "small" or "big"
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    seat: int
    cards: tuple[int, int]


@dataclass(frozen=True, slots=True)
class CardBurned:
    card: int


@dataclass(frozen=True, slots=True)
class BoardDealt:
    street: Street
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Folded:
    seat: int


@dataclass(frozen=True, slots=True)
class Checked:
    seat: int


@dataclass(frozen=True, slots=True)
class Called:
    seat: int
    amount: int  # chips added
    total: int  # the seat's bet for the round afterwards
    all_in: bool


@dataclass(frozen=True, slots=True)
class BetMade:
    seat: int
    total: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Raised:
    seat: int
    total: int
    increment: int  # over the previous highest bet
    full: bool  # at least a full raise: reopens the betting
    all_in: bool


@dataclass(frozen=True, slots=True)
class UncalledReturned:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandShown:
    seat: int
    cards: tuple[int, int]
    strength: int


@dataclass(frozen=True, slots=True)
class PotAwarded:
    index: int  # 0 = main pot, then the side pots in order
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]  # clockwise from the left of the button (odd-chip order)
    shares: tuple[int, ...]  # chips to each winner, same order


Record = (
    BlindPosted
    | HoleCardsDealt
    | CardBurned
    | BoardDealt
    | Folded
    | Checked
    | Called
    | BetMade
    | Raised
    | UncalledReturned
    | HandShown
    | PotAwarded
)


def record_to_dict(record: Record) -> dict[str, Any]:
    """JSON-able form of a record: ``{"type": "Raised", "seat": 2, ...}``."""
    out: dict[str, Any] = {"type": type(record).__name__}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


_RECORD_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        BlindPosted,
        HoleCardsDealt,
        CardBurned,
        BoardDealt,
        Folded,
        Checked,
        Called,
        BetMade,
        Raised,
        UncalledReturned,
        HandShown,
        PotAwarded,
    )
}


def record_from_dict(data: dict[str, Any]) -> Record:
    """The record that :func:`record_to_dict` wrote; raises ``ValueError`` if malformed."""
    kind = data.get("type") if isinstance(data, dict) else None
    cls = _RECORD_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"not a hand record: {data!r}")
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            raise ValueError(f"{kind} record without {f.name!r}")
        value = data[f.name]
        values[f.name] = tuple(value) if isinstance(value, list) else value
    if cls is BoardDealt:
        values["street"] = Street(values["street"])
    record: Record = cls(**values)
    return record


@dataclass(frozen=True, slots=True)
class HandResult:
    """Settlement of a finished hand."""

    starting_stacks: tuple[int, ...]
    final_stacks: tuple[int, ...]
    pots: tuple[PotAwarded, ...]
    returned: tuple[int, ...]  # uncalled chips given back, per seat
    showdown: bool
    shown: tuple[HandShown, ...]
    won: tuple[int, ...]  # chips won from pots, per seat

    @property
    def net(self) -> tuple[int, ...]:
        return tuple(f - s for f, s in zip(self.final_stacks, self.starting_stacks, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {
            "stacks": list(self.final_stacks),
            "pots": [
                {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)}
                for p in self.pots
            ],
            "returned": list(self.returned),
        }
