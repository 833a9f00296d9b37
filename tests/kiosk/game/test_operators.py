"""Operators: accounts and PINs, the PIN pad's lock, the door rules, the countersigned
RAM clear.  The controller is driven by its typed commands."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support.cabinet import credits

from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR
from kiosk.config import ConfigError, load_config
from kiosk.game.commands import (
    ClearTilt,
    InsertCredits,
    OperatorLogin,
    OperatorLogout,
    RamClear,
    RamClearRequest,
    RamClearWitness,
    SetDoor,
    SetLimits,
    SetPaytable,
)
from kiosk.game.errors import NotAuthorised
from kiosk.game.rules import settings
from kiosk.game.rules.lockout import MAX_FAILURES
from kiosk.game.rules.operators import LOCKOUT_TILT, OPERATORS_TILT
from kiosk.game.vocabulary import SEAT
from kiosk.pins import hash_pin
from kiosk.wiring.lone_cabinet import LoneCabinet

ROOT = Path(__file__).resolve().parents[3]
OTHER_TABLE = PAYTABLE_DIR / "trips-50-40-30-9-7-4-3.toml"
PEOPLE = (("Ann Smith", "attendant", "246810"), ("Bob Jones", "technician", "135792"),
          ("Cy Young", "manager", "975310"), ("Dee Park", "attendant", "864209"))


def cabinet_file(tmp_path: Path, people=PEOPLE, extra: str = "") -> Path:
    """A cabinet's configuration file (not demo) with ``people`` as plain-digit accounts."""
    text = f'db_path = "{tmp_path / "uth.db"}"\n{extra}'
    for name, role, pin in people:
        text += f'\n[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    return path


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def cabinet(tmp_path, clock):
    m = LoneCabinet.open(load_config(cabinet_file(tmp_path)), rng=SeededRandomSource(3), clock=clock)
    yield m
    m.close()


def refused(machine: LoneCabinet, command, code: str) -> NotAuthorised:
    with pytest.raises(NotAuthorised) as err:
        machine.station.execute(command)
    assert err.value.code == code, err.value.reason
    return err.value


def proven(monkeypatch) -> None:
    monkeypatch.setattr(settings, "cached_rtp", lambda table: {"main_total": 0.9947, "trips": 0.965})
    monkeypatch.setattr(settings, "proof_of", lambda table, key: {"main_total": 0.9947, "trips": 0.965})


# -- PINs ---------------------------------------------------------------------------------
def test_a_cabinet_file_without_accounts_has_no_default_pins(tmp_path):
    path = cabinet_file(tmp_path, people=())
    config = load_config(path)
    assert not config.demo and config.accounts == () and config.operator_pins == {}
    m = LoneCabinet.open(config)
    assert config.marker_path.exists()  # an installed cabinet
    s = m.station.snapshot()
    assert [t.code for t in s.tilts] == [OPERATORS_TILT] and not s.playable
    assert "[[operators]]" in s.tilts[0].message
    for pin in ("1111", "2222", "3333"):
        refused(m, OperatorLogin(pin), "login_disabled")
    m.close()
    # accounts configured: the tilt is cleared at the next power-up (recorded)
    m = LoneCabinet.open(load_config(cabinet_file(tmp_path)))
    assert m.station.snapshot().tilts == () and m.station.snapshot().playable
    ev = m.table.ledger.last_event("tilt_cleared")
    assert ev.detail["code"] == OPERATORS_TILT
    m.close()


def test_demo_mode_keeps_the_demo_pins(tmp_path):
    config = load_config(None, db_path=tmp_path / "uth.db")
    assert config.demo and config.operator_pins == {
        "attendant": "1111", "technician": "2222", "manager": "3333",
    }
    m = LoneCabinet.open(config)
    assert m.station.execute(OperatorLogin("3333")) == "manager"
    assert m.station.snapshot().tilts == ()
    m.close()
    demo_file = cabinet_file(tmp_path, people=(("Ann", "attendant", "1111"),), extra="demo = true\n")
    assert load_config(demo_file).accounts[0].name == "Ann"


@pytest.mark.parametrize(
    ("people", "field", "reason"),
    [
        ((("Ann", "attendant", "24681"),), "operators.0.pin", "shorter than 6 digits"),
        ((("Ann", "attendant", "777777"),), "operators.0.pin", "all the same digit"),
        ((("Ann", "attendant", "1111"),), "operators.0.pin", "shorter than 6 digits"),  # demo PIN
        ((("Ann", "attendant", "246810"), ("Bob", "manager", "246810")), "operators.1.pin",
         "the same PIN as operators.0"),
        ((("Ann", "attendant", "246810"), ("ann", "manager", "135792")), "operators.1.name",
         "also operators.0"),
        ((("Ann", "owner", "246810"),), "operators.0.role", "'attendant', 'technician' or 'manager'"),
        ((("Ann", "attendant", "24681a"),), "operators.0.pin", "digits"),
        ((("Ann", "attendant", "sha256:" + "0" * 64),), "operators.0.pin", "unsalted"),
        ((("Ann", "attendant", "pbkdf2_sha256$10$00$00"),), "operators.0.pin", "iterations"),
        ((("A\u202eB", "attendant", "246810"),), "operators.0.name", "U+202E"),
        ((("x" * 65, "attendant", "246810"),), "operators.0.name", "at most 64"),
    ],
)
def test_weak_or_shared_pins_and_bad_accounts_are_refused_at_load(tmp_path, people, field, reason):
    path = cabinet_file(tmp_path, people=people)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    e = err.value
    assert (e.file, e.field) == (str(path), field) and reason in e.reason, str(e)
    assert str(e).startswith(f"{path}: {field}: ")
    for _name, _role, pin in people:
        if len(pin) >= 4 and pin.isdigit():
            assert pin not in str(e)  # a refusal never shows a PIN


