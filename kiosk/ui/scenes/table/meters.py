"""The table's three meters (credit, bet, win) and what they read.

Until the result shows, the credit meter reads the credits before the round's returns,
so the result is never given away early.  Cents throughout.
"""

from __future__ import annotations

from engine.uth.round import RoundSettled
from kiosk.game.snapshot import MachinePhase, MachineSnapshot
from kiosk.ui.i18n import _
from kiosk.ui.scenes.table.geometry import METER_RECTS

Rect = tuple[float, float, float, float]


def meters() -> list[tuple[Rect, str]]:
    """(design rectangle, translated title) of the credit, bet and win meters."""
    titles = (_("CREDIT"), _("BET"), _("WIN"))
    return list(zip(METER_RECTS, titles, strict=True))


def shown_amounts(snap: MachineSnapshot) -> dict[str, int]:
    """Cents on each spot as shown: the chips being placed, else the round's wagers."""
    pending = snap.bet_ante > 0 or snap.bet_trips > 0 or snap.bet_progressive > 0
    if snap.phase in (MachinePhase.IDLE, MachinePhase.BETTING) or pending:
        return {"ante": snap.bet_ante, "blind": snap.bet_ante, "trips": snap.bet_trips, "play": 0,
                "progressive": snap.bet_progressive}
    return {"ante": snap.ante, "blind": snap.blind, "trips": snap.trips, "play": snap.play,
            "progressive": snap.progressive}


def meter_readings(snap: MachineSnapshot, result: RoundSettled | None, revealed: bool) -> tuple[int, int, int]:
    """(credit, bet, win) in cents; ``result`` is the settlement on show (or ``None``)."""
    credits = snap.credits
    win = 0
    if result is not None and result.seats:
        if not revealed:  # nor the progressive award credited with it
            award = snap.progressive_award
            credits -= result.seat(1).returned
            credits -= award.cents if award is not None and not award.hand_paid else 0
        else:
            win = result.seat(1).returned
    return credits, sum(shown_amounts(snap).values()), win
