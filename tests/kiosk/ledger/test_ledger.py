"""The SQLite ledger: creation, chains, meters, triggers, tamper detection, markers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cabinet import insert_note

from engine.rng import SeededRandomSource, deck_commitment, shuffled_deck
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.game.commands import Deal, Decide, PlaceChip
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import (
    GENESIS,
    METERS,
    MIGRATIONS,
    SCHEMA_VERSION,
    Ledger,
    LedgerCorruptError,
    LedgerError,
    LedgerExistsError,
    LedgerMissingError,
    balance,
    canonical,
    chain_hash,
    event_effects,
    read_marker,
)
from kiosk.ledger.schema import PROTECTIVE_TRIGGERS
from kiosk.ledger.startup import open_or_create
from kiosk.wiring.lone_cabinet import LoneCabinet

TABLE = load_paytable(PAYTABLE_DIR / "standard.toml")


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    return tmp_path / "var" / "uth.db", tmp_path / "var" / "uth.db.install"


def new_ledger(paths: tuple[Path, Path]) -> Ledger:
    db, marker = paths
    return Ledger.create(db, paytable=TABLE, machine_number="0042", marker=marker)


def open_round(
    ledger: Ledger, ante: int = 500, trips: int = 100, seed: int = 1
) -> tuple[int, list[int]]:
    deck = shuffled_deck(SeededRandomSource(seed))
    credits = ledger.meters["credits"]
    [rid] = ledger.begin_rounds(
        [
            {
                "started_at": "2025-01-01T00:00:00.000Z",
                "seat": 1,
                "paytable": "Standard 1.0",
                "paytable_sha256": TABLE.sha256,
                "ante": ante,
                "blind": ante,
                "trips": trips,
                "play": 0,
                "decisions": "[]",
                "player_hole": "",
                "credits_before": credits,
                "credits_after": credits - 2 * ante - trips,
            }
        ],
        deck,
        b"salt",
    )
    return rid, deck


def test_create_writes_schema_marker_and_genesis_event(paths):
    ledger = new_ledger(paths)
    assert paths[0].exists() and not paths[0].with_name("uth.db.new").exists()
    assert read_marker(paths[1])["ledger_id"] == ledger.ledger_id
    assert ledger.meta["schema_version"] == str(SCHEMA_VERSION) == str(len(MIGRATIONS))
    assert ledger.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ledger.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    first = ledger.events()[0]
    assert first.kind == "ledger_created" and first.detail["paytable"] == TABLE.sha256
    assert first.hash == chain_hash(GENESIS, ledger.db["events"].get(1))
    assert set(METERS) <= set(ledger.meters) and not any(ledger.meters.values())
    assert ledger.paytable(TABLE.sha256) == TABLE
    assert ledger.verify().ok
    with pytest.raises(LedgerExistsError):
        new_ledger(paths)


def test_first_run_versus_deleted_ledger(paths):
    db, marker = paths
    ledger, created = open_or_create(db, marker, paytable=lambda: TABLE)
    assert created
    ledger.close()
    ledger, created = open_or_create(db, marker, paytable=lambda: TABLE)
    assert not created
    ledger.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    with pytest.raises(LedgerMissingError, match="missing but this cabinet was installed"):
        open_or_create(db, marker, paytable=lambda: TABLE)
    assert not db.exists()  # never recreated silently


def test_a_different_ledger_at_the_path_is_refused(paths, tmp_path):
    new_ledger(paths).close()
    other = tmp_path / "other.db"
    Ledger.create(other, paytable=TABLE).close()
    paths[0].unlink()
    other.rename(paths[0])
    with pytest.raises(LedgerCorruptError, match="not the one installed"):
        Ledger.open(paths[0], marker=paths[1])


def test_events_chain_and_apply_meter_effects(paths):
    ledger = new_ledger(paths)
    ledger.event(EventKind.BILL_IN, amount=2000, txn="t1")
    ledger.event(EventKind.BILL_IN, amount=500, txn="t2")
    ledger.event(EventKind.CASHOUT, amount=2500, txn="c1", detail={"method": "handpay"})
    ledger.event(EventKind.HANDPAY, amount=2500, txn="c1")
    m = ledger.meters
    assert (m["bills_in"], m["bills_in_count"], m["bill.2000"], m["bill.500"]) == (2500, 2, 1, 1)
    assert (m["credits"], m["handpay"], m["handpay_count"]) == (0, 2500, 1)
    assert ledger.has_txn("t1", "bill_in") and not ledger.has_txn("t1", "ticket_in")
    with pytest.raises(sqlite3.IntegrityError):
        ledger.event(EventKind.BILL_IN, amount=2000, txn="t1")  # a transaction credits once
    assert ledger.meters["bills_in"] == 2500  # the failed write left no trace in memory either
    report = ledger.verify()
    assert report.ok, report.problem
    assert balance(report.meters)["balanced"]
    assert event_effects("cashout", 7) == {"cashout_started": 7, "credits": -7}


def test_round_lifecycle_publishes_the_deck_only_when_closed(paths):
    ledger = new_ledger(paths)
    ledger.event(EventKind.BILL_IN, amount=10000)
    rid, deck = open_round(ledger)
    rec = ledger.recall(1)[0]
    assert rec.state == "open" and rec.deck == () and rec.salt == ""
    assert rec.commitment == deck_commitment(deck, b"salt")
    assert ledger.meters["coin_in"] == 1100 and ledger.meters["credits"] == 8900
    assert ledger.verify().ok
    ledger.update_rounds(
        {
            ledger.open_rounds[0]["id"]: {
                "play": 500,
                "credits_after": 8400,
                "decisions": '[["preflop","check",0,"t"],["flop","check",0,"t"],["river","play_1x",500,"t"]]',
            }
        }
    )
    ledger.update_rounds(
        {
            ledger.open_rounds[0]["id"]: {
                "state": "settled",
                "settled_at": "t",
                "ante_return": 1000,
                "blind_return": 500,
                "play_return": 1000,
                "trips_return": 0,
                "breakage": 0,
                "breakage_unit": 2,
                "paid": 2500,
                "jackpot": 0,
                "credits_after": 10900,
            }
        }
    )
    rec = ledger.recall(1)[0]
    assert rec.deck == tuple(deck) and rec.commitment_ok() and rec.net == 900
    assert ledger.conn.execute("SELECT COUNT(*) FROM recovery").fetchone()[0] == 0
    m = ledger.meters
    assert (m["coin_in"], m["coin_out"], m["games_played"], m["games_won"], m["credits"]) == (
        1600,
        2500,
        1,
        1,
        10900,
    )
    report = ledger.verify()
    assert report.ok, report.problem


def test_rollback_restores_memory_and_disk(paths):
    ledger = new_ledger(paths)
    before = (dict(ledger.meters), ledger.counts())
    with pytest.raises(RuntimeError), ledger.transaction():
        ledger.event(EventKind.BILL_IN, amount=100)
        raise RuntimeError("power dip")
    assert (dict(ledger.meters), ledger.counts()) == before
    assert ledger.verify().ok


def test_triggers_refuse_rewriting_history(paths):
    ledger = new_ledger(paths)
    ledger.event(EventKind.BILL_IN, amount=1000)
    c = ledger.conn
    for sql in (
        "UPDATE meters SET value = 0 WHERE name = 'bills_in'",
        "DELETE FROM meters WHERE name = 'coin_in'",
        "UPDATE events SET amount = 1 WHERE id = 2",
        "DELETE FROM events WHERE id = 2",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            c.execute(sql)
    c.execute("UPDATE meters SET value = 0 WHERE name = 'credits'")  # the credit meter may go down


def _tamper(db: Path, *sql: str) -> None:
    conn = sqlite3.connect(db)
    for s in sql:
        conn.execute(s)
    conn.commit()
    conn.close()


def _played(paths) -> Path:
    ledger = new_ledger(paths)
    ledger.event(EventKind.BILL_IN, amount=10000)
    open_round(ledger)
    ledger.update_rounds(
        {
            ledger.open_rounds[0]["id"]: {
                "state": "settled",
                "settled_at": "t",
                "ante_return": 0,
                "blind_return": 0,
                "play_return": 0,
                "trips_return": 0,
                "breakage": 0,
                "breakage_unit": 2,
                "paid": 0,
                "jackpot": 0,
            }
        }
    )
    open_round(ledger, seed=2)
    ledger.close()
    return paths[0]


@pytest.mark.parametrize(
    ("sql", "where"),
    [
        (
            ("DROP TRIGGER rounds_frozen", "UPDATE rounds SET trips_return = 900 WHERE id = 1"),
            "rounds 1: hash",
        ),
        (
            ("DROP TRIGGER events_frozen", "UPDATE events SET amount = 20000 WHERE id = 2"),
            "events 2: hash",
        ),
        (
            (
                "DROP TRIGGER meters_never_decrease",
                "UPDATE meters SET value = 100 WHERE name = 'coin_in'",
            ),
            "meter coin_in: is 100, the rows add up to 2200",
        ),
        (("UPDATE meters SET value = 5 WHERE name = 'credits'",), "meter credits"),
        (
            ("DROP TRIGGER rounds_no_delete", "DELETE FROM rounds WHERE id = 2"),
            "recovery 2: deck kept",
        ),
        (
            (
                "DROP TRIGGER rounds_no_delete",
                "DELETE FROM rounds WHERE id = 2",
                "DELETE FROM recovery",
            ),
            "meter coin_in: is 2200, the rows add up to 1100",
        ),
        (("DROP TRIGGER events_no_delete", "DELETE FROM events WHERE id = 1"), "events 1: missing"),
        (("UPDATE recovery SET deck = 'AcKc'",), "recovery"),
        (("UPDATE paytables SET toml = toml || ' '",), "paytables"),
    ],
)
def test_verify_names_the_first_tampered_row_or_meter(paths, sql, where):
    db = _played(paths)
    assert Ledger.open(db).verify().ok
    _tamper(db, *sql)
    report = Ledger.open(db, readonly=True).verify()
    assert not report.ok
    assert where in report.problem


def test_truncated_file_is_reported_not_repaired(paths):
    db = _played(paths)
    ledger = Ledger.open(db)
    with ledger.transaction():
        for i in range(300):  # enough pages for the truncation to bite
            ledger.event(
                EventKind.DOOR_OPEN if i % 2 else EventKind.DOOR_CLOSED, detail={"pad": "x" * 200}
            )
    ledger.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    ledger.close()
    size = db.stat().st_size
    with open(db, "r+b") as fh:
        fh.truncate(size // 2)
    try:
        report = Ledger.open(db).verify()
    except LedgerError as exc:  # refused at open: just as good
        assert "malformed" in str(exc) or "SQLite" in str(exc) or "database" in str(exc)
    else:
        assert not report.ok and ("SQLite" in report.problem or "integrity" in report.problem)
    assert db.stat().st_size == size // 2


def test_garbage_file_is_not_a_ledger(tmp_path):
    db = tmp_path / "uth.db"
    db.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LedgerCorruptError):
        Ledger.open(db)


def test_newer_schema_is_refused(paths):
    new_ledger(paths).close()
    _tamper(
        paths[0], f"UPDATE meta SET value = '{SCHEMA_VERSION + 1}' WHERE key = 'schema_version'"
    )
    with pytest.raises(LedgerError, match="update the software"):
        Ledger.open(paths[0])


def test_replay_verification_re_settles_rounds(paths):
    from kiosk.config import load_config

    config = load_config(db_path=paths[0])
    m = LoneCabinet.open(config, rng=SeededRandomSource(5))
    insert_note(m, 10000)
    m.station.execute(PlaceChip("ante", 500))
    m.station.execute(Deal())
    while m.station.snapshot().legal:
        m.station.execute(Decide(m.station.snapshot().legal[-1]))
    m.close()
    assert Ledger.open(paths[0]).verify(replay=True).ok
    # a forged payout with a consistent hash chain is still caught by the replay
    conn = sqlite3.connect(paths[0])
    conn.execute("DROP TRIGGER rounds_frozen")
    row = dict(
        zip(
            [d[0] for d in conn.execute("SELECT * FROM rounds").description],
            conn.execute("SELECT * FROM rounds").fetchone(),
            strict=True,
        )
    )
    row["ante_return"] += 1000
    row["paid"] += 1000
    row["credits_after"] += 1000
    row["hash"] = chain_hash(GENESIS, row)
    conn.execute(
        "UPDATE rounds SET ante_return = ?, paid = ?, credits_after = ?, hash = ? WHERE id = 1",
        (row["ante_return"], row["paid"], row["credits_after"], row["hash"]),
    )
    conn.commit()
    conn.close()
    ledger = Ledger.open(paths[0], readonly=True)
    assert ledger.verify().problem.startswith("meter ")  # the meters no longer add up
    assert "rounds 1: replay settles differently" in ledger.verify(replay=True).problem


def test_a_lost_marker_is_rewritten_and_recorded(paths):
    new_ledger(paths).close()
    paths[1].unlink()
    ledger = Ledger.open(paths[0], marker=paths[1])
    assert read_marker(paths[1])["ledger_id"] == ledger.ledger_id
    assert ledger.last_event().kind == "install_marker_written"


def test_a_creation_cut_short_leaves_no_ledger_behind(paths):
    db, marker = paths
    db.parent.mkdir(parents=True)
    db.with_name("uth.db.new").write_bytes(b"half-made")  # power cut while creating
    ledger, created = open_or_create(db, marker, paytable=lambda: TABLE)
    assert created and ledger.verify().ok and not db.with_name("uth.db.new").exists()


@given(
    st.dictionaries(
        st.sampled_from(["a", "b", "detail", "kind", "z"]),
        st.one_of(
            st.none(),
            st.integers(-(2**62), 2**62),
            st.text(st.characters(exclude_categories=["Cs"])),
        ),
    )
)
@settings(max_examples=200, deadline=None)
def test_python_and_sqlite_render_the_same_canonical_json(row):
    """Rows are hashed in Python when written and re-hashed from SQLite's json_object."""
    conn = sqlite3.connect(":memory:")
    keys = sorted(row)
    args = ", ".join(f"'{k}', ?" for k in keys)
    (sql_text,) = conn.execute(f"SELECT json_object({args})", [row[k] for k in keys]).fetchone()
    assert canonical(row) == sql_text


def test_events_by_validation_reads_only_that_tickets_rows_and_still_authenticates_them(paths):
    db, marker = paths
    key = CabinetKey.create(db.with_name("uth.key"))
    ledger = Ledger.create(db, paytable=TABLE, machine_number="0042", marker=marker, key=key)
    for n in range(5):
        ledger.event(EventKind.TILT, detail={"validation": f"00000000000000000{n}"})
    ledger.event(EventKind.TILT, detail={"reason": "door", "validation": "123"})
    found = ledger.events((EventKind.TILT,), validation="000000000000000003")
    assert [e.detail["validation"] for e in found] == ["000000000000000003"]
    assert ledger.events((EventKind.TILT,), validation="999") == []
    # a matching row edited behind the ledger's back (its triggers dropped) is refused
    conn = sqlite3.connect(paths[0])
    for name in PROTECTIVE_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute(
        "UPDATE events SET detail = json_set(detail, '$.reason', 'x') "
        "WHERE json_extract(detail, '$.validation') = '123'"
    )
    conn.commit()
    conn.close()
    with pytest.raises(LedgerCorruptError):
        ledger.events((EventKind.TILT,), validation="123")
