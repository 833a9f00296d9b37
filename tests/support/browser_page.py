"""Reading a page in the tests' headless Chromium (selenium): an element by id, a wait
for a condition, and the WebSocket frames the page received (from Chromium's
performance log, which the ``browser`` fixture turns on)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def by_id(driver: Any, element_id: str) -> Any:
    """The page's element with id ``element_id`` (selenium raises when there is none)."""
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id)


def wait_for(cond: Callable[[], T], timeout: float = 15.0, what: str = "condition") -> T:
    """``cond()``'s first true value, polled every 50 ms; fails after ``timeout`` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def ws_frames(driver: Any) -> list[dict[str, Any]]:
    """The WebSocket frames (JSON) the page received since the last call."""
    out = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.webSocketFrameReceived":
            out.append(json.loads(msg["params"]["response"]["payloadData"]))
    return out
