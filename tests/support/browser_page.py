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


def shown(driver: Any, element_id: str) -> bool:
    """Whether the element is on the page, visible and enabled (a button a player can tap)."""
    return bool(driver.execute_script(
        f"const e=document.getElementById('{element_id}'); return !!e && !e.hidden "
        "&& e.offsetParent !== null && !e.disabled"))


def clicked(driver: Any, *element_ids: str) -> bool:
    """Click each of ``element_ids`` in turn, as a player taps; False when the page changed
    under a tap (the button hid or was redrawn between being seen and being clicked: the
    seat's clock ran out and the host acted), as a late tap misses."""
    from selenium.common.exceptions import (
        ElementNotInteractableException,
        StaleElementReferenceException,
    )

    try:
        for element_id in element_ids:
            by_id(driver, element_id).click()
    except (ElementNotInteractableException, StaleElementReferenceException):
        return False
    return True


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
