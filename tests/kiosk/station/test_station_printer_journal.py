"""A ticket pending when the station restarted, decided from the printer's job journal
and the TCL status: the real driver on the simulator, the game service on a real ledger
file (the lone station in process)."""

from __future__ import annotations

import json
from pathlib import Path

from support.fast_devices import FAST_PRINTER, wait_for
from support.table_money import credit

from devices.sim import TclSimulator
from kiosk.config import load_config
from kiosk.game.commands import CashOut
from kiosk.service.device_commands import SetPrinter
from kiosk.service.table import Table
from kiosk.station.local import LocalTable
from kiosk.station.printer import StationPrinter


def _pending_ticket(db: Path, cents: int) -> str:
    """A ticket cash-out recorded, its ticket pending, and the power gone before any
    printer took the order: the cash-out's transaction."""
    table = Table.open(load_config(db_path=db, decision_values=False), (1,))
    table.execute(1, SetPrinter(True))
    credit(table, 1, cents)
    txn = table.execute(1, CashOut()).txn
    assert table.ledger is not None
    table.ledger.close()  # the power goes
    return txn


def _restart(db: Path, journal: Path) -> tuple[Table, StationPrinter, TclSimulator]:
    table = Table.open(load_config(db_path=db, decision_values=False), (1,))
    link = LocalTable(table, 1)
    link.start()
    sim = TclSimulator().start()
    printer = StationPrinter(link, sim.port, FAST_PRINTER, journal=journal).start()
    return table, printer, sim


def test_an_order_the_journal_never_named_was_not_printed_the_credits_go_back(tmp_path):
    db, journal = tmp_path / "uth.db", tmp_path / "printer-job.json"
    txn = _pending_ticket(db, 2_500)
    journal.write_text(json.dumps({"txn": "cashout-earlier", "sent": True, "outcome": "printed"}))
    table, printer, sim = _restart(db, journal)
    try:
        assert table.ledger is not None
        assert wait_for(lambda: table.ledger.has_txn(txn, "cashout_failed"), 20)
        assert table.credits(1) == 2_500  # not printed: back on the meter, no handpay
        assert not table.ledger.has_txn(txn, "cashout_handpay")
        assert sim.printed == []  # never printed after the restart
    finally:
        printer.close()
        sim.stop()
        table.close()


def test_an_order_whose_command_went_out_to_a_printer_that_restarted_is_void(tmp_path):
    db, journal = tmp_path / "uth.db", tmp_path / "printer-job.json"
    txn = _pending_ticket(db, 1_500)
    journal.write_text(json.dumps({"txn": txn, "validation": "x", "sent": True}))
    table, printer, sim = _restart(db, journal)  # a fresh simulator: RESET at power-up
    try:
        assert table.ledger is not None
        assert wait_for(lambda: table.ledger.has_txn(txn, "cashout_handpay"), 20)
        assert table.credits(1) == 0 and sim.printed == []
    finally:
        printer.close()
        sim.stop()
        table.close()
