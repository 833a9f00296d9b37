"""The :class:`~kiosk.sas.port.GamePort` over the game service
(:class:`~kiosk.service.table.Table`): every station of a lone cabinet (station 1) or of a
shared table, each its own machine address.

Reads: the stations' meters through the service (under its lock, briefly, on the link's
updater thread); events, round rows and tickets through a read-only connection of the
port's own to the ledger's file, with the cabinet key (every event row authenticated as
it is read), which sees committed rows only and never waits for the service's lock.

Requests go to the service as its commands (:mod:`kiosk.service.slot_system`): play
stopped and resumed, note acceptance, the system's validation numbers, tickets of other
machines redeemed or refused; a refusal comes back as :class:`PortRefused`.  The SAS
ticket-in meters count this machine's tickets and other machines' redeemed here
(``tickets_in`` + ``system_tickets_in``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kiosk.game.errors import MachineError
from kiosk.game.paytables.rtp_record import cabinet_key, known_rtp
from kiosk.game.vocabulary import JACKPOT_TILT
from kiosk.ledger.key import CabinetKey, KeyFileError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import EventRecord
from kiosk.sas.port import (
    Capabilities,
    GameEvent,
    LinkedProgressive,
    LinkedWin,
    MachineInfo,
    PendingCashout,
    PortRefused,
    Redemption,
    RedemptionState,
    RoundRow,
    TicketInEscrow,
    ValidationRecord,
)
from kiosk.service.device_commands import (
    Command,
    DeliverValidation,
    SystemNotes,
    SystemPlay,
    SystemProgressiveLevels,
    SystemProgressiveLost,
    SystemRedeem,
    SystemRefuse,
)
from kiosk.service.dispatch import Outcome
from kiosk.service.table import Table


def _event(ev: EventRecord) -> GameEvent:
    return GameEvent(ev.id, ev.kind, ev.station, ev.amount, ev.at, dict(ev.detail), ev.txn)


def _row(r: Mapping[str, Any]) -> RoundRow:
    staked = r["ante"] + r["blind"] + r["trips"] + r["play"]
    return RoundRow(
        r["id"], r["seat"], r["state"], staked, r["paid"] or 0, r["jackpot"] or 0,
        r["started_at"] or "", r["settled_at"] or "",
    )  # fmt: skip


def base_pct(table: Table, key: CabinetKey | None) -> int:
    """The paytable's main-game return under optimal play, hundredths of a percent, from
    its proven record (:func:`kiosk.game.paytables.rtp_record.known_rtp`, checked with the
    cabinet ``key``); 0 when it has none (not known, or computing at power-up)."""
    record = known_rtp(table.paytable, key)
    return 0 if record is None else record.base_pct


class TablePort:
    """The game service ``table``, each of its stations."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._info: MachineInfo | None = None
        self._info_of = ""  # the paytable's SHA-256 of ``_info``
        self._reader: Ledger | None = None

    def _view(self) -> Ledger:
        """The read-only connection (opened on first use, on the updater thread)."""
        if self._reader is None:
            config = self.table.config
            try:
                key: CabinetKey | None = CabinetKey.load(config.key_path)
            except KeyFileError:
                key = None
            self._reader = Ledger.open(config.db_path, readonly=True, key=key)
        return self._reader

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def stations(self) -> tuple[int, ...]:
        return self.table.stations

    def machine_info(self) -> MachineInfo:
        """The machine's identity (long poll 1F), built again when the paytable changes
        or while its return is not known yet."""
        info, sha = self._info, self.table.paytable.sha256
        if info is None or info.base_pct == 0 or self._info_of != sha:
            table, config = self.table, self.table.config
            limits = table.limits
            number = "".join(c for c in config.machine_number if c.isdigit()) or "0"
            info = self._info = MachineInfo(
                game_id="UT",
                additional_id="000",
                paytable_id=(
                    table.paytable.name.replace(" ", "")[:4] + table.paytable.sha256[:2]
                ).upper(),
                base_pct=base_pct(table, cabinet_key(config.key_path)),
                max_bet=6 * limits.ante_max + limits.trips_max,
                serial=config.machine_number,
                asset_number=int(number) % 2**32,
                expiry_days=config.ticket_expiry_days,
            )
            self._info_of = sha
        return info

    def capabilities(self) -> Capabilities:
        system = self.table.slot_system_use()
        return Capabilities(
            system_validation=system[0], ticket_redemption=system[1], note_acceptor_control=True
        )

    def meters(self, station: int) -> Mapping[str, int]:
        out = dict(self.table.meter_readings(station))
        out["tickets_in"] = out.get("tickets_in", 0) + out.get("system_tickets_in", 0)
        out["tickets_in_count"] = out.get("tickets_in_count", 0) + out.get(
            "system_tickets_in_count", 0
        )
        return out

    def events_after(self, event_id: int, limit: int) -> Sequence[GameEvent]:
        view = self._view()
        if event_id == 0 and limit == 1:
            return [_event(ev) for ev in view.events(last=1)]
        events = view.events(after=event_id, last=None)[:limit]
        return [_event(ev) for ev in events]

    def rounds_after(self, round_id: int, limit: int) -> Sequence[RoundRow]:
        view = self._view()
        if round_id == 0 and limit == 1:
            rows = view.round_rows("ORDER BY id DESC LIMIT 1")
        else:
            rows = view.round_rows("WHERE id > ? ORDER BY id LIMIT ?", (round_id, limit))
        return [_row(r) for r in rows]

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        return self.table.subscribe(callback)

    def _ask(self, station: int, command: Command) -> Outcome:
        try:
            return self.table.execute(station, command)
        except MachineError as exc:
            raise PortRefused(exc.reason) from None

    def set_enabled(self, station: int, enabled: bool, by: str) -> None:
        self._ask(station, SystemPlay(enabled, by))

    def set_note_acceptance(self, station: int, enabled: bool, by: str) -> None:
        self._ask(station, SystemNotes(enabled, by))

    def pending_cashout(self, station: int) -> PendingCashout | None:
        payout = self.table.pending_payout(station)
        if payout is None or not payout.awaiting:
            return None
        return PendingCashout(payout.txn, payout.amount)

    def deliver_validation(self, station: int, cashout_id: str, validation: str | None) -> None:
        self._ask(station, DeliverValidation(cashout_id, validation))

    def validation_records(self, station: int, limit: int) -> Sequence[ValidationRecord]:
        """The station's tickets printed (4D type 00) and the tickets' numbers voided
        when their cash-out became a handpay (type 40, "handpay from cash out, no
        receipt", SAS 6.02 section 15.10 and table 15.13c), in the order they happened.

        SAS 6.02 has no message for "this validation number is void": a number the
        host gave (58) whose ticket may have come out of the printer before a power cut
        is reported as a handpay of that cash-out, with exception 3E ("handpay
        validated", section 15: secure enhanced and system validation report 3D or 3E),
        so the host never honours a number the machine also paid by hand."""
        view = self._view()
        printed = [
            ValidationRecord(
                t.print_event or 0,
                t.validation,
                t.amount,
                t.sequence,
                t.printed_at or "",
                t.expires_on,
            )  # fmt: skip
            for t in view.tickets(last=limit + 8)
            if t.print_event is not None and t.printed_at is not None and t.station == station
        ]
        for ev in view.events((EventKind.CASHOUT_HANDPAY,), last=limit, station=station):
            number = ev.detail.get("validation")
            ticket = view.ticket(str(number)) if number else None
            if ticket is not None:
                printed.append(ValidationRecord(ev.id, ticket.validation, ticket.amount,
                                                ticket.sequence, ev.at, None, 0x40))  # fmt: skip
        printed.sort(key=lambda r: r.event_id)
        return printed[-limit:]

    def ticket_in_escrow(self, station: int) -> TicketInEscrow | None:
        held = self.table.held_ticket(station)
        return None if held is None else TicketInEscrow(held.txn, held.validation)

    def redeem_ticket(self, station: int, escrow_id: str, amount: int, restricted: bool) -> None:
        self._ask(station, SystemRedeem(escrow_id, amount))

    def refuse_ticket(self, station: int, escrow_id: str, code: int) -> None:
        self._ask(station, SystemRefuse(escrow_id))

    def redemption(self, station: int, escrow_id: str) -> Redemption | None:
        found = self.table.redemption(station, escrow_id)
        if found is None:
            return None
        state, validation, amount = found
        return Redemption(escrow_id, validation, amount, RedemptionState(state))

    # -- the linked progressive ---------------------------------------------------------
    def progressive_link(self) -> LinkedProgressive | None:
        link = self.table.config.progressive_link
        return None if link is None else LinkedProgressive(link.group, link.level)

    def progressive_levels(self, group: int, levels: Sequence[tuple[int, int]], by: str) -> None:
        heard = tuple((int(level), int(cents)) for level, cents in levels)
        self._ask(self.table.stations[0], SystemProgressiveLevels(group, heard, by))

    def progressive_lost(self, group: int, by: str) -> None:
        self._ask(self.table.stations[0], SystemProgressiveLost(group, by))

    def progressive_win(self, station: int) -> LinkedWin | None:
        """The station's last win on the linked level; a hand-paid one is pending until
        the station's jackpot tilt is keyed off after it."""
        view = self._view()
        found = view.events((EventKind.PROGRESSIVE_LINK_WIN,), station=station, last=1)
        if not found:
            return None
        ev = found[-1]
        d = ev.detail
        hand_paid = bool(d["hand_paid"])
        pending = hand_paid and not any(
            c.detail.get("code") == JACKPOT_TILT
            for c in view.events((EventKind.TILT_CLEARED,), after=ev.id, station=station)
        )
        return LinkedWin(
            int(d["group"]), int(d["level"]), ev.amount, hand_paid, ev.id, handpay_pending=pending
        )
