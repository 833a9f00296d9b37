"""On a phone (390 × 844 CSS px, headless Chromium) the player's own panel is pinned to
the bottom of the screen: with six players at the table, the raise panel's confirm
button and, at a showdown, the Next hand button are inside the screen without scrolling
(the page is taller than the screen: the seats and the felt scroll above the panel)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.browser_page import by_id, wait_for
from support.friends_cli_host import CliHost

#: Where a button is on the screen, and the screen's and the page's heights (CSS px).
PLACE = """
const e = document.getElementById(arguments[0]); const r = e.getBoundingClientRect();
return {top: r.top, bottom: r.bottom, shown: r.height > 0, height: innerHeight,
        page: document.documentElement.scrollHeight, scrolled: scrollY};
"""


def _inside(page, element_id: str) -> dict:
    where = page.execute_script(PLACE, element_id)
    assert where["shown"], f"{element_id} is not shown: {where}"
    assert 0 <= where["top"] and where["bottom"] <= where["height"], (
        f"{element_id} is off the screen: {where}"
    )
    return where


@pytest.fixture
def host(tmp_path) -> Iterator[CliHost]:
    h = CliHost(
        "--port",
        "0",
        "--db",
        str(tmp_path / "host.db"),
        "--players",
        "6",
        "--start-after",
        "0",
        "--turn-s",
        "120",
        "--chips",
        "20000",
        "--speed",
        "fast",
    )
    yield h
    h.kill()


@pytest.mark.heavy
def test_the_confirm_and_next_hand_buttons_are_on_a_phones_screen(host, browser, tmp_path):
    page = browser(390, 844)
    page.get(host.link)
    wait_for(lambda: by_id(page, "screen-join").is_displayed(), what="the join page")
    by_id(page, "name").send_keys("Mia")
    by_id(page, "take-seat").click()
    wait_for(
        lambda: page.execute_script("return document.body.dataset.turn") == "1",
        timeout=90,
        what="the page's turn",
    )
    by_id(page, "btn-raise").click()
    wait_for(lambda: by_id(page, "btn-confirm").is_displayed(), what="the raise panel")
    page.save_screenshot(str(tmp_path / "raise.png"))
    where = _inside(page, "btn-confirm")
    assert where["page"] > where["height"], (
        f"the page fits anyway: the test proves nothing: {where}"
    )
    by_id(page, "btn-back").click()

    def showdown_with_hands() -> bool:
        if page.execute_script("return document.body.dataset.turn") == "1":
            for button in ("btn-check", "btn-call"):
                e = page.execute_script(f"return document.getElementById('{button}')")
                if e is not None and e.is_displayed() and e.is_enabled():
                    e.click()
                    break
        shown = page.execute_script("return document.querySelectorAll('.seat .hand').length")
        return shown >= 2 and by_id(page, "btn-next").is_displayed()

    wait_for(showdown_with_hands, timeout=120, what="a showdown with several hands")
    page.save_screenshot(str(tmp_path / "showdown.png"))
    _inside(page, "btn-next")
