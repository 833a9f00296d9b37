"""One machine address on the line: a station answering the host's polls from the
shared view, within the poll thread's time (no ledger, no game lock, no file I/O).

Requests that change the game (shutdown / startup, bill acceptor on / off, a validation
number, a ticket redemption) are answered at once and handed to the updater thread
(:meth:`~kiosk.sas.shared.Shared.submit`), which asks the game service and writes the
exchange down.  Each :class:`Answer` carries what happens when the host acknowledges it
(implied ACK): the exception leaves the queue, the ticket record counts as read.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from devices.sas.bcd import BcdError, bcd_digits
from devices.sas.progressive import (
    SEND_WIN_AMOUNT,
    ProgressiveMessageError,
    Win,
    handpay_info_answer,
    no_win_answer,
    win_amount_answer,
)
from kiosk.sas import codec
from kiosk.sas.codec import GENERAL, BadRequest, Request
from kiosk.sas.codes import LP, PRIORITY, REFUSED, Exc
from kiosk.sas.port import GamePort, PortRefused, RedemptionState, ValidationRecord
from kiosk.sas.progressive import BY as PROGRESSIVE_BY
from kiosk.sas.shared import RomSignature, Shared
from kiosk.sas.store import Exchange
from kiosk.sas.view import StationView

log = logging.getLogger(__name__)

#: A name the link records its requests with.
BY = "sas-host"
#: Tickets a station keeps for long poll 4D (buffer indexes 1..31).
VALIDATION_BUFFER = 31


@dataclass(frozen=True)
class Answer:
    """What to send (``data``), and what the host's implied ACK of it does."""

    data: bytes
    on_ack: Callable[[], None] | None = None
    #: A real-time event sent instead of a long poll's answer (the host sends the poll
    #: again: that repeat acknowledges the event).
    event_for_poll: bool = False


def record_index(record: ValidationRecord) -> int:
    """A ticket's 4D buffer index, 1..31, from its sequence number."""
    return (record.sequence - 1) % VALIDATION_BUFFER + 1


