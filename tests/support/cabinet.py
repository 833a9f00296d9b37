"""A lone cabinet for tests, through its parts (:class:`kiosk.wiring.lone_cabinet.LoneCabinet`):
the screens' commands go to ``cab.station``, notes and tickets with no validator to
:func:`kiosk.station.credits.insert_credits` on ``cab.link``, readings to ``cab.table``.
A handful of shorthands for what most tests do."""

from __future__ import annotations

from typing import Any

from engine.uth.round import Action
from kiosk.config import CabinetConfig
from kiosk.game import commands as cmd
from kiosk.game.snapshot import MachinePhase, PayoutRequest
from kiosk.game.vocabulary import SEAT, Spot
from kiosk.station.credits import insert_credits
from kiosk.station.paperless import PaperlessPrinter
from kiosk.wiring.lone_cabinet import LoneCabinet

__all__ = ["cash_out", "credits", "insert_note", "opened", "place", "play_round", "redeem_ticket"]


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


def opened(
    config: CabinetConfig, printer: PaperlessPrinter | None = None, **kw: Any
) -> LoneCabinet:
    """:meth:`LoneCabinet.open` (``kw``: ``rng``, ``clock``), its tickets printed on
    ``printer``; with none, on a printer that is not ready: a cash-out is a handpay and a
    ticket pending since a restart is voided and paid by hand
    (:func:`kiosk.station.printer.untold_after_restart`)."""
    cab = LoneCabinet.open(config, **kw)
    (printer or PaperlessPrinter(ready=False)).attach(cab.link)
    return cab


def cash_out(cab: LoneCabinet, printer: PaperlessPrinter | None = None) -> PayoutRequest:
    """Cash out; ``printer`` (the cabinet's paperless one) prints the ticket ordered at
    once.  Returns the payout."""
    cab.station.execute(cmd.CashOut())
    request = cab.station.snapshot().cashout
    assert request is not None
    if printer is not None:
        printer.serve()
    return request
