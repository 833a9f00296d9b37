"""``uth table demo`` on one screen: its windows open apart and say which station they
are, a window uncovered shows its whole frame again, and stopping a table whose
stations still hold credits keeps its ledger and says where."""

from __future__ import annotations

import pygame
import pytest
from support.operator_screens import OperatorScreens
from support.table_money import credit

from engine.rng import SeededRandomSource
from kiosk.commands.table_demo import money_left, tidy, window_places
from kiosk.config import load_config
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock
from kiosk.ui.station.strip import caption


@pytest.mark.parametrize("stations", [1, 3, 7])
def test_the_windows_open_apart(stations):
    places = window_places(stations, "800x480", "1280x720")
    assert len(places) == stations + 1
    rects = [pygame.Rect(p, (800, 480)) for p in places[:-1]] + [pygame.Rect(places[-1], (1280, 720))]
    for i, a in enumerate(rects):
        assert a.x >= 0 and a.y >= 0
        assert all(not a.colliderect(b) for b in rects[i + 1:]), (i, rects)


def test_a_station_window_says_which_station_it_is():
    pygame.display.init()
    try:
        pygame.display.set_mode((320, 200))
        caption(3)
        assert pygame.display.get_caption()[0] == "Ultimate Texas Hold'em: station 3"
    finally:
        pygame.display.quit()


def test_an_uncovered_window_shows_its_whole_frame(tmp_path, monkeypatch):
    k = OperatorScreens(tmp_path, (800, 480), demo=True)
    try:
        app = k.app
        app.go("table")
        shown: list[object] = []
        monkeypatch.setattr(app, "present", lambda: shown.append(app.dirty))
        app.run(max_frames=8)  # the table settles into frames that show only their changes
        assert isinstance(shown[-1], list)
        pygame.event.get()  # nothing pending
        pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
        before = len(shown)
        app.run(max_frames=app.frames + 2)  # run's first frame, then the loop's
        assert shown[before:] == [[], None]  # the frame after the window was uncovered: shown whole
        before = len(shown)
        app.run(max_frames=app.frames + 2)
        assert all(isinstance(d, list) for d in shown[before:])
    finally:
        k.close()


def test_a_table_stopped_with_credits_keeps_its_ledger(tmp_path):
    folder = tmp_path / "demo"
    folder.mkdir()
    table = Table.open(load_config(db_path=folder / "table.db"), (1, 2, 3), rng=SeededRandomSource(3),
                       clock=ManualClock())
    try:
        assert money_left(table, (1, 2, 3)) == {}
        credit(table, 2, 2_000)
        left = money_left(table, (1, 2, 3))
    finally:
        table.close()
    assert left == {2: 2_000}
    said = tidy(folder, left)
    assert folder.exists() and "station 2: 20.00" in said and str(folder / "table.db") in said
    assert tidy(folder, {}) == "" and not folder.exists()
