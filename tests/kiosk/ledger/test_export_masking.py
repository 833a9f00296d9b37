"""`uth audit export` masks the numbers of outstanding tickets (still redeemable) unless
``--pin`` is a manager's, as `uth audit tickets` and `events` do; void and redeemed
tickets stay in full."""

from __future__ import annotations

import json

from test_ledger_integrity import play

from kiosk.cli import main as uth
from kiosk.config import load_config
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger

OUTSTANDING = "000000000000004242"
MASKED = "**************4242"


def _cabinet(tmp_path):
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    play(config, rounds=0)
    ledger = Ledger.open(config.db_path, key=CabinetKey.load(config.key_path))
    ledger.attach_anchor(config.anchor_file, write=True)
    ledger.event(EventKind.BILL_IN, amount=10000, txn="b1")
    ledger.event(EventKind.CASHOUT, amount=10000, txn="c1")
    ledger.event(
        EventKind.TICKET_ISSUE,
        amount=10000,
        txn="c1",
        detail={"validation": OUTSTANDING, "sequence": 1},
    )
    ledger.event(EventKind.TICKET_OUT, amount=10000, txn="c1", detail={"reference": OUTSTANDING})
    ledger.close()
    return config


def test_export_masks_outstanding_ticket_numbers_without_a_managers_pin(tmp_path, capsys):
    config = _cabinet(tmp_path)
    db = str(config.db_path)
    for extra in (
        [],
        ["--format", "csv", "--table", "tickets"],
        ["--format", "csv", "--table", "events"],
    ):
        assert uth(["audit", "export", "--db", db, *extra]) == 0
        out = capsys.readouterr().out
        assert OUTSTANDING not in out and MASKED in out, extra
        technician = config.operator_pins["technician"]
        assert uth(["audit", "export", "--db", db, "--pin", technician, *extra]) == 0
        assert OUTSTANDING not in capsys.readouterr().out
        manager = config.operator_pins["manager"]
        assert uth(["audit", "export", "--db", db, "--pin", manager, *extra]) == 0
        assert OUTSTANDING in capsys.readouterr().out
    target = tmp_path / "export.json"
    assert uth(["audit", "export", "--db", db, "--out", str(target)]) == 0
    text = target.read_text()
    assert OUTSTANDING not in text
    assert json.loads(text)["masked"] == "outstanding tickets"
