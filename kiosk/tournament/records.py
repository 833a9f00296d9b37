"""What a tournament session reports and saves: the hand history, events for the
screen, the session's own saved state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.holdem.records import HandShown

SESSION_VERSION = 1


@dataclass(frozen=True)
class HandLog:
    """One hand of the history: its public records (``record_to_dict`` form), the local
    player's own cards, and the result once it is over."""

    number: int
    button: int
    blinds: tuple[int, int]
    records: list[dict[str, Any]]
    my_cards: tuple[int, ...] | None
    result: dict[str, Any] | None
    in_progress: bool


@dataclass(frozen=True)
class Event:
    """Something the screen may want to mark (a sound, a note): ``kind`` is ``hand``,
    ``board``, ``action``, ``hand_over``, ``blinds_up``, ``out`` or ``game_over``."""

    kind: str
    seat: int | None = None
    data: Any = None


@dataclass
class SessionState:
    """The session's own saved state, beside the tournament's: the local player's seat
    and preferences (AI speed, equity assist, the 4-colour deck), play time, their cards.
    ``friends``: a game hosted for friends (:mod:`kiosk.friends`) keeps its game code,
    port and roster here (each friend's seat, name, seat token, language, away, left)."""

    human_seat: int = 0
    ai_speed: str = "normal"
    equity_assist: bool = True
    play_time_s: float = 0.0
    my_holes: dict[int, tuple[int, int]] = field(default_factory=dict)
    fast_forward: bool = False
    four_colour: bool = False
    friends: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"friends": self.friends} if self.friends is not None else {}
        return {**extra, "version": SESSION_VERSION, "human_seat": self.human_seat, "ai_speed": self.ai_speed,
                "equity_assist": self.equity_assist, "play_time_s": round(self.play_time_s, 3),
                "my_holes": {str(k): list(v) for k, v in self.my_holes.items()},
                "fast_forward": self.fast_forward, "four_colour": self.four_colour}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SessionState:
        return cls(human_seat=int(d.get("human_seat", 0)), ai_speed=str(d.get("ai_speed", "normal")),
                   equity_assist=bool(d.get("equity_assist", True)),
                   play_time_s=float(d.get("play_time_s", 0.0)),
                   my_holes={int(k): (int(v[0]), int(v[1])) for k, v in d.get("my_holes", {}).items()},
                   fast_forward=bool(d.get("fast_forward", False)),
                   four_colour=bool(d.get("four_colour", False)),
                   friends=d.get("friends"))


def shown_cards(records: list[dict[str, Any]]) -> dict[int, tuple[int, int]]:
    """Seat -> cards shown at the showdown, from a hand's records."""
    return {int(r["seat"]): (int(r["cards"][0]), int(r["cards"][1])) for r in records
            if r.get("type") == HandShown.__name__}
