"""The TITO rules the cabinet and the shared table both apply: what a new ticket's
``ticket_issue`` records (a fresh validation number, the next sequence number, the
expiry), why a ticket cannot be redeemed now, and when unknown ticket numbers come too
often (someone guessing validation numbers).  Amounts are cents.

One ledger issues the tickets of one cabinet, or of every station of one table, so a
ticket printed at one station of a table redeems at any other.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from devices.ticket import TicketData
from devices.validation import new_validation_number
from engine.money import format_cents as money
from kiosk.config import CabinetConfig
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import TicketRefused
from kiosk.ledger.chain import utc_stamp
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import TicketRecord
from kiosk.link.messages import PrintTicket

#: The tilt of an acceptor that refused too many unknown ticket numbers.
UNKNOWN_TICKETS_TILT = "unknown_tickets"
#: More than this many unknown ticket numbers within :data:`UNKNOWN_TICKETS_WINDOW`
#: raise :data:`UNKNOWN_TICKETS_TILT`.
UNKNOWN_TICKETS_LIMIT = 5
UNKNOWN_TICKETS_WINDOW = timedelta(minutes=10)


def ticket_issue_detail(
    ledger: Ledger, now: datetime, expiry_days: int, machine_number: str
) -> dict[str, object]:
    """The detail of a new ``ticket_issue``: a validation number never used by ``ledger``,
    the next ticket sequence number, the expiry (valid through ``expiry_days`` days after
    ``now``; None when 0: no expiry) and the machine number printed on it."""
    expires = (now.date() + timedelta(days=expiry_days)).isoformat() if expiry_days else None
    return {
        "validation": new_validation_number(ledger.validation_taken),
        "sequence": ledger.next_ticket_sequence(),
        "expires_on": expires,
        "machine_number": machine_number,
    }


def ticket_refusal(
    ledger: Ledger,
    validation: str,
    cents: int | None,
    today: date,
    *,
    expiry: bool = True,
    in_escrow: bool = False,
) -> TicketRefused | None:
    """Why the ticket ``validation`` (offered for ``cents``, None: its own amount) cannot
    be redeemed now, or None when it can: unknown, redeemed, void, never reported
    printed, altered, expired (when ``expiry``) or already held in a validator's escrow
    (``in_escrow``, the caller's to tell).  Reads the ledger cross-checked against the
    events (an edited row raises :class:`~kiosk.ledger.errors.LedgerCorruptError`)."""
    ticket = ledger.checked_ticket(validation)
    params: dict[str, Any] = {"validation": validation}

    def refuse(code: ErrorCode, why: str) -> TicketRefused:
        offered = "a " if cents is None else f"a {money(cents)} "
        return TicketRefused(
            f"ticket {validation} is not {offered}ticket of this cabinet still to be "
            f"redeemed ({why})",
            code=code,
            params=params,
        )

    if ticket is None:
        return refuse(ErrorCode.TICKET_UNKNOWN, "unknown: not issued here")
    params["amount"] = ticket.amount
    if ticket.status == "redeemed":
        return refuse(ErrorCode.TICKET_REDEEMED, f"already redeemed at {ticket.redeemed_at}")
    if ticket.status == "void":
        return refuse(ErrorCode.TICKET_VOID, f"void: {ticket.void_reason}")
    if ticket.status == "pending":
        return refuse(ErrorCode.TICKET_PENDING, "never reported printed")
    if cents is not None and cents != ticket.amount:
        return refuse(ErrorCode.TICKET_ALTERED, f"altered: it was issued for {money(ticket.amount)}")
    if expiry and ticket.expires_on is not None and today.isoformat() > ticket.expires_on:
        params["expires_on"] = ticket.expires_on
        return refuse(ErrorCode.TICKET_EXPIRED, f"expired after {ticket.expires_on}")
    if in_escrow:
        return refuse(ErrorCode.TICKET_IN_ESCROW, "already in the validator's escrow")
    return None


def unknown_tickets_over_limit(
    ledger: Ledger, now: datetime, station: int | None = None
) -> int | None:
    """How many unknown ticket numbers were refused (``ticket_rejected``, reason
    ``unknown``; at ``station``, or anywhere when None) within
    :data:`UNKNOWN_TICKETS_WINDOW` before ``now`` and since :data:`UNKNOWN_TICKETS_TILT`
    was last raised there, when that is more than :data:`UNKNOWN_TICKETS_LIMIT`; else
    None.  Counted from the ledger, so a restart forgets nothing."""
    start = utc_stamp(now - UNKNOWN_TICKETS_WINDOW)
    for ev in reversed(ledger.events((EventKind.TILT,), last=64, station=station)):
        if ev.detail.get("code") == UNKNOWN_TICKETS_TILT:
            start = max(start, ev.at)
            break
    recent = ledger.events(
        (EventKind.TICKET_REJECTED,), last=4 * UNKNOWN_TICKETS_LIMIT, station=station
    )
    count = sum(1 for ev in recent if ev.detail.get("reason") == "unknown" and ev.at > start)
    return count if count > UNKNOWN_TICKETS_LIMIT else None


def unknown_tickets_text(count: int) -> tuple[dict[str, int], str]:
    """The ``tickets_unknown_repeated`` event's detail and the tilt's message."""
    minutes = int(UNKNOWN_TICKETS_WINDOW.total_seconds() // 60)
    message = (
        f"{count} unknown ticket numbers within {minutes} minutes: "
        "acceptance inhibited until an attendant clears this tilt"
    )
    return {"count": count, "window_minutes": minutes}, message


def print_order(config: CabinetConfig, ticket: TicketRecord, txn: str, resume: bool = False) -> PrintTicket:
    """The order to print ``ticket`` (the cash-out ``txn``'s), its text as the ledger and
    ``config`` give it; raises TicketDataError when it could not be printed."""
    order = PrintTicket(
        txn=txn,
        validation=ticket.validation,
        amount_cents=ticket.amount,
        sequence=ticket.sequence % 100_000_000,
        issued_at=ticket.issued_at,
        expires_on=ticket.expires_on,
        casino_name=config.casino_name,
        address=config.casino_address,
        machine_number=config.machine_number,
        resume=resume,
    )
    order_ticket(order)  # the printer's own checks, before the order is sent
    return order


def order_ticket(order: PrintTicket) -> TicketData:
    """What is printed for ``order`` (raises TicketDataError for unprintable data)."""
    issued = datetime.strptime(order.issued_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    return TicketData(
        casino_name=order.casino_name,
        address=order.address,
        machine_number=order.machine_number,
        issued_at=issued,
        amount_cents=order.amount_cents,
        sequence_number=order.sequence,
        validation_number=order.validation,
        expires_on=date.fromisoformat(order.expires_on) if order.expires_on else None,
    )
