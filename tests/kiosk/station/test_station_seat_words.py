"""A shared table's words about the seats: before the deal a seat with credits whose
player is placing chips (kept at the station until Deal) reads "Betting", never "Open
seat", on the other stations' strips and at the dealer display; a player who has
decided reads "Waiting for the other seats" in the strip and on the message line, not
the decision clock the others still run."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from support.station_floor import StationFloor  # noqa: E402

from engine.uth.round import Action  # noqa: E402
from kiosk.game.commands import Deal, Decide, PlaceChip  # noqa: E402
from kiosk.game.snapshot import MachinePhase  # noqa: E402
from kiosk.service.timing import TableTiming  # noqa: E402
from kiosk.ui.dealer_display import seat_state  # noqa: E402
from kiosk.ui.events import Command  # noqa: E402
from kiosk.ui.scenes.table.geometry import SPOTS  # noqa: E402
from kiosk.ui.station.strip import lines, others  # noqa: E402


@pytest.fixture
def floor(tmp_path):
    f = StationFloor(
        tmp_path, (800, 480), stations=(1, 2, 3), timing=TableTiming(30, 20), shots="seat-words"
    )
    yield f
    f.close()


def _dealer_words(f: StationFloor) -> dict[int, str]:
    snap = f.table.display()
    return {s.seat: seat_state(s, snap) for s in snap.seats}


@pytest.mark.heavy
def test_a_seated_player_betting_is_not_an_open_seat_and_a_decided_one_waits(floor):
    f = floor
    assert f.others[2].insert_note(10_000, 10).accepted
    f.others[2].execute(PlaceChip("ante", 500))  # kept at station 2 until its Deal
    f.frames(lambda: "Seat 2 · Betting" in others(f.controller.station_view()))
    assert "Seat 3 · Open seat" in others(f.controller.station_view())  # nobody there
    assert _dealer_words(f)[2] == "Betting" and _dealer_words(f)[3] == "Open seat"
    # station 1 plays with seat 2: both deal, station 1 decides first
    f.app.feed(Command("bill", 5_000))
    f.frames(lambda: f.app.model.snap.credits == 5_000)
    x, y, _r = SPOTS["ante"]
    f.touch_design(x, y)
    f.press("deal")
    f.others[2].execute(Deal())
    f.frames(
        lambda: f.app.model.snap.phase is MachinePhase.IN_ROUND and bool(f.app.model.snap.offers)
    )
    f.frames(lambda: not f.app.scenes["table"].busy)
    assert any(t.startswith("Decide within") for t, _c in lines(f.controller.station_view()))
    f.controller.execute(Decide(Action.CHECK))
    f.frames(
        lambda: (
            not f.app.model.snap.offers
            and f.controller.station_view().snapshot.round_open
            and not f.app.scenes["table"].busy
        )
    )
    words = [t for t, _c in lines(f.controller.station_view())]
    assert words and words[0] == "Waiting for the other seats", words
    assert not any(t.startswith("Decide within") for t in words)
    assert f.app.scenes["table"].prompt()[0] == "Waiting for the other seats"
    f.shot("decided")
