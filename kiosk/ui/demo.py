"""Simulated cabinet devices for demo mode, in one small adapter (the UI's only seam
with the devices).

Keys 1-6 insert a bill, ``T`` inserts the last printed ticket, ``F9`` opens/closes the
door.  Two ways to run it:

* with the cabinet's devices on simulators (``uth kiosk`` with ``validator_port`` and
  ``printer_port`` set to ``"sim"``): pass :class:`DemoSimulators` to the app.  A bill key
  puts the note into :class:`devices.sim.Id003Simulator`; it is credited through the
  real ID-003 driver's handshake (escrow, stack, VEND VALID).  Cash-out prints through
  the TCL driver on :class:`devices.sim.TclSimulator`, and ``T`` feeds the barcode of the
  last ticket that simulator printed back into the validator, which redeems it (once);
* without devices (tests, benchmarks): :class:`DemoTicketPayout` over the station's
  device-less stand-in (:class:`kiosk.station.paperless.PaperlessDevices`: a paperless
  printer, and notes and tickets credited at the station's link in the service's two
  phases, as a validator's would).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from kiosk.game.commands import CreditSource, InsertCredits
from kiosk.game.errors import MachineError
from kiosk.ledger.records import TicketRecord
from kiosk.link.messages import PrintTicket
from kiosk.ui.model import Model


@dataclass(frozen=True)
class DemoTicket:
    barcode: str
    amount: int  # cents
    printed_at: float


class StandInDevices(Protocol):
    """What the device-less demo needs of a station's devices with no hardware
    (:class:`kiosk.station.paperless.PaperlessDevices`, attached to the station's link)."""

    clock: Callable[[], float]

    def serve(self) -> list[PrintTicket]:
        """Take the print orders waiting; returns the ones reported printed now."""
        ...

    def credit(self, command: InsertCredits) -> None:
        """A note or a ticket with no validator, credited in two phases (a refusal
        raises :class:`MachineError`)."""
        ...


class DemoTicketPayout:
    """Prints (pretends to) the station's cash-out tickets on ``devices``: each order is
    reported printed after their ``delay`` seconds of "printing", polled from the main
    loop (:meth:`poll`) so the controller is never re-entered."""

    def __init__(self, devices: StandInDevices) -> None:
        self.devices = devices
        self.printed: list[DemoTicket] = []
        self.redeemed: set[str] = set()

    @property
    def clock(self) -> Callable[[], float]:
        return self.devices.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.devices.clock = clock

    def poll(self) -> DemoTicket | None:
        """Finish due print orders; returns the ticket printed now, if any."""
        done = None
        for order in self.devices.serve():
            done = DemoTicket(order.validation, order.amount_cents, self.clock())
            self.printed.append(done)
        return done

    def last_unredeemed(self) -> DemoTicket | None:
        for t in reversed(self.printed):
            if t.barcode not in self.redeemed:
                return t
        return None


class DemoSimulators:
    """The demo keys' way to the cabinet's simulated devices: give it to the app in place
    of a :class:`DemoTicketPayout` (``App(..., payout=DemoSimulators(devices, ticket))``).
    ``devices`` is a started :class:`kiosk.station.devices.StationDevices`; ``ticket``
    reads the ledger's record of a printed ticket (None: unknown)."""

    def __init__(
        self, devices: Any, ticket: Callable[[str], TicketRecord | None] = lambda _v: None
    ) -> None:
        self.devices = devices
        self.ticket = ticket
        self.clock: Any = time.monotonic  # the app sets its own

    def printed(self) -> list[str]:
        return list(self.devices.printed_barcodes())


class DemoDevices:
    """What the demo keys do.  Every command goes through ``model.send`` so refusals show."""

    def __init__(
        self, model: Model, payout: DemoTicketPayout | DemoSimulators | None = None
    ) -> None:
        self.model = model
        self.sims = payout if isinstance(payout, DemoSimulators) else None
        self.payout = payout if isinstance(payout, DemoTicketPayout) else None
        self.last_ticket: DemoTicket | None = None
        self._seen = 0  # tickets of the simulated printer already noticed

    def insert_bill(self, cents: int) -> bool:
        if self.sims is not None:
            # into the simulated validator: credited (or returned) through the ID-003 driver
            return bool(self.sims.devices.insert_bill(cents))
        # no validator: the note goes through the service's two phases all the same
        return self._credit(InsertCredits(cents))

    def insert_ticket(self) -> bool:
        """Insert the last printed ticket; False when there is none.

        With the simulators it is the last ticket the printer simulator printed (redeemed
        or not: the validator returns a redeemed one); without, the last one not redeemed."""
        if self.sims is not None:
            printed = self.sims.printed()
            return bool(printed) and bool(self.sims.devices.insert_ticket(printed[-1]))
        if self.payout is None:
            return False
        ticket = self.payout.last_unredeemed()
        if ticket is None:
            return False
        # No validator here: the ticket is redeemed straight from the controller's ledger.
        ok = self._credit(InsertCredits(ticket.amount, CreditSource.TICKET, ticket.barcode))
        if ok:
            self.payout.redeemed.add(ticket.barcode)
        return ok

    def _credit(self, command: InsertCredits) -> bool:
        """``command`` to the stand-in devices (as a validator's report), else to the
        controller; a refusal shows as a note."""
        if self.payout is None:
            return self.model.send(command) is not None
        try:
            self.payout.devices.credit(command)
        except MachineError as exc:
            self.model.error(exc)
            self.model.refresh(force=True)
            return False
        self.model.refresh(force=True)
        return True

    def poll(self) -> DemoTicket | None:
        """Once a frame: the ticket printed since the last call, if any."""
        if self.sims is not None:
            printed = self.sims.printed()
            if len(printed) <= self._seen:
                return None
            self._seen = len(printed)
            barcode = printed[-1]
            record = self.sims.ticket(barcode)
            amount = record.amount if record is not None else 0
            self.last_ticket = DemoTicket(barcode, amount, self.sims.clock())
            self.model.refresh(force=True)
            return self.last_ticket
        if self.payout is None:
            return None
        ticket = self.payout.poll()
        if ticket is not None:
            self.last_ticket = ticket
            self.model.refresh(force=True)
        return ticket
