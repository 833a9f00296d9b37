"""Signed checkpoints bound the power-up check: power-up verifies the latest checkpoint
and the rows since; ``uth audit verify`` still walks every row.  Each protection is
played against a real ledger file with checkpoints a few rows apart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from test_ledger_integrity import play, tilt_of

import kiosk.ledger.ledger as ledger_module
from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.config import load_config
from kiosk.game.commands import Deal, PlaceChip
from kiosk.ledger.chain import chain_hash
from kiosk.ledger.checkpoint import last_checkpoint
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.schema import PROTECTIVE_TRIGGERS
from kiosk.ledger.verify import Verifier
from kiosk.wiring.lone_cabinet import LoneCabinet

TABLE = load_paytable(PAYTABLE_DIR / "standard.toml")
EVERY = 4
TICKET = "000000000000004242"


@pytest.fixture
def key(tmp_path: Path) -> CabinetKey:
    return CabinetKey.create(tmp_path / "cabinet.key")


def build(db: Path, key: CabinetKey, bills: int = 12) -> None:
    """A keyed ledger with checkpoints every ``EVERY`` rows: ``bills`` $100 bills, then a
    $100 ticket cashed out, printed and redeemed, then two more bills."""
    ledger = Ledger.create(db, paytable=TABLE, machine_number="0042", key=key)
    ledger.checkpoint_every = EVERY
    for i in range(bills):
        ledger.event(EventKind.BILL_IN, amount=10000, txn=f"b{i}")
    ledger.event(EventKind.CASHOUT, amount=10000, txn="c1")
    detail = {"validation": TICKET, "sequence": 1, "expires_on": "2030-01-01"}
    ledger.event(EventKind.TICKET_ISSUE, amount=10000, txn="c1", detail=detail)
    ledger.event(EventKind.TICKET_OUT, amount=10000, txn="c1", detail={"reference": TICKET})
    for i in range(bills, bills + 6):
        ledger.event(EventKind.BILL_IN, amount=10000, txn=f"b{i}")
    ledger.close()


def reopen(db: Path, key: CabinetKey) -> Ledger:
    return Ledger.open(db, readonly=True, key=key)


def tamper(db: Path, *sql: str) -> None:
    """Run ``sql`` on the file with every protective trigger dropped, then put them back."""
    conn = sqlite3.connect(db)
    for name in PROTECTIVE_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    for statement in sql:
        conn.execute(statement)
    for statement in PROTECTIVE_TRIGGERS.values():
        conn.execute(statement)
    conn.commit()
    conn.close()


def test_checkpoints_are_written_every_n_rows_and_signed(tmp_path, key):
    db = tmp_path / "uth.db"
    build(db, key)
    ledger = reopen(db, key)
    ids = [e.id for e in ledger.events() if e.kind == EventKind.CHECKPOINT]
    assert len(ids) >= 4 and all(b - a == EVERY + 1 for a, b in zip(ids, ids[1:], strict=False))
    cp = last_checkpoint(ledger.conn)
    assert cp is not None and cp.event_id == ids[-1]
    mac = ledger.conn.execute("SELECT mac FROM events WHERE id = ?", (cp.event_id,)).fetchone()[0]
    assert key.check(
        ledger.conn.execute("SELECT hash FROM events WHERE id = ?", (cp.event_id,)).fetchone()[0],
        mac,
    )
    full, quick = ledger.verify(), ledger.verify_power_up()
    assert full.ok and quick.ok and quick.authenticated, (full.problem, quick.problem)
    assert (quick.rounds, quick.events, quick.meters, quick.tickets) == (
        full.rounds,
        full.events,
        full.meters,
        full.tickets,
    )
    ledger.close()


def test_the_default_interval_is_ten_thousand_rows(tmp_path):
    ledger = Ledger.create(tmp_path / "uth.db", paytable=TABLE)
    assert ledger.checkpoint_every == ledger_module.CHECKPOINT_EVERY == 10_000
    ledger.close()


def test_power_up_walks_only_the_rows_since_the_checkpoint(tmp_path, key, monkeypatch):
    db = tmp_path / "uth.db"
    build(db, key)
    walked: list[tuple[str, int]] = []
    real = Verifier.walk_chain

    def spy(self, table, columns, first=1, prev="0" * 64):
        walked.append((table, first))
        return real(self, table, columns, first, prev)

    monkeypatch.setattr(Verifier, "walk_chain", spy)
    ledger = reopen(db, key)
    cp = last_checkpoint(ledger.conn)
    assert cp is not None and ledger.verify_power_up().ok
    assert ("events", cp.event_id) in walked and ("events", 1) not in walked
    walked.clear()
    assert ledger.verify().ok and ("events", 1) in walked
    ledger.close()


def test_a_row_edited_before_the_checkpoint_is_caught_by_the_full_walk(tmp_path, key):
    """Power-up trusts what the signed checkpoint covers; an edit there that leaves the
    chain after it alone is `uth audit verify`'s to find."""
    db = tmp_path / "uth.db"
    build(db, key)
    tamper(db, "UPDATE events SET at = '2020-01-01T00:00:00.000Z' WHERE id = 3")
    ledger = reopen(db, key)
    assert ledger.verify_power_up().ok
    assert ledger.verify().problem.startswith("events 3: hash does not match")
    ledger.close()


