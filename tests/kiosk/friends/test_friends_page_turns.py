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


SIZES = """
const out = {};
for (const id of arguments[0]) {
  const e = document.getElementById(id); const r = e.getBoundingClientRect();
  out[id] = [Math.round(r.width), Math.round(r.height)];
}
out.marks = Array.from(document.querySelectorAll('.mark')).map(e => parseFloat(getComputedStyle(e).fontSize));
return out;
"""


@pytest.mark.heavy
def test_every_touch_target_on_the_phone_is_at_least_44_px_and_the_markers_legible(tmp_path, browser):
    host = CliHost("--port", "0", "--db", str(tmp_path / "host.db"), "--players", "4", "--start-after", "0",
                   "--turn-s", "60", "--chips", "20000", "--speed", "fast")
    try:
        page = browser(390, 844)
        page.get(host.link)
        wait_for(lambda: by_id(page, "screen-join").is_displayed(), what="the join page")
        by_id(page, "name").send_keys("Mia")
        by_id(page, "take-seat").click()
        wait_for(lambda: page.execute_script("return document.body.dataset.turn") == "1", timeout=30,
                 what="Mia's turn")
        wait_for(lambda: by_id(page, "btn-raise").is_displayed(), what="the raise button")
        by_id(page, "btn-raise").click()
        wait_for(lambda: by_id(page, "preset-half").is_displayed(), what="the raise panel")
        ids = ["preset-min", "preset-half", "preset-three_quarters", "preset-pot", "preset-all_in", "minus", "plus",
               "lang", "btn-leave"]
        sizes = page.execute_script(SIZES, ids)
        small = {i: sizes[i] for i in ids if sizes[i][0] < 44 or sizes[i][1] < 44}
        assert not small, f"touch targets under 44 × 44 px: {small}"
        assert sizes["marks"] and min(sizes["marks"]) >= 12, sizes["marks"]
    finally:
        host.kill()


@pytest.mark.heavy
def test_at_showdown_each_hand_is_at_its_seat_and_the_winners_have_their_amount(tmp_path, browser):
    host = CliHost("--port", "0", "--db", str(tmp_path / "host.db"), "--players", "3", "--start-after", "0",
                   "--chips", "20000", "--speed", "fast")
    try:
        page = browser(390, 844)
        page.get(host.link)
        wait_for(lambda: by_id(page, "screen-join").is_displayed(), what="the join page")
        by_id(page, "name").send_keys("Mia")
        by_id(page, "take-seat").click()

        def showdown() -> dict | None:
            if page.execute_script("return document.body.dataset.turn") == "1":
                for button in ("btn-call", "btn-check"):
                    e = page.execute_script(f"return document.getElementById('{button}')")
                    if e is not None and e.is_displayed() and e.is_enabled():
                        e.click()
                        break
            return page.execute_script(
                "const r = document.getElementById('result'); if (!r || r.hidden) return null;"
                "const hands = Array.from(document.querySelectorAll('.seat .hand')).map(e => e.textContent);"
                "if (!hands.length) return null;"
                "return {hands: hands, won: Array.from(document.querySelectorAll('.seat.winner .won, #me-tags'))"
                ".map(e => e.textContent), lines: Array.from(r.querySelectorAll('.win-line')).map(e => e.textContent),"
                "pots: document.getElementById('pots').textContent}")

        seen = wait_for(showdown, timeout=60, what="a showdown")
        assert all(seen["hands"]), seen
        assert seen["lines"] and all(" wins " in line for line in seen["lines"]), seen
        assert any(re.search(r"\+\d", t) for t in seen["won"]), seen
        assert seen["pots"] != "Pot 0", seen
    finally:
        host.kill()
