"""Blind levels and the tournament tables on the title screen.

Every table uses the same :data:`BLIND_LEVELS`; a table picks its starting level, its
starting chips and how many hands each level lasts.  Chips are points, never credits.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.holdem.actions import MAX_SEATS, MIN_SEATS


@dataclass(frozen=True, slots=True)
class BlindLevel:
    small: int
    big: int


BLIND_LEVELS: tuple[BlindLevel, ...] = tuple(
    BlindLevel(s, b)
    for s, b in (
        (5, 10),
        (10, 20),
        (15, 30),
        (20, 40),
        (25, 50),
        (30, 60),
        (40, 80),
        (50, 100),
        (75, 150),
        (100, 200),
        (150, 300),
        (200, 400),
        (300, 600),
        (400, 800),
        (500, 1000),
        (750, 1500),
        (1000, 2000),
        (1500, 3000),
        (2000, 4000),
        (3000, 6000),
        (5000, 10000),
    )
)
"""Every table uses the same levels; a table picks the starting level."""

STARTING_LEVELS = (0, 1, 2, 4, 7)  # the starting blinds a player may choose: 5/10 .. 50/100


def level_index(blinds: tuple[int, int] | BlindLevel) -> int:
    """The index in :data:`BLIND_LEVELS` of the given blinds."""
    level = blinds if isinstance(blinds, BlindLevel) else BlindLevel(*blinds)
    try:
        return BLIND_LEVELS.index(level)
    except ValueError:
        raise ValueError(f"{level.small}/{level.big} is not a blind level") from None


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One of the tables on the title screen (seed 000).  ``hands_per_level`` None: the
    blinds never go up.  ``players`` is the allowed range of seats."""

    key: str
    name: str
    description: str
    starting_chips: int
    starting_level: int
    hands_per_level: int | None
    players: tuple[int, int] = (MIN_SEATS, MAX_SEATS)
    default_players: int = 6

    @property
    def starting_blinds(self) -> BlindLevel:
        return BLIND_LEVELS[self.starting_level]


TABLES: dict[str, TableSpec] = {
    t.key: t
    for t in (
        TableSpec(
            "classic",
            "Classic",
            "1,500 chips, blinds 10/20 going up every 10 hands.",
            1500,
            1,
            10,
        ),
        TableSpec(
            "turbo",
            "Turbo",
            "1,000 chips, blinds 25/50 going up every 5 hands: fast and wild.",
            1000,
            4,
            5,
        ),
        TableSpec(
            "deep",
            "Deep Stack",
            "5,000 chips, blinds 10/20 going up every 15 hands.",
            5000,
            1,
            15,
        ),
        TableSpec(
            "steady",
            "Steady Blinds",
            "2,000 chips, blinds 10/20 that never go up.",
            2000,
            1,
            None,
        ),
        TableSpec(
            "heads_up",
            "Heads-Up",
            "Just you and one opponent: 1,500 chips, blinds 10/20 going up every 10 hands.",
            1500,
            1,
            10,
            players=(2, 2),
            default_players=2,
        ),
        TableSpec(
            "custom",
            "Custom",
            "Your own starting chips, starting blinds and blind increase.",
            1500,
            1,
            10,
        ),
    )
}
"""Seed 000's six tables (its list is missing; these are our definitions)."""

SEED003_TABLE = TableSpec(
    "seed003",
    "Texas Hold'em",
    "Six players start with 1,500 chips each. The blinds go up "
    "every few hands. Be the last one with chips.",
    1500,
    1,
    5,
    players=(6, 6),
)
