"""Guessing another operator's PIN between one's own right logins: a wrong PIN counts
against every account, and only that account's own right PIN resets its count, so the
guesser's logins never reset the count of the accounts guessed at.  The controller is
driven by its typed commands over a real SQLite ledger, with a clock that advances one
second per guess (no waiting)."""

from __future__ import annotations

import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import OperatorLogin, OperatorLogout
from kiosk.game.errors import NotAuthorised
from kiosk.game.rules.lockout import LOCK_DURATION, MAX_FAILURES
from kiosk.ledger.kinds import EventKind
from kiosk.wiring.lone_cabinet import LoneCabinet

PEOPLE = (
    ("Ann Smith", "attendant", "246810"),
    ("Bob Jones", "technician", "135792"),
    ("Cy Young", "manager", "975310"),
    ("Dee Park", "attendant", "864209"),
)


def cabinet_file(tmp_path: Path) -> Path:
    """A cabinet's configuration file (not demo) with :data:`PEOPLE` as accounts."""
    text = f'db_path = "{tmp_path / "uth.db"}"\n'
    for name, role, pin in PEOPLE:
        text += f'\n[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    return path


class Clock:
    """The cabinet's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


ANN_PIN = PEOPLE[0][2]
OTHERS = {pin: name for name, _role, pin in PEOPLE[1:]}
GUESSES = 10_000
#: Where the other accounts' PINs sit in the guesser's list (1,218: the attack's figure).
PLANTED = {1218: PEOPLE[2][2], 4000: PEOPLE[1][2], 9000: PEOPLE[3][2], 9990: PEOPLE[2][2]}


def guesses() -> list[str]:
    """The guesser's list: 000000, 000001 ... with the planted PINs at their places."""
    out = [f"{i:06d}" for i in range(GUESSES)]
    for at, pin in PLANTED.items():
        out[at] = pin
    return out


def attack(m: LoneCabinet, clock: Clock, tried: list[str]) -> tuple[LoneCabinet, list[str]]:
    """An attendant tries ``tried`` four at a time, logging in with her own PIN after each
    four (which resets the PIN pad's count); restarts the cabinet halfway.  Returns the
    machine and the names of everyone logged in by a guess."""
    found: list[str] = []
    for i, pin in enumerate(tried):
        clock.now += timedelta(seconds=1)
        if i == len(tried) // 2:  # a power cycle halfway: the locks and counts stay
            config = m.config
            m.close()
            m = LoneCabinet.open(config, rng=SeededRandomSource(3), clock=clock)
        try:
            role = m.station.execute(OperatorLogin(pin))
            found.append(f"{OTHERS.get(pin, pin)} ({role})")
            m.station.execute(OperatorLogout())
        except NotAuthorised as exc:
            assert exc.code == "wrong_pin", exc.reason  # the pad itself never locks
        if i % (MAX_FAILURES - 1) == MAX_FAILURES - 2:
            assert m.station.execute(OperatorLogin(ANN_PIN)) == "attendant"
            m.station.execute(OperatorLogout())
    return m, found


@pytest.fixture
def memory_folder():
    """A folder on tmpfs when there is one (a real SQLite file whose commits do not wait
    for a disk: 15,000 of them here), else a temporary folder."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="uth-pins-", dir=base) as folder:
        yield Path(folder)


@pytest.mark.heavy
def test_ten_thousand_guesses_between_right_logins_find_no_pin(memory_folder):
    clock = Clock()
    config = load_config(cabinet_file(memory_folder))
    m = LoneCabinet.open(config, rng=SeededRandomSource(3), clock=clock)
    m, found = attack(m, clock, guesses())
    try:
        assert found == [], f"guesses logged in as {found}"
        locks = m.table.ledger.events((EventKind.OPERATOR_ACCOUNTS_LOCKED,))
        assert locks, "the guessed accounts were never locked"
        # 15, 30, 60, 120 minutes: the back-off leaves 5 checked guesses per lock
        cy = [e for e in locks if PEOPLE[2][0] in e.detail["accounts"]]
        assert 3 <= len(cy) <= 5
        assert PEOPLE[0][0] not in {n for e in locks for n in e.detail["accounts"]}
    finally:
        m.close()


def test_a_locked_accounts_right_pin_is_answered_as_a_wrong_one(tmp_path):
    clock = Clock()
    m = LoneCabinet.open(
        load_config(cabinet_file(tmp_path)), rng=SeededRandomSource(3), clock=clock
    )
    cy_pin = PEOPLE[2][2]
    for i in range(MAX_FAILURES):
        with pytest.raises(NotAuthorised):
            m.station.execute(OperatorLogin(f"00000{i}"))
        if i == 2:
            m.station.execute(OperatorLogin(ANN_PIN))  # her own login resets only her count
            m.station.execute(OperatorLogout())
    (lock,) = m.table.ledger.events((EventKind.OPERATOR_ACCOUNTS_LOCKED,))
    assert PEOPLE[2][0] in lock.detail["accounts"] and PEOPLE[0][0] not in lock.detail["accounts"]
    with pytest.raises(NotAuthorised) as locked:
        m.station.execute(OperatorLogin(cy_pin))
    with pytest.raises(NotAuthorised) as wrong:
        m.station.execute(OperatorLogin("424242"))
    assert (locked.value.code, locked.value.reason) == (wrong.value.code, wrong.value.reason)
    assert (
        m.station.execute(OperatorLogin(ANN_PIN)) == "attendant"
    )  # not locked: her count was reset
    m.station.execute(OperatorLogout())
    clock.now += LOCK_DURATION
    assert m.station.execute(OperatorLogin(cy_pin)) == "manager"
    m.close()


def test_the_second_lock_of_an_account_is_twice_as_long_and_survives_a_restart(tmp_path):
    clock = Clock()
    config = load_config(cabinet_file(tmp_path))
    m = LoneCabinet.open(config, rng=SeededRandomSource(3), clock=clock)
    cy_pin = PEOPLE[2][2]

    def five_wrong(machine: LoneCabinet) -> None:
        for i in range(MAX_FAILURES):
            with pytest.raises(NotAuthorised):
                machine.station.execute(OperatorLogin(f"99999{i}"))
            if i in (1, 3):
                machine.station.execute(OperatorLogin(ANN_PIN))
                machine.station.execute(OperatorLogout())

    five_wrong(m)
    clock.now += LOCK_DURATION
    five_wrong(m)
    m.close()
    m = LoneCabinet.open(config, rng=SeededRandomSource(3), clock=clock)
    clock.now += LOCK_DURATION * 2 - timedelta(seconds=1)
    with pytest.raises(NotAuthorised):
        m.station.execute(OperatorLogin(cy_pin))  # still locked: 30 minutes, across the restart
    clock.now += timedelta(seconds=1)
    with pytest.raises(NotAuthorised):  # that refusal counted; the lock itself has ended
        m.station.execute(OperatorLogin("123123"))
    assert m.station.execute(OperatorLogin(cy_pin)) == "manager"
    m.close()
