"""``uth autoplay`` on an installed cabinet: refused without ``--burn-in`` and a
technician's PIN; a burn-in session's credits go to the test-credits meter, never to
bills in, and the ledger still verifies and balances.  Demo ledgers take bills."""

from __future__ import annotations

from pathlib import Path

from kiosk.cli import main as uth
from kiosk.config import load_config
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.ledger import Ledger, balance
from kiosk.wiring.lone_cabinet import LoneCabinet

PEOPLE = (("Ann Smith", "attendant", "246810"), ("Bob Jones", "technician", "135792"))


def installed_cabinet(tmp_path: Path) -> Path:
    """A cabinet configuration (not demo) whose ledger is installed (marker written)."""
    text = f'db_path = "{tmp_path / "uth.db"}"\n'
    for name, role, pin in PEOPLE:
        text += f'\n[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    config = load_config(path)
    LoneCabinet.open(config).close()
    assert config.marker_path.exists()
    return path


def event_count(path: Path) -> int:
    config = load_config(path)
    ledger = Ledger.open(config.db_path, readonly=True)
    try:
        return len(ledger.events())
    finally:
        ledger.close()


def test_autoplay_refuses_an_installed_ledger(tmp_path, capsys):
    path = installed_cabinet(tmp_path)
    before = event_count(path)
    for extra in ([], ["--pin", "135792"], ["--burn-in"], ["--burn-in", "--pin", "246810"]):
        assert uth(["autoplay", "--config", str(path), "--rounds", "3", *extra]) == 2
        err = capsys.readouterr().err
        assert "installed" in err and ("--burn-in" in err or "technician" in err)
    assert event_count(path) == before  # the ledger was not even opened for writing


def test_burn_in_credits_are_test_credits_never_bills_in(tmp_path, capsys):
    path = installed_cabinet(tmp_path)
    argv = ["autoplay", "--config", str(path), "--rounds", "4", "--seed", "5"]
    assert uth([*argv, "--burn-in", "--pin", "135792"]) == 0
    assert "test credits" in capsys.readouterr().out
    config = load_config(path)
    ledger = Ledger.open(config.db_path, readonly=True, key=CabinetKey.load(config.key_path))
    try:
        report = ledger.verify(replay=True)
        assert report.ok, report.problem
        meters = report.meters
        assert meters["bills_in"] == 0 and meters["bills_in_count"] == 0
        assert meters["test_credits_in"] > 0 and meters["test_credits_in_count"] > 0
        assert meters["games_played"] == 4
        bal = balance(meters)
        assert bal["balanced"] and bal["credits_in"] == meters["test_credits_in"]
        keyed = ledger.events(("test_credits_in",))
        assert keyed and all(e.detail["operator"] == "Bob Jones" for e in keyed)
        assert not ledger.events(("bill_in",))
    finally:
        ledger.close()


def test_a_demo_ledger_still_takes_bills(tmp_path, capsys):
    db = tmp_path / "demo.db"
    assert uth(["autoplay", "--db", str(db), "--rounds", "2", "--seed", "5"]) == 0
    config = load_config(None, db_path=db)
    cab = LoneCabinet.open(config)
    try:
        meters = cab.table.read(lambda a: a.meters())
        assert meters is not None
        assert meters["bills_in"] > 0 and meters.get("test_credits_in", 0) == 0
    finally:
        cab.close()
