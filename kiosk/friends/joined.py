"""The result of a game this cabinet joined, kept in its player's records.

The host sends each seat its results when the game ends (the ``over`` table of
:mod:`kiosk.friends.game`, with the seat's own numbers in ``summary``); the joining
cabinet records them in its own :class:`~kiosk.tournament.store.TournamentStore` under
its player's name, like a game it hosted, so the Records screen counts it.  The game's
id is made of the code and the seat's token, so the same result is never recorded twice.
Chips are points: nothing here touches credits or meters.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from engine.holdem.stats import GameSummary
from kiosk.tournament.store import TournamentStore

Json = dict[str, Any]


def summary_from(over: Json) -> GameSummary:
    """The :class:`GameSummary` of the ``over`` table ``over`` (an online game)."""
    s = over["summary"]
    strength = s.get("best_strength")
    return GameSummary(
        table=str(over.get("table", "custom")),
        players=int(s["players"]),
        place=int(s["place"]),
        hands_played=int(s["hands_played"]),
        hands_won=int(s["hands_won"]),
        vpip_hands=int(s.get("vpip_hands", 0)),
        biggest_pot=int(s["biggest_pot"]),
        best_hand=int(strength) if strength is not None else None,
        duration_s=float(s.get("duration_s", 0.0)),
        finished_at=time.time(),
        online=True,
    )


def joined_game_id(code: str, token: str) -> str:
    """The id a joined game is recorded under: its code and this seat's token (hashed)."""
    return f"friends-{code}-{hashlib.sha256(token.encode()).hexdigest()[:16]}"


def record_joined(store: TournamentStore, over: Json, *, player: str, token: str) -> bool:
    """Record ``player``'s result from the ``over`` table; False if it was recorded
    already."""
    return store.finish(joined_game_id(str(over["code"]), token), summary_from(over), player=player)
