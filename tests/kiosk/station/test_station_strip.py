"""The station strip at a full table: a real :class:`Table` of seven stations on a SQLite
file, its TLS :class:`TableHost` on loopback, stations 2-7 as :class:`RemoteTable`
clients and station 1 as the cabinet's pygame screens (SDL dummy driver).  Every other
seat's status shows while the round is played and at settlement, at 800x480 and
1920x1080.  Screenshots go to /tmp/shots/strip7-*.png."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from support.station_floor import StationFloor  # noqa: E402

from engine.uth.round import Action  # noqa: E402
from kiosk.game.commands import Deal, Decide, PlaceChip  # noqa: E402
from kiosk.game.snapshot import MachinePhase  # noqa: E402
from kiosk.service.device_commands import Pass  # noqa: E402
from kiosk.service.timing import TableTiming  # noqa: E402
from kiosk.ui.events import Command, Touch  # noqa: E402
from kiosk.ui.layout import MIN_TEXT  # noqa: E402
from kiosk.ui.scenes.table.geometry import SPOTS  # noqa: E402
from kiosk.ui.station.strip import LEFT, NUMBER_W, WIDTH, cells, frame, others, signed  # noqa: E402

OTHERS = (2, 3, 4, 5, 6, 7)


def _check_cells(f: StationFloor) -> None:
    """All six other seats have a cell of their own inside the strip, none overlapping
    another, each with its words fitting on one line at no less than the screens' text
    floor."""
    view = f.controller.station_view()
    placed = cells(view)
    assert [c.seat for c in placed] == list(OTHERS)
    settled = bool(view.snapshot.dealer)
    for cell, line in zip(placed, others(view), strict=True):
        assert line.startswith(f"Seat {cell.seat} · ") and cell.label in line
        assert settled or line == f"Seat {cell.seat} · {cell.label}"
    lay, painter = f.app.layout, f.app.painter
    top, height, _columns, _rows, _step = frame(view)
    strip = lay.rect(LEFT, top, WIDTH, height)
    rects = [lay.rect(*c.rect) for c in placed]
    for i, (cell, rect) in enumerate(zip(placed, rects, strict=True)):
        assert strip.contains(rect), (cell, rect, strip)
        assert all(not rect.colliderect(other) for other in rects[i + 1 :])
        x, y, w, h = cell.rect
        assert cell.size >= MIN_TEXT
        fit = painter.fit(cell.label, cell.size, w - NUMBER_W, h, max_lines=1)
        assert fit.fits and fit.px >= lay.px(MIN_TEXT), (cell, fit)


@pytest.fixture
def full_table(tmp_path):
    made: list[StationFloor] = []

    def make(size: tuple[int, int]) -> StationFloor:
        stations, timing = (1, *OTHERS), TableTiming(30, 1.0)  # station 1 is the screens
        made.append(
            StationFloor(
                tmp_path / f"{size[0]}",
                size,
                stations=stations,
                timing=timing,
                seed=11,
                shots="strip7",
            )
        )
        return made[-1]

    yield make
    for f in made:
        f.close()


@pytest.mark.heavy
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_full_table_shows_all_six_other_seats_through_settlement(full_table, size):
    f = full_table(size)
    app = f.app
    app.feed(Command("bill", 5_000))  # a station with credits: the window waits for it
    f.frames(lambda: app.model.snap.credits == 5_000)
    for n in (2, 3, 4, 5, 6):
        assert f.others[n].insert_note(10_000, 10).accepted
    for n in (2, 3, 4, 5):
        f.others[n].execute(PlaceChip("ante", 500 * (n - 1)))
        f.others[n].execute(Deal())
    f.others[6].execute(Pass())
    assert f.others[2].wait_for(lambda s: all(s.seats[i].ready for i in (1, 2, 3, 4)), 10)
    x, y, _r = SPOTS["ante"]
    app.feed(Touch(app.layout.pos(x, y)))
    f.frames(lambda: f.controller.station_view().betting_seconds is not None)
    f.shot("betting")
    _check_cells(f)
    f.press("deal")
    f.frames(lambda: app.model.snap.phase is MachinePhase.IN_ROUND)
    # seat 2 raises 4x, seat 3 checks; the others let the timer decide
    f.others[2].wait_for(lambda s: bool(s.offers), 10)
    f.others[2].execute(Decide(Action.PLAY_4X))
    f.others[3].wait_for(lambda s: bool(s.offers), 10)
    f.others[3].execute(Decide(Action.CHECK))
    f.frames(lambda: "Decided" in " ".join(others(f.controller.station_view())))
    f.frames(lambda: not app.scenes["table"].busy)
    f.shot("deciding")
    _check_cells(f)
    f.frames(lambda: app.model.snap.phase is MachinePhase.RESULT, timeout=20)
    f.frames(lambda: not app.scenes["table"].busy, timeout=15)
    view = f.controller.station_view()
    assert view.snapshot.dealer
    rows = others(view)
    f.shot("settled")
    assert rows[0].startswith("Seat 2 · Settled")
    assert rows[2].startswith("Seat 4 · Folded")
    assert rows[4] == "Seat 6 · Sitting out" and rows[5] == "Seat 7 · Open seat"  # 6 has credits
    # each other seat's result (its net, cents) once settled; none for a seat sitting out
    nets = {s.seat: s.net for s in view.snapshot.seats}
    assert all(nets[n] is not None for n in (2, 3, 4, 5)) and nets[6] is None
    assert nets[4] < 0  # folded: lost its Ante and Blind
    labels = {c.seat: c.label for c in cells(view)}
    assert labels[2] == signed(nets[2]) and rows[0] == "Seat 2 · Settled · " + signed(nets[2])
    assert labels[4] == "Folded"
    assert labels[6] == "Sitting out"
    f.shot("settled")
    _check_cells(f)
