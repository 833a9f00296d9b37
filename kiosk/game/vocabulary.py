"""The game's shared vocabulary: the chips on the spots (:class:`Bets`), the spots, the
player's seat on a lone cabinet, and the tilt codes every part uses.  The game's state
itself is :class:`kiosk.service.state.TableState`.  Amounts are cents."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

#: A betting spot the player places chips on (the Blind mirrors the Ante; the
#: progressive is one fixed wager placed with the Ante, when the paytable offers it).
Spot = Literal["ante", "trips", "progressive"]
#: The player's seat in :class:`engine.uth.round.UthRound`.
SEAT = 1
#: The tilt code of a corrupt, tampered or missing ledger: it cannot be cleared here.
LEDGER_TILT = "ledger"
#: A jackpot to be hand-paid by an attendant.
JACKPOT_TILT = "jackpot"
#: A ticket went into the stacker without being redeemed: an attendant reconciles.
TICKET_TILT = "ticket"
#: Tilts raised from device events start with this (``device:<device>:<kind>``).  A
#: standing condition is not restored at power-up (the device re-reports it while it
#: stands); a one-shot money tilt (:data:`RESTORED_DEVICE_KINDS`) is.
DEVICE_TILT_PREFIX = "device:"
#: Device event kinds whose tilts persist across restarts until an attendant clears
#: them: nothing re-reports them, and each names a note or ticket to reconcile.
RESTORED_DEVICE_KINDS = frozenset({"vend_unmatched", "power_up_bill_in_stacker", "host_error"})
#: The ledger could not record (a failed write, or the write probe before enabling the
#: validator failed): no note or ticket is accepted until an attendant clears it.
LEDGER_WRITE_TILT = "ledger_write"
#: A note or ticket was accepted (STACK sent) and where it went is unknown (a fault
#: ended the escrow): an attendant counts the box.  The tilt names the transaction.
ESCROW_TILT = "escrow"
#: The casino's slot system stopped play at a station (SAS long poll 01): its round in
#: progress finishes, cash-out is still allowed; the system's startup (02) clears it.
HOST_SHUTDOWN_TILT = "sas:host_shutdown"


@dataclass(frozen=True)
class Bets:
    """Chips on the Ante, Trips and progressive spots, cents (the Blind mirrors the
    Ante; the progressive is 0 or the paytable's fixed wager)."""

    ante: int = 0
    trips: int = 0
    progressive: int = 0

    @property
    def total(self) -> int:
        """Cents on the spots (the Blind is not placed until the deal)."""
        return self.ante + self.trips + self.progressive

    def add(self, spot: Spot, cents: int) -> Bets:
        """These bets with ``cents`` more on ``spot``."""
        return replace(self, **{spot: getattr(self, spot) + cents})
