"""The game service on a real ledger file, with its stations' devices played by the
test, for the SAS link's TITO tests: the link talks to the real
:class:`~kiosk.service.table.Table` through :class:`~kiosk.sas.game_port.TablePort`, and
the validator's and the printer's reports go in as a station's link sends them (the
service's own commands).  Amounts are cents."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from pathlib import Path

from support.table_money import credit

from devices.host import PrintOutcome
from kiosk.config import load_config
from kiosk.game.commands import CashOut, HandpayReset, OperatorLogin, OperatorLogout
from kiosk.game.errors import MachineError
from kiosk.link.outcomes import EscrowEnd
from kiosk.sas.game_port import TablePort
from kiosk.service.device_commands import AcceptTicket, ReportPrint, SetPrinter, SettleEscrow
from kiosk.service.slot_system import AwaitingSystem
from kiosk.service.table import Table

_ESCROWS = itertools.count(1)


class GameFloor(TablePort):
    """A game service of ``stations`` stations on ``path``, its tickets numbered and
    redeemed through the casino's system, each station's printer ready."""

    def __init__(self, path: Path, stations: int = 1) -> None:
        config = load_config(db_path=Path(path), decision_values=False)
        table = Table.open(config, tuple(range(1, stations + 1)))
        table.use_slot_system(True, True)
        for n in table.stations:
            table.execute(n, SetPrinter(True))
        super().__init__(table)
        self._tickets: dict[str, str] = {}  # escrow -> the ticket's number

    def shut(self, orderly: bool = True) -> None:
        """Close the service (``orderly`` False: the power goes, nothing more recorded)."""
        self.close()
        if orderly:
            self.table.close()
        elif self.table.ledger is not None:
            self.table.ledger.close()

    # -- the player and the devices ----------------------------------------------------
    def insert_bill(self, station: int, cents: int) -> None:
        credit(self.table, station, cents)

    def cash_out(self, station: int) -> str:
        return self.table.execute(station, CashOut()).txn

    def print_ordered(self) -> None:
        """Each station's printer prints what it was ordered and reports it."""
        for n in self.table.stations:
            order = self.table.fresh_print_order(n)
            if order is not None:
                self.table.execute(n, ReportPrint(order.txn, PrintOutcome.PRINTED, order.validation))

    def insert_ticket(self, station: int, validation: str) -> str:
        """A ticket into the station's validator: its escrow, held while the casino's
        system is asked."""
        txn = f"s{station}-t{next(_ESCROWS)}"
        self._tickets[txn] = validation
        try:
            self.table.execute(station, AcceptTicket(txn, validation))
        except AwaitingSystem:
            pass
        return txn

    def validator_stacked(self, station: int, escrow: str) -> bool:
        """The validator stacks the ticket once the service accepts it, and reports it:
        True when that credited it now."""
        before = self.table.credits(station)
        try:
            self.table.execute(station, AcceptTicket(escrow, self._tickets[escrow]))
        except MachineError:
            return False
        self.table.execute(station, SettleEscrow(escrow, EscrowEnd.VEND_VALID))
        return self.table.credits(station) > before

    def attendant_pays(self, station: int) -> None:
        """An attendant logged in at the station pays its handpay."""
        self.table.execute(station, OperatorLogin("1111"))
        self.table.execute(station, HandpayReset())
        self.table.execute(station, OperatorLogout())

    # -- what happened ---------------------------------------------------------------------
    def pending_payout_method(self, station: int) -> str:
        """How the station's payout in progress is paid (``""``: none in progress)."""
        payout = self.table.pending_payout(station)
        return "" if payout is None else payout.method

    def escrow_state(self, station: int, escrow: str) -> str:
        """``escrow`` (held for the system), ``authorised`` (recorded, to be stacked),
        ``credited`` or ``returned``."""
        found = self.table.redemption(station, escrow)
        if found is None:
            return "unknown"
        state, _number, _amount = found
        if state == "stacking":
            return "authorised" if self.table.held_ticket(station) is None else "escrow"
        return state

    def redemptions(self, escrow: str) -> int:
        """How many times the redemption of ``escrow`` was recorded."""
        assert self.table.ledger is not None
        return sum(e.txn == escrow for e in self.table.ledger.events(("escrow_accepted",)))

    def tickets_printed(self) -> list[tuple[str, int]]:
        assert self.table.ledger is not None
        return [(str(e.detail["reference"]), e.amount) for e in self.table.ledger.events(("ticket_out",))]

    def station_meters(self, station: int) -> Mapping[str, int]:
        return self.meters(station)
