"""Ticket validation numbers are masked to their last four digits in `uth audit tickets`
and `uth audit events` and on the operator screens, except for a manager."""

from __future__ import annotations

from test_ledger_integrity import play

from kiosk.cli import main as uth
from kiosk.config import load_config
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.masking import mask_number

NUMBER = "000000000000004242"


def _cabinet(tmp_path):
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    play(config, rounds=0)
    ledger = Ledger.open(config.db_path, key=CabinetKey.load(config.key_path))
    ledger.attach_anchor(config.anchor_file, write=True)
    ledger.event(EventKind.BILL_IN, amount=10000, txn="b1")
    ledger.event(EventKind.CASHOUT, amount=10000, txn="c1")
    ledger.event(
        EventKind.TICKET_ISSUE, amount=10000, txn="c1", detail={"validation": NUMBER, "sequence": 1}
    )
    ledger.event(EventKind.TICKET_OUT, amount=10000, txn="c1", detail={"reference": NUMBER})
    ledger.close()
    return config


def test_the_cli_masks_ticket_numbers_without_a_manager_pin(tmp_path, capsys):
    config = _cabinet(tmp_path)
    assert mask_number(NUMBER) == "**************4242"
    manager = config.operator_pins["manager"]
    for command in ("tickets", "events"):
        assert uth(["audit", command, "--db", str(config.db_path)]) == 0
        out = capsys.readouterr().out
        assert NUMBER not in out and "**************4242" in out
        assert uth(["audit", command, "--db", str(config.db_path), "--json"]) == 0
        assert NUMBER not in capsys.readouterr().out
        technician = config.operator_pins["technician"]
        assert uth(["audit", command, "--db", str(config.db_path), "--pin", technician]) == 0
        assert NUMBER not in capsys.readouterr().out
        assert uth(["audit", command, "--db", str(config.db_path), "--pin", manager]) == 0
        assert NUMBER in capsys.readouterr().out


def test_the_operator_screens_see_masked_numbers_below_manager(tmp_path):
    from kiosk.game.commands import OperatorLogin
    from kiosk.wiring.lone_cabinet import LoneCabinet

    config = _cabinet(tmp_path)
    cab = LoneCabinet.open(config)
    m = cab.station  # the screens' controller
    assert cab.table.ledger is not None, m.snapshot().tilts
    assert not any(NUMBER in str(e.detail) for e in m.ledger_events())
    assert any("**************4242" in str(e.detail) for e in m.ledger_events())
    m.execute(OperatorLogin(config.operator_pins["manager"]))
    assert any(NUMBER in str(e.detail) for e in m.ledger_events())
    cab.close()
