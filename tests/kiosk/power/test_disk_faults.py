"""Real disk faults under the ledger, with the real ID-003 driver and the validator
simulator: a full file system (a small tmpfs filled by a filler file), a read-only
directory (the tmpfs remounted read-only: root ignores file modes) and a read-only
database file (opened by a process running as ``nobody``), and a database locked by
another process holding ``BEGIN EXCLUSIVE``.

Each time the machine tilts, no note goes to the cash box, nothing recorded is lost,
the ledger is never recreated, and once the fault is gone the next power-up plays on and
the ledger verifies with every round replayed."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cabinet import credits, insert_note, opened
from support.fast_devices import FAST_VALIDATOR, never, wait_for

from devices.id003 import BillValidator
from devices.sim import Id003Simulator
from engine.rng import SeededRandomSource
from kiosk.config import CabinetConfig, load_config
from kiosk.game.commands import (
    ClearBets,
    Deal,
    Decide,
    PlaceChip,
)
from kiosk.game.errors import PlayDisabled
from kiosk.game.snapshot import MachinePhase
from kiosk.game.vocabulary import LEDGER_TILT
from kiosk.wiring.lone_cabinet import LoneCabinet

ROOT = Path(__file__).resolve().parents[3]
NOBODY = 65534


@contextlib.contextmanager
def tmpfs(folder: Path, size: str = "4m") -> Iterator[Path]:
    """A real small file system mounted on ``folder`` (unmounted afterwards)."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True
    )
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mount.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def cabinet_config(db_dir: Path, base: Path) -> CabinetConfig:
    """An installed layout: the key and the anchor outside the database's file system."""
    for folder in ("key", "anchor"):
        (base / folder).mkdir(exist_ok=True)
    return load_config(
        db_path=db_dir / "uth.db",
        ledger_key_path=base / "key" / "uth.key",
        anchor_path=base / "anchor" / "uth.anchor",
    )


@pytest.fixture
def sim():
    with Id003Simulator() as s:
        yield s


def driver(sim: Id003Simulator, machine: LoneCabinet) -> BillValidator:
    v = BillValidator(sim.port, machine.notes, FAST_VALIDATOR)
    v.enable()
    v.start()
    assert wait_for(lambda: v.ready)
    return v


def recorded(m: LoneCabinet) -> list[tuple[int, str, str]]:
    assert m.table.ledger is not None
    return [(e.id, e.kind, e.hash) for e in m.table.ledger.events()]


def ledger_tilt(m: LoneCabinet) -> str:
    return {t.code: t.message for t in m.station.snapshot().tilts}.get(LEDGER_TILT, "")


def credit_a_note(sim: Id003Simulator, m: LoneCabinet, cents: int) -> None:
    before, boxed = credits(m), len(sim.cashbox)
    sim.insert_bill(cents)
    assert wait_for(lambda: credits(m) == before + cents and len(sim.cashbox) == boxed + 1)


def refused_note(sim: Id003Simulator, m: LoneCabinet, cents: int) -> None:
    """A note offered now is not stacked: the cash box and the credits stay as they are."""
    held, boxed, returned = credits(m), len(sim.cashbox), len(sim.returned)
    sim.insert_bill(cents)
    assert wait_for(lambda: len(sim.returned) > returned, timeout=5.0)
    # the note does not go to the box later either
    assert never(lambda: len(sim.cashbox) != boxed or credits(m) != held, 0.3)


def play_on(m: LoneCabinet) -> None:
    """Play one whole round (the fault is gone)."""
    m.station.execute(ClearBets())
    m.station.execute(PlaceChip("ante", 500))
    m.station.execute(Deal())
    while m.station.snapshot().phase == MachinePhase.IN_ROUND:
        m.station.execute(Decide(m.station.snapshot().legal[-1]))


def verified(m: LoneCabinet) -> None:
    report = m.table.read(lambda a: a.verify(replay=True))
    assert report is not None and report.ok, report and report.problem


def test_a_full_disk_tilts_refuses_notes_and_loses_nothing(tmp_path, sim):
    with tmpfs(tmp_path / "disk") as disk:
        config = cabinet_config(disk, tmp_path)
        m = opened(config, rng=SeededRandomSource(5))
        v = driver(sim, m)
        try:
            credit_a_note(sim, m, 10000)
            play_on(m)
            with open(disk / "filler", "wb") as filler:  # until the file system is full
                with contextlib.suppress(OSError):
                    while True:
                        filler.write(b"\0" * 65536)
                        filler.flush()
            failed = None
            for _ in range(500):  # SQLite may still find room in pages it holds
                try:
                    play_on(m)
                except PlayDisabled as exc:
                    failed = exc
                    break
            assert failed is not None and "full" in str(failed)
            assert "ledger write failed" in ledger_tilt(m) and not m.station.snapshot().playable
            held, before = credits(m), recorded(m)
            refused_note(sim, m, 2000)
        finally:
            v.close()
        m.table.ledger.close()  # the power goes; the attendant frees the space
        (disk / "filler").unlink()
        m = opened(config, rng=SeededRandomSource(6))
        v = driver(sim, m)
        try:
            assert m.station.snapshot().tilts == () and credits(m) == held
            assert recorded(m)[: len(before)] == before
            play_on(m)
            credit_a_note(sim, m, 1000)
            verified(m)
        finally:
            v.close()
            m.close()
        assert [i.cents for i in sim.cashbox] == [10000, 1000]


