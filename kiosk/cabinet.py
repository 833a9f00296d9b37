"""The lone cabinet as the operator menu still reads it (``cast(Machine, model.machine)``
in :mod:`kiosk.ui.scenes.operator`), and as older tests drive it.  Everything else
uses the cabinet's parts (:class:`kiosk.wiring.lone_cabinet.LoneCabinet`): this module
goes once the operator menu has its own port.

:class:`Machine` holds no money rule of its own.  It is the composition a cabinet runs:
the game service (:class:`kiosk.table.table.Table`, stations ``(1,)``, no decision
timer), its in-process station link (:class:`kiosk.station.local.LocalTable`), the
screens' controller over that link (:class:`kiosk.station.controller.StationController`,
the same class a table's remote station runs), and the validator's host
(:class:`kiosk.station.notes.StationNotes`, also the station's).  Everything a screen,
the devices, the CLI or a test asks goes through one of those, so the lone cabinet and
a seven-station table settle every bet, note, ticket and payout through the same code.

Life cycle::

    machine = Machine.open(config)        # open/create + verify the ledger, resume a round
    machine.subscribe(on_change)          # on_change(snapshot) after every change
    machine.insert_credits(2000)   # a note with no validator: both phases
    machine.execute(PlaceChip("ante", 500)); machine.execute(PlaceChip("trips", 100))
    machine.execute(Deal())
    machine.execute(Decide(Action.CHECK)) ...  # until snapshot().phase is RESULT
    machine.execute(CashOut())            # a ticket when a printer is ready, else a handpay

Devices: :class:`Machine` is the validator driver's host
(:class:`devices.host.ValidatorHost`, through :class:`StationNotes`); its printer is the
station's (:class:`kiosk.station.devices.StationDevices`), or a
:class:`kiosk.station.paperless.PaperlessPrinter` (tests, the device-less demo): either
takes the service's print orders from the station's link and reports them back.

A missing, corrupt or tampered ledger does not raise: the cabinet comes up in the
``ledger`` tilt with the reason as its message, and refuses everything.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path
from typing import cast

from devices.host import DeviceEvent
from engine.money import format_cents as money
from engine.rng import RandomSource
from engine.uth.round import Action
from kiosk.config import CabinetConfig
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import EventRecord, RoundRecord, TicketRecord, VerifyReport
from kiosk.machine import commands as cmd
from kiosk.machine.commands import Command, CreditSource
from kiosk.machine.error_codes import ErrorCode
from kiosk.machine.errors import (
    BetOutOfLimits,
    ConfigurationError,
    InsufficientCredits,
    MachineError,
    NotAuthorised,
    PlayDisabled,
    TicketRefused,
    WrongState,
)
from kiosk.machine.hold import PaytableHold
from kiosk.machine.operators import RAM_CLEAR_CODE_SECONDS
from kiosk.machine.round_values import SeatValues
from kiosk.machine.rows import dealt_columns, settled_columns
from kiosk.machine.settings import BOUNDED_RTPS
from kiosk.machine.snapshot import (
    ActionOffer,
    MachinePhase,
    MachineSnapshot,
    PayoutRequest,
    Tilt,
)
from kiosk.machine.state import (
    DEVICE_TILT_PREFIX,
    JACKPOT_TILT,
    LEDGER_TILT,
    SEAT,
    TICKET_TILT,
    Spot,
)
from kiosk.station.controller import StationController
from kiosk.station.credits import insert_credits
from kiosk.station.local import LocalTable
from kiosk.station.notes import StationNotes
from kiosk.station.paperless import PaperlessPrinter
from kiosk.table.commands import Command as TableCommand
from kiosk.table.table import Table
from kiosk.table.timing import CABINET_TIMING

__all__ = [  # the controller's vocabulary, for the screens, the CLI and the tools
    "money", "ActionOffer", "BOUNDED_RTPS", "BetOutOfLimits", "ConfigurationError",
    "DEVICE_TILT_PREFIX", "InsufficientCredits", "JACKPOT_TILT",
    "LEDGER_TILT", "Machine", "MachineError", "MachinePhase", "MachineSnapshot",
    "NotAuthorised", "PayoutRequest", "PlayDisabled",
    "RAM_CLEAR_CODE_SECONDS", "SEAT", "Spot", "TICKET_TILT", "TicketRefused", "Tilt",
    "WrongState", "dealt_columns", "settled_columns",
]


class Machine:
    """The lone cabinet (thread-safe: the service serialises every operation).  Construct
    with :meth:`open`."""

    def __init__(
        self, table: Table, printer: PaperlessPrinter | None = None, printer_decides: bool = False
    ) -> None:
        self.table = table
        self.link = LocalTable(table, SEAT)
        self.station = StationController(self.link, table.config)
        self.notes = StationNotes(self.link, prefix=False)
        self.config: CabinetConfig = table.config
        self.printer: PaperlessPrinter | None = None
        self.link.start()
        self.station.start(0.0)
        if not printer_decides:  # else the station's devices print (and decide a resumed order)
            self.use_printer(printer or PaperlessPrinter(ready=False))

    @classmethod
    def open(
        cls,
        config: CabinetConfig,
        rng: RandomSource | None = None,
        clock: Callable[[], datetime] | None = None,
        printer: PaperlessPrinter | None = None,
        printer_decides: bool = False,
    ) -> Machine:
        """Open the ledger (created on a first run only), verify it, rebuild the state,
        record power up and resume an unfinished round or payout.  Never raises for the
        ledger: a cabinet whose ledger cannot be opened stands in the ``ledger`` tilt.
        ``printer``: prints the cabinet's tickets (default: none, a cash-out is a
        handpay); ``printer_decides``: the station's devices print instead (their
        printer's job journal decides a ticket pending at power-up).  Without, a ticket
        pending at power-up is voided and paid by hand
        (:func:`kiosk.station.printer.untold_after_restart`)."""
        table = Table.open_or_stop(config, (SEAT,), rng=rng, clock=clock, timing=CABINET_TIMING)
        return cls(table, printer, printer_decides)

    def close(self) -> None:
        """Record an orderly power down and close the ledger."""
        self.station.stop()
        self.link.stop()
        self.table.close()

    # -- the screens' controller -----------------------------------------------------------
    def execute(self, command: Command | object) -> object:
        """Carry out a command of the screens at the cabinet's station; a refusal raises a
        :class:`MachineError` subclass before any state changes.  Returns what the
        operation returns (the role for :class:`OperatorLogin`, the code for
        :class:`RamClearRequest`, the payout for :class:`CashOut`, else ``None``)."""
        if isinstance(command, cmd.InsertCredits):
            insert_credits(self.link, command)
            return None
        if isinstance(command, cmd.BillCredited):
            self.bill_credited(command.denomination_cents, command.transaction_id)
            return None
        result = self.station.execute(cast(TableCommand, command))  # checked by the service
        if isinstance(command, cmd.CashOut):
            request = self.snapshot().cashout
            assert request is not None, result
            if self.printer is not None:
                self.printer.serve()  # the service's print order, printed
            return request
        return result

    def snapshot(self) -> MachineSnapshot:
        """What the screens show now (one consistent moment)."""
        return self.station.snapshot()

    def subscribe(self, callback: Callable[[MachineSnapshot], None]) -> Callable[[], None]:
        """Call ``callback(snapshot)`` after every change; returns an unsubscribe function."""
        return self.station.subscribe(callback)

    def ledger_events(
        self, kinds: tuple[EventKind, ...] = (), last: int | None = None
    ) -> list[EventRecord]:
        """Recorded events of ``kinds`` (all when empty), the ``last`` ones if given,
        ticket numbers masked unless a manager is logged in."""
        return self.table.read(lambda a: a.events(kinds, last, viewer=SEAT))

    def recall(self, last: int = 10) -> list[RoundRecord]:
        """The last ``last`` rounds, most recent first (the open one shows no deck)."""
        return self.table.recall(last, station=SEAT)

    def decision_values(self) -> SeatValues | None:
        """The exact values of the player's decisions in the round open (None when the
        configuration does not record them or no round is open)."""
        return self.table.decision_values(SEAT)

    def recall_async(self, last: int = 10) -> Future[list[RoundRecord]]:
        """The player's last ``last`` settled rounds (the local station answers at once)."""
        return self.station.recall_async(last)

    @property
    def recall_kept_elsewhere(self) -> bool:
        """False: the cabinet's rounds are its own, deck included."""
        return False

    def station_view(self) -> None:
        """None: a lone cabinet shows no table of other seats."""
        return None

    # -- the player's and the operator's commands, one method each ---------------------------
    def add_chip(self, spot: Spot, cents: int) -> None:
        self.execute(cmd.PlaceChip(spot, cents))

    def clear_bets(self) -> None:
        self.execute(cmd.ClearBets())

    def repeat_bets(self) -> None:
        self.execute(cmd.RepeatBets())

    def deal(self) -> None:
        self.execute(cmd.Deal())

    def decide(self, action: Action) -> None:
        self.execute(cmd.Decide(action))

    def cash_out(self) -> PayoutRequest:
        request = self.execute(cmd.CashOut())
        assert isinstance(request, PayoutRequest)
        return request

    def handpay_reset(self) -> None:
        self.execute(cmd.HandpayReset())

    def operator_login(self, pin: str) -> str:
        role = self.execute(cmd.OperatorLogin(pin))
        assert isinstance(role, str)
        return role

    def operator_logout(self) -> None:
        self.execute(cmd.OperatorLogout())

    def clear_tilt(self, code: str) -> None:
        self.execute(cmd.ClearTilt(code))

    def door(self, open: bool) -> None:
        self.execute(cmd.SetDoor(open))

    def set_paytable(self, path: str | Path) -> None:
        self.execute(cmd.SetPaytable(path))

    def set_limits(
        self,
        *,
        ante_min: int | None = None,
        ante_max: int | None = None,
        trips_min: int | None = None,
        trips_max: int | None = None,
    ) -> None:
        self.execute(cmd.SetLimits(ante_min, ante_max, trips_min, trips_max))

    def ram_clear_witness(self, pin: str) -> str:
        name = self.execute(cmd.RamClearWitness(pin))
        assert isinstance(name, str)
        return name

    def ram_clear_request(self) -> str:
        code = self.execute(cmd.RamClearRequest())
        assert isinstance(code, str)
        return code

    def ram_clear(self, confirm_code: str) -> None:
        self.execute(cmd.RamClear(confirm_code))

    def tilt(self, code: str, message: str) -> None:
        """Stop play with a tilt (recorded).  Codes starting ``device:`` are for devices."""
        self.table.tilt(SEAT, code, message)

    # -- credits with no validator (tests, tools, the burn-in) ------------------------------------
    def insert_credits(
        self, cents: int, source: CreditSource = CreditSource.NOTE, validation: str = ""
    ) -> None:
        """Credit ``cents`` from ``source`` (:func:`kiosk.station.credits.insert_credits`)."""
        insert_credits(self.link, cmd.InsertCredits(cents, source, validation))

    # -- the validator's host (devices.host.ValidatorHost) -----------------------------------------
    def escrow_decision(self, denomination_cents: int, transaction_id: str) -> bool:
        """Stack the note in escrow?  Only once its acceptance is committed."""
        return self.notes.escrow_decision(denomination_cents, transaction_id)

    def bill_credited(self, denomination_cents: int, transaction_id: str) -> None:
        """VEND VALID: credit the note once (raises when it cannot be recorded: the driver
        then asks again)."""
        self.notes.bill_credited(denomination_cents, transaction_id)

    def bill_stacked(self, denomination_cents: int, transaction_id: str) -> bool:
        """VEND VALID for ``transaction_id``: True when credited now, False when it was
        credited already or matches no accepted escrow."""
        before = self.credits
        self.notes.bill_credited(denomination_cents, transaction_id)
        return self.credits > before

    def ticket_escrow(self, barcode: str, transaction_id: str) -> int | None:
        """A ticket in the validator's escrow: its amount (cents) to stack, or None."""
        return self.notes.ticket_escrow(barcode, transaction_id)

    def ticket_credited(self, barcode: str, amount_cents: int, transaction_id: str) -> None:
        self.notes.ticket_credited(barcode, amount_cents, transaction_id)

    def escrow_aborted(self, transaction_id: str, reason: str) -> None:
        self.notes.escrow_aborted(transaction_id, reason)

    def device_event(self, event: DeviceEvent) -> None:
        """A device event: tilting ones tilt / untilt the cabinet."""
        self.table.device_report(SEAT, event)

    def ledger_can_record(self) -> bool:
        """Probe the ledger before the validator is enabled."""
        return self.table.ledger_can_record(SEAT)

    def ticket(self, validation: str) -> TicketRecord | None:
        """The ticket issued here with ``validation`` (any status), None if unknown."""
        ledger = self.ledger
        if ledger is None:
            return None
        with self.table.lock:
            return ledger.ticket(validation)

    # -- the printer ---------------------------------------------------------------------------
    def use_printer(self, printer: PaperlessPrinter) -> None:
        """Print this cabinet's tickets on ``printer`` (through the station's link, as a
        station's printer does)."""
        self.printer = printer.attach(self.link)

    # -- reading ---------------------------------------------------------------------------------
    @property
    def ledger(self) -> Ledger | None:
        """The open ledger (None once closed or when it could not be opened)."""
        return self.table.ledger

    @property
    def credits(self) -> int:
        return self.table.credits(SEAT)

    def verify_ledger(self, replay: bool = False) -> VerifyReport | None:
        return self.table.read(lambda a: a.verify(replay))

    def meter_readings(self) -> dict[str, int] | None:
        return self.table.read(lambda a: a.meters())

    def ledger_id(self) -> str | None:
        return self.table.read(lambda a: a.ledger_id())

    def export_ledger(self, path: str | Path) -> Path:
        try:
            return self.table.read(lambda a: a.export(path))  # type: ignore[no-any-return]
        except MachineError:
            raise PlayDisabled("the ledger is not available", code=ErrorCode.LEDGER_FAULT) from None

    def hold(self, since: str | None = None) -> list[PaytableHold]:
        return self.table.read(lambda a: a.hold(since))  # type: ignore[no-any-return]

