"""One machine of a SAS floor in a process of its own, for power cuts by SIGKILL: the
game service on its ledger file with the casino's validation and redemption on, its
station's TCL printer driven over the printer's pty (the simulator lives in the test, so
it outlives the cut), its SAS link on the line's pty.  Prints ``ready`` once serving
(after the player's cash-out, when one is asked).

    python tests/support/sas_printer_machine.py DB SAS_PORT PRINTER_PORT JOURNAL [CENTS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main(db: str, sas_port: str, printer_port: str, journal: str, cents: int = 0) -> None:
    from support.fast_devices import FAST_PRINTER
    from support.table_money import credit

    from devices.sas.line import PtyLine
    from kiosk.config import load_config
    from kiosk.game.commands import CashOut
    from kiosk.sas.game_port import TablePort
    from kiosk.sas.service import SasService
    from kiosk.service.table import Table
    from kiosk.station.local import LocalTable
    from kiosk.station.printer import StationPrinter

    config = load_config(db_path=Path(db), decision_values=False)
    table = Table.open(config, (1,))
    table.use_slot_system(True, True)
    link = LocalTable(table, 1)
    link.start()
    printer = StationPrinter(link, printer_port, FAST_PRINTER, journal=Path(journal)).start()
    if not printer.wait_told(10.0):
        raise SystemExit("the printer never became ready")
    port = TablePort(table)
    SasService(port, config.db_path, lambda: PtyLine.open(sas_port), 1, signer=lambda s: 0).start()
    if cents:
        credit(table, 1, cents)
        table.execute(1, CashOut())
    print("ready", flush=True)
    while True:
        time.sleep(1.0)


if __name__ == "__main__":
    main(*sys.argv[1:5], *(int(a) for a in sys.argv[5:6]))
