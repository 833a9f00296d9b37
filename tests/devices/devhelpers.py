"""Helpers shared by the device tests (constants, waiting).  Imported by name: the test
directories are not packages."""

from __future__ import annotations

from collections.abc import Callable

from fast_devices import FAST_PRINTER, FAST_VALIDATOR, wait_for  # noqa: F401 (re-exported)

from devices.id003 import BillValidator

TICKET_BARCODE = "001234567890123456"


def poll_until(
    validator: BillValidator, predicate: Callable[[], object], max_polls: int = 60
) -> bool:
    """Drive a validator that is not started, one poll at a time, until ``predicate``."""
    for _ in range(max_polls):
        if predicate():
            return True
        validator.poll_once()
    return bool(predicate())