def test_hashed_pins_are_salted_and_made_only_from_good_pins(tmp_path):
    one, two = hash_pin("246810"), hash_pin("246810")
    assert one != two and one.startswith("pbkdf2_sha256$")  # a salt per PIN
    for weak in ("12345", "000000", "12a456"):
        with pytest.raises(ValueError):
            hash_pin(weak)
    people = (("Ann Smith", "attendant", one), ("Cy Young", "manager", hash_pin("975310")))
    m = LoneCabinet.open(load_config(cabinet_file(tmp_path, people=people)))
    assert m.station.execute(OperatorLogin("975310")) == "manager"
    assert m.table.ledger.last_event("operator_login").detail == {"operator": "Cy Young", "role": "manager"}
    refused(m, OperatorLogin("246811"), "wrong_pin")
    assert m.station.execute(OperatorLogin("246810")) == "attendant"
    m.close()


def test_the_pin_tool_writes_accounts_a_configuration_loads(tmp_path):
    lines = "Ann Smith attendant 246810\nBob technician 135792\nCy manager 975310\n"
    out = subprocess.run([sys.executable, "-m", "kiosk.pins"], input=lines, capture_output=True,
                         text=True, check=True).stdout
    assert "246810" not in out and out.count("[[operators]]") == 3
    path = tmp_path / "cabinet.toml"
    path.write_text(f'db_path = "{tmp_path / "uth.db"}"\n{out}')
    config = load_config(path)
    assert [(a.name, a.role) for a in config.accounts] == [
        ("Ann Smith", "attendant"), ("Bob", "technician"), ("Cy", "manager"),
    ]
    assert [a.name for a in config.accounts_for_pin("135792")] == ["Bob"]
    bad = subprocess.run([sys.executable, "-m", "kiosk.pins"], input="Ann attendant 111111\n",
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "all the same digit" in bad.stderr and "Traceback" not in bad.stderr
    same = subprocess.run([sys.executable, "-m", "kiosk.pins"],
                          input="Ann attendant 246810\nBob manager 246810\n",
                          capture_output=True, text=True)
    assert same.returncode == 2 and "same PIN" in same.stderr


# -- per-person accounts and the PIN pad's lock ----------------------------------------------
def test_logins_actions_and_failures_record_the_person(cabinet, monkeypatch):
    m = cabinet
    refused(m, OperatorLogin("999999"), "wrong_pin")
    failed = m.table.ledger.last_event("operator_login_failed")
    assert failed.detail["failures"] == 1 and failed.detail["purpose"] == "login"
    m.table.tilt(SEAT, "reel", "hopper empty")
    assert m.station.execute(OperatorLogin("246810")) == "attendant"
    assert m.station.snapshot().operator == "attendant"
    assert m.table.ledger.last_event("operator_login").detail == {"operator": "Ann Smith", "role": "attendant"}
    m.station.execute(ClearTilt("reel"))
    cleared = m.table.ledger.last_event("tilt_cleared").detail
    assert (cleared["operator"], cleared["role"]) == ("Ann Smith", "attendant")
    m.station.execute(OperatorLogout())
    assert m.table.ledger.last_event("operator_logout").detail == {"operator": "Ann Smith", "role": "attendant"}
    proven(monkeypatch)
    m.station.execute(SetDoor(True))
    m.station.execute(OperatorLogin("135792"))
    m.station.execute(SetPaytable(str(OTHER_TABLE)))
    assert m.table.ledger.last_event("paytable_changed").detail["operator"] == "Bob Jones"


def test_five_wrong_pins_lock_the_pin_pad_for_fifteen_minutes(cabinet, clock, tmp_path):
    m = cabinet
    for _ in range(MAX_FAILURES - 1):
        refused(m, OperatorLogin("000001"), "wrong_pin")
    assert m.station.snapshot().tilts == ()
    refused(m, OperatorLogin("000002"), "wrong_pin")
    lock = m.table.ledger.last_event("operator_lockout")
    assert lock is not None and lock.detail["failures"] == MAX_FAILURES
    assert [t.code for t in m.station.snapshot().tilts] == [LOCKOUT_TILT] and not m.station.snapshot().playable
    err = refused(m, OperatorLogin("246810"), "pin_locked")  # even the right PIN
    assert "12:15 UTC" in err.reason
    fails = len(m.table.ledger.events(("operator_login_failed",)))
    clock.now += timedelta(minutes=14)
    refused(m, OperatorLogin("246810"), "pin_locked")
    assert len(m.table.ledger.events(("operator_login_failed",))) == fails  # a locked pad counts nothing
    # a power cycle neither lifts the lock nor the tilt
    config = m.config
    m.close()
    m2 = LoneCabinet.open(config, clock=clock)
    assert [t.code for t in m2.station.snapshot().tilts] == [LOCKOUT_TILT]
    refused(m2, OperatorLogin("246810"), "pin_locked")
    clock.now += timedelta(minutes=1)
    assert m2.station.execute(OperatorLogin("246810")) == "attendant"
    m2.station.execute(ClearTilt(LOCKOUT_TILT))
    assert m2.station.snapshot().playable
    m2.close()


def test_the_count_of_wrong_pins_survives_a_power_cycle_and_a_right_pin_resets_it(cabinet, clock):
    m = cabinet
    for _ in range(MAX_FAILURES - 1):
        refused(m, OperatorLogin("000001"), "wrong_pin")
    config = m.config
    m.close()
    m2 = LoneCabinet.open(config, clock=clock)
    refused(m2, OperatorLogin("000001"), "wrong_pin")  # the fifth in a row
    assert LOCKOUT_TILT in {t.code for t in m2.station.snapshot().tilts}
    clock.now += timedelta(minutes=15)
    m2.station.execute(OperatorLogin("246810"))
    for _ in range(MAX_FAILURES - 1):
        refused(m2, OperatorLogin("000001"), "wrong_pin")
    m2.station.execute(OperatorLogin("246810"))
    refused(m2, OperatorLogin("000001"), "wrong_pin")
    assert len(m2.table.ledger.events(("operator_lockout",))) == 1
    m2.close()


# -- the door rules and the countersigned RAM clear ------------------------------------------
def test_paytable_and_limit_changes_need_the_door_open(cabinet, monkeypatch):
    m = cabinet
    proven(monkeypatch)
    m.station.execute(OperatorLogin("135792"))
    err = refused(m, SetPaytable(str(OTHER_TABLE)), "door_closed")
    assert "main door" in err.reason
    refused(m, SetLimits(ante_min=1000), "door_closed")
    assert m.table.ledger.last_event("paytable_changed", "limits_changed") is None
    m.station.execute(OperatorLogin("246810"))  # an attendant: the role is refused first
    with pytest.raises(NotAuthorised, match="technician"):
        m.station.execute(SetPaytable(str(OTHER_TABLE)))
    m.station.execute(SetDoor(True))
    m.station.execute(OperatorLogin("135792"))
    m.station.execute(SetLimits(ante_min=1000))
    assert m.station.snapshot().limits.ante_min == 1000
    m.station.execute(SetPaytable(str(OTHER_TABLE)))
    assert m.station.snapshot().paytable.name != "Standard"


def test_a_ram_clear_needs_the_door_open_and_a_second_persons_pin(cabinet):
    m = cabinet
    m.station.execute(InsertCredits(5000))
    m.station.execute(OperatorLogin("975310"))  # the manager
    refused(m, RamClearWitness("246810"), "door_closed")
    refused(m, RamClearRequest(), "door_closed")
    m.station.execute(SetDoor(True))
    refused(m, RamClearRequest(), "witness_required")
    refused(m, RamClearWitness("975310"), "same_operator")  # the manager's own PIN
    refused(m, RamClearWitness("111112"), "wrong_pin")
    assert m.table.ledger.last_event("operator_login_failed").detail["purpose"] == "ram_clear_witness"
    assert m.table.ledger.last_event("operator_login_failed").detail["operator"] == "Cy Young"
    assert m.station.execute(RamClearWitness("864209")) == "Dee Park"
    code = m.station.execute(RamClearRequest())
    m.station.execute(SetDoor(False))  # closing the door withdraws the RAM clear
    m.station.execute(SetDoor(True))
    with pytest.raises(Exception) as err:
        m.station.execute(RamClear(str(code)))
    assert getattr(err.value, "code", "") == "ram_clear_not_requested"
    m.station.execute(RamClearWitness("246810"))
    code = m.station.execute(RamClearRequest())
    m.station.execute(RamClear(str(code)))
    ev = m.table.ledger.last_event("ram_clear")
    assert (ev.detail["operator"], ev.detail["role"]) == ("Cy Young", "manager")
    assert (ev.detail["witness"], ev.detail["witness_role"]) == ("Ann Smith", "attendant")
    assert credits(m) == 0
    # the countersignature is used up by the clear
    refused(m, RamClearRequest(), "witness_required")


def test_a_second_pin_is_only_taken_for_a_logged_in_manager(cabinet):
    m = cabinet
    m.station.execute(SetDoor(True))
    refused(m, RamClearWitness("246810"), "operator_required")
    m.station.execute(OperatorLogin("135792"))
    refused(m, RamClearWitness("246810"), "role_required")
