"""The hold report reads only MAC'd optimal figures: a PAR report in the cache edited
by hand (its optimal hold raised to 10%) is not believed.  ``uth audit hold`` computes
the figures afresh from no cached file; the report that does not compute (the
operator's page) marks the cache's figure unproven, with the reason."""

from __future__ import annotations

import json

import pytest
from support.cabinet import insert_note, play_round
from support.signed_paytables import signed

from engine.maths.cache import cache_dir, report_path
from engine.maths.par_tables import FULL_DECK
from engine.rng import SeededRandomSource
from engine.uth.paytable import PAYTABLE_DIR
from kiosk.cli import main as cli
from kiosk.config import load_config
from kiosk.game.paytables.hold import ledger_hold
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.ledger import Ledger
from kiosk.wiring.lone_cabinet import LoneCabinet


@pytest.mark.heavy
def test_a_poisoned_par_report_is_not_the_hold_reports_figure(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    config = load_config(db_path=tmp_path / "uth.db")
    cab = LoneCabinet.open(config, rng=SeededRandomSource(3))
    insert_note(cab, 10000)
    for _ in range(3):
        play_round(cab)  # each decision the last legal one
    cab.close()
    table = signed(CabinetKey.load(config.key_path), PAYTABLE_DIR / "standard.toml")
    path = report_path(table, "optimal", FULL_DECK, cache_dir())
    doc = json.loads(path.read_text())
    doc["main"]["rtp_total_main_bet"] = 0.90  # the optimal hold: 10%
    path.write_text(json.dumps(doc))

    ledger = Ledger.open(config.db_path, readonly=True, key=CabinetKey.load(config.key_path))
    try:
        (hold,) = ledger_hold(ledger, compute=False)
    finally:
        ledger.close()
    assert "altered after signing" in hold.unproven
    assert hold.as_dict()["rtp_unproven"] == hold.unproven

    assert cli(["audit", "hold", "--db", str(config.db_path), "--json"]) == 0
    (doc,) = json.loads(capsys.readouterr().out)
    rows = {r["bet"]: r for r in doc["bets"]}
    assert abs(rows["main"]["optimal_hold"] - 0.005262) < 1e-5  # computed afresh, not 10%
    assert "rtp_unproven" not in doc