def test_rows_rechained_before_the_checkpoint_no_longer_link_to_it(tmp_path, key):
    """Even re-chained with valid MACs, the events before a checkpoint change its hash."""
    db = tmp_path / "uth.db"
    build(db, key)
    ledger = reopen(db, key)
    cp = last_checkpoint(ledger.conn)
    assert cp is not None
    rows = ledger.db.execute(
        "SELECT id, at, kind, amount, round_id, txn, detail FROM events WHERE id < ? ORDER BY id",
        (cp.event_id,),
    ).fetchall()
    ledger.close()
    prev, updates = "0" * 64, []
    for eid, at, kind, amount, round_id, txn, detail in rows:
        if eid == 3:
            at = "2020-01-01T00:00:00.000Z"
        row = dict(
            id=eid, at=at, kind=kind, amount=amount, round_id=round_id, txn=txn, detail=detail
        )
        prev = chain_hash(prev, row)
        updates.append(
            f"UPDATE events SET at = '{at}', hash = '{prev}', mac = '{key.mac(prev)}' WHERE id = {eid}"
        )
    tamper(db, *updates)
    ledger = reopen(db, key)
    assert ledger.verify_power_up().problem.startswith(f"events {cp.event_id}: hash does not match")
    assert not ledger.verify().ok
    ledger.close()


def test_a_tampered_checkpoint_is_caught_at_power_up(tmp_path, key):
    db = tmp_path / "uth.db"
    build(db, key)
    ledger = reopen(db, key)
    cp = last_checkpoint(ledger.conn)
    assert cp is not None
    ledger.close()
    tamper(
        db,
        "UPDATE events SET detail = json_set(detail, '$.totals.credits', 99999999) "
        f"WHERE id = {cp.event_id}",
    )
    ledger = reopen(db, key)
    assert ledger.verify_power_up().problem == (
        f"events {cp.event_id}: hash does not match the row (edited or reordered)"
    )
    assert not ledger.verify().ok
    ledger.close()


def test_a_deleted_checkpoint_is_caught_at_power_up(tmp_path, key):
    db = tmp_path / "uth.db"
    build(db, key)
    ledger = reopen(db, key)
    cp = last_checkpoint(ledger.conn)
    assert cp is not None
    ledger.close()
    tamper(db, f"DELETE FROM events WHERE id = {cp.event_id}")
    ledger = reopen(db, key)
    assert f"events {cp.event_id}: missing" in ledger.verify_power_up().problem
    assert f"events {cp.event_id}: missing" in ledger.verify().problem
    ledger.close()


def test_a_meter_edited_after_the_checkpoint_is_caught_at_power_up(tmp_path, key):
    db = tmp_path / "uth.db"
    build(db, key)
    tamper(db, "UPDATE meters SET value = value + 5000 WHERE name = 'credits'")
    ledger = reopen(db, key)
    assert ledger.verify_power_up().problem.startswith("meter credits: is ")
    ledger.close()


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE tickets SET expires_on = '2099-12-31'",  # touched before the checkpoint only
        "INSERT INTO tickets (validation, sequence, amount, status, issued_at) "
        "VALUES ('000000000000000001', 9, 1, 'issued', '2025-01-01T00:00:00.000Z')",
        "DELETE FROM tickets",
    ],
    ids=["expiry extended", "ticket row added", "ticket rows deleted"],
)
def test_the_tickets_table_is_bound_to_the_checkpoint(tmp_path, key, edit):
    db = tmp_path / "uth.db"
    build(db, key)
    ledger = reopen(db, key)
    cp = last_checkpoint(ledger.conn)
    assert cp is not None and ledger.ticket(TICKET).print_event < cp.event_id
    ledger.close()
    tamper(db, edit)
    ledger = reopen(db, key)
    problem = ledger.verify_power_up().problem
    assert problem.startswith("tickets") or problem.startswith("meter tickets_out"), problem
    assert not ledger.verify().ok
    ledger.close()


def test_a_ticket_redeemed_after_the_checkpoint_is_checked_against_its_events(tmp_path, key):
    db = tmp_path / "uth.db"
    build(db, key)
    ledger = Ledger.open(db, key=key)
    ledger.checkpoint_every = EVERY
    ledger.event(EventKind.TICKET_IN, amount=10000, txn="v1", detail={"validation": TICKET})
    ledger.close()
    ledger = reopen(db, key)
    cp = last_checkpoint(ledger.conn)
    redeemed = ledger.ticket(TICKET)
    assert cp is not None and redeemed.close_event > cp.event_id > redeemed.print_event
    assert ledger.verify_power_up().ok and ledger.verify_power_up().tickets == 1
    ledger.close()
    tamper(db, "UPDATE tickets SET status = 'issued', redeemed_at = NULL")
    ledger = reopen(db, key)
    assert ledger.verify_power_up().problem.startswith(f"tickets {TICKET}: status is 'issued'")
    ledger.close()


def test_a_cabinet_with_checkpoints_between_deal_and_settlement_powers_up(tmp_path, monkeypatch):
    """Checkpoints written while a round is open cover only the closed rounds; the
    cabinet comes up cleanly on them, mid-round too, and `uth audit verify` agrees."""
    monkeypatch.setattr(ledger_module, "CHECKPOINT_EVERY", 3)
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    play(config, rounds=6)
    m = LoneCabinet.open(config, rng=SeededRandomSource(9))
    assert m.table.ledger is not None, m.station.snapshot().tilts
    m.station.execute(PlaceChip("ante", 500))
    m.station.execute(Deal())
    m.table.ledger.close()  # a power cut mid-round
    ledger = Ledger.open(config.db_path, readonly=True, key=CabinetKey.load(config.key_path))
    cps = [e for e in ledger.events() if e.kind == EventKind.CHECKPOINT]
    assert any(cp.detail["rounds"] < (cp.round_id or 0) or cp.detail["rounds"] < 7 for cp in cps)
    assert len(ledger.open_rounds) == 1 and ledger.verify_power_up().ok
    assert ledger.verify(replay=True).ok
    ledger.close()
    assert tilt_of(config) == ""
