"""``uth audit hold``: the hold of the rounds in the ledger, per bet, against theory."""

from __future__ import annotations

import json

from engine.rng import SeededRandomSource
from kiosk.cabinet import Machine, MachinePhase
from kiosk.cli import main as cli
from kiosk.config import load_config


def test_audit_hold_reports_every_bet_of_the_settled_rounds(tmp_path, capsys):
    config = load_config(db_path=tmp_path / "uth.db")
    m = Machine.open(config, rng=SeededRandomSource(3))
    m.insert_credits(10000)
    for _ in range(4):
        m.add_chip("ante", 500)
        m.deal()
        while m.snapshot().phase == MachinePhase.IN_ROUND:
            m.decide(m.snapshot().legal[-1])
    m.close()
    assert cli(["audit", "hold", "--db", str(config.db_path), "--json"]) == 0
    (doc,) = json.loads(capsys.readouterr().out)
    assert doc["rounds"] == 4 and doc["flagged"] is False
    rows = {r["bet"]: r for r in doc["bets"]}
    assert set(rows) == {"ante", "blind", "play", "trips", "main"}
    assert rows["ante"]["handle_cents"] == 2000 and rows["trips"]["rounds"] == 0
    assert abs(rows["main"]["optimal_hold"] - 0.005262) < 1e-5
    assert cli(["audit", "hold", "--db", str(config.db_path), "--since", "2999-01-01"]) == 0
    assert "no settled rounds since 2999-01-01" in capsys.readouterr().out
