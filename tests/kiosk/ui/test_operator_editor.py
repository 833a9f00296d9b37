"""The operator's paytable editor through the real screens: every paytable listed with
its RTP and scrolling, NEW FROM… for a manager only, lines stepped within the bounds, the
exact RTP computed with a progress bar while the screens keep drawing, a bound refusal
shown, and the new table put in force after confirmation."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from support.operator_screens import OperatorScreens

from engine.maths.par_report import ParReport
from engine.uth.paytable import PAYTABLE_DIR, Paytable, load_paytable
from kiosk.game.commands import (
    SetDoor,
)

SHOTS = Path("/tmp/shots")
MANAGER, TECHNICIAN = "975310", "135790"


def report_of(table: Paytable, trips: float) -> ParReport:
    bets = {"ante": {"rtp": 0.834}, "blind": {"rtp": 0.698}, "play": {"rtp": 1.213}}
    return ParReport(
        strategy="optimal", paytable_sha256=table.sha256, paytable_name=table.name, exact=True,
        main={"rtp_total_main_bet": 0.9978, "rtp_initial_main_bet": 0.991, "bets": bets},
        trips={"rtp": trips}, preflop={"hands": 169}, seconds=3.0,
    )


class SlowMaths:
    """An exact computation the test steps through: half done, then released."""

    def __init__(self) -> None:
        self.halfway = threading.Event()
        self.release = threading.Event()

    def __call__(self, table: Paytable, progress) -> ParReport:
        progress(5, 10)
        self.halfway.set()
        self.release.wait(10)
        progress(10, 10)
        trips = 1.02 if str(table.trips.full_house) == "9:1" else 0.982
        return report_of(table, trips)


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    tables = tmp_path / "paytables"
    tables.mkdir()
    for path in PAYTABLE_DIR.glob("*.toml"):
        shutil.copy(path, tables / path.name)
    shutil.copy(PAYTABLE_DIR / "standard.toml", tables / "standard-copy.toml")
    monkeypatch.setattr("kiosk.game.paytables.editor.paytables_folder", lambda config: tables)
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    return tables


@pytest.fixture
def maths(monkeypatch) -> SlowMaths:
    slow = SlowMaths()
    monkeypatch.setattr("kiosk.game.paytables.editor.exact_report", slow)
    yield slow
    slow.release.set()


@pytest.fixture
def screens(tmp_path):
    made: list[OperatorScreens] = []

    def make(size=(800, 480)) -> OperatorScreens:
        where = tmp_path / f"s{len(made)}"
        where.mkdir()
        s = OperatorScreens(where, size=size)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def test_the_list_shows_every_table_scrolling_and_only_a_manager_may_copy(screens, folder):
    s = screens()
    s.login(TECHNICIAN)
    s.touch("page_paytable")
    b = s.buttons()
    assert not b["copy_standard"].enabled  # a technician may choose, not make, a table
    assert "1–4 of 5" in s.drawn() and "table_trips-50-40-30-9-7-4-3" not in b
    s.touch("scroll_down")
    assert "table_trips-50-40-30-9-7-4-3" in s.buttons() and "table_standard-copy" not in s.buttons()
    assert not s.buttons()["scroll_down"].enabled
    s.touch("scroll_up")
    s.key("escape")
    s.touch("logout")
    s.login(MANAGER)
    s.touch("page_paytable")
    assert s.buttons()["copy_standard"].enabled


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_manager_makes_a_table_computes_its_rtp_and_puts_it_in_force(screens, folder, maths, size):
    tag = f"{size[0]}x{size[1]}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    s = screens(size)
    s.login(MANAGER)
    s.touch("page_paytable")
    s.shot(SHOTS / f"editor-list-{tag}.png")
    s.touch("copy_standard")
    assert "Standard custom" in s.drawn()
    s.touch("tab_trips")
    s.touch("trips_full_house_plus")  # 8:1 -> 9:1: too generous for the bounds below
    assert s.scene.current.editor.session.edits["trips.full_house"] == "9:1"
    assert not s.buttons()["editor_apply"].enabled
    s.touch("editor_compute")
    assert maths.halfway.wait(5)
    s.frame()
    assert "Computing the exact RTP…" in s.drawn() and "50%" in s.drawn()
    assert s.snap.door_open  # the controller answers meanwhile
    s.shot(SHOTS / f"editor-progress-{tag}.png")
    maths.release.set()
    s.scene.current.editor.session.job.wait(5)
    s.frame()
    assert "Outside the bounds:" in s.drawn() and "rtp.trips 102.0000%" in s.drawn()
    assert not s.buttons()["editor_apply"].enabled
    s.shot(SHOTS / f"editor-refusal-{tag}.png")
    # back to 8:1: inside the bounds once computed
    maths.release.clear()
    s.touch("trips_full_house_minus")
    s.touch("editor_compute")
    maths.release.set()
    s.scene.current.editor.session.job.wait(5)
    s.frame()
    assert "Every bet is inside the bounds." in s.drawn()
    s.touch("tab_blind")
    s.touch("blind_flush_plus")  # 3:2 -> 2:1 needs computing again
    assert not s.buttons()["editor_apply"].enabled
    s.touch("editor_compute")
    s.scene.current.editor.session.job.wait(5)
    s.frame()
    s.touch("editor_apply")
    assert "Put this paytable in force?" in s.drawn()
    s.touch("editor_confirm")
    snap = s.snap
    assert snap.paytable.name == "Standard custom" and str(snap.paytable.blind.flush) == "2:1"
    assert "in force." in s.drawn()
    assert s.cabinet.table.ledger.last_event("paytable_changed").detail["operator"] == "Cy Young"


def test_a_change_the_controller_refuses_keeps_the_edit(screens, folder, maths):
    maths.release.set()
    s = screens()
    s.login(MANAGER)
    s.touch("page_paytable")
    s.touch("copy_standard")
    s.touch("blind_flush_plus")
    s.touch("editor_compute")
    s.scene.current.editor.session.job.wait(5)
    s.frame()
    s.touch("editor_apply")
    s.cabinet.station.execute(SetDoor(False))  # closed while the dialog is open
    s.touch("editor_confirm")
    assert "door open" in s.drawn()
    assert s.snap.paytable.name == "Standard"
    assert s.scene.current.editor.session.edits["blind.flush"] == "2:1"
    assert "copy_standard" not in s.buttons()  # still in the editor


EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "paytables" / "progressive-example.toml"


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_copy_of_a_progressive_table_shows_its_return_curve_and_goes_in_force_with_it(
        screens, folder, maths, size, monkeypatch):
    shutil.copy(EXAMPLE, folder / EXAMPLE.name)
    monkeypatch.setattr("kiosk.ui.scenes.operator.paytables.paytables_folder", lambda config: folder)
    maths.release.set()
    s = screens(size)
    s.login(MANAGER)
    s.touch("page_paytable")
    s.touch("copy_progressive-example")
    assert s.scene.current.editor.session.table.name == "Standard with progressive custom"
    assert "progressive custom 1.0" in s.drawn()
    assert "tab_progressive" in s.buttons()
    s.touch("tab_progressive")
    drawn = s.drawn()
    # the example's exact figures: 55.98% at the $10,000 reset, the wager back from a
    # meter of $160,530.53, 345.48% at the $1,000,000 ceiling
    assert "The progressive bet is copied unchanged." in drawn and "METER" in drawn and "RETURN" in drawn
    for text in ("At the reset", "$10,000.00", "55.98%", "Break-even", "$160,530.53", "100.00%",
                 "At the ceiling", "$1,000,000.00", "345.48%"):
        assert text in drawn, text
    assert not any(b.startswith("progressive_") for b in s.buttons())  # nothing to step
    s.shot(SHOTS / f"editor-progressive-{size[0]}x{size[1]}.png")
    s.touch("tab_blind")
    s.touch("blind_flush_plus")  # 3:2 -> 2:1
    s.touch("editor_compute")
    s.scene.current.editor.session.job.wait(5)
    s.frame()
    s.touch("editor_apply")
    s.touch("editor_confirm")
    assert "in force." in s.drawn()
    snap = s.snap
    assert snap.paytable.name == "Standard with progressive custom"
    assert str(snap.paytable.blind.flush) == "2:1"
    assert snap.paytable.progressive == load_paytable(EXAMPLE).progressive
    assert snap.progressive_meter == 1_000_000
