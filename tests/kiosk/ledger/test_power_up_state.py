"""The state power-up rebuilds (paytable and limits in force, tilts, door, payouts,
operators) comes only from rows it verified: each event read is authenticated by its
own hash and MAC, and the latest checkpoint records the count and digest of those
events before it.  The attacks use the project's own code and real SQLite files."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest
from test_ledger_integrity import audit_verify, play, tilt_of

import kiosk.ledger.ledger as ledger_module
from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR, parse_paytable
from kiosk.config import CabinetConfig, load_config
from kiosk.game.commands import SetDoor
from kiosk.game.rules.lockout import LOCK_EVENTS
from kiosk.ledger.chain import chain_hash
from kiosk.ledger.checkpoint import STATE_KINDS, last_checkpoint
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.schema import PROTECTIVE_TRIGGERS
from kiosk.service.escrows import RESOLUTIONS
from kiosk.wiring.lone_cabinet import LoneCabinet


@pytest.fixture
def config(tmp_path, monkeypatch) -> CabinetConfig:
    monkeypatch.setattr(ledger_module, "CHECKPOINT_EVERY", 3)  # checkpoints in a few rounds
    return load_config(db_path=tmp_path / "var" / "uth.db")


def tamper(config: CabinetConfig, *sql: tuple[str, tuple[object, ...]]) -> None:
    """Change rows as someone holding the database file (not the key) can: the
    protective triggers dropped, the statements run, the triggers put back."""
    conn = sqlite3.connect(config.db_path)
    for name in PROTECTIVE_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    for statement, params in sql:
        conn.execute(statement, params)
    for text in PROTECTIVE_TRIGGERS.values():
        conn.execute(text)
    conn.commit()
    conn.close()


def rogue_paytable() -> tuple[str, str]:
    """The standard table with the Blind straight at 100:1, still "Standard 1.0":
    (its text, its SHA-256)."""
    text = (PAYTABLE_DIR / "standard.toml").read_text(encoding="utf-8")
    blind_at = text.index("[blind]")
    at = text.index('straight = "1:1"', blind_at)
    text = text[:at] + 'straight = "100:1"' + text[at + len('straight = "1:1"') :]
    table = parse_paytable(text, "standard.toml")
    assert table.blind.straight.numerator == 100 and table.name.startswith("Standard")
    return text, hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(
    ("rehash", "said"),
    [(False, "events 1: hash does not match"), (True, "the events the cabinet's state")],
)
def test_a_rogue_paytable_behind_event_1_is_refused(config, capsys, rehash, said):
    """Event 1 edited to name the rogue table: with its stored hash kept, the row does
    not hash to it; with the hash recomputed (the MAC cannot be), the checkpoint's
    digest of the state events no longer matches."""
    play(config, rounds=4)
    conn = sqlite3.connect(config.db_path)
    assert last_checkpoint(conn) is not None  # power-up walks only the rows after it
    (detail,) = conn.execute("SELECT detail FROM events WHERE id = 1").fetchone()
    conn.close()
    text, sha = rogue_paytable()
    data = json.loads(detail)
    data["paytable"] = sha
    new_detail = json.dumps(data, sort_keys=True, separators=(",", ":"))
    row = dict(
        zip(
            ("id", "at", "kind", "amount", "round_id", "txn", "detail"),
            sqlite3.connect(config.db_path)
            .execute("SELECT id, at, kind, amount, round_id, txn, detail FROM events WHERE id = 1")
            .fetchone(),
            strict=True,
        )
    )
    row["detail"] = new_detail
    conn = sqlite3.connect(config.db_path)
    (row_hash,) = conn.execute("SELECT hash FROM events WHERE id = 1").fetchone()
    conn.close()
    tamper(
        config,
        (
            "INSERT INTO paytables (sha256, name, version, source, toml) VALUES (?, ?, ?, ?, ?)",
            (sha, "Standard", "1.0", "standard.toml", text),
        ),
        # the hash recomputed as anyone can; the MAC needs the key, which they lack
        (
            "UPDATE events SET detail = ?, hash = ? WHERE id = 1",
            (new_detail, chain_hash("0" * 64, row) if rehash else row_hash),
        ),
    )
    message = tilt_of(config)
    assert said in message, message
    code, out = audit_verify(capsys, config)
    assert code == 1


def test_a_state_event_removed_before_the_checkpoint_is_refused(config):
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    m.station.execute(SetDoor(True))
    m.station.execute(SetDoor(False))
    m.close()
    play(config, rounds=4)
    conn = sqlite3.connect(config.db_path)
    (closed,) = conn.execute("SELECT id FROM events WHERE kind = 'door_closed'").fetchone()
    cp = last_checkpoint(conn)
    conn.close()
    assert cp is not None and closed < cp.event_id - 1
    tamper(config, ("DELETE FROM events WHERE id = ?", (closed,)))
    message = tilt_of(config)
    assert "the events the cabinet's state is rebuilt from" in message, message


def test_the_machine_rebuilds_its_state_only_from_kinds_the_checkpoint_covers():
    used = {
        *LOCK_EVENTS,
        EventKind.COACH_CHANGED,
        EventKind.PAYTABLE_CHANGED,
        EventKind.LIMITS_CHANGED,
        EventKind.LEDGER_CREATED,
    }
    used |= {"tilt", "tilt_cleared", "ram_clear", "door_open", "door_closed", "cashout"}
    used |= {"handpay", "ticket_out", "cashout_failed", "cashout_handpay", "escrow_accepted"}
    used |= {"note_acceptance"}
    used |= {EventKind.PROGRESSIVE_WAGER}  # the open round's progressive wagers
    # credits (their meters are the checkpoint's own) and a rejection (its ticket's row)
    used |= set(RESOLUTIONS) - {"bill_in", "ticket_in", "system_ticket_in", "ticket_rejected"}
    assert used <= set(STATE_KINDS)
