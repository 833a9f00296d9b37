"""``uth autoplay``: the technicians' soak session through the controller."""

from __future__ import annotations

import json
import types

from support.cabinet import insert_note, place

import kiosk.commands.autoplay as autoplay_command
from engine.rng import SeededRandomSource
from engine.uth.round import Action, Phase, SeatView
from kiosk.cli import main as uth
from kiosk.commands.autoplay import load_strategy, plain_policy
from kiosk.config import load_config
from kiosk.game.commands import Decide
from kiosk.ledger.ledger import Ledger, balance
from kiosk.wiring.lone_cabinet import LoneCabinet


def autoplay(capsys, *argv: str) -> dict:
    assert uth(["autoplay", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_autoplay_plays_cashes_out_and_balances(tmp_path, capsys):
    db = tmp_path / "uth.db"
    report = autoplay(
        capsys, "--db", str(db), "--rounds", "8", "--seed", "5", "--cashout-every", "4"
    )
    assert report["rounds"] == 8 and report["resumed"] == 0 and report["cashouts"] == 2
    ledger = Ledger.open(db, readonly=True)
    result = ledger.verify(replay=True)
    assert result.ok, result.problem
    bal = balance(result.meters)
    assert bal["balanced"] and bal["credits"] == 0 and bal["credits_in"] == report["bills_cents"]
    assert bal["credits_out"] == report["cashout_cents"]


def test_autoplay_is_reproducible_with_a_seed(tmp_path, capsys):
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    autoplay(capsys, "--db", str(a), "--rounds", "3", "--seed", "9")
    autoplay(capsys, "--db", str(b), "--rounds", "3", "--seed", "9")
    decks = [[r.deck for r in Ledger.open(p, readonly=True).recall(3)] for p in (a, b)]
    assert decks[0] == decks[1]


def test_autoplay_first_resumes_an_unfinished_round(tmp_path, capsys):
    config = load_config(db_path=tmp_path / "uth.db")
    cab = LoneCabinet.open(config, rng=SeededRandomSource(1))
    insert_note(cab, 5000)
    place(cab, ("ante", 500))
    cab.station.execute(Decide(Action.CHECK))
    cab.table.ledger.close()  # power cut
    report = autoplay(capsys, "--db", str(config.db_path), "--rounds", "2", "--strategy", "random")
    assert report["resumed"] == 1 and report["rounds"] == 3
    ledger = Ledger.open(config.db_path, readonly=True)
    first = ledger.round(1)
    assert first.state == "settled" and first.decisions[0].action == "check"
    assert ledger.verify(replay=True).ok


def test_strategy_comes_from_the_maths_module_when_present(monkeypatch):
    monkeypatch.setattr(autoplay_command, "STRATEGIES", {})
    assert load_strategy("simple") is plain_policy
    fake = types.SimpleNamespace(STRATEGIES={"simple": lambda view: Action.CHECK})
    monkeypatch.setattr(autoplay_command, "STRATEGIES", fake.STRATEGIES)
    assert load_strategy("simple") is fake.STRATEGIES["simple"]


def test_plain_policy_decisions_are_legal():
    view = SeatView(
        seat=1,
        phase=Phase.PREFLOP,
        hole=(48, 49),
        board=(),
        ante=500,
        trips=0,
        play=0,
        folded=False,
        legal=(Action.PLAY_4X, Action.PLAY_3X, Action.CHECK),
    )
    assert plain_policy(view) == Action.PLAY_4X
    river = SeatView(
        seat=1,
        phase=Phase.RIVER,
        hole=(0, 5),
        board=(10, 15, 20, 25, 30),
        ante=500,
        trips=0,
        play=0,
        folded=False,
        legal=(Action.PLAY_1X, Action.FOLD),
    )
    assert plain_policy(river) == Action.PLAY_1X
