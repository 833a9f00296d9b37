"""The tournament's setup: seats, the table, and the player's preferences."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.holdem.blinds import BLIND_LEVELS, SEED003_TABLE, TABLES
from engine.holdem.bots import SEED003_PLAYERS, Difficulty
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec

#: AI speeds, slowest first.
SPEEDS = ("slow", "normal", "fast")
#: The setup screen's choices (seed 000): starting chips, blind increase.
CHIP_CHOICES = (1000, 1500, 2000, 3000, 5000)
INCREASE_CHOICES: tuple[int | None, ...] = (5, 10, 15, None)


@dataclass(frozen=True)
class TournamentSettings:
    """The setup screen: seats, the table, and the player's preferences.

    The defaults are seed 003's game: you and Ike, Max, Rosa, Jules and Nina (Normal),
    1,500 chips, blinds 10/20 going up every 5 hands."""

    players: int = 6
    strengths: tuple[str, ...] = (Difficulty.NORMAL.value,) * 5
    starting_chips: int = SEED003_TABLE.starting_chips
    starting_level: int = SEED003_TABLE.starting_level
    hands_per_level: int | None = SEED003_TABLE.hands_per_level
    ai_speed: str = "normal"
    equity_assist: bool = True
    human_name: str = "You"

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 6:
            raise ValueError("2 to 6 players")
        if len(self.strengths) < self.players - 1:
            raise ValueError("a strength for every computer player")
        for s in self.strengths:
            Difficulty(s)
        if self.ai_speed not in SPEEDS:
            raise ValueError(f"AI speed is one of {', '.join(SPEEDS)}")

    def with_strength(self, index: int, strength: str) -> TournamentSettings:
        s = list(self.strengths)
        s[index] = Difficulty(strength).value
        return replace(self, strengths=tuple(s))

    @property
    def bot_names(self) -> tuple[str, ...]:
        """Seed 003's players, clockwise from the human's left."""
        return SEED003_PLAYERS[: self.players - 1]

    def seats(self) -> list[SeatSpec]:
        out = [SeatSpec(self.human_name, kind="human")]
        for name, strength in zip(self.bot_names, self.strengths, strict=False):
            out.append(SeatSpec(name, "bot", strength, name))  # personality fixed: survives a resume
        return out

    def table_key(self) -> str:
        """The named table these settings are (seed 003's game first), else ``custom``."""
        chips, level, per = self.starting_chips, self.starting_level, self.hands_per_level
        t = SEED003_TABLE
        if (self.players, chips, level, per) == (6, t.starting_chips, t.starting_level, t.hands_per_level):
            return t.key
        order = (["heads_up"] if self.players == 2 else []) + [
            k for k in TABLES if k not in ("custom", "heads_up")]
        for key in order:
            spec = TABLES[key]
            lo, hi = spec.players
            if lo <= self.players <= hi and (chips, level, per) == (
                    spec.starting_chips, spec.starting_level, spec.hands_per_level):
                return key
        return "custom"

    def config(self) -> TournamentConfig:
        key = self.table_key()
        if key != "custom":
            return TournamentConfig.for_table(key, self.seats())
        blinds = BLIND_LEVELS[self.starting_level]
        return TournamentConfig.for_table(key, self.seats(), starting_chips=self.starting_chips,
                                          starting_blinds=(blinds.small, blinds.big),
                                          hands_per_level=self.hands_per_level)
