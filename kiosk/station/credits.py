"""Credits with no validator, at a station in the service's process (the lone cabinet's
tools, tests, the burn-in and the device-less demo): an :class:`InsertCredits` goes
through the same two phases as the validator's note or ticket (escrow accepted, then
stacked), or is a burn-in's test credits.  Amounts are integer cents.
"""

from __future__ import annotations

import secrets

from kiosk.game.commands import CreditSource, InsertCredits
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError
from kiosk.link.outcomes import EscrowEnd
from kiosk.service.device_commands import AcceptEscrow, AcceptTicket, SettleEscrow, TestCredits
from kiosk.station.port import StationPort


def insert_credits(link: StationPort, command: InsertCredits) -> None:
    """Credit ``command.cents`` from ``command.source`` at ``link``'s station (an
    in-process link: the service's own commands).  A refusal raises a
    :class:`MachineError` before any credit moves."""
    cents, source = command.cents, command.source
    if not isinstance(source, CreditSource) or (
        (source is CreditSource.TICKET) != bool(command.validation)
    ):
        raise MachineError(
            f"unknown credit source {source!r} "
            "(a note, a ticket with its validation number, or test credits)",
            code=ErrorCode.BAD_CREDIT_SOURCE,
        )
    if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
        raise MachineError(
            f"credits are a positive whole number of cents, not {cents!r}",
            code=ErrorCode.BAD_AMOUNT,
        )
    if source is CreditSource.TEST:
        link.execute(TestCredits(None, cents))
        return
    txn = f"insert-{source.value}-{secrets.token_hex(8)}"
    if source is CreditSource.TICKET:
        link.execute(AcceptTicket(txn, command.validation, cents))
    else:
        link.execute(AcceptEscrow(txn, cents))
    link.execute(SettleEscrow(txn, EscrowEnd.VEND_VALID))
