"""The phone page (headless Chromium) against the ``uth tournament host`` process: the
lobby says the game starts by itself and counts down; in play another seat's turn is
named, with its time, and that seat is highlighted."""

from __future__ import annotations

import re

import pytest
from support.browser_page import by_id, wait_for
from support.friends_cli_host import CliHost, Seat


@pytest.mark.heavy
def test_the_lobby_counts_down_and_another_seats_turn_is_named_with_its_time(tmp_path, browser):
    host = CliHost("--port", "0", "--db", str(tmp_path / "host.db"), "--players", "3", "--start-after", "6",
                   "--turn-s", "25", "--chips", "20000", "--speed", "fast")
    tom = None
    try:
        page = browser(390, 844)
        page.get(host.link)
        wait_for(lambda: by_id(page, "screen-join").is_displayed(), what="the join page")
        by_id(page, "name").send_keys("Mia")
        by_id(page, "take-seat").click()
        wait_for(lambda: page.execute_script("return document.body.dataset.phase") == "lobby", what="the lobby")
        texts = set()

        def counting() -> bool:
            texts.add(by_id(page, "lobby-start").text)
            return len({t for t in texts if re.search(r"starts by itself in \d+ s", t)}) >= 2

        wait_for(counting, timeout=10, what="the lobby's countdown")
        assert not any("taps Start" in t for t in texts), texts
        tom = Seat(host.link, "127.0.0.3")
        tom.send(type="join", name="Tom", lang="en")
        tom.wait_for(lambda c: c.welcome is not None)
        tom.wait_for(lambda c: bool(c.state and c.state.get("phase") == "play" and c.state.get("your_turn")),
                     timeout=30)
        seat = tom.welcome["seat"]
        turn = wait_for(lambda: re.match(r"Tom’s turn · (\d+) s", by_id(page, "turn").text), timeout=10,
                        what="Tom's turn on Mia's page")
        assert 0 < int(turn.group(1)) <= 25
        highlighted = page.execute_script(
            "return Array.from(document.querySelectorAll('.seat.turn')).map(e => e.textContent)")
        assert len(highlighted) == 1 and "Tom" in highlighted[0], highlighted
        assert seat != 0
    finally:
        if tom is not None:
            tom.close()
        host.kill()
