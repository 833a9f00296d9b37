"""The table host on the network: one :class:`Table` behind one :class:`LinkServer`.

Each paired station's link (its seat is its station number) drives
``table.execute(seat, command)``:

* :class:`~kiosk.link.messages.Bet` -> the seat's chips (Trips, Ante, the progressive) and Deal, for
  the betting window the station quotes (``round_id``: the round the table deals next);
* :class:`~kiosk.link.messages.PassRound` -> :class:`Pass`;
* :class:`~kiosk.link.messages.Decide` -> a decision, only if the seat's
  :class:`DecisionGuard` accepts it (the open round and phase, made after the message
  that showed that phase, never twice);
* :class:`~kiosk.link.messages.Escrow` of a note -> :class:`AcceptEscrow`: the note's
  ``escrow_accepted`` committed, answered by an :class:`~kiosk.link.messages.EscrowAck`
  (``accepted``: stack it); nothing is credited yet; of a ticket -> :class:`AcceptTicket`
  (the answer's ``amount_cents`` says its amount);
* :class:`~kiosk.link.messages.ValidatorReport` (``vend_valid``, ``stacked``,
  ``returned``, ``in_doubt``) -> :class:`SettleEscrow`: credited or closed once per
  transaction (see :mod:`kiosk.service.escrows`), answered by an ``EscrowAck`` with its
  ``outcome`` (the station then lets the validator go on);
* :class:`~kiosk.link.messages.DeviceFault` -> the station's device event: it tilts,
  clears or settles that station's escrow (:meth:`Table.device_report`);
* :class:`~kiosk.link.messages.CashOutRequest`, :class:`HandpayReset` -> the payout: a
  ticket at a station whose printer reported ready (a
  :class:`~kiosk.link.messages.PrinterState`), ordered printed with a
  :class:`~kiosk.link.messages.PrintTicket` (again, ``resume``, when it is ready again),
  else a handpay; the :class:`~kiosk.link.messages.PrinterReport` settles it, answered
  with its ``outcome``; a burn-in's :class:`~kiosk.link.messages.TestCreditsReport` only
  in demo or burn-in mode (``burn_in``) and with a technician logged in at that
  station, recorded with that person;
* :class:`~kiosk.link.messages.ClearTilt` -> the attendant clears a jackpot tilt (the
  jackpot paid by hand; other tilts are not cleared over the link);
* :class:`~kiosk.link.messages.DoorSwitch` -> :class:`SetDoor`: the station's main door
  (recorded when it changes; the seat stops while it is open);
* :class:`~kiosk.link.messages.ResyncRequest` -> the current snapshot again;
* :class:`~kiosk.link.messages.RecallRequest` -> the seat's own last rounds
  (:mod:`kiosk.tablehost.recall_service`; the link's seat, never one the message names).

A station's operator session (:mod:`kiosk.tablehost.operator_service`) ends when its link
disconnects.

A refusal is answered with an :class:`ErrorMessage` (``decision.<verdict>``,
``window.<why>`` or ``table.<code>``) and logged; nothing changes.  After every change of
the table each connected station gets its own :class:`StationSnapshot` (only its seat's
cards; see :mod:`kiosk.service.wire`); countdowns alone do not resend it.  A snapshot
carries the table's limits and paytable only on a (re)connect, a resync and when they
change (the station keeps the last ones; the paytable's text is read once).  The service's
thread runs the table's timers (:meth:`Table.tick`, every ``tick_s`` seconds).

Dealer displays have their own link (``displays``: their pairings, kept apart from the
stations'; ``display_port``): each connected display gets ``{"table": ...}`` (the
table's :class:`~kiosk.service.display.TableSnapshot`, never a seat's cards before
settlement) after every change; anything a display sends is refused.

Locks: the service lock is taken before the table's; the table's subscriber only sets
an event.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from engine.uth.round import Phase
from kiosk.game import commands as cmd
from kiosk.game.errors import MachineError
from kiosk.game.vocabulary import JACKPOT_TILT, Bets
from kiosk.link.decisions import DecisionGuard, Verdict
from kiosk.link.events import Inbound, LinkEvent
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import (
    Bet,
    Body,
    CashOutRequest,
    ClearTilt,
    Decide,
    DeviceFault,
    DoorSwitch,
    ErrorMessage,
    Escrow,
    HandpayReset,
    PassRound,
    PrinterReport,
    PrinterState,
    RecallRequest,
    ResyncRequest,
    Snapshot,
    TestCreditsReport,
    ValidatorReport,
)
from kiosk.link.pairing import HostPairing
from kiosk.link.server import LinkServer
from kiosk.service.device_commands import (
    Pass,
)
from kiosk.service.table import Table
from kiosk.service.wager import place_wager
from kiosk.service.wire import (
    describe_decision,
    open_decision,
    paytable_state,
    snapshot_state,
    steady,
    steady_view,
    to_json,
)
from kiosk.tablehost.operator_service import OPERATOR_BODIES, OperatorService
from kiosk.tablehost.recall_service import RecallService
from kiosk.tablehost.station_reports import StationReports

log = logging.getLogger(__name__)

#: Tilts a station's attendant may clear over the link (a jackpot paid by hand).
LINK_CLEARABLE = frozenset({JACKPOT_TILT})


@dataclass
class _Seat:
    """The host's view of one station's link."""

    station_id: str
    guard: DecisionGuard = field(default_factory=DecisionGuard)
    connected: bool = False
    renumbered: bool = True  # the link's numbering restarted: reopen the guard
    opened: tuple[int, Phase] | None = None  # the decision the guard holds open
    sent: int = 0  # the last seq sent to the station
    last: object = None  # what was last sent, countdowns left out
    limits: object = None  # the limits last sent (a snapshot carries them when they change)
    paytable: str | None = None  # the SHA-256 of the paytable last sent


class TableHost:
    """A :class:`Table` served to its stations over a :class:`LinkServer` (see module).
    ``start()`` returns the port; ``stop()`` stops the link and the timers (the table
    stays open: the caller closes it)."""

    def __init__(
        self,
        table: Table,
        pairing: HostPairing,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: LinkLimits | None = None,
        tick_s: float = 0.1,
        displays: HostPairing | None = None,
        display_port: int = 0,
        burn_in: bool = False,
    ) -> None:
        self.table = table
        table.burn_in = burn_in  # test credits allowed outside demo (a technician's burn-in)
        self.pairing = pairing
        self.tick_s = tick_s
        self.link = LinkServer(pairing, self._on_message, self._on_event, host, port, limits)
        self.displays = (
            None
            if displays is None
            else LinkServer(
                displays,
                self._on_display_message,
                self._on_display_event,
                host,
                display_port,
                limits,
            )
        )
        self._screens: dict[str, object] = {}  # connected displays: what each was last sent
        self._lock = threading.RLock()
        self._seats: dict[int, _Seat] = {}
        self._dirty = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="table-host", daemon=True)
        self._unsubscribe = table.subscribe(self._dirty.set)
        self.refusals = 0
        self.operators = OperatorService(table, self._connected)
        self.recalls = RecallService(table)
        self.reports = StationReports(table, self._send, self._print_order, self._stopping)

    @property
    def burn_in(self) -> bool:
        """Test credits are allowed outside demo mode (a technician's burn-in)."""
        return self.table.burn_in

    @burn_in.setter
    def burn_in(self, on: bool) -> None:
        self.table.burn_in = on

    def _connected(self, seat: int) -> bool:
        with self._lock:
            own = self._seats.get(seat)
            return own is not None and own.connected

    # -- life cycle ----------------------------------------------------------------------
    def start(self) -> int:
        port = self.link.start()
        if self.displays is not None:
            self.displays.start()
        self._thread.start()
        return port

    def stop(self) -> None:
        self._stopping.set()
        self._dirty.set()
        if self._thread.is_alive():
            self._thread.join(5.0)
        self.link.stop()
        if self.displays is not None:
            self.displays.stop()
        self._unsubscribe()

    def __enter__(self) -> TableHost:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        return self.link.port

    @property
    def display_port(self) -> int | None:
        """The dealer displays' port (None without a display link)."""
        return self.displays.port if self.displays is not None else None

    def window(self) -> int:
        """The betting window's number: the id the table's next round will take."""
        ledger = self.table.ledger
        return ledger.counts()[0] + 1 if ledger is not None else 1

    # -- timers and snapshots --------------------------------------------------------------
    def _run(self) -> None:
        next_tick = time.monotonic()
        while not self._stopping.is_set():
            self._dirty.wait(max(0.0, next_tick - time.monotonic()))
            if self._stopping.is_set():
                break
            if time.monotonic() >= next_tick:
                next_tick = time.monotonic() + self.tick_s
                try:
                    self.table.tick()
                except Exception:  # a ledger fault tilts the table; keep serving it
                    log.exception("table timers failed")
            if self._dirty.is_set():
                self._dirty.clear()
                self.publish()

    def publish(self, force: bool = False) -> None:
        """Send each connected station its snapshot if it changed (``force``: always),
        and the print order of a ticket numbered since (by the casino's system)."""
        for seat in self.table.stations:
            self._publish(seat, force)
            self._order_new(seat)
        self._publish_displays(force)

    def _order_new(self, seat: int) -> None:
        with self._lock:
            own = self._seats.get(seat)
            if own is None or not own.connected:
                return
            order = self.table.fresh_print_order(seat)
            if order is None:
                return
            station_id = own.station_id
        self._send(station_id, order)

    def _publish_displays(self, force: bool, only: str | None = None) -> None:
        if self.displays is None:
            return
        with self._lock:
            screens = [only] if only is not None else list(self._screens)
            if not screens:
                return
            view = self.table.display()
            steady = steady_view(view)
            for station_id in screens:
                if not force and self._screens.get(station_id) == steady:
                    continue
                try:
                    self.displays.send(station_id, Snapshot(state={"table": to_json(view)}))
                except Exception as exc:
                    log.warning("table view for %s not queued: %s", station_id, exc)
                    continue
                self._screens[station_id] = steady

    def _on_display_event(self, event: LinkEvent) -> None:
        with self._lock:
            if event.kind == "connected":
                self._screens[event.station_id] = None
            elif event.kind == "disconnected":
                self._screens.pop(event.station_id, None)
        if event.kind == "connected":
            self._publish_displays(True, only=event.station_id)

    def _on_display_message(self, inbound: Inbound) -> None:
        if isinstance(inbound.body, ResyncRequest):
            self._publish_displays(True, only=inbound.station_id)
            return
        self.refusals += 1
        log.warning("refused %s from display %s", inbound.body.type, inbound.station_id)
        if self.displays is not None:
            try:
                self.displays.send(
                    inbound.station_id,
                    ErrorMessage(code="display.read-only", detail="a display only shows the table"),
                )
            except Exception as exc:
                log.warning("reply to display %s not queued: %s", inbound.station_id, exc)

    def _publish(self, seat: int, force: bool) -> None:
        with self._lock:
            own = self._seats.get(seat)
            if own is None or not own.connected:
                return
            snap = self.table.snapshot(seat)
            window = self.window()
            limits = self.table.limits.model_dump(mode="json")
            paytable = self.table.paytable_in_force()
            sha = paytable[0] if paytable is not None else None
            same = (steady(snap), window, limits, sha)
            if not force and same == own.last:
                return
            state = snapshot_state(snap, window)
            head = self.table.ledger_head()  # the stations witness it (kiosk.station.witness)
            if head is not None:
                state["ledger_head"] = head
            if force or limits != own.limits:
                state["limits"] = limits
            if paytable is not None and (force or sha != own.paytable):
                state["paytable"] = paytable_state(*paytable)
            try:
                seq = self.link.send(own.station_id, Snapshot(state=state))
            except Exception as exc:  # a station that acknowledges nothing for long
                log.warning("snapshot for seat %d not queued: %s", seat, exc)
                return
            own.sent, own.last = seq, same
            if "limits" in state:
                own.limits = limits
            if "paytable" in state:
                own.paytable = sha
            opening = open_decision(snap, seat)
            if opening != own.opened or (own.renumbered and opening is not None):
                if opening is None:
                    own.guard.close()
                else:
                    own.guard.open(opening[0], opening[1], seq)
                own.opened = opening
            own.renumbered = False

    # -- the link's events -----------------------------------------------------------------
    def _on_event(self, event: LinkEvent) -> None:
        seat = event.seat
        if seat not in self.table.stations:
            log.warning("%s is paired to seat %d, not at this table", event.station_id, seat)
            return
        with self._lock:
            own = self._seats.get(seat)
            if own is None or own.station_id != event.station_id:
                own = self._seats[seat] = _Seat(event.station_id)
            if event.kind == "connected":
                own.connected = True
                if not event.resumed:
                    own.renumbered, own.sent = True, 0
                    own.limits = own.paytable = None
            elif event.kind == "reset":
                own.renumbered, own.sent = True, 0
                own.limits = own.paytable = None
            elif event.kind == "disconnected":
                own.connected = False
        if event.kind == "connected":
            self._publish(seat, force=True)
        elif event.kind == "disconnected":
            self.operators.end(seat, "disconnected")

    # -- the stations' messages ------------------------------------------------------------
    def _on_message(self, inbound: Inbound) -> None:
        seat, body = inbound.seat, inbound.body
        if seat not in self.table.stations:
            self._refuse(inbound, "table.no_station", f"seat {seat} is not at this table")
            return
        try:
            self._dispatch(inbound, seat, body)
        except MachineError as exc:
            self._refuse(inbound, f"table.{exc.code}", exc.reason)

    def _dispatch(self, inbound: Inbound, seat: int, body: Body) -> None:
        if isinstance(body, ResyncRequest):
            self._publish(seat, force=True)
        elif isinstance(body, Decide):
            self._decide(inbound, seat, body)
        elif isinstance(body, Bet):
            if self._in_window(inbound, body.round_id):
                self._bet(seat, body)
        elif isinstance(body, PassRound):
            if self._in_window(inbound, body.round_id):
                self.table.execute(seat, Pass())
        elif isinstance(body, Escrow):
            self.reports.escrow(inbound, seat, body)
        elif isinstance(body, CashOutRequest):
            self.table.execute(seat, cmd.CashOut())
            self._print_order(inbound.station_id, seat)
        elif isinstance(body, HandpayReset):
            self.table.execute(seat, cmd.HandpayReset())
        elif isinstance(body, ClearTilt):
            if body.code not in LINK_CLEARABLE:
                self._refuse(inbound, "table.not-clearable", f"{body.code} is cleared at the host")
            else:
                self.table.execute(seat, cmd.ClearTilt(body.code))
        elif isinstance(body, ValidatorReport):
            self.reports.validator_report(inbound, seat, body)
        elif isinstance(body, PrinterState):
            self.reports.printer_state(inbound, seat, body)
        elif isinstance(body, PrinterReport):
            self.reports.printer_report(inbound, seat, body)
        elif isinstance(body, TestCreditsReport):
            self.reports.test_credits(inbound, seat, body)
        elif isinstance(body, DeviceFault):
            self.reports.device_fault(inbound, seat, body)
        elif isinstance(body, DoorSwitch):
            self.table.execute(seat, cmd.SetDoor(body.open))
        elif isinstance(body, OPERATOR_BODIES):
            self._send(inbound.station_id, self.operators.handle(seat, body))
        elif isinstance(body, RecallRequest):
            self._send(inbound.station_id, self.recalls.answer(seat, body))
        else:
            self._refuse(inbound, "table.unexpected", f"{body.type} is not for the table")

    def _in_window(self, inbound: Inbound, round_id: int) -> bool:
        window = self.window()
        if round_id != window:
            self._refuse(inbound, "window.wrong-round", f"window {round_id}, not {window}")
            return False
        return True

    def _bet(self, seat: int, body: Bet) -> None:
        """The whole wager in one go: on a refusal the seat's chips are taken back."""
        bets = Bets(body.ante_cents, body.trips_cents, body.progressive_cents)
        place_wager(self.table, seat, bets)

    def _decide(self, inbound: Inbound, seat: int, body: Decide) -> None:
        with self._lock:
            own = self._seats.get(seat)
            if own is None:
                self._refuse(inbound, "decision.not-open", "no decision is open")
                return
            offered = {o.action for o in self.table.snapshot(seat).offers}
            if body.action not in offered and own.opened == (body.round_id, body.phase):
                # refused before the guard spends the seat's one decision of the phase
                self._refuse(inbound, "table.not-offered", describe_decision(body))
                return
            verdict = own.guard.check(body, sent=own.sent)
            if verdict is not Verdict.ACCEPTED:
                self._refuse(inbound, f"decision.{verdict.value}", describe_decision(body))
                return
            self.table.execute(seat, cmd.Decide(body.action))

    def _print_order(self, station_id: str, seat: int, resume: bool = False) -> None:
        order = self.table.print_order(seat, resume)
        if order is not None:
            self._send(station_id, order)

    def _refuse(self, inbound: Inbound, code: str, detail: str) -> None:
        self.refusals += 1
        log.warning(
            "refused %s seq %d from %s (seat %d): %s %s",
            inbound.body.type,
            inbound.seq,
            inbound.station_id,
            inbound.seat,
            code,
            detail,
        )
        self._send(inbound.station_id, ErrorMessage(code=code[:48], detail=detail[:512]))

    def _send(self, station_id: str, body: Body) -> None:
        with self._lock:
            try:
                seq = self.link.send(station_id, body)
            except Exception as exc:
                log.warning("reply to %s not queued: %s", station_id, exc)
                return
            for own in self._seats.values():
                if own.station_id == station_id:
                    own.sent = max(own.sent, seq)
