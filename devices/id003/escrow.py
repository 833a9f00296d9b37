"""The escrow cycle of one validator: one note or ticket from escrow to credit or return.

Each cycle gets a ``transaction_id`` (a UUID4).  For each cycle the host is asked once
(``escrow_decision`` or ``ticket_escrow``) and then hears exactly one ending: a credit at the
first VEND VALID (``bill_credited`` / ``ticket_credited``) or ``escrow_aborted``.  A repeated
VEND VALID is never credited again.  A credit call that raises (the host could not record
it) is not acknowledged: the validator keeps the note in VEND VALID and the host is asked
again, at most every :data:`CREDIT_RETRY_SECONDS` (the host records a credit once per
``transaction_id``, so a retry after a credit that was written and then raised is safe).
Amounts are cents.

A host call that raises is logged and reported as a ``host_error`` event; the cycle then
goes on with a safe default (refuse the note, return the ticket).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from devices.comm_health import Emit
from devices.host import DeviceEventKind, ValidatorHost
from devices.id003.codes import TICKET_ESCROW_CODE
from devices.id003.config import ValidatorConfig

T = TypeVar("T")

#: ``send_decision(stack, transaction_id)``: STACK-1 when ``stack``, else RETURN
SendDecision = Callable[[bool, str], None]
#: How long a VEND VALID waits, unacknowledged, before a credit that raised is retried.
CREDIT_RETRY_SECONDS = 1.0


@dataclass(slots=True)
class _Cycle:
    """One escrow cycle (internal, mutable)."""

    transaction_id: str
    escrow_data: bytes
    kind: str  # "bill", "ticket", "unknown" or "unmatched"
    stack: bool
    cents: int = 0
    barcode: str = ""
    host_knows: bool = True  # the host was asked about it, so it must hear how it ends
    credited: bool = False
    returning: bool = False
    retry_at: float = 0.0  # time.monotonic() before which a failed credit is not retried


class EscrowCycles:
    """The current escrow cycle and every host call about it.

    ``emit(kind, detail, code=...)`` reports events; ``send_decision`` tells the validator
    to stack or return; ``config.denominations`` maps escrow codes to cents; tickets carry
    ``config.ticket_digits`` ASCII digits.
    """

    def __init__(
        self,
        host: ValidatorHost,
        emit: Emit,
        send_decision: SendDecision,
        config: ValidatorConfig,
        log: logging.Logger,
    ) -> None:
        self._host, self._emit, self._send_decision = host, emit, send_decision
        self._config = config
        self._name = config.device_name
        self._log = log
        self._cycle: _Cycle | None = None

    @property
    def credited_transaction(self) -> str | None:
        """The current cycle's ``transaction_id`` if it was already credited, else None."""
        cycle = self._cycle
        return cycle.transaction_id if cycle is not None and cycle.credited else None

    def returning(self) -> None:
        """The validator is returning the current note."""
        if self._cycle is not None:
            self._cycle.returning = True

    def finish(self) -> None:
        """The validator left the cycle by itself (idle, accepting, stacked...)."""
        self.close(self._end_reason())

    def close(self, reason: str) -> None:
        """End the current cycle; the host hears ``escrow_aborted(reason)`` unless it was
        credited or never asked."""
        cycle, self._cycle = self._cycle, None
        if cycle is None or cycle.credited or not cycle.host_knows:
            return
        self._log.info(
            "%s: escrow %s ended without credit: %s", self._name, cycle.transaction_id, reason
        )
        self._ask(self._host.escrow_aborted, cycle.transaction_id, reason, default=None)

    def interrupted(self, reason: str) -> None:
        """Communication with the validator broke off (its port vanished).  A cycle not yet
        credited ends now with ``escrow_aborted(reason)``: whatever the validator reports
        when it is back, that note is never credited.  A credited cycle is kept, so a VEND
        VALID repeated after the reconnection is recognised and not credited again."""
        if self.credited_transaction is None:
            self.close(reason)

    def escrow(self, data: bytes) -> None:
        """The validator holds a note or ticket with escrow ``data``: decide and answer."""
        cycle = self._cycle
        if cycle is not None and not cycle.credited and cycle.escrow_data == data:
            self._decide(cycle)  # the validator is still waiting: our command was lost
            return
        self.close("superseded")
        tid = str(uuid.uuid4())
        if data and data[0] == TICKET_ESCROW_CODE:
            cycle = self._ticket_cycle(tid, data)
        else:
            cycle = self._bill_cycle(tid, data)
        self._cycle = cycle
        self._decide(cycle)

    def vend_valid(self) -> bool:
        """VEND VALID: credit the cycle the first time.  Returns whether the caller ACKs:
        not while the credit call raises (see the module docstring)."""
        cycle = self._cycle
        if cycle is not None and cycle.stack and not cycle.credited:
            if time.monotonic() < cycle.retry_at:
                return False
            if not self._credit(cycle):
                cycle.retry_at = time.monotonic() + CREDIT_RETRY_SECONDS
                return False
            cycle.credited = True
            self._log.info(
                "%s: credited %d cents (%s %s)",
                self._name,
                cycle.cents,
                cycle.kind,
                cycle.transaction_id,
            )
        elif cycle is not None and cycle.credited:
            self._log.warning(
                "%s: VEND VALID repeated for %s (our ACK was lost): not credited again",
                self._name,
                cycle.transaction_id,
            )
        else:
            self.close("refused")
            self._emit(
                DeviceEventKind.VEND_UNMATCHED, "VEND VALID with no escrow the host accepted"
            )
            self._cycle = _Cycle(
                str(uuid.uuid4()), b"", "unmatched", stack=True, host_knows=False, credited=True
            )
        return True

    def _credit(self, cycle: _Cycle) -> bool:
        """Tell the host the cycle's item is stacked; False when the call raised."""
        name = "ticket_credited" if cycle.kind == "ticket" else "bill_credited"
        try:
            if cycle.kind == "ticket":
                self._host.ticket_credited(cycle.barcode, cycle.cents, cycle.transaction_id)
            else:
                self._host.bill_credited(cycle.cents, cycle.transaction_id)
        except Exception as exc:
            self._log.exception("%s: host.%s raised", self._name, name)
            self._emit(
                DeviceEventKind.HOST_ERROR,
                f"{name} raised {exc!r}: VEND VALID for {cycle.transaction_id} is not "
                "acknowledged until the credit is recorded",
            )
            return False
        return True

    def stacked(self) -> None:
        """STACKED: the cycle ends; a stacked note never credited is reported."""
        cycle = self._cycle
        if cycle is not None and cycle.stack and not cycle.credited:
            self._emit(
                DeviceEventKind.VEND_UNMATCHED,
                f"STACKED without VEND VALID for {cycle.transaction_id}: not credited",
            )
            self.close("stacked_without_vend_valid")
        else:
            self.finish()

    def _end_reason(self) -> str:
        cycle = self._cycle
        if cycle is None:
            return ""
        if not cycle.stack:
            return "refused"
        if cycle.returning:
            return "returned"
        return "ended_without_vend_valid"

    def _decide(self, cycle: _Cycle) -> None:
        self._send_decision(cycle.stack, cycle.transaction_id)

    def _ask(self, fn: Callable[..., T], *args: Any, default: T) -> T:
        try:
            return fn(*args)
        except Exception as exc:
            self._log.exception("%s: host.%s raised", self._name, fn.__name__)
            self._emit(DeviceEventKind.HOST_ERROR, f"{fn.__name__} raised {exc!r}")
            return default

    def _bill_cycle(self, tid: str, data: bytes) -> _Cycle:
        cents = self._config.denominations.cents_for(data[0]) if len(data) == 1 else None
        if cents is None:
            self._emit(
                DeviceEventKind.UNKNOWN_DENOMINATION,
                f"escrow data {data.hex() or '(none)'} not in the denomination table: returned",
                code=data[0] if data else None,
            )
            return _Cycle(tid, data, "unknown", stack=False, host_knows=False)
        decision = self._ask(self._host.escrow_decision, cents, tid, default=False)
        return _Cycle(tid, data, "bill", stack=decision is True, cents=cents)

    def _ticket_cycle(self, tid: str, data: bytes) -> _Cycle:
        digits = data[1:]
        if len(digits) != self._config.ticket_digits or not all(0x30 <= b <= 0x39 for b in digits):
            self._emit(
                DeviceEventKind.TICKET_MALFORMED,
                f"ticket barcode {digits!r} is not {self._config.ticket_digits} digits: returned",
            )
            return _Cycle(tid, data, "unknown", stack=False, host_knows=False)
        barcode = digits.decode("ascii")
        amount = self._ask(self._host.ticket_escrow, barcode, tid, default=None)
        valid = isinstance(amount, int) and not isinstance(amount, bool) and amount > 0
        if amount is not None and not valid:
            self._emit(
                DeviceEventKind.HOST_ERROR, f"ticket_escrow returned {amount!r}: ticket returned"
            )
        cents = amount if valid and amount is not None else 0
        return _Cycle(tid, data, "ticket", stack=valid, cents=cents, barcode=barcode)