class Egm:
    """Station ``station`` at ``address``; ``port`` is only used through
    :meth:`Shared.submit` (on the updater thread)."""

    def __init__(self, address: int, station: int, shared: Shared, port: GamePort) -> None:
        self.address = address
        self.station = station
        self.shared = shared
        self.port = port
        self.ignored = 0  # polls not answered (unsupported, refused, bad)

    # -- the front ----------------------------------------------------------------------
    def answer(self, req: Request) -> Answer | None:
        """The answer to ``req`` (None: say nothing)."""
        view = self.shared.view
        if view is None:
            return Answer(codec.busy(self.address))
        station = view.stations.get(self.station, StationView())
        if req.command in (LP.PROGRESSIVE_BROADCAST, LP.MULTIPLE_PROGRESSIVE_BROADCAST):
            return self._progressive_broadcast(req)
        try:
            if req.command == GENERAL:
                return self._general(station)
            if self.station in self.shared.real_time and req.command not in (LP.REAL_TIME_EVENTS,):
                event = self._queued_event(station)
                if event is not None:
                    return Answer(event.data, event.on_ack, event_for_poll=True)
            return self._long(req, station, view)
        except BadRequest as exc:
            self.ignored += 1
            log.info("station %d: %s", self.station, exc.reason)
            return None if exc.answer is None else Answer(exc.answer)

    # -- general poll -----------------------------------------------------------------
    def _general(self, station: StationView) -> Answer:
        rom = self.shared.rom
        if rom is not None and rom.result is not None:
            sig = rom.result

            def done() -> None:
                if self.shared.rom is rom:
                    self.shared.rom = None

            return Answer(codec.build_rom_signature(self.address, sig), done)
        priority = self._priority(station)
        if priority is not None:
            return priority
        event = self._queued_event(station)
        if event is not None:
            return event
        return Answer(bytes((Exc.NO_ACTIVITY,)))

    def _queued_event(self, station: StationView) -> Answer | None:
        queued = self.shared.queue.peek(self.station)
        if queued is None:
            return None
        real_time = self.station in self.shared.real_time
        data = (
            codec.build_event(self.address, queued.code, queued.data)
            if real_time
            else bytes((queued.code,))
        )
        return Answer(data, lambda: self.shared.queue.acknowledge(self.station, queued))

    def _priority(self, station: StationView) -> Answer | None:
        """Exceptions 57, 67, 68 from the state they report, until acknowledged."""
        candidates: list[tuple[int, str]] = []
        cash = station.pending_cashout
        if (
            cash is not None
            and self.shared.exchange(self.station, "validation", cash.cashout_id) is None
        ):
            candidates.append((Exc.SYSTEM_VALIDATION_REQUEST, cash.cashout_id))
        if station.escrow is not None:
            candidates.append((Exc.TICKET_INSERTED, station.escrow.escrow_id))
        for ref, red in station.redemptions.items():
            if red.state is not RedemptionState.STACKING:
                candidates.append((Exc.TICKET_TRANSFER_COMPLETE, ref))
        for code, ref in candidates:
            key = (self.station, code, ref)
            if key in self.shared.announced:
                continue
            assert code in PRIORITY
            real_time = self.station in self.shared.real_time
            data = codec.build_event(self.address, code, b"") if real_time else bytes((code,))
            return Answer(data, self._announce(key))
        return None

    def _announce(self, key: tuple[int, int, str]) -> Callable[[], None]:
        """The host acknowledged priority exception ``key``: not raised again."""
        return lambda: self.shared.announced.add(key)

    # -- long polls -----------------------------------------------------------------------
    def _long(self, req: Request, station: StationView, view) -> Answer | None:  # noqa: ANN001
        a, cmd, meters = self.address, req.command, station.meters
        if cmd in REFUSED:
            self.ignored += 1
            log.info("station %d: long poll %02X refused (not supported)", self.station, cmd)
            return None
        if cmd in (LP.METERS_10_15, LP.METERS_11_15, LP.METERS):
            extra = (station.door_opens, station.power_ups)
            return Answer(codec.build_meter_set(a, cmd, meters, extra))
        if cmd == LP.CREDITS:
            return Answer(codec.build_credits(a, meters))
        if cmd == LP.SELECTED_METERS:
            game = codec.bcd_field(req, 0, 2)
            return Answer(codec.build_selected_meters(a, game, req.data[2:], meters))
        if cmd in (LP.EXTENDED_METERS, LP.EXTENDED_METERS_ALT):
            game = codec.bcd_field(req, 0, 2)
            body = req.data[2:]
            codes = [int.from_bytes(body[i : i + 2], "little") for i in range(0, len(body) - 1, 2)]
            return Answer(codec.build_extended_meters(a, cmd, game, codes, meters))
        if cmd == LP.MACHINE_INFO:
            return Answer(codec.build_machine_info(a, view.info))
        if cmd == LP.SAS_VERSION:
            return Answer(codec.build_version(a, view.info))
        if cmd == LP.ENABLED_FEATURES:
            game = codec.bcd_field(req, 0, 2)
            caps = view.capabilities
            return Answer(codec.build_features(
                a, game, validation=caps.system_validation, redemption=caps.ticket_redemption
            ))  # fmt: skip
        if cmd == LP.DATE_TIME:
            return Answer(codec.build_date_time(a, self.shared.now()))
        if cmd == LP.SET_DATE_TIME:
            when = codec.parse_date_time(req)
            from datetime import UTC, datetime

            self.shared.clock_offset = when - datetime.now(UTC).replace(tzinfo=None)
            return None if req.broadcast else Answer(codec.ack(a))
        if cmd == LP.REAL_TIME_EVENTS:
            if req.data[:1] == b"\x01":
                self.shared.real_time.add(self.station)
            else:
                self.shared.real_time.discard(self.station)
            return Answer(codec.ack(a))
        if cmd in (LP.SHUTDOWN, LP.STARTUP):
            enable = cmd == LP.STARTUP
            self.shared.submit(lambda: self._call(self.port.set_enabled, self.station, enable, BY))
            return Answer(codec.ack(a))
        if cmd in (LP.ENABLE_BILL_ACCEPTOR, LP.DISABLE_BILL_ACCEPTOR, LP.CONFIGURE_BILLS):
            if not view.capabilities.note_acceptor_control:
                self.ignored += 1
                return None
            enable = cmd != LP.DISABLE_BILL_ACCEPTOR
            self.shared.submit(
                lambda: self._call(self.port.set_note_acceptance, self.station, enable, BY)
            )
            return Answer(codec.ack(a))
        if cmd == LP.PROGRESSIVE_WIN_AMOUNT:
            return Answer(self._win_amount(station))
        if cmd == LP.HANDPAY_INFO:
            return Answer(self._handpay_info(station))
        if cmd == LP.ROM_SIGNATURE:
            return self._rom(req)
        if cmd == LP.PENDING_CASHOUT:
            return self._pending_cashout(station, view)
        if cmd == LP.RECEIVE_VALIDATION:
            return self._receive_validation(req, station, view)
        if cmd == LP.ENHANCED_VALIDATION:
            return self._validation_info(req, station)
        if cmd == LP.TICKET_VALIDATION_DATA:
            if not view.capabilities.ticket_redemption:
                return Answer(codec.build_ticket_data(a, None))
            escrow = station.escrow
            return Answer(codec.build_ticket_data(a, None if escrow is None else escrow.validation))
        if cmd == LP.REDEEM_TICKET:
            return self._redeem(req, station, view)
        if cmd == LP.EXTENDED_VALIDATION_STATUS:
            days = view.info.expiry_days
            bits = 0x0001 if view.capabilities.system_validation else 0x0000
            bits |= 0x0020 if view.capabilities.ticket_redemption else 0
            return Answer(codec.build_extended_validation_status(
                a, view.info.asset_number, bits, days, days
            ))  # fmt: skip
        if cmd == LP.EXTENDED_TICKET_DATA:
            return Answer(codec.build_ticket_data_ack(a))
        self.ignored += 1
        return None

    # -- progressive wins (SAS 6.02 long polls 84 and 1B; see kiosk.service.progressive) ---
    def _win_amount(self, station: StationView) -> bytes:
        """84: the station's last win on the linked level (its exception 54 says when);
        group, level and amount 0 before any."""
        won = station.progressive_win
        if won is None:
            return no_win_answer(self.address)
        return win_amount_answer(
            self.address, SEND_WIN_AMOUNT, Win(won.group, won.level, won.cents)
        )

    def _handpay_info(self, station: StationView) -> bytes:
        """1B: the linked level's win waiting to be paid by hand (its exception 51 says
        when); every field 0 when none waits (this machine reports no other handpay
        on 1B)."""
        won = station.progressive_win
        if won is None or not won.handpay_pending:
            return handpay_info_answer(self.address, None)
        return handpay_info_answer(self.address, Win(won.group, won.level, won.cents))

    # -- progressive broadcasts (SAS 6.02 long polls 80 / 86; see kiosk.sas.progressive) ---
    def _progressive_broadcast(self, req: Request) -> Answer | None:
        """80 / 86: the levels to the listener (and, when new, to the game); an ACK when
        addressed to this machine, a NACK for a malformed one, nothing to a broadcast.
        A machine not linked does not take them (no answer)."""
        listener = self.shared.progressive
        if listener is None:
            self.ignored += 1
            return None
        try:
            levels = listener.heard(req.raw, time.monotonic())
        except ProgressiveMessageError:
            self.ignored += 1
            return None if req.broadcast else Answer(codec.nack(self.address))
        if levels is not None:
            group = listener.link.group
            self.shared.submit(
                lambda: self._call(self.port.progressive_levels, group, levels, PROGRESSIVE_BY)
            )
        return None if req.broadcast else Answer(codec.ack(self.address))

    def _call(self, method: Callable[..., object], *args: object) -> None:
        """Run a port request on the updater thread; a refusal is logged."""
        try:
            method(*args)
        except PortRefused as exc:
            log.warning(
                "station %d: the game refused %s: %s", self.station, method.__name__, exc.reason
            )

    # -- ROM signature ---------------------------------------------------------------------
    def _rom(self, req: Request) -> Answer | None:
        """Start the signature off the poll thread; the answer goes to the first general
        poll after it is done (nothing is said now).  The same seed again while it runs
        starts nothing new."""
        seed = int.from_bytes(req.data[:2], "little")
        rom = self.shared.rom
        if rom is None or rom.seed != seed or rom.result is not None:
            self.shared.rom = RomSignature(seed)
            self.shared.wake.set()
        return None

    # -- system validation ------------------------------------------------------------------
    def _pending_cashout(self, station: StationView, view) -> Answer:  # noqa: ANN001
        cash = station.pending_cashout
        if cash is None or not view.capabilities.system_validation:
            return Answer(codec.build_pending_cashout(self.address, None))
        if self.shared.exchange(self.station, "validation", cash.cashout_id) is not None:
            return Answer(codec.build_pending_cashout(self.address, None))
        return Answer(codec.build_pending_cashout(self.address, cash.amount, cash.restricted))

    def _receive_validation(self, req: Request, station: StationView, view) -> Answer:  # noqa: ANN001
        a = self.address
        cash = station.pending_cashout
        if (
            cash is None
            or not view.capabilities.system_validation
            or self.shared.exchange(self.station, "validation", cash.cashout_id) is not None
        ):
            return Answer(codec.build_validation_status(a, 0x80))  # not in a cash-out
        if len(req.data) != 9:
            raise BadRequest("58: wrong length", codec.nack(a))
        try:
            system = bcd_digits(req.data[:1])
            number = bcd_digits(req.data[1:9])
        except BcdError:
            return Answer(codec.build_validation_status(a, 0x81))
        validation = None if system == "00" else system + number
        ex = Exchange(self.station, "validation", cash.cashout_id, "delivering",
                      {"validation": validation, "amount": cash.amount})  # fmt: skip
        self.shared.put_exchange(ex)
        self.shared.submit(lambda: self._deliver(ex))
        return Answer(codec.build_validation_status(a, 0x00))

    def _deliver(self, ex: Exchange) -> None:
        try:
            self.port.deliver_validation(self.station, ex.ref, ex.detail["validation"])
            state = "delivered"
        except PortRefused as exc:
            log.warning("validation for %s refused: %s", ex.ref, exc.reason)
            state = "refused"
        self.shared.put_exchange(Exchange(ex.station, ex.kind, ex.ref, state, ex.detail))

    def _validation_info(self, req: Request, station: StationView) -> Answer:
        function = req.data[0] if req.data else 0
        records = station.records[-VALIDATION_BUFFER:]
        if function in (0x00, 0xFF):
            last = self.shared.read_tickets.get(self.station, 0)
            unread = [r for r in records if r.event_id > last]
            record = unread[0] if unread else None
            index = record_index(record) if record else 0
            data = codec.build_validation_record(self.address, record, index)
            if function == 0x00 and record is not None:

                def read(record: ValidationRecord = record) -> None:
                    self.shared.read_tickets[self.station] = record.event_id
                    self.shared.wake.set()

                return Answer(data, read)
            return Answer(data)
        found = next((r for r in records if record_index(r) == function), None)
        return Answer(codec.build_validation_record(self.address, found, function if found else 0))

    # -- ticket redemption ------------------------------------------------------------------
    def _redeem(self, req: Request, station: StationView, view) -> Answer:  # noqa: ANN001
        a = self.address
        if not view.capabilities.ticket_redemption:
            return Answer(codec.build_redeem_status(a, 0x8A))  # redemption disabled
        r = codec.parse_redeem(req)
        escrow = station.escrow
        if r.code == 0xFF:
            return Answer(self._redeem_status(station))
        if escrow is None:  # the same 71 after the cycle ended: how it ended
            with self.shared.lock:
                done = [k[2] for k, ex in self.shared.exchanges.items()
                        if k[:2] == (self.station, "redeem") and ex.detail.get("validation") == r.validation]  # fmt: skip
            if done:
                return Answer(self._redeem_status(station, done[-1]))
            return Answer(codec.build_redeem_status(a, 0xC0))  # no redemption cycle
        ex = self.shared.exchange(self.station, "redeem", escrow.escrow_id)
        if ex is not None:  # the same 71 again: how it stands, nothing asked twice
            return Answer(self._redeem_status(station, escrow.escrow_id))
        if r.validation != escrow.validation:
            return Answer(codec.build_redeem_status(a, 0x81, r.amount, escrow.validation))
        if r.code >= 0x80:
            ex = Exchange(self.station, "redeem", escrow.escrow_id, "refused",
                          {"validation": escrow.validation, "amount": 0, "code": r.code})  # fmt: skip
            self.shared.put_exchange(ex)
            self.shared.submit(
                lambda: self._call(self.port.refuse_ticket, self.station, escrow.escrow_id, r.code)
            )
            return Answer(codec.build_redeem_status(a, 0x80, 0, escrow.validation))
        if r.code not in (0x00, 0x01, 0x02):
            return Answer(codec.build_redeem_status(a, 0x82, r.amount, escrow.validation))
        if r.amount <= 0:
            return Answer(codec.build_redeem_status(a, 0x83, r.amount, escrow.validation))
        ex = Exchange(self.station, "redeem", escrow.escrow_id, "authorised",
                      {"validation": escrow.validation, "amount": r.amount, "code": r.code})  # fmt: skip
        self.shared.put_exchange(ex)
        self.shared.submit(lambda: self._authorise(ex))
        return Answer(codec.build_redeem_status(a, 0x40, r.amount, escrow.validation))

    def _authorise(self, ex: Exchange) -> None:
        detail = ex.detail
        try:
            self.port.redeem_ticket(
                self.station, ex.ref, int(detail["amount"]), detail["code"] == 1
            )
            state = "stacking"
        except PortRefused as exc:
            log.warning("redemption %s refused by the game: %s", ex.ref, exc.reason)
            state = "unable"
        self.shared.put_exchange(Exchange(ex.station, ex.kind, ex.ref, state, detail))

    def _redeem_status(self, station: StationView, escrow_id: str | None = None) -> bytes:
        """Long poll 71's status: of ``escrow_id``, else of the latest exchange."""
        a = self.address
        if escrow_id is None:
            if station.escrow is not None:
                escrow_id = station.escrow.escrow_id
            else:
                with self.shared.lock:
                    mine = [
                        k[2] for k in self.shared.exchanges if k[:2] == (self.station, "redeem")
                    ]
                if not mine:
                    return codec.build_redeem_status(a, 0xFF)
                escrow_id = mine[-1]
        ex = self.shared.exchange(self.station, "redeem", escrow_id)
        if ex is None:
            return codec.build_redeem_status(
                a, 0x20, 0, station.escrow.validation if station.escrow else None
            )
        v, amount = ex.detail["validation"], int(ex.detail["amount"])
        red = station.redemptions.get(escrow_id)
        if ex.state == "refused":
            return codec.build_redeem_status(a, 0x80, 0, v)
        if ex.state == "unable" or (red is not None and red.state is RedemptionState.RETURNED):
            return codec.build_redeem_status(a, 0x87, amount, v)
        if red is not None and red.state is RedemptionState.CREDITED:
            return codec.build_redeem_status(a, int(ex.detail["code"]), red.amount, v)
        return codec.build_redeem_status(a, 0x40, amount, v)
