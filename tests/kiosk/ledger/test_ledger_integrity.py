"""Attacks on a cabinet's ledger files: forged rows without the key, rollbacks behind the
anchor, another cabinet's database, dropped triggers.  Each is played against real
SQLite files written by the controller, and each must be refused at power-up (the
``ledger`` tilt) and by ``uth audit verify``."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from support.cabinet import insert_note

from engine.rng import SeededRandomSource
from kiosk.cli import main as uth
from kiosk.config import CabinetConfig, load_config
from kiosk.game.commands import Deal, Decide, PlaceChip
from kiosk.game.snapshot import MachinePhase
from kiosk.ledger.anchor import Head, read_anchor
from kiosk.ledger.chain import GENESIS, chain_hash
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import _sub, round_effects
from kiosk.ledger.schema import PROTECTIVE_TRIGGERS, ROUND_COLUMNS
from kiosk.wiring.lone_cabinet import LoneCabinet

MacFn = Callable[[str], str | None]


@pytest.fixture
def config(tmp_path: Path) -> CabinetConfig:
    return load_config(db_path=tmp_path / "var" / "uth.db")


def play(config: CabinetConfig, rounds: int = 2, seed: int = 5) -> None:
    """Open the cabinet, take a $100 bill, play ``rounds`` rounds to the end, power down."""
    m = LoneCabinet.open(config, rng=SeededRandomSource(seed))
    assert m.table.ledger is not None, m.station.snapshot().tilts
    insert_note(m, 10000)
    for _ in range(rounds):
        m.station.execute(PlaceChip("ante", 500))
        m.station.execute(Deal())
        while m.station.snapshot().phase == MachinePhase.IN_ROUND:
            m.station.execute(Decide(m.station.snapshot().legal[-1]))
    m.close()


def tilt_of(config: CabinetConfig) -> str:
    """The ledger tilt the cabinet comes up with ("" when it opens cleanly)."""
    m = LoneCabinet.open(config)
    try:
        tilts = [t.message for t in m.station.snapshot().tilts if t.code == "ledger"]
        return tilts[0] if tilts else ""
    finally:
        m.close()


def audit_verify(capsys, config: CabinetConfig, *extra: str) -> tuple[int, str]:
    code = uth(["audit", "verify", "--db", str(config.db_path), *extra])
    return code, capsys.readouterr().out


def db_files(db: Path) -> list[Path]:
    return [Path(f"{db}{s}") for s in ("", "-wal", "-shm") if Path(f"{db}{s}").exists()]


def forge_payout(config: CabinetConfig, mac: MacFn) -> None:
    """What a holder of the database alone can do: add $10 to round 1's Ante return and
    payment, make the meters and every later row agree, recompute the hash chain, each
    row's MAC with ``mac``, the head record and the anchor (both MAC'd with ``mac``)."""
    conn = sqlite3.connect(config.db_path)
    for name in PROTECTIVE_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    cols = list(ROUND_COLUMNS)
    rows = [
        dict(zip(cols, r, strict=True))
        for r in conn.execute(f"SELECT {', '.join(cols)} FROM rounds ORDER BY id")
    ]
    before = round_effects(rows[0])
    rows[0]["ante_return"] += 1000
    rows[0]["paid"] += 1000
    for row in rows:
        row["credits_before"] += 0 if row["id"] == 1 else 1000
        row["credits_after"] += 1000
    for name, delta in _sub(round_effects(rows[0]), before).items():
        conn.execute("UPDATE meters SET value = value + ? WHERE name = ?", (delta, name))
        conn.execute(
            "UPDATE station_meters SET value = value + ? WHERE station = 1 AND name = ?",
            (delta, name),
        )
    prev = GENESIS
    for row in rows:
        row["hash"] = prev = chain_hash(prev, row)
        row["mac"] = mac(row["hash"])
        sets = ", ".join(f"{c} = :{c}" for c in cols if c != "id")
        conn.execute(f"UPDATE rounds SET {sets} WHERE id = :id", row)
    head = Head.from_json(
        conn.execute("SELECT value FROM meta WHERE key = 'head'").fetchone()[0], "meta"
    )
    fields = json.loads(head.to_json())
    fields.update(round_head=prev, mac="")
    forged = Head(**fields)
    forged = Head(**{**fields, "mac": mac(forged.body()) or ""})
    conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (forged.to_json(),))
    for sql in PROTECTIVE_TRIGGERS.values():
        conn.execute(sql)
    conn.commit()
    conn.close()
    config.anchor_file.write_text(forged.to_json() + "\n")


# -- 1. the keyed chain ----------------------------------------------------------------------
def test_first_run_creates_a_private_key_and_signs_every_row(config):
    play(config, rounds=1)
    mode = stat.S_IMODE(config.key_path.stat().st_mode)
    assert mode == 0o600
    key = CabinetKey.load(config.key_path)
    ledger = Ledger.open(config.db_path, readonly=True, key=key)
    for table in ("rounds", "events"):
        for row_hash, mac in ledger.conn.execute(f"SELECT hash, mac FROM {table}"):
            assert mac == key.mac(row_hash)
    report = ledger.verify(replay=True)
    assert report.ok and report.authenticated, report.problem
    ledger.close()


@pytest.mark.parametrize(
    "scheme",
    ["plain sha256", "no MAC", "wrong key"],
)
def test_a_forged_payout_without_the_key_is_detected(config, capsys, scheme):
    play(config)
    wrong = CabinetKey(os.urandom(32))
    mac: MacFn = {
        "plain sha256": lambda h: hashlib.sha256(h.encode()).hexdigest(),
        "no MAC": lambda h: None,
        "wrong key": wrong.mac,
    }[scheme]
    forge_payout(config, mac)
    # without the key the forgery is consistent: the chain, meters and arithmetic add up
    unkeyed = Ledger.open(config.db_path, readonly=True)
    assert unkeyed.verify().ok
    unkeyed.close()
    keyed = Ledger.open(config.db_path, readonly=True, key=CabinetKey.load(config.key_path))
    report = keyed.verify()
    keyed.close()
    assert not report.ok and report.problem.startswith("rounds 1: MAC does not match")
    assert "not signed with this cabinet's key" in tilt_of(config)
    code, out = audit_verify(capsys, config)
    assert code == 1 and out.startswith("FAILED:") and "not signed with this cabinet's key" in out


def test_verify_without_the_key_checks_integrity_not_authenticity(config, capsys):
    play(config, rounds=1)
    code, out = audit_verify(capsys, config)
    assert code == 0 and out.startswith("OK: ") and "MACs, anchor" in out
    config.key_path.rename(config.key_path.with_name("elsewhere.key"))
    code, out = audit_verify(capsys, config)
    assert code == 3
    assert out.startswith("OK (integrity only): ") and "NOT checked: authenticity" in out
    assert "MACs" not in out.split(";")[0]
    code, out = audit_verify(capsys, config, "--json")
    data = json.loads(out)
    assert code == 3 and data["ok"] and "is missing" in data["not_checked"][0]
    code, out = audit_verify(
        capsys, config, "--key", str(config.key_path.with_name("elsewhere.key"))
    )
    assert code == 0
    # the cabinet itself never runs without its key
    assert "cabinet key" in tilt_of(config) and "is missing" in tilt_of(config)


def test_a_key_readable_by_others_is_refused(config):
    play(config, rounds=0)
    config.key_path.chmod(0o644)
    assert "accessible to other users" in tilt_of(config)


# -- 2. the anchor -----------------------------------------------------------------------------
def test_the_anchor_follows_every_commit(config):
    play(config, rounds=1)
    key = CabinetKey.load(config.key_path)
    ledger = Ledger.open(config.db_path, readonly=True, key=key)
    anchored = read_anchor(config.anchor_file)
    assert anchored is not None and anchored == ledger.stored_head()
    assert anchored.authentic(key) and anchored.machine_number == config.machine_number
    assert (anchored.events, anchored.rounds) == ledger.counts()[::-1]
    ledger.close()
    assert not config.anchor_file.with_name(config.anchor_file.name + ".tmp").exists()


def test_a_whole_file_rollback_is_a_tilt(config, capsys, tmp_path):
    play(config, rounds=1)
    saved = tmp_path / "saved"
    saved.mkdir()
    for f in db_files(config.db_path):
        shutil.copy2(f, saved / f.name)
    play(config, rounds=2)
    for f in db_files(config.db_path):
        f.unlink()
    for f in saved.iterdir():
        shutil.copy2(f, config.db_path.parent / f.name)
    assert "behind its anchor" in tilt_of(config)
    code, out = audit_verify(capsys, config)
    assert code == 1 and "behind its anchor" in out


def _crash_copy(config: CabinetConfig, into: Path) -> None:
    """The database files as a power cut leaves them (committed pages still in -wal)."""
    into.mkdir(exist_ok=True)
    for f in db_files(config.db_path):
        shutil.copy2(f, into / f.name)


@pytest.mark.parametrize("attack", ["wal deleted", "older wal"])
def test_a_deleted_or_older_wal_is_a_tilt(config, tmp_path, attack):
    play(config, rounds=0)
    pid = os.fork()
    if pid == 0:  # the cabinet, cut off after two commits that are still in the -wal
        ledger = Ledger.open(config.db_path, key=CabinetKey.load(config.key_path))
        ledger.attach_anchor(config.anchor_file, write=True)
        ledger.conn.execute("PRAGMA wal_autocheckpoint = 0")
        ledger.event(EventKind.BILL_IN, amount=2000, txn="b1")
        _crash_copy(config, tmp_path / "early")
        ledger.event(EventKind.BILL_IN, amount=5000, txn="b2")
        _crash_copy(config, tmp_path / "late")
        os._exit(0)  # no checkpoint, no close: a power cut
    assert os.waitpid(pid, 0)[1] == 0
    for f in db_files(config.db_path):
        f.unlink()
    shutil.copy2(tmp_path / "late" / "uth.db", config.db_path)
    if attack == "older wal":
        shutil.copy2(tmp_path / "early" / "uth.db-wal", f"{config.db_path}-wal")
    assert "behind its anchor" in tilt_of(config)
    # the genuine files open cleanly
    for f in db_files(config.db_path):
        f.unlink()
    for f in (tmp_path / "late").iterdir():
        shutil.copy2(f, config.db_path.parent / f.name)
    assert tilt_of(config) == ""


def test_a_database_ahead_of_its_anchor_is_a_cut_between_commit_and_anchor(config):
    """A power cut after the commit but before the anchor's rename leaves the anchor one
    commit behind: that opens, and the anchor is brought up to date."""
    play(config, rounds=0)
    before = config.anchor_file.read_text()
    ledger = Ledger.open(config.db_path, key=CabinetKey.load(config.key_path))
    ledger.event(EventKind.BILL_IN, amount=2000, txn="b1")  # no anchor attached: not anchored
    ledger.close()
    assert config.anchor_file.read_text() == before
    assert tilt_of(config) == ""
    anchored = read_anchor(config.anchor_file)
    assert anchored is not None and anchored.seq > Head.from_json(before, "").seq


def test_another_cabinets_database_is_a_tilt(tmp_path):
    mine = load_config(db_path=tmp_path / "a" / "uth.db", machine_number="0001")
    theirs = load_config(db_path=tmp_path / "b" / "uth.db", machine_number="0002")
    play(mine, rounds=1)
    play(theirs, rounds=1)
    # their database and marker in my place: my anchor names another ledger
    for suffix in ("", ".install"):
        shutil.copy2(f"{theirs.db_path}{suffix}", f"{mine.db_path}{suffix}")
    assert "not signed with this cabinet's key" in tilt_of(mine)
    # with their key and anchor too: the machine number gives it away
    for suffix in (".key", ".anchor"):
        shutil.copy2(f"{theirs.db_path}{suffix}", f"{mine.db_path}{suffix}")
    os.chmod(mine.key_path, 0o600)
    assert "belongs to machine '0002'; this cabinet is machine '0001'" in tilt_of(mine)


def test_another_ledger_signed_with_my_key_is_refused_by_the_anchor(config, tmp_path):
    play(config, rounds=1)
    other = load_config(db_path=tmp_path / "other" / "uth.db", ledger_key_path=config.key_path)
    play(other, rounds=1)
    for suffix in ("", ".install"):
        shutil.copy2(f"{other.db_path}{suffix}", f"{config.db_path}{suffix}")
    assert "names ledger" in tilt_of(config)


def test_a_missing_database_with_its_anchor_present_is_a_tilt(config):
    play(config, rounds=1)
    for f in (*db_files(config.db_path), config.marker_path):
        f.unlink()
    message = tilt_of(config)
    assert "missing" in message and "anchor" in message
    assert not config.db_path.exists()  # never a first run


def test_a_missing_anchor_is_a_tilt(config):
    play(config, rounds=1)
    config.anchor_file.unlink()
    assert "missing" in tilt_of(config) and "anchor" in tilt_of(config)


def test_init_force_starts_over_a_lost_ledger_whose_anchor_remains(config, capsys):
    play(config, rounds=1)
    for f in (*db_files(config.db_path), config.marker_path):
        f.unlink()
    assert uth(["audit", "init", "--db", str(config.db_path)]) == 2
    assert "anchor" in capsys.readouterr().err
    assert uth(["audit", "init", "--db", str(config.db_path), "--force"]) == 0
    capsys.readouterr()
    assert config.anchor_file.with_name("uth.db.anchor.replaced").exists()
    assert tilt_of(config) == ""


# -- 3. verify checks more ---------------------------------------------------------------------
@pytest.mark.parametrize("trigger", sorted(PROTECTIVE_TRIGGERS))
def test_a_dropped_trigger_is_detected(config, capsys, trigger):
    play(config, rounds=1)
    conn = sqlite3.connect(config.db_path)
    conn.execute(f"DROP TRIGGER {trigger}")
    conn.commit()
    conn.close()
    assert f"trigger {trigger}: missing" in tilt_of(config)
    code, out = audit_verify(capsys, config)
    assert code == 1 and f"trigger {trigger}: missing" in out


def test_a_trigger_replaced_by_a_no_op_is_detected(config):
    play(config, rounds=1)
    conn = sqlite3.connect(config.db_path)
    conn.execute("DROP TRIGGER rounds_frozen")
    conn.execute("CREATE TRIGGER rounds_frozen BEFORE UPDATE ON rounds WHEN 0 BEGIN SELECT 1; END")
    conn.commit()
    conn.close()
    assert "trigger rounds_frozen: altered" in tilt_of(config)
