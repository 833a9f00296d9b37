"""A player station's screens driven by a real table host over loopback: a real
:class:`Table` on a SQLite file, its TLS :class:`TableHost`, two other stations as
:class:`RemoteTable` clients, and station 1 as the cabinet's pygame screens (SDL dummy
driver) over a :class:`StationController`.  Screenshots go to /tmp/shots/station-*.png."""

from __future__ import annotations

import os

import pytest

from engine.uth.paytable import PAYTABLE_DIR

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from support.station_floor import StationFloor  # noqa: E402

from engine.uth.paytable import load_paytable  # noqa: E402
from kiosk.game.commands import Deal, PlaceChip  # noqa: E402
from kiosk.game.snapshot import MachinePhase  # noqa: E402
from kiosk.service.device_commands import Pass  # noqa: E402
from kiosk.service.timing import TableTiming  # noqa: E402
from kiosk.service.wire import paytable_from_state, paytable_state  # noqa: E402
from kiosk.ui.events import Command  # noqa: E402
from kiosk.ui.scenes.table.geometry import SPOTS  # noqa: E402
from kiosk.ui.station.strip import lines, others  # noqa: E402


@pytest.fixture
def floor(tmp_path, request):
    made: list[StationFloor] = []

    def make(size: tuple[int, int], decision_s: float = 20.0) -> StationFloor:
        timing = TableTiming(30, decision_s)  # stations 1-3; station 1 is the screens
        made.append(StationFloor(tmp_path, size, timing=timing, shots="station"))
        return made[-1]

    yield make
    for f in made:
        f.close()


def test_the_host_sends_the_paytable_text_checked_by_its_hash():
    path = PAYTABLE_DIR / "trips-50-40-30-9-7-4-3.toml"
    text = path.read_text(encoding="utf-8")
    table = paytable_from_state(paytable_state(load_paytable(path).sha256, text))
    assert table.sha256 == load_paytable(path).sha256
    with pytest.raises(ValueError, match="hashes to"):
        paytable_from_state(paytable_state("0" * 64, text))
    with pytest.raises(ValueError, match="no paytable"):
        paytable_from_state({"sha256": "0" * 64})


@pytest.mark.heavy
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_station_plays_a_round_by_touch_and_cashes_out(floor, size):
    f = floor(size, decision_s=1.5)
    ctl, app = f.controller, f.app
    assert ctl.snapshot().paytable.sha256 == f.table.ledger.table_in_force()[0].sha256
    # a note at the station (the demo bill key) is escrowed and credited on the host
    app.feed(Command("bill", 10_000))
    f.frames(lambda: app.model.snap.credits == 10_000)
    for remote in f.others.values():
        assert remote.insert_note(5_000, 10).accepted
        assert remote.wait_for(lambda s: s.credits == 5_000, 10)
    f.others[2].execute(PlaceChip("ante", 500))
    f.others[2].execute(Deal())
    f.others[3].wait_for(lambda s: s.seats[1].ready, 10)
    f.frames(lambda: "Ready" in " ".join(others(ctl.station_view())))
    # a chip on the Ante by touch: the betting window's countdown and the other seats show
    x, y, _r = SPOTS["ante"]
    f.touch_design(x, y)
    assert app.model.snap.bet_ante > 0 and app.model.snap.phase is MachinePhase.BETTING
    f.frames(lambda: ctl.station_view().betting_seconds is not None)
    view = ctl.station_view()
    assert lines(view)[0][0].startswith("Bets close in")
    assert others(view) == ["Seat 2 · Ready · $5", "Seat 3 · Betting"]  # seat 3 has credits
    f.shot("betting")
    f.others[3].execute(Pass())
    f.frames(lambda: "Seat 3 · Sitting out" in others(ctl.station_view()))
    f.press("deal")
    f.frames(lambda: app.model.snap.phase is MachinePhase.IN_ROUND)
    view = ctl.station_view()
    assert lines(view)[0][0].startswith("Decide within")
    assert others(view)[0].startswith("Seat 2 · Deciding")
    f.frames(lambda: not app.scenes["table"].busy)
    f.shot("deciding")
    # nobody decides: the table checks twice, then folds on the river, and says so
    f.frames(lambda: app.model.snap.phase is MachinePhase.RESULT, timeout=15)
    view = ctl.station_view()
    assert lines(view)[-1][0] == "Time ran out: folded for you"
    assert app.model.snap.last_result is not None
    assert app.model.snap.last_result.seats[0].hole == view.snapshot.hole
    assert app.model.snap.credits == 10_000 - 2 * app.model.snap.ante
    f.frames(lambda: not app.scenes["table"].busy, timeout=15)
    f.shot("timed-out")
    # cash out by touch: the host takes the credits off for the handpay
    f.press("cashout")
    f.press("confirm_cashout")
    f.frames(lambda: app.model.snap.phase is MachinePhase.CASHOUT)
    assert f.table.credits(1) == 0
    assert app.scene.name == "cashout"
    f.shot("cashout")


def test_the_operator_key_at_a_station_opens_its_operator_menu_and_closes_it(floor):
    f = floor((800, 480))
    f.app.feed(Command("operator_key"))
    f.app.step(1 / 30)
    assert f.app.scene.name == "operator"
    f.shot("operator")
    f.app.feed(Command("operator_key"))
    assert f.app.scene.name == "table"


def test_a_station_without_its_host_says_so_and_sends_nothing(floor):
    f = floor((800, 480))
    f.app.feed(Command("bill", 5_000))
    f.frames(lambda: f.app.model.snap.credits == 5_000)
    f.stop_host()
    f.frames(lambda: any(t.code == "host_link" for t in f.app.model.snap.tilts))
    assert f.app.tilted
    assert lines(f.controller.station_view())[0][0] == "The table host cannot be reached"
    assert f.app.model.send(PlaceChip("ante", 500)) is None  # refused here, shown as a note
    assert f.controller.remote.pending.total == 0
    f.shot("host-down")
