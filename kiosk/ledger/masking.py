"""Ticket validation numbers as staff below manager see them: masked to the last four
digits (``**************1234``), so a listing cannot be used to redeem a ticket."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from kiosk.ledger.records import EventRecord, TicketRecord

_NUMBER = re.compile(r"(?<!\d)\d{18}(?!\d)")


def mask_number(number: str) -> str:
    """An 18-digit validation number with all but its last four digits as ``*``."""
    return "*" * (len(number) - 4) + number[-4:]


def mask_text(text: str) -> str:
    """``text`` with every 18-digit run masked."""
    return _NUMBER.sub(lambda m: mask_number(m.group(0)), text)


def mask_value(value: Any) -> Any:
    """A JSON value with every 18-digit run in its strings masked (dicts and lists too)."""
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, Mapping):
        return {k: mask_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_value(v) for v in value]
    return value


def mask_numbers(value: Any, numbers: frozenset[str]) -> Any:
    """A JSON value with each of ``numbers`` (18-digit validation numbers) masked where it
    appears in a string (dicts and lists too); other digits stay."""
    if isinstance(value, str):
        return _NUMBER.sub(
            lambda m: mask_number(m.group(0)) if m.group(0) in numbers else m.group(0), value
        )
    if isinstance(value, Mapping):
        return {k: mask_numbers(v, numbers) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_numbers(v, numbers) for v in value]
    return value


def mask_event(event: EventRecord) -> EventRecord:
    """``event`` with the validation numbers in its detail and transaction masked."""
    txn = None if event.txn is None else mask_text(event.txn)
    return replace(event, detail=mask_value(event.detail), txn=txn)


def mask_ticket(ticket: TicketRecord) -> TicketRecord:
    """``ticket`` with its validation number masked."""
    return replace(ticket, validation=mask_number(ticket.validation))
