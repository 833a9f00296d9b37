"""18-digit TITO validation numbers, drawn from the operating system's cryptographic RNG.

Unpredictable: every digit comes from :mod:`secrets`.  Unique: the caller passes
``is_taken`` (normally a ledger lookup) and the draw is repeated on a collision; with
10**18 values a collision is already vanishingly rare.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from devices.errors import TicketDataError

VALIDATION_DIGITS = 18


def new_validation_number(
    is_taken: Callable[[str], bool] | None = None, *, max_attempts: int = 16
) -> str:
    """A fresh 18-digit validation number (leading zeros kept), not ``is_taken``.

    Raises RuntimeError if ``max_attempts`` draws are all taken (a broken RNG or ledger).
    """
    for _ in range(max_attempts):
        number = f"{secrets.randbelow(10**VALIDATION_DIGITS):0{VALIDATION_DIGITS}d}"
        if is_taken is None or not is_taken(number):
            return number
    raise RuntimeError(f"{max_attempts} validation numbers drawn, all already taken")


def check_validation_number(number: str) -> str:
    """Return ``number`` if it is exactly 18 ASCII digits, else raise TicketDataError."""
    if (
        not isinstance(number, str)
        or len(number) != VALIDATION_DIGITS
        or not (number.isascii() and number.isdigit())
    ):
        raise TicketDataError(f"validation number must be 18 digits: {number!r}")
    return number


def format_validation_number(number: str) -> str:
    """Printed form ``12-3456-7890-1234-5678`` of an 18-digit validation number."""
    n = check_validation_number(number)
    return "-".join((n[:2], n[2:6], n[6:10], n[10:14], n[14:]))
