"""One proven record of each paytable's return: the program's shipped records (their file
vouched for by the program manifest, their Trips figure exact) and the records this
cabinet signs; a fresh cabinet with a cold PAR cache knows the standard table's return,
a table with no record is computed in the maths child before play opens, and a record
altered by hand is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.cabinet import insert_note

from engine.uth.paytable import PAYTABLE_DIR, load_paytable, shipped_paytables
from kiosk.config import load_config
from kiosk.game.commands import (
    ClearTilt,
    Deal,
    Decide,
    OperatorLogin,
    OperatorLogout,
    PlaceChip,
    RamClear,
    RamClearRequest,
    RamClearWitness,
    SetDoor,
)
from kiosk.game.errors import PlayDisabled, WrongState
from kiosk.game.paytables.editor import list_paytables
from kiosk.game.paytables.par_proof import proof_path
from kiosk.game.paytables.rtp_record import (
    COMPUTING,
    RTP_GATE,
    SHIPPED_NAME,
    RtpRecordError,
    known_rtp,
    program_root,
    rtp_gate,
    rtp_record,
    shipped_record,
    shipped_records,
    trips_rtp,
)
from kiosk.integrity.files import PROGRAM_ROOT
from kiosk.integrity.manifest import MANIFEST_NAME, write_manifest
from kiosk.ledger.key import CabinetKey
from kiosk.wiring.lone_cabinet import LoneCabinet

STANDARD = load_paytable(PAYTABLE_DIR / "standard.toml")


def not_shipped(tmp_path: Path) -> Path:
    """The standard table with Trips flush 6:1 instead of 7:1: in the bounds, shipped
    by no one."""
    text = (PAYTABLE_DIR / "standard.toml").read_text(encoding="utf-8")
    at = text.index("[trips]")
    head, tail = text[:at], text[at:]
    old = next(line for line in tail.splitlines() if line.startswith("flush ="))
    path = tmp_path / "custom.toml"
    path.write_text(
        head + tail.replace(old, 'flush = "6:1"').replace('name = "Standard"', 'name = "Custom"')
    )
    return path


def program_copy(tmp_path: Path) -> Path:
    """A program root holding the shipped records and a manifest that lists them."""
    root = tmp_path / "program"
    (root / "paytables").mkdir(parents=True)
    (root / "kiosk" / "integrity").mkdir(parents=True)
    shutil.copy(program_root() / SHIPPED_NAME, root / SHIPPED_NAME)
    for top in ("assets", "devices", "engine", "kiosk"):
        (root / top).mkdir(exist_ok=True)
    sign_manifest_of(root)
    return root


def sign_manifest_of(root):
    """The copy's manifest written and signed with the development release key (public:
    a forger has it too, which is what the Trips check below is for)."""
    write_manifest(root, key=PROGRAM_ROOT / "keys" / "release-dev.ed25519")


def test_a_cold_cabinet_knows_the_standard_tables_return_from_the_shipped_record():
    record = rtp_record(STANDARD, None)  # no key, and the test's PAR cache is empty
    assert record.source == "shipped"
    assert round(record.percent()["main_total"], 2) == 99.47
    assert round(record.percent()["trips"], 2) == 96.50
    assert record.base_pct == 9947
    assert set(shipped_records()) == {load_paytable(p).sha256 for p in shipped_paytables()}


def test_the_shipped_records_are_what_the_maths_computes(standard_optimal_par):
    report, _cache = standard_optimal_par
    assert dict(shipped_record(STANDARD).figures) == report.rtps()
    for path in shipped_paytables():
        table = load_paytable(path)
        assert shipped_record(table).figures["trips"] == pytest.approx(
            float(trips_rtp(table)), abs=1e-15
        )


def test_a_shipped_record_altered_after_release_is_refused(tmp_path):
    root = program_copy(tmp_path)
    assert shipped_record(STANDARD, root).base_pct == 9947  # the copy as released
    path = root / SHIPPED_NAME
    body = json.loads(path.read_text())
    body["tables"][STANDARD.sha256]["rtp"]["main_total"] = 0.9999
    path.write_text(json.dumps(body, indent=1) + "\n")
    with pytest.raises(RtpRecordError, match="not the program's"):
        shipped_record(STANDARD, root)
    # a forger who writes the manifest again is caught by the exact Trips figure
    rich = load_paytable(PAYTABLE_DIR / "trips-50-40-30-9-7-4-3.toml")
    body = json.loads((program_root() / SHIPPED_NAME).read_text())
    body["tables"][rich.sha256]["rtp"] = body["tables"][STANDARD.sha256]["rtp"]
    path.write_text(json.dumps(body, indent=1) + "\n")
    sign_manifest_of(root)
    with pytest.raises(RtpRecordError, match="not its exact"):
        shipped_record(rich, root)
    for body in ([], {"format": 1, "tables": {STANDARD.sha256: "99.47"}}):
        path.write_text(json.dumps(body))
        sign_manifest_of(root)
        with pytest.raises(RtpRecordError, match="format|figures"):
            shipped_record(STANDARD, root)
    (root / MANIFEST_NAME).unlink()
    with pytest.raises(RtpRecordError, match="manifest"):
        shipped_record(STANDARD, root)


def test_a_table_with_no_record_is_computed_before_play_opens_and_an_altered_record_refused(
    tmp_path,
):
    custom = not_shipped(tmp_path)
    config = load_config(None, db_path=tmp_path / "uth.db", paytable=custom)
    machine = LoneCabinet.open(config)
    try:
        key = machine.table.ledger.key
        table = machine.station.snapshot().paytable
        assert known_rtp(table, key) is None
        insert_note(machine, 10_000)
        machine.station.execute(PlaceChip("ante", 500))
        gate = rtp_gate(machine.table, config)
        assert gate.start()
        assert {t.code: t.message for t in machine.station.snapshot().tilts}.get(
            RTP_GATE
        ) == COMPUTING
        with pytest.raises(PlayDisabled, match="Computing the paytable's return"):
            machine.station.execute(Deal())
        machine.station.execute(
            OperatorLogin("1111")
        )  # an attendant cannot open play before the record
        with pytest.raises(WrongState, match="Computing the paytable's return") as refused:
            machine.station.execute(ClearTilt(RTP_GATE))
        assert refused.value.code == "rtp_unknown"
        machine.station.execute(OperatorLogout())
        gate.thread.join(120)
        assert not machine.station.snapshot().tilts, machine.station.snapshot().tilts
        record = rtp_record(table, key)
        assert record.source == "signed"
        assert record.figures["trips"] == pytest.approx(float(trips_rtp(table)), abs=1e-12)
        assert round(record.percent()["main_total"], 2) == 99.47
        machine.station.execute(Deal())  # play is open
        assert not rtp_gate(machine.table, config).start()  # known: no second computation
        proof = proof_path(table)
        body = json.loads(proof.read_text())
        body["mac"] = "0" * 64
        proof.write_text(json.dumps(body))
        with pytest.raises(RtpRecordError, match="altered after signing"):
            rtp_record(table, key)
        with pytest.raises(RtpRecordError, match="not signed with this cabinet's key"):
            rtp_record(table, CabinetKey(b"k" * 32))
    finally:
        machine.close()


def test_the_hold_report_and_the_paytable_page_read_the_same_record(tmp_path):
    config = load_config(None, db_path=tmp_path / "uth.db")
    machine = LoneCabinet.open(config)
    try:
        insert_note(machine, 10_000)
        machine.station.execute(PlaceChip("ante", 500))
        machine.station.execute(Deal())
        while machine.station.snapshot().legal:
            machine.station.execute(Decide(machine.station.snapshot().legal[-1]))
        record = rtp_record(STANDARD, machine.table.ledger.key)
        (hold,) = machine.table.read(lambda a: a.hold(None))
        assert hold.rtp_known and hold.unproven == ""
        assert hold.report.row("trips").optimal == pytest.approx(1 - record.figures["trips"])
        listing = next(e for e in list_paytables(machine.table) if e.table == STANDARD)
        assert listing.proven and dict(listing.rtps) == dict(record.figures)
    finally:
        machine.close()


@pytest.mark.heavy
def test_uth_paytable_records_writes_again_exactly_the_shipped_file(capsys):
    """What an auditor runs: every shipped table computed afresh gives the shipped file."""
    from kiosk.cli import main as cli

    assert cli(["paytable", "records"]) == 0
    assert capsys.readouterr().out == (program_root() / SHIPPED_NAME).read_text(encoding="utf-8")


def test_neither_an_attendant_nor_a_ram_clear_opens_play_before_the_record(tmp_path):
    config = load_config(None, db_path=tmp_path / "uth.db")
    machine = LoneCabinet.open(config)
    try:
        machine.table.gate(RTP_GATE, COMPUTING)  # as the gate shuts it at power-up
        machine.station.execute(OperatorLogin("3333"))
        machine.station.execute(SetDoor(True))  # a RAM clear needs the main door open
        machine.station.execute(RamClearWitness("1111"))  # and a second operator's PIN
        machine.station.execute(RamClear(machine.station.execute(RamClearRequest())))
        assert [t.code for t in machine.station.snapshot().tilts] == [RTP_GATE]
        with pytest.raises(WrongState) as refused:
            machine.station.execute(ClearTilt(RTP_GATE))
        assert refused.value.code == "rtp_unknown"
        machine.table.gate(RTP_GATE, None)  # the record is known: play opens
        assert machine.station.snapshot().tilts == ()
    finally:
        machine.close()
