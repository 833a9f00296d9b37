"""The interface between device drivers and the cabinet controller.

A driver never touches the meters or the ledger: it calls the controller through the small
typed protocols below, from the driver's own polling thread.  Every fault, warning and
protocol anomaly reaches the controller as a frozen :class:`DeviceEvent`.

Money is integer cents.  ``transaction_id`` is a string unique across restarts (a UUID4) that
names one escrow cycle: one note or one ticket from insertion to stacking or return.  For each
``transaction_id`` the driver calls, in order:

1. ``escrow_decision`` (note) or ``ticket_escrow`` (ticket) -- exactly once;
2. then exactly one of ``bill_credited`` / ``ticket_credited`` (at the first VEND VALID) or
   ``escrow_aborted`` (the cycle ended without a VEND VALID: refused, returned, rejected,
   jammed, power cut...).

A repeated VEND VALID (the device did not hear our ACK) never produces a second credit.  A
credit call that raises is made again (the VEND VALID is not ACKed until one returns), so a
host records each credit once per ``transaction_id``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class DeviceEventKind(StrEnum):
    """What happened.  Whether a kind tilts the cabinet is fixed in :data:`TILT_KINDS`."""

    # shared
    COMM_ERROR = "comm_error"  # N consecutive bad/absent frames; cleared when traffic resumes
    HOST_ERROR = "host_error"  # a controller callback raised; the driver carried on safely
    # bill validator
    POWER_UP = "power_up"
    POWER_UP_BILL_IN_ACCEPTOR = "power_up_bill_in_acceptor"  # note is returned to the patron
    POWER_UP_BILL_IN_STACKER = "power_up_bill_in_stacker"  # note went to the box uncredited
    REJECTED = "rejected"  # note/ticket rejected by the validator; ``code`` is the reason
    UNKNOWN_DENOMINATION = "unknown_denomination"  # escrow code not in our table: returned
    TICKET_MALFORMED = "ticket_malformed"  # barcode not the expected digits: returned
    STACKER_FULL = "stacker_full"
    STACKER_OPEN = "stacker_open"
    ACCEPTOR_JAM = "acceptor_jam"
    STACKER_JAM = "stacker_jam"
    PAUSE = "pause"  # second note inserted while stacking
    CHEATED = "cheated"
    FAILURE = "failure"  # hardware failure; ``code`` is the ID-003 failure code
    CONFIG_REJECTED = "config_rejected"  # the validator refused our settings
    VEND_UNMATCHED = "vend_unmatched"  # VEND VALID/STACKED with no escrow we accepted
    # ticket printer
    PAPER_LOW = "paper_low"
    PAPER_OUT = "paper_out"
    HEAD_UP = "head_up"
    PAPER_JAM = "paper_jam"
    CHASSIS_OPEN = "chassis_open"
    PRINTER_FAILURE = "printer_failure"  # head/voltage/temperature/system/cutter error
    PRINTER_RESET = "printer_reset"  # printer rebooted; templates are redefined
    LAYOUT_REJECTED = "layout_rejected"  # printer refused our regions/templates


class PrintOutcome(StrEnum):
    """How a ticket printer's print attempt ended (see :mod:`devices.tcl.driver`): the
    words a station reports to the game service too."""

    PRINTED = "printed"
    NOT_PRINTED = "not_printed"
    UNKNOWN = "unknown"


#: Kinds that put the cabinet in tilt (GLI-11 style: the game stops until an attendant acts).
TILT_KINDS: frozenset[DeviceEventKind] = frozenset(
    {
        DeviceEventKind.COMM_ERROR,
        DeviceEventKind.HOST_ERROR,
        DeviceEventKind.POWER_UP_BILL_IN_STACKER,
        DeviceEventKind.STACKER_FULL,
        DeviceEventKind.STACKER_OPEN,
        DeviceEventKind.ACCEPTOR_JAM,
        DeviceEventKind.STACKER_JAM,
        DeviceEventKind.CHEATED,
        DeviceEventKind.FAILURE,
        DeviceEventKind.CONFIG_REJECTED,
        DeviceEventKind.VEND_UNMATCHED,
        DeviceEventKind.PAPER_OUT,
        DeviceEventKind.HEAD_UP,
        DeviceEventKind.PAPER_JAM,
        DeviceEventKind.CHASSIS_OPEN,
        DeviceEventKind.PRINTER_FAILURE,
        DeviceEventKind.LAYOUT_REJECTED,
    }
)


#: Tilts no device clears (they never get an ``active=False`` event): an attendant clears
#: them after reconciling.
ONE_SHOT_KINDS: frozenset[DeviceEventKind] = frozenset(
    {
        DeviceEventKind.POWER_UP_BILL_IN_STACKER,
        DeviceEventKind.VEND_UNMATCHED,
        DeviceEventKind.HOST_ERROR,
        DeviceEventKind.LAYOUT_REJECTED,
    }
)


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """One thing a device reported.

    ``active`` is False when a standing condition (a fault, a comm loss) has cleared; the
    controller can keep a set of active ``(device, kind)`` pairs and stay in tilt while any
    tilting one is active.  One-shot tilts (``power_up_bill_in_stacker``, ``vend_unmatched``,
    ``host_error``, ``layout_rejected``) never get an ``active=False`` event: an attendant
    clears them after reconciling.  ``code`` is the raw protocol code when there is one (ID-003
    reject or failure code), else None.
    """

    device: str
    kind: DeviceEventKind
    detail: str
    tilt: bool
    active: bool = True
    code: int | None = None


def make_event(
    device: str, kind: DeviceEventKind, detail: str, *, active: bool = True, code: int | None = None
) -> DeviceEvent:
    """Build a :class:`DeviceEvent` whose ``tilt`` comes from :data:`TILT_KINDS`."""
    return DeviceEvent(device, kind, detail, kind in TILT_KINDS, active, code)


class DeviceEventSink(Protocol):
    """Receives every device event (faults, warnings, their clearing)."""

    def device_event(self, event: DeviceEvent) -> None:
        """Record the event; tilt or untilt the cabinet as ``event.tilt``/``active`` say."""


def report_event(
    sink: DeviceEventSink,
    device: str,
    kind: DeviceEventKind,
    detail: str,
    *,
    log: logging.Logger,
    active: bool = True,
    code: int | None = None,
) -> DeviceEvent:
    """Log an event (a warning when it raises a tilt) and hand it to ``sink``.

    A sink that raises is logged and otherwise ignored: a driver never stops for it.
    """
    event = make_event(device, kind, detail, active=active, code=code)
    log.log(
        logging.WARNING if event.tilt and active else logging.INFO,
        "%s: event %s%s: %s",
        device,
        kind.value,
        "" if active else " cleared",
        detail,
    )
    try:
        sink.device_event(event)
    except Exception:
        log.exception("%s: device_event raised", device)
    return event


class ValidatorHost(DeviceEventSink, Protocol):
    """What the bill validator driver needs from the controller.  All amounts in cents.

    Callbacks run on the driver's polling thread and should return quickly (well under the
    validator's escrow timeout, a few seconds).  An exception raised by a callback is logged,
    reported as a ``host_error`` event, and treated as the safe answer (return the item).
    """

    def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
        """A note of ``denomination_cents`` is in escrow: True to stack it, False to return."""

    def bill_credited(self, denomination_cents: int, transaction_id: str) -> None:
        """The note is stacked (VEND VALID): credit it.  Called once per transaction, or
        again after it raised: record it once per ``transaction_id``."""

    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        """A TITO ticket is in escrow: its amount in cents to redeem it, None to return it."""

    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        """The ticket is stacked (VEND VALID): credit ``amount_cents``.  Once per transaction
        (again after it raised: record it once per ``transaction_id``)."""

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        """The escrow cycle ended without a credit (``reason`` e.g. ``refused``, ``returned``,
        ``rejected``, ``stacker_jam``, ``power_up_bill_in_stacker``)."""
