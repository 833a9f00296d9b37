"""The monotonic counter witness: the whole folder (database, -wal, anchor, marker, key)
copied, a ticket redeemed, the copy put back.  With the anchor beside the database the
anchor is rolled back with it and sees nothing; the counter on another medium (a file
on a tmpfs here, a TPM 2.0 NV counter on a cabinet) does.  Cuts inside the counter's
steps are taken back without a tilt."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from support.cabinet import credits, insert_note

from engine.rng import SeededRandomSource
from kiosk.config import CabinetConfig, ConfigError, load_config
from kiosk.game.commands import CashOut
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.witness import FileCounter, TpmCounter, witness_power_up
from kiosk.station.paperless import PaperlessPrinter
from kiosk.wiring.lone_cabinet import LoneCabinet


def InstantPrinter() -> PaperlessPrinter:
    """A ticket printer at the cabinet's station, printed at once."""
    return PaperlessPrinter()


def tilt(m: LoneCabinet) -> str:
    return next((t.message for t in m.station.snapshot().tilts if t.code == "ledger"), "")


def roll_back(config: CabinetConfig, tmp_path: Path) -> str:
    """The attack with the cabinet's own code; returns the tilt after the copy is back."""
    printer = InstantPrinter()
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    printer.attach(m.link)
    assert tilt(m) == "", tilt(m)
    for bill in (5000, 2000, 1000, 100, 100, 100, 100):
        insert_note(m, bill)
    m.station.execute(CashOut())
    printer.serve()  # the service's print order, printed
    (number,) = printer.numbers
    m.close()
    folder = config.db_path.parent
    shutil.copytree(folder, tmp_path / "copy")  # every file of the folder, the anchor too
    m = LoneCabinet.open(config)
    m.notes.ticket_credited(number, 8400, "tx1") if m.notes.ticket_escrow(number, "tx1") else None
    assert credits(m) == 8400
    m.close()
    shutil.rmtree(folder)
    shutil.copytree(tmp_path / "copy", folder)
    m = LoneCabinet.open(config)
    try:
        return tilt(m)
    finally:
        m.close()


def test_without_a_second_medium_the_rollback_goes_unseen(tmp_path):
    """What a cabinet with everything in one folder cannot detect (the README says so)."""
    config = load_config(None, db_path=tmp_path / "var" / "uth.db")
    assert roll_back(config, tmp_path) == ""


def test_the_counter_on_another_medium_sees_the_rollback(tmp_path, other_medium):
    counter = other_medium / "counter"
    config = load_config(
        None, db_path=tmp_path / "var" / "uth.db", witness_counter=f"file:{counter}"
    )
    message = roll_back(config, tmp_path)
    assert "counter ahead of the ledger" in message and str(counter) in message


def test_cuts_inside_the_counter_steps_are_taken_back(tmp_path, other_medium):
    db = tmp_path / "uth.db"
    from engine.uth.paytable import PAYTABLE_DIR, load_paytable

    ledger = Ledger.create(
        db,
        paytable=load_paytable(PAYTABLE_DIR / "standard.toml"),
        key=CabinetKey.create(tmp_path / "k"),
    )
    path = other_medium / "counter"

    class CutBefore(FileCounter):
        def increment(self) -> None:
            raise LedgerError("power cut")

    class CutAfter(FileCounter):
        def increment(self) -> None:
            super().increment()
            raise LedgerError("power cut")

    witness_power_up(ledger, FileCounter(path))
    assert FileCounter(path).read() == 1
    with pytest.raises(LedgerError):
        witness_power_up(ledger, CutBefore(path))  # pending 2, the counter still 1
    witness_power_up(ledger, FileCounter(path))
    assert FileCounter(path).read() == 2
    with pytest.raises(LedgerError):
        witness_power_up(ledger, CutAfter(path))  # pending 3, the counter at 3
    witness_power_up(ledger, FileCounter(path))
    assert FileCounter(path).read() == 4
    states = [(e.detail["value"], e.detail["state"]) for e in ledger.events((EventKind.WITNESS,))]
    assert states[-2:] == [(4, "pending"), (4, "done")] and (3, "done") in states
    path.write_text("9\n")  # the counter moved without the ledger
    with pytest.raises(LedgerError, match="counter ahead of the ledger: it reads 9") as err:
        witness_power_up(ledger, FileCounter(path))
    assert "older copy put back" not in err.value.reason
    path.write_text("1\n")
    with pytest.raises(LedgerError, match="counter behind the ledger: .*not this ledger's"):
        witness_power_up(ledger, FileCounter(path))
    ledger.close()


FAKE_TPM = """#!{python}
import sys, pathlib
store = pathlib.Path({store!r})
value = int(store.read_text()) if store.exists() else 0
if sys.argv[0].endswith("tpm2_nvincrement"):
    store.write_text(str(value + 1))
else:
    sys.stdout.buffer.write(value.to_bytes(8, "big"))
"""


def test_the_tpm_counter_speaks_tpm2_tools(tmp_path, monkeypatch):
    """tpm2_nvread / tpm2_nvincrement stood in for by two programs over a file."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    import sys

    for name in ("tpm2_nvread", "tpm2_nvincrement"):
        tool = bin_dir / name
        tool.write_text(FAKE_TPM.format(python=sys.executable, store=str(tmp_path / "nv")))
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    tpm = TpmCounter("0x1500016")
    assert tpm.read() == 0
    tpm.increment()
    tpm.increment()
    assert tpm.read() == 2
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(LedgerError, match="tpm2_nvread failed"):
        tpm.read()


@pytest.mark.parametrize("spec", ["tpm:1500016", "file:relative/path", "usb", "tpm:0xZZ"])
def test_a_malformed_counter_is_refused_at_load(tmp_path, spec):
    path = tmp_path / "c.toml"
    path.write_text(f'witness_counter = "{spec}"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.field == "witness_counter"
