"""The tournament's setup: the table, the seats, and the player's preferences."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.holdem.blinds import BLIND_LEVELS, SEED003_TABLE, TABLES, TableSpec
from engine.holdem.bots import SEED003_PLAYERS, Difficulty
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec

#: AI speeds, slowest first.
SPEEDS = ("slow", "normal", "fast")
#: The setup screen's choices (seed 000): starting chips, blind increase.
CHIP_CHOICES = (1000, 1500, 2000, 3000, 5000)
INCREASE_CHOICES: tuple[int | None, ...] = (5, 10, 15, None)
#: The tables on the "Choose your table" list, in order: seed 003's game, seed 000's
#: five named tables, then Custom.
TABLE_ORDER: tuple[str, ...] = (SEED003_TABLE.key, *TABLES)
#: The local player's name until they type one (shown translated as "You").
DEFAULT_NAME = "You"
#: Longest name the setup screen takes, in characters.
NAME_MAX = 12
#: How many icons a player can choose from (drawn by the screens).
ICON_COUNT = 8


def seat_icon(seat: SeatSpec) -> int:
    """The icon number a seat was given (0 when it has none)."""
    icon = seat.icon or ""
    return int(icon) if icon.isdigit() and int(icon) < ICON_COUNT else 0


def table_spec(key: str) -> TableSpec:
    """The table called ``key`` (one of :data:`TABLE_ORDER`)."""
    return SEED003_TABLE if key == SEED003_TABLE.key else TABLES[key]


@dataclass(frozen=True)
class TournamentSettings:
    """The setup screen: the table, seats, and the player's preferences.

    ``table`` is the table the player chose (a key of :data:`TABLE_ORDER`); its values
    fill ``players``, ``starting_chips``, ``starting_level`` and ``hands_per_level``
    (:meth:`for_table`), and changing one of them away from the table's makes it Custom
    (:meth:`with_values`).  ``None`` (callers outside the screens) names the table from
    the values instead.  The defaults are seed 003's game: you and Ike, Max, Rosa, Jules
    and Nina (Normal), 1,500 chips, blinds 10/20 going up every 5 hands.

    ``human_name`` and ``human_icon`` are the local player's: their records and their
    saved game belong to that name.  ``ai_speed``, ``equity_assist`` and ``four_colour``
    (the deck) are preferences, not part of any table."""

    players: int = 6
    strengths: tuple[str, ...] = (Difficulty.NORMAL.value,) * 5
    starting_chips: int = SEED003_TABLE.starting_chips
    starting_level: int = SEED003_TABLE.starting_level
    hands_per_level: int | None = SEED003_TABLE.hands_per_level
    ai_speed: str = "normal"
    equity_assist: bool = True
    human_name: str = DEFAULT_NAME
    table: str | None = None
    human_icon: int = 0
    four_colour: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 6:
            raise ValueError("2 to 6 players")
        if len(self.strengths) < self.players - 1:
            raise ValueError("a strength for every computer player")
        for s in self.strengths:
            Difficulty(s)
        if self.ai_speed not in SPEEDS:
            raise ValueError(f"AI speed is one of {', '.join(SPEEDS)}")
        if self.table is not None and self.table not in TABLE_ORDER:
            raise ValueError(f"no table {self.table!r}")
        if not self.human_name.strip() or len(self.human_name) > NAME_MAX:
            raise ValueError(f"a name of 1 to {NAME_MAX} characters")
        if not 0 <= self.human_icon < ICON_COUNT:
            raise ValueError(f"icon 0 to {ICON_COUNT - 1}")

    def with_strength(self, index: int, strength: str) -> TournamentSettings:
        s = list(self.strengths)
        s[index] = Difficulty(strength).value
        return replace(self, strengths=tuple(s))

    def for_table(self, key: str) -> TournamentSettings:
        """These settings at the table ``key``: its chips, blinds and blind increase, and
        its number of players (kept when the table allows it).  Custom keeps the values."""
        spec = table_spec(key)
        if key == "custom":
            return replace(self, table=key)
        lo, hi = spec.players
        players = self.players if lo <= self.players <= hi and key != SEED003_TABLE.key else spec.default_players
        return replace(self, table=key, players=players, starting_chips=spec.starting_chips,
                       starting_level=spec.starting_level, hands_per_level=spec.hands_per_level)

    def with_values(self, **changes: Any) -> TournamentSettings:
        """Players, chips, blinds or blind increase changed: the chosen table stays if it
        still has these values, else the table is Custom."""
        new = replace(self, **changes)
        if new.table is not None and new.table != "custom" and not new._matches(new.table):
            new = replace(new, table="custom")
        return new

    def _matches(self, key: str) -> bool:
        spec = table_spec(key)
        lo, hi = spec.players
        return lo <= self.players <= hi and (self.starting_chips, self.starting_level, self.hands_per_level) == (
            spec.starting_chips, spec.starting_level, spec.hands_per_level)

    @property
    def bot_names(self) -> tuple[str, ...]:
        """Seed 003's players, clockwise from the human's left."""
        return SEED003_PLAYERS[: self.players - 1]

    def seats(self) -> list[SeatSpec]:
        out = [SeatSpec(self.human_name, kind="human", icon=str(self.human_icon))]
        for name, strength in zip(self.bot_names, self.strengths, strict=False):
            out.append(SeatSpec(name, "bot", strength, name))  # personality fixed: survives a resume
        return out

    def table_key(self) -> str:
        """The table these settings are: the chosen one while its values hold, else
        ``custom``; with no chosen table, the named table the values are (seed 003's game
        first), else ``custom``."""
        if self.table is not None:
            return self.table if self.table == "custom" or self._matches(self.table) else "custom"
        if self.players == 6 and self._matches(SEED003_TABLE.key):
            return SEED003_TABLE.key
        order = (["heads_up"] if self.players == 2 else []) + [k for k in TABLES if k not in ("custom", "heads_up")]
        for key in order:
            if self._matches(key):
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

    @classmethod
    def of_game(cls, config: TournamentConfig, human_seat: int, *, ai_speed: str = "normal",
                equity_assist: bool = True, four_colour: bool = False) -> TournamentSettings:
        """The setup that makes a game like ``config`` again (Play again after a resume):
        its table, players, strengths, chips and blinds, the local player's name and icon,
        and the preferences given."""
        strengths = [s.difficulty or Difficulty.NORMAL.value for i, s in enumerate(config.seats) if i != human_seat]
        strengths += [Difficulty.NORMAL.value] * (5 - len(strengths))
        name = config.seats[human_seat].name
        icon = seat_icon(config.seats[human_seat])
        return cls(players=len(config.seats), strengths=tuple(strengths[:5]), starting_chips=config.starting_chips,
                   starting_level=config.starting_level, hands_per_level=config.hands_per_level,
                   ai_speed=ai_speed if ai_speed in SPEEDS else "normal", equity_assist=equity_assist,
                   human_name=name if name.strip() and len(name) <= NAME_MAX else DEFAULT_NAME,
                   table=config.table if config.table in TABLE_ORDER else "custom",
                   human_icon=icon if 0 <= icon < ICON_COUNT else 0, four_colour=four_colour)
