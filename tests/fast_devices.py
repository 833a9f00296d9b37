"""Driver settings for tests over simulated devices, and a patient wait.

Shared by tests/devices and tests/kiosk; imported by name (the folder of the root
conftest.py is on the import path; the test folders are not packages).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from devices.id003 import ValidatorConfig
from devices.tcl import PrinterConfig

FAST_VALIDATOR = ValidatorConfig(poll_interval=0.02, response_timeout=0.4, comm_error_threshold=5)
FAST_PRINTER = PrinterConfig(
    poll_interval=0.02,
    response_timeout=0.25,
    busy_timeout=5.0,
    start_timeout=3.0,
    print_timeout=10.0,
)


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
