"""The operator's paytable editing session through the controller: who may edit and when,
lines held to the jurisdiction's bounds, the exact RTP computed in a worker thread while
the controller stays free, and the new table signed, written and put in force with its
TOML, SHA-256 and PAR sheet in the ledger's change event; a table with a progressive
copied with its ``[progressive]`` section unchanged and put in force with it."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from support.cabinet import insert_note

from engine.maths.par_report import ParReport
from engine.maths.progressive import ProgressiveFigures
from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, Paytable, load_paytable
from kiosk.config import load_config
from kiosk.game.commands import OperatorLogin, OperatorLogout, SetDoor
from kiosk.game.errors import ConfigurationError, NotAuthorised, WrongState
from kiosk.game.paytables.draft import EditError
from kiosk.game.paytables.editor import PaytableEditor, list_paytables
from kiosk.game.vocabulary import SEAT
from kiosk.station.operator_local import TableOperations
from kiosk.wiring.lone_cabinet import LoneCabinet

MANAGER, TECHNICIAN = "975310", "135790"
EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "paytables" / "progressive-example.toml"


def report_of(table: Paytable, trips: float = 0.991) -> ParReport:
    bets = {"ante": {"rtp": 0.834}, "blind": {"rtp": 0.698}, "play": {"rtp": 1.213}}
    return ParReport(
        strategy="optimal",
        paytable_sha256=table.sha256,
        paytable_name=table.name,
        exact=True,
        main={"rtp_total_main_bet": 0.9978, "rtp_initial_main_bet": 0.991, "bets": bets},
        trips={"rtp": trips},
        preflop={"hands": 169},
        seconds=3.0,
    )


def cabinet(tmp_path: Path, extra: str = "") -> LoneCabinet:
    """A cabinet whose paytables folder is a copy of the shipped one, with a manager and
    a technician."""
    folder = tmp_path / "paytables"
    folder.mkdir()
    for path in PAYTABLE_DIR.glob("*.toml"):
        shutil.copy(path, folder / path.name)
    text = f'db_path = "{tmp_path / "uth.db"}"\npaytable = "{folder / "standard.toml"}"\n'
    text += extra
    for name, role, pin in (("Cy Young", "manager", MANAGER), ("Ted Jones", "technician", TECHNICIAN)):
        text += f'\n[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
    config = tmp_path / "cabinet.toml"
    config.write_text(text)
    return LoneCabinet.open(load_config(config), rng=SeededRandomSource(3))


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "par"
    monkeypatch.setenv("UTH_PAR_CACHE", str(folder))
    return folder


@pytest.fixture
def cab(tmp_path, cache):
    c = cabinet(tmp_path)
    yield c
    c.close()


def operations(cab: LoneCabinet) -> TableOperations:
    """The cabinet's operator port: the editor's host."""
    return TableOperations(cab.table, SEAT, cab.station)


def ready(cab: LoneCabinet, pin: str = MANAGER) -> None:
    cab.station.execute(SetDoor(True))
    cab.station.execute(OperatorLogin(pin))


@pytest.mark.heavy
def test_a_new_table_is_computed_off_the_lock_signed_written_and_recorded(cab, tmp_path):
    ready(cab)
    editor = PaytableEditor(operations(cab))
    editor.start(PAYTABLE_DIR / "standard.toml", name="Custom")
    editor.set("blind.flush", "2:1")
    editor.set("trips.full_house", "9:1")
    assert editor.rtps() is None and not editor.can_apply()
    job = editor.compute()
    assert editor.compute() is job  # the same draft is not computed twice
    seen = []
    while job.running:  # the controller answers while the maths runs
        cab.station.execute(SetDoor(True))
        seen.append(cab.station.snapshot().door_open)
        job.wait(0.2)
    assert job.error == "" and job.fraction == 1.0 and seen
    rtps = editor.rtps()
    assert rtps is not None and round(100 * rtps["main_total"], 4) == 99.7834
    assert round(100 * rtps["trips"], 4) == 99.0982
    assert editor.can_apply()
    path = editor.apply()
    assert path.parent == tmp_path / "paytables" and path.name.startswith("custom-")
    table = load_paytable(path)
    snap = cab.station.snapshot()
    assert snap.paytable.sha256 == table.sha256 and str(snap.paytable.blind.flush) == "2:1"
    ev = cab.table.ledger.last_event("paytable_changed")
    assert ev.detail["operator"] == "Cy Young"
    new = ev.detail["new"]
    assert new["sha256"] == table.sha256 and new["toml"] == path.read_text()
    assert new["par"]["paytable_sha256"] == table.sha256
    listed = {entry.path.name: entry for entry in list_paytables(operations(cab))}
    assert len(listed) == 5 and listed[path.name].proven
    assert listed[path.name].rtps == rtps


def test_only_a_manager_with_the_door_open_and_no_credits_may_edit(cab):
    editor = PaytableEditor(operations(cab), analyse=lambda t, progress: report_of(t))
    with pytest.raises(NotAuthorised, match="log in"):
        editor.start(PAYTABLE_DIR / "standard.toml")
    cab.station.execute(OperatorLogin(TECHNICIAN))
    with pytest.raises(NotAuthorised, match="manager"):
        editor.start(PAYTABLE_DIR / "standard.toml")
    cab.station.execute(OperatorLogout())
    cab.station.execute(OperatorLogin(MANAGER))
    with pytest.raises(NotAuthorised, match="door"):
        editor.start(PAYTABLE_DIR / "standard.toml")
    cab.station.execute(SetDoor(True))
    editor.start(PAYTABLE_DIR / "standard.toml")
    editor.set("trips.full_house", "9:1")
    editor.compute().wait(5)
    assert editor.can_apply()
    cab.station.execute(SetDoor(False))
    insert_note(cab, 500)
    cab.station.execute(SetDoor(True))
    with pytest.raises(WrongState, match="zero credits"):
        editor.apply()
    assert editor.edits["trips.full_house"] == "9:1"  # the refused change keeps the edit
    assert cab.station.snapshot().paytable.name == "Standard"
    assert len(list(editor.folder.glob("*.toml"))) == 4  # nothing written


def test_lines_limits_and_rtps_are_held_to_the_jurisdictions_bounds(tmp_path, cache):
    bounds = (
        '[paytable_bounds]\npays = {"blind.flush" = ["3:2", "2:1"]}\n'
        "rtp_pct = {trips = [95.0, 99.0]}\nlimits = {ante_max = [500, 60000]}\n"
    )
    m = cabinet(tmp_path, bounds)
    try:
        ready(m)
        editor = PaytableEditor(operations(m), analyse=lambda t, progress: report_of(t, trips=0.995))
        editor.start(PAYTABLE_DIR / "standard.toml")
        assert editor.choices("blind.flush") == ("3:2", "2:1")
        assert editor.choices("blind.straight")[0] == "1:1"
        with pytest.raises(EditError, match="not allowed"):
            editor.set("blind.flush", "5:2")
        with pytest.raises(EditError, match="outside"):
            editor.set("limits.ante_max", "100000")
        assert editor.limit_range("ante_max") == (500, 60000)
        editor.set("blind.flush", "2:1")
        editor.compute().wait(5)
        assert [r.field for r in editor.refusals()] == ["rtp.trips"]
        assert not editor.can_apply()
        with pytest.raises(ConfigurationError, match="rtp.trips") as refused:
            editor.apply()
        assert refused.value.code == "out_of_bounds"
        assert editor.edits["blind.flush"] == "2:1"
        assert m.station.snapshot().paytable.name == "Standard"
    finally:
        m.close()


def test_a_computation_that_fails_says_why_and_proves_nothing(cab):
    ready(cab)
    started = threading.Event()

    def broken(table, progress):
        progress(1, 4)
        started.set()
        raise RuntimeError("out of memory")

    editor = PaytableEditor(operations(cab), analyse=broken)
    editor.start(PAYTABLE_DIR / "standard.toml")
    job = editor.compute()
    assert job.wait(5) and started.is_set()
    assert job.error == "out of memory" and editor.rtps() is None
    with pytest.raises(ConfigurationError, match="not computed"):
        editor.apply()


def test_a_table_with_a_progressive_is_copied_edited_and_put_in_force_with_it(cab):
    ready(cab)
    example = load_paytable(EXAMPLE)
    assert example.progressive is not None
    editor = PaytableEditor(operations(cab), analyse=lambda t, progress: report_of(t))
    draft = editor.start(EXAMPLE, name="Custom progressive")
    assert draft.progressive == example.progressive
    with pytest.raises(EditError, match="only blind"):  # the editor does not set its lines
        editor.set("progressive.wager", "200")
    editor.set("blind.flush", "2:1")
    assert editor.table is not None and editor.table.progressive == example.progressive
    editor.compute().wait(5)
    assert editor.can_apply()
    path = editor.apply()
    written = load_paytable(path)
    assert "[progressive]" in path.read_text() and "[progressive.awards]" in path.read_text()
    assert written.progressive == example.progressive and written.sha256 == editor.table.sha256
    snap = cab.station.snapshot()
    assert snap.paytable.sha256 == written.sha256 and str(snap.paytable.blind.flush) == "2:1"
    assert snap.paytable.progressive == example.progressive
    assert snap.progressive_meter == example.progressive.reset  # seeded by the change
    figures = ProgressiveFigures.of(snap.paytable.progressive).to_dict()
    assert figures == ProgressiveFigures.of(example.progressive).to_dict()
    ev = cab.table.ledger.last_event("paytable_changed")
    assert ev.detail["operator"] == "Cy Young" and ev.detail["new"]["toml"] == path.read_text()
