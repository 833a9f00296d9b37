"""Driver settings for tests over simulated devices, a patient wait, and a poll-by-poll drive.

Shared by tests/devices and tests/kiosk (``from support.fast_devices import ...``: the
folder of the root conftest.py is on the import path).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from devices.id003 import BillValidator, ValidatorConfig
from devices.tcl import PrinterConfig

FAST_VALIDATOR = ValidatorConfig(poll_interval=0.02, response_timeout=0.4, comm_error_threshold=5)
FAST_PRINTER = PrinterConfig(
    poll_interval=0.02,
    response_timeout=0.25,
    busy_timeout=5.0,
    start_timeout=3.0,
    print_timeout=10.0,
)

#: an 18-digit ticket barcode the recording host redeems in the device tests
TICKET_BARCODE = "001234567890123456"


def wait_for(
    predicate: Callable[[], object], timeout: float = 15.0, interval: float = 0.01
) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass; returns its last truth."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def poll_until(
    validator: BillValidator, predicate: Callable[[], object], max_polls: int = 60
) -> bool:
    """Drive a validator that is not started, one poll at a time, until ``predicate``."""
    for _ in range(max_polls):
        if predicate():
            return True
        validator.poll_once()
    return bool(predicate())