def test_a_read_only_directory_is_a_clear_tilt_and_the_ledger_is_kept(tmp_path):
    with tmpfs(tmp_path / "disk") as disk:
        config = cabinet_config(disk, tmp_path)
        m = opened(config)
        insert_note(m, 2000)
        before = recorded(m)
        m.close()
        files = sorted(os.listdir(disk))
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        try:
            m = opened(config)
            reason = ledger_tilt(m)
            assert "read-only" in reason and "database directory" in reason, reason
            assert m.table.ledger is None and not m.station.snapshot().playable
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        assert sorted(os.listdir(disk)) == files
        m = opened(config)
        assert m.station.snapshot().tilts == () and credits(m) == 2000
        assert recorded(m)[: len(before)] == before
        verified(m)
        m.close()


OPEN_AS_NOBODY = """
import encodings.ascii, encodings.latin_1, encodings.utf_8, json, os, sys
from kiosk.config import load_config
from kiosk.wiring.lone_cabinet import LoneCabinet
os.setgid({uid}); os.setuid({uid})
config = load_config(db_path=sys.argv[1], ledger_key_path=sys.argv[2], anchor_path=sys.argv[3])
m = LoneCabinet.open(config)
print(json.dumps({{"tilts": {{t.code: t.message for t in m.station.snapshot().tilts}},
                  "open": m.table.ledger is not None}}))
"""


def test_a_read_only_database_file_is_a_clear_tilt_and_never_recreated(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("dropping to uid nobody needs root")
    base = Path(tempfile.mkdtemp(prefix="uth-ro-", dir="/tmp"))  # nobody can reach it
    try:
        base.chmod(0o755)
        (base / "db").mkdir()
        config = cabinet_config(base / "db", base)
        m = opened(config)
        insert_note(m, 2000)
        m.close()
        for folder in ("db", "key", "anchor"):  # the cabinet's user owns its files
            os.chown(base / folder, NOBODY, NOBODY)
            for p in (base / folder).iterdir():
                os.chown(p, NOBODY, NOBODY)
        db = base / "db" / "uth.db"
        db.chmod(0o444)
        content, files = db.read_bytes(), sorted(os.listdir(base / "db"))
        child = subprocess.run(
            [
                sys.executable,
                "-c",
                OPEN_AS_NOBODY.format(uid=NOBODY),
                str(db),
                str(config.key_path),
                str(config.anchor_file),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
        assert child.returncode == 0, child.stderr[-2000:]
        seen = json.loads(child.stdout.strip().splitlines()[-1])
        reason = seen["tilts"].get(LEDGER_TILT, "")
        assert not seen["open"] and "read-only" in reason and "database file" in reason, seen
        assert db.read_bytes() == content and sorted(os.listdir(base / "db")) == files
        db.chmod(0o644)
        m = opened(config)
        assert m.station.snapshot().tilts == () and credits(m) == 2000
        verified(m)
        m.close()
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=False)


HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


def test_a_database_locked_by_another_process_tilts_and_play_resumes(tmp_path, sim):
    config = load_config(db_path=tmp_path / "uth.db")
    m = opened(config, rng=SeededRandomSource(7))
    assert m.table.ledger is not None
    m.table.ledger.conn.execute("PRAGMA busy_timeout = 200")  # do not wait 5 s per write here
    v = driver(sim, m)
    try:
        credit_a_note(sim, m, 5000)
        play_on(m)
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD_LOCK, str(config.db_path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
            held, before = credits(m), recorded(m)
            m.station.execute(ClearBets())
            m.station.execute(PlaceChip("ante", 500))
            with pytest.raises(PlayDisabled):
                m.station.execute(Deal())
            assert "locked" in ledger_tilt(m) and not m.station.snapshot().playable
            assert credits(m) == held and m.station.snapshot().phase != MachinePhase.IN_ROUND
            refused_note(sim, m, 1000)
        finally:
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.close()
            assert holder.wait(10) == 0
    finally:
        v.close()
    m.table.ledger.close()
    m = opened(config, rng=SeededRandomSource(8))
    v = driver(sim, m)
    try:
        assert m.station.snapshot().tilts == () and credits(m) == held
        assert recorded(m)[: len(before)] == before
        play_on(m)
        credit_a_note(sim, m, 2000)
        verified(m)
    finally:
        v.close()
        m.close()
    assert [i.cents for i in sim.cashbox] == [5000, 2000]


def test_a_first_run_whose_anchor_folder_is_missing_is_a_tilt_not_a_crash(tmp_path):
    config = load_config(db_path=tmp_path / "uth.db", anchor_path=tmp_path / "gone" / "a")
    m = opened(config)
    reason = ledger_tilt(m)
    assert "cannot be created" in reason and "gone" in reason, reason
    assert m.table.ledger is None and not m.station.snapshot().playable
