"""Stations in the ledger: a station on every event, per-station and table meters, a
ledger written before stations read as station 1, their verification and triggers, and
``uth audit ... --station N``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine.rng import SeededRandomSource, shuffled_deck
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from kiosk.cli import main as uth
from kiosk.ledger.chain import GENESIS, chain_hash
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import CREDITS, balance
from kiosk.ledger.schema import PROTECTIVE_TRIGGERS

TABLE = load_paytable(PAYTABLE_DIR / "standard.toml")
KEY = CabinetKey(b"k" * 32)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "uth.db"


def new_ledger(db: Path) -> Ledger:
    return Ledger.create(db, paytable=TABLE, machine_number="0042", key=KEY)


def bill(ledger: Ledger, cents: int, station: int, n: int) -> None:
    ledger.event(EventKind.BILL_IN, amount=cents, txn=f"bill-{station}-{n}", station=station)


def seat_round(ledger: Ledger, seat: int, ante: int, seed: int = 1) -> int:
    """An open round of ``seat`` (its station), then settled as a loss of every stake."""
    credits = ledger.station_meters.get(seat, {}).get(CREDITS, 0)
    [rid] = ledger.begin_rounds(
        [
            {
                "started_at": "2025-01-01T00:00:00.000Z",
                "seat": seat,
                "paytable": "Standard 1.0",
                "paytable_sha256": TABLE.sha256,
                "ante": ante,
                "blind": ante,
                "trips": 0,
                "play": 0,
                "decisions": "[]",
                "player_hole": "",
                "credits_before": credits,
                "credits_after": credits - 2 * ante,
            }
        ],
        shuffled_deck(SeededRandomSource(seed)),
        b"salt",
    )
    ledger.update_rounds(
        {
            rid: {
                "state": "settled",
                "settled_at": "2025-01-01T00:00:01.000Z",
                "outcome": "fold",
                "ante_return": 0,
                "blind_return": 0,
                "play_return": 0,
                "trips_return": 0,
                "breakage": 0,
                "breakage_unit": 1,
                "paid": 0,
                "jackpot": 0,
                "credits_after": credits - 2 * ante,
            }
        }
    )
    return rid


def two_stations(db: Path) -> Ledger:
    ledger = new_ledger(db)
    bill(ledger, 2000, 1, 1)
    bill(ledger, 5000, 3, 1)
    bill(ledger, 1000, 3, 2)
    seat_round(ledger, 3, 500)
    seat_round(ledger, 1, 200, seed=2)
    return ledger


def test_each_station_has_its_meters_and_the_table_their_sums(db):
    ledger = two_stations(db)
    one, three = ledger.station_meters[1], ledger.station_meters[3]
    assert one["bills_in"] == 2000 and one["coin_in"] == 400 and one[CREDITS] == 1600
    assert three["bills_in"] == 6000 and three["bills_in_count"] == 2
    assert three["coin_in"] == 1000 and three[CREDITS] == 5000
    assert ledger.meters["bills_in"] == 8000 and ledger.meters[CREDITS] == 6600
    assert balance(one)["balanced"] and balance(three)["balanced"]
    assert ledger.station_meter_readings(3) == three and ledger.stations() == [1, 3]
    report = ledger.verify(replay=False)
    assert report.ok and report.authenticated, report.problem
    ledger.close()
    again = Ledger.open(db, key=KEY)  # read back from the file
    assert again.station_meters[3] == three and again.verify().ok
    again.close()


def test_events_recall_and_tickets_are_read_per_station(db):
    ledger = two_stations(db)
    assert [e.amount for e in ledger.events(("bill_in",), station=3)] == [5000, 1000]
    assert {e.station for e in ledger.events(("bill_in",))} == {1, 3}
    recall = ledger.recall(10, station=3)
    assert [r.seat for r in recall] == [3] and recall[0].ante == 500
    assert [r.seat for r in ledger.recall(10)] == [1, 3]  # the table: every seat
    assert ledger.recall(10, station=5) == []
    ledger.close()


def test_a_station_is_a_number_from_1_to_7(db):
    ledger = new_ledger(db)
    for bad in (0, 8, True, "2"):
        with pytest.raises(ValueError, match="station"):
            ledger.event(EventKind.BILL_IN, amount=100, station=bad)  # type: ignore[arg-type]
    with pytest.raises(sqlite3.IntegrityError):  # the column refuses it too
        ledger.conn.execute("UPDATE events SET station = 9 WHERE id = 1")
    assert ledger.verify().ok
    ledger.close()


def test_the_station_is_hashed_unless_it_is_station_1(db):
    ledger = two_stations(db)
    rows = [dict(r) for r in ledger.db["events"].rows]
    prev = GENESIS
    for row in rows:
        assert chain_hash(prev, row) == row["hash"]
        prev = row["hash"]
    moved = next(r for r in rows if r["station"] == 3)
    assert chain_hash(GENESIS, {**moved, "station": 1}) != chain_hash(GENESIS, moved)
    ledger.close()


def drop_triggers(conn: sqlite3.Connection) -> None:
    for name in PROTECTIVE_TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")


def restore_triggers(conn: sqlite3.Connection) -> None:
    for sql in PROTECTIVE_TRIGGERS.values():
        conn.execute(sql)


def test_moving_an_event_to_another_station_is_detected(db):
    two_stations(db).close()
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    eid = conn.execute("SELECT id FROM events WHERE station = 3 LIMIT 1").fetchone()[0]
    conn.execute("UPDATE events SET station = 1 WHERE id = ?", (eid,))
    restore_triggers(conn)
    conn.commit()
    conn.close()
    ledger = Ledger.open(db, readonly=True, key=KEY)
    report = ledger.verify()
    assert not report.ok and report.problem.startswith(f"events {eid}: hash does not match")
    ledger.close()


def test_credits_moved_between_stations_are_detected(db):
    two_stations(db).close()
    conn = sqlite3.connect(db)
    drop_triggers(conn)  # the table meters still add up: only the stations differ
    conn.execute(
        "UPDATE station_meters SET value = value - 500 WHERE station = 3 AND name = 'credits'"
    )
    conn.execute(
        "UPDATE station_meters SET value = value + 500 WHERE station = 1 AND name = 'credits'"
    )
    restore_triggers(conn)
    conn.commit()
    conn.close()
    ledger = Ledger.open(db, readonly=True, key=KEY)
    report = ledger.verify()
    assert not report.ok and report.problem.startswith("meter credits of station 1: is 2100")
    ledger.close()


def test_station_meters_are_protected_by_triggers(db):
    ledger = two_stations(db)
    with pytest.raises(sqlite3.IntegrityError, match="never decreases"):
        ledger.conn.execute(
            "UPDATE station_meters SET value = 0 WHERE station = 3 AND name = 'bills_in'"
        )
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"):
        ledger.conn.execute("DELETE FROM station_meters WHERE station = 3")
    with pytest.raises(sqlite3.IntegrityError, match="keeps its station"):
        ledger.conn.execute("UPDATE station_meters SET station = 2 WHERE station = 3")
    ledger.conn.execute("DROP TRIGGER station_meters_no_delete")
    report = ledger.verify()
    assert not report.ok and report.problem == "trigger station_meters_no_delete: missing (dropped)"
    ledger.close()


def test_power_up_checks_station_meters_from_the_checkpoint(db):
    ledger = new_ledger(db)
    ledger.checkpoint_every = 5
    for n in range(6):
        bill(ledger, 1000, 2 + n % 2, n)
    seat_round(ledger, 2, 100)
    assert ledger.verify_power_up().ok
    cp = ledger.events(("checkpoint",), last=1)[0]
    assert set(cp.detail["stations"]) == {"1", "2", "3"}
    ledger.close()
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute(
        "UPDATE station_meters SET value = value + 1000 WHERE station = 2 AND name = 'bills_in'"
    )
    conn.execute(
        "UPDATE station_meters SET value = value - 1000 WHERE station = 3 AND name = 'bills_in'"
    )
    restore_triggers(conn)
    conn.commit()
    conn.close()
    ledger = Ledger.open(db, readonly=True, key=KEY)
    report = ledger.verify_power_up()
    assert not report.ok and "of station 2" in report.problem
    ledger.close()


def make_stationless(db: Path) -> None:
    """Take a ledger back to the layout written before stations existed (every row of
    station 1): the ``station`` column, the ``station_meters`` table and its triggers
    go; the rows, their hashes and the head stay as they are."""
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM events WHERE station <> 1").fetchone()[0] == 0
    for name in PROTECTIVE_TRIGGERS:
        if name.startswith("station_meters"):
            conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DROP INDEX events_station")
    conn.execute("ALTER TABLE events DROP COLUMN station")
    conn.execute("DROP TABLE station_meters")
    conn.commit()
    conn.close()


def test_a_ledger_written_before_stations_reads_as_station_1(db):
    ledger = new_ledger(db)
    bill(ledger, 2000, 1, 1)
    seat_round(ledger, 1, 300)
    meters, heads = dict(ledger.meters), ledger.heads()
    ledger.close()
    make_stationless(db)
    with pytest.raises(Exception, match="predates stations"):
        Ledger.open(db, readonly=True, key=KEY)  # an inspector cannot migrate it
    ledger = Ledger.open(db, key=KEY)
    assert ledger.station_meters == {1: meters} and ledger.meters == meters
    assert all(e.station == 1 for e in ledger.events())
    migrated = ledger.last_event("schema_migrated")
    assert migrated is not None and migrated.detail["stations"] is True
    assert not ledger.migrated  # the anchor stays required
    row = ledger.conn.execute("SELECT hash FROM events WHERE id = 2").fetchone()
    assert ledger.heads()[1] == heads[1] and row[0] is not None
    report = ledger.verify(replay=False)
    assert report.ok and report.authenticated, report.problem
    bill(ledger, 500, 4, 1)  # and it plays on as a table
    assert ledger.station_meters[4]["bills_in"] == 500 and ledger.verify().ok
    ledger.close()


def audit(capsys, db: Path, *args: str) -> str:
    code = uth(["audit", *args, "--db", str(db)])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_uth_audit_meters_recall_and_export_per_station(db, capsys):
    two_stations(db).close()
    shown = json.loads(audit(capsys, db, "meters", "--station", "3", "--json"))
    assert shown["station"] == 3 and shown["meters"]["bills_in"] == 6000
    assert shown["balance"]["balanced"]
    table = json.loads(audit(capsys, db, "meters", "--json"))
    assert table["meters"]["bills_in"] == 8000 and "station" not in table
    assert "station 3" in audit(capsys, db, "meters", "--station", "3")
    recall = json.loads(audit(capsys, db, "recall", "--station", "3", "--json"))
    assert [r["seat"] for r in recall] == [3]
    assert "seat 3" in audit(capsys, db, "recall", "--station", "3")
    assert [r["seat"] for r in json.loads(audit(capsys, db, "recall", "--json"))] == [1, 3]
    export = json.loads(audit(capsys, db, "export", "--station", "3", "--json"))
    assert export["station"] == 3
    assert {e["station"] for e in export["events"]} == {3} and len(export["events"]) == 2
    assert [r["seat"] for r in export["rounds"]] == [3]
    assert {m["name"]: m["value"] for m in export["meters"]}["bills_in"] == 6000
    with pytest.raises(SystemExit):
        uth(["audit", "meters", "--station", "8", "--db", str(db)])
    capsys.readouterr()
