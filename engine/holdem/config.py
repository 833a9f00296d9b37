"""A tournament's set-up: its table, its seats, its chips and its blinds.

:class:`TournamentConfig` is plain data that round-trips through JSON
(:meth:`TournamentConfig.to_dict` / :meth:`TournamentConfig.from_dict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine.holdem.actions import MAX_SEATS, MIN_SEATS
from engine.holdem.blinds import BLIND_LEVELS, SEED003_TABLE, TABLES, level_index
from engine.holdem.bots import SEED003_PLAYERS, Difficulty
from engine.holdem.seats import SeatSpec


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    table: str
    seats: tuple[SeatSpec, ...]
    starting_chips: int
    starting_level: int
    hands_per_level: int | None

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a tournament has {MIN_SEATS} to {MAX_SEATS} players, not {n}")
        if type(self.starting_chips) is not int or self.starting_chips <= 0:
            raise ValueError("starting chips must be a positive whole number")
        if not 0 <= self.starting_level < len(BLIND_LEVELS):
            raise ValueError("no such blind level")
        if self.hands_per_level is not None and self.hands_per_level < 1:
            raise ValueError("blinds go up every 1 or more hands")

    @classmethod
    def for_table(
        cls,
        table: str,
        seats: Sequence[SeatSpec],
        *,
        starting_chips: int | None = None,
        starting_blinds: tuple[int, int] | None = None,
        hands_per_level: int | None | str = "table",
    ) -> TournamentConfig:
        """A config for one of :data:`TABLES`; only Custom takes the overrides."""
        spec = SEED003_TABLE if table == SEED003_TABLE.key else TABLES[table]
        lo, hi = spec.players
        if not lo <= len(seats) <= hi:
            raise ValueError(f"the {spec.name} table seats {lo} to {hi} players")
        if table != "custom" and (
            starting_chips is not None or starting_blinds is not None or hands_per_level != "table"
        ):
            raise ValueError("only the Custom table takes its own chips and blinds")
        return cls(
            table=table,
            seats=tuple(seats),
            starting_chips=starting_chips if starting_chips is not None else spec.starting_chips,
            starting_level=(
                level_index(starting_blinds) if starting_blinds else spec.starting_level
            ),
            hands_per_level=(
                spec.hands_per_level if hands_per_level == "table" else hands_per_level  # type: ignore[arg-type]
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "seats": [asdict(s) for s in self.seats],
            "starting_chips": self.starting_chips,
            "starting_level": self.starting_level,
            "hands_per_level": self.hands_per_level,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        return cls(
            table=data["table"],
            seats=tuple(SeatSpec(**s) for s in data["seats"]),
            starting_chips=data["starting_chips"],
            starting_level=data["starting_level"],
            hands_per_level=data["hands_per_level"],
        )


def seed003_config(human_name: str = "You") -> TournamentConfig:
    """Seed 003: you and five computer players (Ike on your left, then Max, Rosa, Jules and
    Nina), 1,500 chips each, blinds 10/20 going up every 5 hands."""
    seats = [SeatSpec(human_name, kind="human")]
    seats += [SeatSpec(name, "bot", Difficulty.NORMAL.value, name) for name in SEED003_PLAYERS]
    return TournamentConfig.for_table(SEED003_TABLE.key, seats)
