"""A station's bill validator (notes and tickets): the real ID-003 driver, two-phase
through the game service, in process (the lone cabinet) or over the link (a table's
station): the same code either way (:class:`~kiosk.station.port.StationPort`).

The station keeps no money state beyond the note in the validator: each escrow is
committed by the service before STACK (:mod:`kiosk.service.money_in`), and what the
validator reports is sent to the service, which credits or closes the escrow once per
transaction::

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
``in_doubt`` as the service reads the driver's reason
(:func:`~kiosk.service.escrows.escrow_end`), with it (a lost port is in doubt: the service
then waits for the validator's next report to settle it).  A ticket goes the same way: ``ticket_escrow`` asks the
service, which checks the ticket (any station's, printed, not void, redeemed or
expired) and answers its amount; ``ticket_credited`` reports its VEND VALID, which
redeems it once.  Over the link the driver's transaction ``T`` is ``s<seat>-T`` at the
host.  Every device event goes to the service as it is: the validator's own reports
after a restart (VEND VALID or STACKED with no escrow in the driver, power-up with the
bill in the stacker or in the acceptor) settle the station's open escrow there.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace

from devices.host import DeviceEvent, DeviceEventKind
from devices.id003 import BillValidator, ValidatorConfig
from devices.sim import Id003Simulator
from kiosk.config import SIMULATED_PORT
from kiosk.game.errors import MachineError
from kiosk.link.outcomes import EscrowEnd
from kiosk.service.escrows import escrow_end
from kiosk.station.port import StationPort

log = logging.getLogger(__name__)

#: Seconds between two looks at the station's state by the validator's follower.
FOLLOW_S = 0.05
#: Seconds after which the follower decides again though nothing it sees changed (the
#: ledger's room to record, probed before an enable).
RECHECK_S = 1.0


class HostUnreachable(RuntimeError):
    """The host did not answer a validator's report in time."""


class StationNotes:
    """The ID-003 driver's host at a station (see the module).  Thread-safe.
    ``prefix``: the driver's transactions are named after the station (over the link,
    where one host keeps every station's)."""

    def __init__(self, remote: StationPort, answer_s: float = 3.0, *, prefix: bool = True) -> None:
        self.remote = remote
        self.answer_s = answer_s
        self.prefix = prefix

    def txn(self, transaction_id: str) -> str:
        """The service's name of the driver's transaction."""
        if not self.prefix:
            return transaction_id
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
        if self.remote.report_note(txn, EscrowEnd.VEND_VALID, "", self.answer_s) is None:
            raise HostUnreachable(f"no answer to VEND VALID for {txn}")

    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        if not self.remote.connected:
            return None
        txn = self.txn(transaction_id)
        try:
            amount = self.remote.escrow_ticket(barcode, txn, self.answer_s)
        except MachineError:  # the service itself cannot answer (its ledger is at fault)
            raise
        except ValueError:  # not a ticket number the link carries
            log.warning("ticket %r returned: not a validation number", barcode)
            return None
        if amount is None:
            log.warning("ticket %s returned: %s", barcode, self.remote.escrow_refusal(txn) or "no answer")
        return amount

    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        txn = self.txn(transaction_id)
        answer = self.remote.report_note(txn, EscrowEnd.VEND_VALID, "", self.answer_s, amount_cents)
        if answer is None:
            raise HostUnreachable(f"no answer to VEND VALID for ticket {barcode} ({txn})")

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        # a lost port is in doubt: where the item is waits for the validator's next report
        self.remote.report_note(self.txn(transaction_id), escrow_end(reason), reason, 0)

    def device_event(self, event: DeviceEvent) -> None:
        self.remote.report_fault(event.device, event.kind, event.detail, event.active)


class StationValidator:
    """The station's validator driver on ``port`` (``"sim"``: a simulator on a pty in
    this process), enabled only while the service is reachable and the station may take
    money (no tilt, door closed, no payout pending), and, each time before it is enabled,
    only once the service says its ledger can record.  A port that cannot be opened is
    reported as the validator's ``comm_error`` (the station stays up for the attendant)."""

    def __init__(
        self,
        remote: StationPort,
        port: str,
        config: ValidatorConfig | None = None,
        answer_s: float = 3.0,
        *,
        prefix: bool = True,
        sim_seed: int | None = None,
    ) -> None:
        self.remote = remote
        self.notes = StationNotes(remote, answer_s, prefix=prefix)
        self.sim = Id003Simulator(seed=sim_seed) if port == SIMULATED_PORT else None
        self.port = port
        self.config = replace(config or ValidatorConfig(), device_name="validator")
        self.driver: BillValidator | None = None
        self._enabled: bool | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._follow, name="station-notes", daemon=True)

    def start(self) -> StationValidator:
        if self.sim is not None:
            self.sim.start()
            self.port = self.sim.port
        driver = BillValidator(self.port, self.notes, self.config)
        try:
            driver.start()
        except Exception as exc:  # no such port, permission denied...
            log.error("validator: cannot open %s: %s", self.port, exc)
            self.remote.report_fault(
                "validator", DeviceEventKind.COMM_ERROR, f"cannot open {self.port}: {exc}", True
            )
        else:
            self.driver = driver
            self._enabled = self._step(None)  # at once: a note inserted now is taken
        self._thread.start()
        return self

    def accepting(self) -> bool:
        """Whether notes may go in now: the service reachable, the station untilted with
        its door closed, no payout pending."""
        snap = self.remote.snapshot()
        return (
            self.remote.connected
            and snap is not None
            and not snap.tilts
            and not snap.door_open
            and not snap.payout_pending
            and not snap.notes_off
        )

    def _follow(self) -> None:
        """Every :data:`FOLLOW_S`, the validator enabled or inhibited again when the
        station changed (its link's progress, its connection) or :data:`RECHECK_S` passed;
        a still station costs a look at two values."""
        seen: tuple[int, bool] | None = None
        checked = time.monotonic()
        while not self._stopping.wait(FOLLOW_S):
            now, at = (self.remote.progress(), self.remote.connected), time.monotonic()
            if now != seen or at - checked >= RECHECK_S:
                seen, checked = now, at
                self._enabled = self._step(self._enabled)

    def _step(self, enabled: bool | None) -> bool | None:
        """Enable or inhibit the validator as the station's state says; returns whether
        it is enabled now."""
        want = self.accepting()
        if want and not enabled:  # the ledger is probed before every enable
            want = self.remote.ledger_can_record()
        if want != enabled and self.driver is not None:
            (self.driver.enable if want else self.driver.disable)()
            log.info("validator %s", "enabled" if want else "inhibited (service or station)")
            return want
        return enabled

    def insert_ticket(self, barcode: str) -> bool:
        """Put a ticket into the simulated validator (False when it is not simulated)."""
        if self.sim is None:
            return False
        self.sim.insert_ticket(barcode)
        return True

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
