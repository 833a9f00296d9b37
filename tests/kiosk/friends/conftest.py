"""Fixtures of the friends tests: fast pacing, a small table, and headless Chromium.

The browser is Debian's ``chromium`` with its ``chromedriver`` (``scripts/test``
installs both when it runs as root); with either missing the browser tests skip and say
so.  Nothing is downloaded at test time.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import kiosk.tournament.session as session_module
from engine.cards import card_name
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture
def fast_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Computer players move at once and new cards get no pause."""
    monkeypatch.setitem(session_module.AI_DELAYS, "fast", 0.01)
    monkeypatch.setitem(session_module.BOARD_PAUSE, "fast", 0.0)


def _small_table(players: int = 6, chips: int = 300, every: int = 2, level: int = 1) -> TournamentConfig:
    names = ("Ike", "Max", "Rosa", "Jules", "Nina")
    seats = [SeatSpec("Host", kind="human")]
    seats += [SeatSpec(n, "bot", "easy", n) for n in names[: players - 1]]
    return TournamentConfig("custom", tuple(seats), chips, level, every)


@pytest.fixture
def small_table() -> Callable[..., TournamentConfig]:
    """``small_table(players, chips, every, level)``: the cabinet's player in seat 0 and
    computer players, small stacks, blinds up every ``every`` hands."""
    return _small_table


CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def cards_in(message: Any) -> set[str]:
    """Every card name anywhere in a JSON message."""
    if isinstance(message, str):
        return {message} if CARD.match(message) else set()
    if isinstance(message, dict):
        return set().union(*(cards_in(v) for v in message.values())) if message else set()
    if isinstance(message, list):
        return set().union(*(cards_in(v) for v in message)) if message else set()
    return set()


class Truth:
    """What the host knows and no seat may see: every seat's hole cards, the board and
    the hands shown at each showdown, by hand number (recorded by a session listener)."""

    def __init__(self) -> None:
        self.holes: dict[int, dict[int, set[str]]] = {}
        self.boards: dict[int, list[str]] = {}
        self.shown: dict[int, set[str]] = {}

    def watch(self, session: Any) -> None:
        session.listeners.append(self.record)
        self.record(session)

    def record(self, session: Any) -> None:
        h, n = session.t.hand, session.t.hand_number
        if h is None:
            return
        self.holes[n] = {s: {card_name(c) for c in cards} for s, cards in enumerate(h.hole_cards) if cards}
        self.boards[n] = [card_name(c) for c in h.board]
        if h.is_over:
            self.shown[n] = {card_name(c) for r in h.result().shown for c in r.cards}

    def check(self, seat: int, message: dict[str, Any]) -> None:
        """``message`` to ``seat`` shows no card but its own, the board dealt so far and,
        once the hand is over, the hands shown at its showdown."""
        if message.get("type") != "state" or message.get("phase") not in ("play", "hand_over"):
            assert not cards_in(message), message
            return
        n = message["hand"]
        board = message["board"]
        assert board == self.boards[n][: len(board)], "the board is the one dealt"
        allowed = set(self.holes[n].get(seat, set())) | set(board)
        if message["phase"] == "hand_over":
            allowed |= self.shown.get(n, set())
        leaked = cards_in(message) - allowed
        assert not leaked, f"seat {seat} was sent {leaked} in hand {n}"


@pytest.fixture
def truth() -> Truth:
    return Truth()


@pytest.fixture
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., object]]:
    """A factory of headless Chromium windows (``browser(width, height)``), closed after
    the test; each records the WebSocket frames it receives (performance log)."""
    if CHROMIUM is None or CHROMEDRIVER is None:
        missing = " and ".join(n for n, p in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER)) if p is None)
        pytest.skip(f"{missing} not installed (Debian packages chromium and chromium-driver; "
                    "scripts/test installs them when run as root)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    drivers = []

    def make(width: int = 390, height: int = 844) -> webdriver.Chrome:
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--no-first-run", "--disable-dev-shm-usage", "--hide-scrollbars",
                     f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
                     f"--window-size={width},{height}"):
            opts.add_argument(flag)
        opts.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
        driver.set_window_size(width, height)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1,
                                "mobile": width < height})
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        driver.quit()
