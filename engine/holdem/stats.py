"""Players' numbers: per game (:class:`SeatStats`), per finished game from one player's
side (:class:`GameSummary`), and every game a cabinet keeps for a player
(:class:`PlayerRecords`).  Chips are points, never credits.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.hands.evaluator import describe


@dataclass(slots=True)
class SeatStats:
    """One player's numbers in one game."""

    hands_played: int = 0
    hands_won: int = 0  # hands in which they won chips from a pot
    biggest_pot: int = 0  # most chips won in one hand
    best_hand: int | None = None  # best strength shown at a showdown
    vpip_hands: int = 0  # hands with chips put in by choice before the flop
    bets_raises: int = 0  # for the aggression factor
    calls: int = 0

    @property
    def vpip(self) -> float:
        return self.vpip_hands / self.hands_played if self.hands_played else 0.0

    @property
    def aggression_factor(self) -> float:
        return self.bets_raises / self.calls if self.calls else float(self.bets_raises)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One finished game from one player's side (what the Records screen keeps)."""

    table: str
    players: int
    place: int
    hands_played: int
    hands_won: int
    vpip_hands: int
    biggest_pot: int
    best_hand: int | None
    ai_strengths: list[str] = field(default_factory=list)
    duration_s: float = 0.0
    finished_at: float = 0.0
    online: bool = False

    @property
    def won(self) -> bool:
        return self.place == 1

    @property
    def best_hand_name(self) -> str | None:
        """The best hand in words ("Two pair, kings and sevens")."""
        return describe(self.best_hand) if self.best_hand is not None else None


class PlayerRecords:
    """Every finished game kept on this cabinet for one player (latest ``keep`` games).

    Totals: games, wins and win rate, average place, play time, hands played and won,
    biggest pot, best hand, VPIP; places, results by table and by AI strength, recent games.
    """

    def __init__(self, games: Iterable[GameSummary] = (), *, keep: int = 60) -> None:
        self.keep = keep
        self.games: list[GameSummary] = list(games)[-keep:]

    def add(self, game: GameSummary) -> None:
        self.games.append(game)
        del self.games[: -self.keep]

    def totals(self) -> dict[str, Any]:
        g = self.games
        hands = sum(x.hands_played for x in g)
        best = max((x.best_hand for x in g if x.best_hand is not None), default=None)
        return {
            "games": len(g),
            "wins": sum(x.won for x in g),
            "win_rate": sum(x.won for x in g) / len(g) if g else 0.0,
            "average_place": sum(x.place for x in g) / len(g) if g else None,
            "play_time_s": sum(x.duration_s for x in g),
            "hands_played": hands,
            "hands_won": sum(x.hands_won for x in g),
            "biggest_pot": max((x.biggest_pot for x in g), default=0),
            "best_hand": best,
            "vpip": sum(x.vpip_hands for x in g) / hands if hands else 0.0,
            "places": {str(p): sum(1 for x in g if x.place == p) for p in range(1, 7)},
            "by_table": _group(g, lambda x: [x.table]),
            "by_ai_strength": _group(g, lambda x: x.ai_strengths),
        }

    def recent(self, count: int = 10) -> list[GameSummary]:
        return list(reversed(self.games[-count:]))

    def clear(self) -> None:
        """Delete all (cannot be undone)."""
        self.games.clear()

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "keep": self.keep, "games": [asdict(x) for x in self.games]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerRecords:
        return cls((GameSummary(**x) for x in data["games"]), keep=data.get("keep", 60))

    def export_json(self) -> str:
        """ "Export JSON": everything, with the totals."""
        return json.dumps({**self.to_dict(), "totals": self.totals()}, indent=2)


def _group(games: list[GameSummary], keys: Any) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for game in games:
        for key in keys(game):
            row = out.setdefault(key, {"games": 0, "wins": 0})
            row["games"] += 1
            row["wins"] += game.won
    return out
