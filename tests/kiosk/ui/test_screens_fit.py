"""Every screen and overlay, in every language at 800x480 and 1920x1080, measured text by
text against its frame and its neighbours.

The cabinet's player and operator screens (:func:`screen_tour.cabinet_tour`: attract,
the table from no credits through every kind of result, its dialogs and refusals, pays,
every rules page, History, settings, the door tilt, the cash-out, the PIN pad, the menu
and every operator page with the dialogs its buttons open), the tournament's
(:func:`screen_tour.tournament_tour`: tables, all 19 guide pages, setup, keyboard, table,
raise panel, menu, history, rankings, records, invite, join, results), a station's table
with its seats strip at a full table (:func:`screen_tour.station_tour`) and the dealer
display (:func:`screen_tour.dealer_display_tour`) are each painted whole with the
painter's record on, in the language itself (not English with the translations laid in
afterwards), and :func:`support.text_audit.problems` lists every text outside the screen
or its frame, entering another frame (a panel, a button, a card), on another text, not
fitting its box, under the smallest text size or under its role's floor, a button's
label crowding its sublabel, every button on another button or smaller than a finger
(:data:`kiosk.ui.layout.MIN_TOUCH` at the screen's scale), every panel over a card, and
every English word on another language's screen (:func:`support.text_audit.english_problems`).
Each screen looked at is written as a PNG into the test's own folder (printed; ``pytest
-s`` shows it) for a reviewer to page through.

``PYTHONPATH=tests:tests/kiosk/ui .venv/bin/python -m screen_tour --out DIR`` writes the
same screens as PNG files.
"""

from __future__ import annotations

import pygame
import pytest
from screen_tour import (
    KICKER,
    LOSE,
    NO_QUALIFY,
    NO_QUALIFY_BETTER,
    PUSH,
    STRAIGHT,
    WIN,
    cabinet_tour,
    dealer_display_tour,
    look,
    station_tour,
    tournament_tour,
)
from support.table_money import credit
from support.text_audit import english_problems, problems, touch_problems
from test_tournament_ui import Cabinet
from test_ui import Kiosk

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock
from kiosk.ui import i18n
from kiosk.ui.app import TOURNAMENT_SCENES
from kiosk.ui.dealer_display import DealerDisplay
from kiosk.ui.layout import MIN_TEXT, MIN_TOUCH
from kiosk.ui.textlog import TextLog

LANGUAGES = ("en", "fr", "ja", "th")
SIZES = ((800, 480), (1920, 1080))
CASES = [(lang, size) for size in SIZES for lang in LANGUAGES]
IDS = [f"{lang}-{size[0]}x{size[1]}" for lang, size in CASES]


@pytest.fixture(autouse=True)
def english():
    yield
    i18n.set_language("en")


def audit(app, name: str, found: list[str], seen: set[str], shots=None) -> TextLog:
    """Look at the screen shown (its PNG into the folder ``shots``) and add its faults to
    ``found``."""
    log = look(app)
    seen.add(app.scene.name)
    found.extend(f"{name}: {p}" for p in every_problem(log, app.layout, i18n.language()))
    if shots is not None:
        app.screenshot(shots / f"{len(list(shots.iterdir())):03d}-{name}.png")
    return log


def every_problem(log: TextLog, layout, language: str) -> list[str]:
    return (problems(log, layout.size, layout.px(MIN_TEXT)) + touch_problems(log, MIN_TOUCH * layout.scale)
            + english_problems(log, language))


def screenshots(tmp_path, language: str, size: tuple[int, int]):
    """The folder the walk's screenshots go to, printed for the reviewer."""
    folder = tmp_path / f"screens-{language}-{size[0]}x{size[1]}"
    folder.mkdir()
    print(f"screenshots: {folder}")
    return folder


@pytest.mark.heavy
@pytest.mark.parametrize(("language", "size"), CASES, ids=IDS)
def test_every_cabinet_screen_fits(tmp_path, language, size):
    shots = screenshots(tmp_path, language, size)
    k = Kiosk(tmp_path, size, WIN, LOSE, KICKER, NO_QUALIFY, PUSH, STRAIGHT, NO_QUALIFY_BETTER, WIN,
              language=language)
    found: list[str] = []
    seen: set[str] = set()
    names = []
    try:
        for name in cabinet_tour(k):
            names.append(name)
            log = audit(k.app, name, found, seen, shots)
            assert log.texts, f"{name}: nothing drawn"
    finally:
        k.close()
    assert {"attract", "table", "paytable", "help", "recall", "settings", "cashout", "operator"} <= seen
    assert sum(n.startswith("rules-") for n in names) == 6
    assert sum(n.startswith("operator-") for n in names) >= 25
    assert found == [], "\n".join(found)


@pytest.mark.heavy
@pytest.mark.parametrize(("language", "size"), CASES, ids=IDS)
def test_every_tournament_screen_fits(tmp_path, language, size):
    shots = screenshots(tmp_path, language, size)
    c = Cabinet(tmp_path, size, seed=13, language=language)
    found: list[str] = []
    seen: set[str] = set()
    names = []
    try:
        for name in tournament_tour(c):
            names.append(name)
            audit(c.app, name, found, seen, shots)
    finally:
        c.close()
    tournament = set(TOURNAMENT_SCENES)
    assert tournament - seen == {"tournament_remote"}  # a seat in another cabinet's game: test_tournament_join
    assert sum(n.startswith("tournament-guide-") for n in names) == 19
    assert found == [], "\n".join(found)


@pytest.mark.heavy
@pytest.mark.parametrize(("language", "size"), CASES, ids=IDS)
def test_a_stations_table_and_seats_strip_fit(tmp_path, language, size):
    from support.station_floor import StationFloor

    from kiosk.service.timing import TableTiming

    shots = screenshots(tmp_path, language, size)
    floor = StationFloor(tmp_path, size, stations=(1, 2, 3, 4, 5, 6, 7), timing=TableTiming(30, 1.0), seed=11)
    found: list[str] = []
    try:
        i18n.set_language(language)
        names = []
        for name in station_tour(floor):
            names.append(name)
            audit(floor.app, name, found, set(), shots)
    finally:
        floor.close()
    assert names == ["station-betting", "station-deciding", "station-settled"]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(("language", "size"), CASES, ids=IDS)
def test_the_dealer_display_fits(tmp_path, language, size):
    pygame.init()
    i18n.set_language(language)
    table = Table.open(load_config(db_path=tmp_path / "var" / "uth.db"), (1, 2, 3), rng=SeededRandomSource(11),
                       clock=ManualClock())
    found: list[str] = []
    try:
        for n in (1, 2, 3):
            credit(table, n, 10_000)
        display = DealerDisplay(size)
        shots = screenshots(tmp_path, language, size)
        for name, _surface in dealer_display_tour(table, display, size):
            log = display.painter.log
            assert isinstance(log, TextLog) and log.texts
            found += [f"{name}: {p}" for p in every_problem(log, display.layout, language)]
            pygame.image.save(_surface, shots / f"{name}.png")
    finally:
        table.close()
    assert found == [], "\n".join(found)
