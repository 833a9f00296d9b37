"""A station's bill validator (notes and tickets): the real ID-003 driver, two-phase
through the table host.

The station keeps no money state beyond the note in the validator: each escrow is
committed on the host before STACK (:mod:`kiosk.table.escrows`), and what the validator
reports is sent to the host, which credits or closes the escrow once per transaction::

    validator = StationValidator(remote, "/dev/serial/by-id/...")   # or "sim" (demo)
    validator.start()           # enabled only while the host is reachable and the seat
    ...                         # may take money (no tilt, no payout pending)
    validator.close()

:class:`StationNotes` is the driver's host: ``escrow_decision`` sends
:class:`~kiosk.link.messages.Escrow` and stacks only on the host's acceptance (the note
is returned when it is refused or no answer comes in :attr:`StationNotes.answer_s`
seconds); ``bill_credited`` (VEND VALID) reports ``vend_valid`` and returns once the
host answers, else raises so that the driver does not acknowledge the VEND VALID and
asks again; an escrow that ends otherwise is reported ``stacked`` / ``returned`` /
``in_doubt`` by the driver's reason.  A ticket goes the same way: ``ticket_escrow``
asks the host, which checks the ticket (any station's, printed, not void, redeemed or
expired) and answers its amount; ``ticket_credited`` reports its VEND VALID, which
redeems it once.  The driver's transaction ``T`` is ``s<seat>-T`` on the host.  After a station restart the validator's own report (VEND VALID or STACKED
with no escrow in the driver, power-up with the bill in the stacker, power-up) is sent
with no transaction: the host settles the seat's open escrow from it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace

from devices.host import DeviceEvent, EventKind
from devices.id003 import BillValidator, ValidatorConfig
from devices.sim import Id003Simulator
from kiosk.config import SIMULATED_PORT
from kiosk.machine.credits_in import PORT_LOST, RETURNED_REASONS, STACKED_REASONS
from kiosk.table.remote import RemoteTable

log = logging.getLogger(__name__)

#: The validator's own reports that settle the seat's open escrow after a restart.
_RESTART_REPORTS = {
    EventKind.VEND_UNMATCHED: "vend_valid",
    EventKind.POWER_UP_BILL_IN_STACKER: "stacked",
    EventKind.POWER_UP: "returned",
    EventKind.POWER_UP_BILL_IN_ACCEPTOR: "returned",
}


class HostUnreachable(RuntimeError):
    """The host did not answer a validator's report in time."""


class StationNotes:
    """The ID-003 driver's host at a station (see the module).  Thread-safe."""

    def __init__(self, remote: RemoteTable, answer_s: float = 3.0) -> None:
        self.remote = remote
        self.answer_s = answer_s

    def txn(self, transaction_id: str) -> str:
        """The host's name of the driver's transaction."""
        return f"s{self.remote.station}-{transaction_id}"[:48]

    def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
        if not self.remote.connected:
            return False
        ack = self.remote.escrow_note(denomination_cents, self.txn(transaction_id), self.answer_s)
        if ack is None:
            log.warning("no answer to escrow %s: the note is returned", transaction_id)
        return ack is not None and ack.accepted

    def bill_credited(self, denomination_cents: int, transaction_id: str) -> None:
        txn = self.txn(transaction_id)
        if self.remote.report_note(txn, "vend_valid", "vend_valid", self.answer_s) is None:
            raise HostUnreachable(f"no answer to VEND VALID for {txn}")

    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        if not self.remote.connected:
            return None
        txn = self.txn(transaction_id)
        try:
            amount = self.remote.escrow_ticket(barcode, txn, self.answer_s)
        except ValueError:  # not a ticket number the link carries
            log.warning("ticket %r returned: not a validation number", barcode)
            return None
        if amount is None:
            ack = self.remote.acks.get(txn)
            log.warning("ticket %s returned: %s", barcode, ack.reason if ack else "no answer")
        return amount

    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        txn = self.txn(transaction_id)
        if self.remote.report_note(txn, "vend_valid", "vend_valid", self.answer_s) is None:
            raise HostUnreachable(f"no answer to VEND VALID for ticket {barcode} ({txn})")

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        if reason == PORT_LOST:
            return  # the validator's next report settles it
        if reason in STACKED_REASONS:
            event = "stacked"
        elif reason in RETURNED_REASONS:
            event = "returned"
        else:
            event = "in_doubt"
        self.remote.report_note(self.txn(transaction_id), event, reason, 0)

    def device_event(self, event: DeviceEvent) -> None:
        report = _RESTART_REPORTS.get(event.kind)
        if report is not None and event.active:
            self.remote.report_note(None, report, str(event.kind), 0)
            return
        self.remote.report_fault(event.device, str(event.kind), event.detail, event.active)


class StationValidator:
    """The station's validator driver on ``port`` (``"sim"``: a simulator on a pty in
    this process), enabled only while the host is reachable and the seat may take money."""

    def __init__(
        self,
        remote: RemoteTable,
        port: str,
        config: ValidatorConfig | None = None,
        answer_s: float = 3.0,
    ) -> None:
        self.remote = remote
        self.notes = StationNotes(remote, answer_s)
        self.sim = Id003Simulator() if port == SIMULATED_PORT else None
        self.port = port
        self.config = replace(config or ValidatorConfig(), device_name="validator")
        self.driver: BillValidator | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="station-notes", daemon=True)

    def start(self) -> StationValidator:
        if self.sim is not None:
            self.sim.start()
            self.port = self.sim.port
        self.driver = BillValidator(self.port, self.notes, self.config)
        self.driver.start()
        self._thread.start()
        return self

    def accepting(self) -> bool:
        """Whether notes may go in now: the host reachable, the seat untilted, no payout."""
        snap = self.remote.snapshot()
        return (
            self.remote.connected
            and snap is not None
            and not snap.tilts
            and not snap.payout_pending
        )

    def _follow(self) -> None:
        enabled: bool | None = None
        while not self._stopping.wait(0.05):
            want = self.accepting()
            if want != enabled and self.driver is not None:
                (self.driver.enable if want else self.driver.disable)()
                log.info("validator %s", "enabled" if want else "inhibited (host or seat)")
                enabled = want

    def insert_bill(self, cents: int) -> bool:
        """Put a note into the simulated validator (False when it is not simulated)."""
        if self.sim is None:
            return False
        self.sim.insert_bill(cents)
        return True

    def close(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(2.0)
        if self.driver is not None:
            self.driver.close()
        if self.sim is not None:
            self.sim.stop()
