"""Two web seats in real headless Chromium, the host's computer player and three more
play a tournament to the end, clicking the page's real buttons; one seat goes away and
comes back; every WebSocket frame each browser received holds only its own cards.
Screenshots of the web seat go to /tmp/shots/friends-*.png."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from support.browser_page import by_id, clicked, shown, wait_for, ws_frames

from engine.rng import SeededRandomSource
from kiosk.friends import FriendsGame, FriendsHost, FriendsTimers

SHOTS = Path("/tmp/shots")


@pytest.fixture
def host(small_table, fast_pacing):
    game = FriendsGame(small_table(players=6, chips=500, every=2, level=1), ai_speed="fast", host_plays="bot",
                       rng=SeededRandomSource(21), bot_samples=0,
                       timers=FriendsTimers(next_hand_s=1.5, away_s=1.0, finish_s=1.0))
    h = FriendsHost(game)
    h.start()
    h.run_in_background()
    yield h
    h.stop()








def _join(driver, link, name, shot=None):
    driver.get(link)
    wait_for(lambda: by_id(driver, "screen-join").is_displayed(), what="the join page")
    if shot:
        driver.save_screenshot(str(SHOTS / shot))
    by_id(driver, "name").send_keys(name)
    by_id(driver, "take-seat").click()
    wait_for(lambda: driver.execute_script("return document.body.dataset.phase") == "lobby", what="the lobby")


def _play_one(driver, n: int) -> bool:
    """Click whatever the page offers now; True if something was clicked (False also
    when the page changed under the tap)."""
    if driver.execute_script("return document.body.dataset.turn") == "1" and shown(driver, "btn-call"):
        if n % 7 == 3 and shown(driver, "btn-raise"):
            return clicked(driver, "btn-raise", "preset-half", "btn-confirm")
        return clicked(driver, "btn-fold" if n % 11 == 5 else "btn-call")
    if shown(driver, "btn-next"):
        return clicked(driver, "btn-next")
    return False


@pytest.mark.heavy
def test_two_browser_seats_and_bots_play_a_tournament_to_the_end(host, browser, truth):
    SHOTS.mkdir(parents=True, exist_ok=True)
    link = host.link
    mia, tom = browser(390, 844), browser(390, 844)
    _join(mia, link, "Mia", shot="friends-join.png")
    mia.save_screenshot(str(SHOTS / "friends-lobby.png"))
    _join(tom, link, "Tom")
    seats = host.call(lambda g: {f.name: f.seat for f in g.friends()})
    tom_seat = seats["Tom"]
    host.call(lambda g: truth.watch(g.start()))
    frames: dict[str, list[dict]] = {"Mia": [], "Tom": []}
    drivers = {"Mia": mia, "Tom": tom}
    shots = set()
    clicks = 0
    away_done = False
    start = time.monotonic()
    while not host.call(lambda g: g.over):
        assert time.monotonic() - start < 150, "the tournament did not end in time"
        for name, d in drivers.items():
            if d.execute_script("return document.body.dataset.phase") != "table":
                continue
            if "turn" not in shots and d.execute_script("return document.body.dataset.turn") == "1":
                d.save_screenshot(str(SHOTS / "friends-turn.png"))
                shots.add("turn")
                if shown(d, "btn-raise") and clicked(d, "btn-raise"):
                    d.save_screenshot(str(SHOTS / "friends-raise.png"))
                    clicked(d, "btn-back")
            if "over" not in shots and shown(d, "btn-next"):
                d.save_screenshot(str(SHOTS / "friends-hand-over.png"))
                shots.add("over")
            if _play_one(d, clicks):
                clicks += 1
            frames[name] += ws_frames(d)
        if not away_done and clicks > 6 and tom.execute_script("return document.body.dataset.phase") == "table":
            away_done = True
            frames["Tom"] += ws_frames(tom)
            tom.get("about:blank")  # the seat's socket closes
            wait_for(lambda: host.call(lambda g: g.session.remote.is_away(tom_seat)), what="Tom away")
            m = host.call(lambda g: g.message_for(next(iter(g.friends()[0].conns))))
            if m["phase"] != "over":
                assert m["seats"][tom_seat]["status"] == "away"
                mia.save_screenshot(str(SHOTS / "friends-away.png"))
            tom.get(link)  # opening the link again gives the seat back
            wait_for(lambda: host.call(lambda g: g.over or not g.session.remote.is_away(tom_seat)), what="Tom back")
        time.sleep(0.03)
    assert away_done and clicks > 6
    for name, d in drivers.items():
        wait_for(lambda d=d: d.execute_script("return document.body.dataset.phase") == "results", what="results")
        frames[name] += ws_frames(d)
    mia.save_screenshot(str(SHOTS / "friends-results.png"))
    assert "TOURNAMENT OVER" in by_id(mia, "screen-results").text
    href = by_id(mia, "download").get_attribute("href")
    assert href.startswith("blob:")
    saved = json.loads(mia.execute_script("return localStorage.getItem(arguments[0])",
                                          f"friends:{host.game.code}:results"))
    assert saved["summary"]["players"] == 6 and len(saved["standings"]) == 6
    for name in drivers:
        states = [f for f in frames[name] if f["type"] == "state"]
        assert len(states) > 5
        for f in frames[name]:
            truth.check(seats[name], f)
    # the page in landscape asks to turn the phone round
    wide = browser(844, 390)
    wide.get(link)
    wait_for(lambda: by_id(wide, "turn-round").is_displayed(), what="the landscape notice")
    assert "Turn it round to play" in by_id(wide, "turn-round").text
    wide.save_screenshot(str(SHOTS / "friends-landscape.png"))


@pytest.mark.heavy
def test_leave_the_game_from_the_page_hands_the_seat_to_the_computer(host, browser):
    d = browser(390, 844)
    _join(d, host.link, "Ana")
    seat = host.call(lambda g: g.friends()[0].seat)
    host.call(lambda g: g.start())
    wait_for(lambda: d.execute_script("return document.body.dataset.phase") == "table", what="the table")
    d.execute_script("document.getElementById('lang').value='ja';"
                     "document.getElementById('lang').dispatchEvent(new Event('change'))")
    wait_for(lambda: "対局から抜ける" in by_id(d, "btn-leave").text, what="Japanese")
    d.save_screenshot(str(SHOTS / "friends-ja.png"))
    by_id(d, "btn-leave").click()
    d.save_screenshot(str(SHOTS / "friends-leave.png"))
    by_id(d, "leave-yes").click()
    wait_for(lambda: d.execute_script("return document.body.dataset.phase") == "message", what="the left message")
    assert host.call(lambda g: g.status_of(seat)) == "left"
    assert host.call(lambda g: not g.session.remote.is_remote(seat))
