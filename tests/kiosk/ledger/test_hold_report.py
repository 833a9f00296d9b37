"""``uth audit hold``: the hold of the rounds in the ledger, per bet, against theory."""

from __future__ import annotations

import json

from support.cabinet import insert_note, play_round

from engine.rng import SeededRandomSource
from kiosk.cli import main as cli
from kiosk.config import load_config
from kiosk.wiring.lone_cabinet import LoneCabinet


def test_audit_hold_reports_every_bet_of_the_settled_rounds(tmp_path, capsys):
    config = load_config(db_path=tmp_path / "uth.db")
    cab = LoneCabinet.open(config, rng=SeededRandomSource(3))
    insert_note(cab, 10000)
    for _ in range(4):
        play_round(cab)  # each decision the last legal one
    cab.close()
    assert cli(["audit", "hold", "--db", str(config.db_path), "--json"]) == 0
    (doc,) = json.loads(capsys.readouterr().out)
    assert doc["rounds"] == 4 and doc["flagged"] is False
    rows = {r["bet"]: r for r in doc["bets"]}
    assert set(rows) == {"ante", "blind", "play", "trips", "main"}
    assert rows["ante"]["handle_cents"] == 2000 and rows["trips"]["rounds"] == 0
    assert abs(rows["main"]["optimal_hold"] - 0.005262) < 1e-5
    assert cli(["audit", "hold", "--db", str(config.db_path), "--since", "2999-01-01"]) == 0
    assert "no settled rounds since 2999-01-01" in capsys.readouterr().out
