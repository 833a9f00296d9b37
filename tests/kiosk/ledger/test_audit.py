"""``uth audit``: verify, recall, events, meters, export, init — text and --json."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from support.cabinet import insert_note, place

from engine.rng import SeededRandomSource
from kiosk.cli import main as uth
from kiosk.commands.autoplay import Session, plain_policy
from kiosk.config import load_config
from kiosk.ledger.ledger import GENESIS, chain_hash
from kiosk.wiring.lone_cabinet import LoneCabinet


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A ledger with 12 settled rounds, an open one, bills and a handpay."""
    db = tmp_path_factory.mktemp("audit") / "uth.db"
    config = load_config(db_path=db)
    cab = LoneCabinet.open(config, rng=SeededRandomSource(42))
    Session(cab, plain_policy, ante=500, trips=100, bill=5000, pin="1111").run(12, cashout_every=6)
    insert_note(cab, 2000)
    place(cab, ("ante", 500))
    cab.close()
    return db


def run(capsys, *argv: str) -> tuple[int, str]:
    code = uth(list(argv))
    return code, capsys.readouterr().out


def test_verify_ok_text_and_json(played, capsys):
    code, out = run(capsys, "audit", "verify", "--db", str(played))
    assert code == 0 and out.startswith("OK: 13 rounds")
    code, out = run(capsys, "audit", "verify", "--db", str(played), "--json", "--replay")
    assert code == 0 and json.loads(out) == {
        "ok": True,
        "rounds": 13,
        "events": json.loads(out)["events"],
        "problem": "",
        "replayed": True,
    }


def test_verify_names_a_hand_edited_row(played, tmp_path, capsys):
    db = tmp_path / "copy.db"
    src = sqlite3.connect(played)
    dst = sqlite3.connect(db)
    src.backup(dst)
    src.close()
    dst.execute("DROP TRIGGER rounds_frozen")
    dst.execute("UPDATE rounds SET play_return = play_return + 100 WHERE id = 5")
    dst.commit()
    dst.close()
    code, out = run(capsys, "audit", "verify", "--db", str(db))
    assert code == 1 and out.startswith("FAILED: rounds 5: hash does not match")
    code, out = run(capsys, "audit", "verify", "--db", str(db), "--json")
    assert code == 1 and json.loads(out)["problem"].startswith("rounds 5")


def test_verify_missing_database(tmp_path, capsys):
    code = uth(["audit", "verify", "--db", str(tmp_path / "nope.db")])
    assert code == 1 and "does not exist" in capsys.readouterr().err


def test_recall_reads_like_a_hand_history(played, capsys):
    code, out = run(capsys, "audit", "recall", "--db", str(played), "--last", "2")
    assert code == 0
    open_round, last_settled = out.split("\n\n")
    assert open_round.startswith("Round 13  OPEN") and "deck sealed until settlement" in open_round
    assert last_settled.startswith("Round 12  SETTLED")
    for text in (
        "Bets      Ante $5.00  Blind $5.00  Trips $1.00",
        "Dealer ",
        "Board ",
        "preflop",
        "Result ",
        "Credits ",
        "(matches)",
    ):
        assert text in last_settled


def test_recall_json_has_everything_to_reconstruct_a_round(played, capsys):
    code, out = run(capsys, "audit", "recall", "--db", str(played), "--json")
    rounds = json.loads(out)
    assert code == 0 and [r["id"] for r in rounds] == list(range(13, 3, -1))
    r = rounds[1]
    for key in (
        "started_at",
        "settled_at",
        "paytable",
        "paytable_sha256",
        "ante",
        "blind",
        "trips",
        "play",
        "decisions",
        "commitment",
        "salt",
        "deck",
        "player_hole",
        "dealer_hole",
        "board",
        "player_hand",
        "player_category",
        "dealer_hand",
        "ante_return",
        "blind_return",
        "play_return",
        "trips_return",
        "breakage",
        "breakage_unit",
        "credits_before",
        "credits_after",
        "hash",
    ):
        assert r[key] not in (None, ""), key
    assert len(r["deck"].split()) == 52 and rounds[0]["deck"] == ""


def test_events_listing(played, capsys):
    code, out = run(capsys, "audit", "events", "--db", str(played), "--kind", "handpay")
    assert code == 0 and out.count(" handpay ") == 2
    code, out = run(capsys, "audit", "events", "--db", str(played), "--last", "3", "--json")
    assert [e["kind"] for e in json.loads(out)][-1] == "power_down"


def test_meters_text_and_json(played, capsys):
    code, out = run(capsys, "audit", "meters", "--db", str(played))
    assert code == 0 and "games_played" in out and out.rstrip().endswith("balanced")
    code, out = run(capsys, "audit", "meters", "--db", str(played), "--json")
    data = json.loads(out)
    assert data["meters"]["games_played"] == 12 and data["balance"]["balanced"]
    assert data["meters"]["bill.2000"] == 1


def test_export_csv_and_json_recompute_the_chain(played, tmp_path, capsys):
    code, out = run(capsys, "audit", "export", "--db", str(played), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 13 and rows[0]["id"] == "1"
    code, out = run(
        capsys, "audit", "export", "--db", str(played), "--format", "csv", "--table", "events"
    )
    assert code == 0 and list(csv.DictReader(io.StringIO(out)))[0]["kind"] == "ledger_created"
    target = tmp_path / "export.json"
    code, _ = run(capsys, "audit", "export", "--db", str(played), "--json", "--out", str(target))
    data = json.loads(target.read_text())
    assert code == 0 and set(data) >= {"ledger_id", "meta", "rounds", "events", "meters"}
    # a regulator can re-walk the chains from the export alone
    for table in ("rounds", "events"):
        prev = GENESIS
        for row in data[table]:
            assert chain_hash(prev, row) == row["hash"]
            prev = row["hash"]


def test_init_creates_once_and_force_replaces_a_lost_ledger(tmp_path, capsys):
    db = tmp_path / "var" / "uth.db"
    code, out = run(capsys, "audit", "init", "--db", str(db))
    assert code == 0 and "created ledger" in out and db.exists()
    assert uth(["audit", "init", "--db", str(db)]) == 2
    assert "never overwritten" in capsys.readouterr().err
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    assert uth(["audit", "init", "--db", str(db)]) == 2
    assert "--force" in capsys.readouterr().err
    code, out = run(capsys, "audit", "init", "--db", str(db), "--force", "--json")
    assert code == 0 and json.loads(out)["ok"]
    code, out = run(capsys, "audit", "events", "--db", str(db), "--json")
    assert [e["kind"] for e in json.loads(out)] == ["ledger_created", "ledger_replaced"]
    assert (tmp_path / "var" / "uth.db.install.replaced").exists()
