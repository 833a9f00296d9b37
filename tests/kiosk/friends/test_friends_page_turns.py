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

        def toms_turn() -> bool:  # Mia's own turns are answered on the page (check, else fold)
            if page.execute_script("return document.body.dataset.turn") == "1" and by_id(page, "btn-fold").is_enabled():
                by_id(page, "btn-fold").click()
            tom.poll(0.05)
            s = tom.state
            if s and s.get("phase") == "hand_over" and s.get("vote") and not s["vote"]["voted"]:
                tom.send(type="next", hand=s["hand"])
                tom.state = dict(s, vote=dict(s["vote"], voted=True))
            return bool(s and s.get("phase") == "play" and s.get("your_turn"))

        wait_for(toms_turn, timeout=90, what="Tom's turn")
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


@pytest.mark.heavy
def test_the_page_says_the_host_is_gone_and_takes_its_seat_back_when_the_host_comes_back(tmp_path, browser):
    command = ("--port", "0", "--db", str(tmp_path / "host.db"), "--players", "3", "--start-after", "0",
               "--turn-s", "120", "--chips", "20000", "--speed", "fast")
    host = CliHost(*command)
    try:
        page = browser(390, 844)
        page.get(host.link)
        wait_for(lambda: by_id(page, "screen-join").is_displayed(), what="the join page")
        by_id(page, "name").send_keys("Mia")
        by_id(page, "take-seat").click()
        wait_for(lambda: page.execute_script("return document.body.dataset.turn") == "1", timeout=60,
                 what="Mia's turn")
        hand = int(page.execute_script("return document.body.dataset.hand"))
        host.kill()  # the power cut
        wait_for(lambda: by_id(page, "notice").text == "Connection lost: trying again…", timeout=30,
                 what="the lost connection said")
        page.execute_script("window.friends.lostAt = Date.now() - 61000")  # a minute without the host
        wait_for(lambda: by_id(page, "notice").text.startswith("The host has not come back"), timeout=30,
                 what="the host gone said")
        host = CliHost(*command, name="host again")
        host.proc.wait_line(r"^Resumed game", timeout=60)
        wait_for(lambda: not by_id(page, "notice").is_displayed()
                 and page.execute_script("return document.body.dataset.turn") == "1", timeout=60,
                 what="the seat back, at its turn")
        assert by_id(page, "me-name").text == "Mia"
        assert int(page.execute_script("return document.body.dataset.hand")) == hand, "the hand in progress"
    finally:
        host.kill()
