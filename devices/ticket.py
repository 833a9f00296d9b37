"""The cash-out ticket record and its printed amounts.

All amounts are integer cents.  :func:`amount_in_words` spells a ticket amount the way
TITO tickets do: ``ONE HUNDRED TWENTY-THREE DOLLARS AND 45 CENTS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from devices.errors import TicketDataError
from devices.validation import check_validation_number
from engine.money import format_cents as engine_format_cents

_ONES = (
    "ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN "
    "FOURTEEN FIFTEEN SIXTEEN SEVENTEEN EIGHTEEN NINETEEN"
).split()
_TENS = "_ _ TWENTY THIRTY FORTY FIFTY SIXTY SEVENTY EIGHTY NINETY".split()
_SCALES = ((10**9, "BILLION"), (10**6, "MILLION"), (10**3, "THOUSAND"))
MAX_CENTS = 10**14 - 1  # just under a trillion dollars


def _check_cents(cents: int) -> int:
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TicketDataError(f"amount must be integer cents, got {cents!r}")
    if not 0 <= cents <= MAX_CENTS:
        raise TicketDataError(f"amount out of range: {cents} cents")
    return cents


def _below_thousand(n: int) -> str:
    words = []
    if n >= 100:
        words.append(f"{_ONES[n // 100]} HUNDRED")
        n %= 100
    if n >= 20:
        words.append(_TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else ""))
    elif n or not words:
        words.append(_ONES[n])
    return " ".join(words)


def _number_words(n: int) -> str:
    if n == 0:
        return "ZERO"
    words = []
    for scale, name in _SCALES:
        if n >= scale:
            words.append(f"{_below_thousand(n // scale)} {name}")
            n %= scale
    if n:
        words.append(_below_thousand(n))
    return " ".join(words)


def amount_in_words(cents: int) -> str:
    """``12345`` -> ``ONE HUNDRED TWENTY-THREE DOLLARS AND 45 CENTS``."""
    dollars, rest = divmod(_check_cents(cents), 100)
    unit = "DOLLAR" if dollars == 1 else "DOLLARS"
    return f"{_number_words(dollars)} {unit} AND {rest:02d} CENTS"


def format_cents(cents: int) -> str:
    """``123456`` -> ``$1,234.56``."""
    return engine_format_cents(_check_cents(cents))


@dataclass(frozen=True, slots=True)
class TicketData:
    """Everything printed on one cash-out ticket.  Validated on construction.

    ``amount_cents`` is positive integer cents; ``validation_number`` 18 digits (see
    :mod:`devices.validation`); ``expires_on`` None means the ticket does not expire.
    """

    casino_name: str
    address: str
    machine_number: str
    issued_at: datetime
    amount_cents: int
    sequence_number: int
    validation_number: str
    expires_on: date | None
    ticket_type: str = "CASHOUT TICKET"

    def __post_init__(self) -> None:
        if _check_cents(self.amount_cents) == 0:
            raise TicketDataError("a ticket amount must be positive")
        check_validation_number(self.validation_number)
        if isinstance(self.sequence_number, bool) or not isinstance(self.sequence_number, int):
            raise TicketDataError(f"sequence number must be an int: {self.sequence_number!r}")
        if not 0 <= self.sequence_number <= 9999_9999:
            raise TicketDataError(f"sequence number out of range: {self.sequence_number}")
        if not isinstance(self.issued_at, datetime):
            raise TicketDataError(f"issued_at must be a datetime: {self.issued_at!r}")
        for name in ("casino_name", "address", "machine_number", "ticket_type"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise TicketDataError(f"{name} must be a non-empty string")

    @property
    def amount_words(self) -> str:
        """The amount spelled out, e.g. ``TWENTY DOLLARS AND 00 CENTS``."""
        return amount_in_words(self.amount_cents)

    @property
    def amount_figures(self) -> str:
        """The amount in figures, e.g. ``$20.00``."""
        return format_cents(self.amount_cents)

    @property
    def expiry_text(self) -> str:
        """``VOID AFTER 05/08/2026`` or ``DOES NOT EXPIRE``."""
        if self.expires_on is None:
            return "DOES NOT EXPIRE"
        return f"VOID AFTER {self.expires_on:%m/%d/%Y}"
