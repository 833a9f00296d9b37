"""A lone cabinet for tests, through its parts (:class:`kiosk.wiring.lone_cabinet.LoneCabinet`):
the screens' commands go to ``cab.station``, notes and tickets with no validator to
:func:`kiosk.station.credits.insert_credits` on ``cab.link``, readings to ``cab.table``.
A handful of shorthands for what most tests do."""

from __future__ import annotations

from engine.uth.round import Action
from kiosk.machine import commands as cmd
from kiosk.machine.snapshot import MachinePhase
from kiosk.machine.state import SEAT, Spot
from kiosk.station.credits import insert_credits
from kiosk.wiring.lone_cabinet import LoneCabinet

__all__ = ["credits", "insert_note", "place", "play_round", "redeem_ticket"]


def insert_note(cab: LoneCabinet, cents: int) -> None:
    """A note of ``cents`` with no validator: escrowed, then stacked."""
    insert_credits(cab.link, cmd.InsertCredits(cents))


def redeem_ticket(cab: LoneCabinet, cents: int, validation: str) -> None:
    """The ticket ``validation`` (for ``cents``) with no validator: escrowed, then stacked."""
    insert_credits(cab.link, cmd.InsertCredits(cents, cmd.CreditSource.TICKET, validation))


def credits(cab: LoneCabinet) -> int:
    """The station's credits, cents."""
    return cab.table.credits(SEAT)


def place(cab: LoneCabinet, *chips: tuple[Spot, int]) -> None:
    """Place each ``(spot, cents)`` chip, then deal."""
    for spot, cents in chips:
        cab.station.execute(cmd.PlaceChip(spot, cents))
    cab.station.execute(cmd.Deal())


def play_round(
    cab: LoneCabinet, ante: int = 500, trips: int = 0, action: Action | None = None
) -> None:
    """Deal a round of ``ante`` (and ``trips``) and play it to its end, each decision
    ``action`` when legal, else the last legal one (a check, then a fold)."""
    place(cab, ("ante", ante), *((("trips", trips),) if trips else ()))
    while (snap := cab.station.snapshot()).phase == MachinePhase.IN_ROUND:
        chosen = action if action in snap.legal else snap.legal[-1]
        cab.station.execute(cmd.Decide(chosen))
