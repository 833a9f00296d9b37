"""The :class:`~kiosk.sas.port.GamePort` over today's cabinet controller,
:class:`~kiosk.machine.controller.Machine` (one station, station 1), through its public
API only; the game service replaces it.

Reads: ``meter_readings()`` and ``snapshot()`` (under the machine's lock, briefly, on the
link's updater thread); events, round rows and tickets through a read-only connection of
its own to the ledger's file, with the cabinet key (every event row authenticated as it
is read), which sees committed rows only and never waits for the machine's lock.

What the Machine cannot do, it says: host shutdown (01) raises the
:data:`~kiosk.sas.exceptions.HOST_SHUTDOWN_TILT` tilt (play stops, cash-out still
allowed) and startup (02) is refused unless an attendant clears that tilt (the Machine
clears tilts only for a logged-in operator); the bill validator is not reachable from the
Machine (06 / 07 are not answered); system validation and ticket redemption through the
host need money paths the Machine does not have (A0 reports them off, 57 answers "not
waiting", 70 "no ticket", 71 "redemption disabled").  The cabinet keeps its own
validation numbers and redeems its own tickets, as without a host.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kiosk.ledger.key import CabinetKey, KeyFileError
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import EventRecord
from kiosk.machine.controller import Machine, MachineError
from kiosk.sas.exceptions import HOST_SHUTDOWN_TILT
from kiosk.sas.port import (
    Capabilities,
    GameEvent,
    MachineInfo,
    PendingCashout,
    PortRefused,
    Redemption,
    RoundRow,
    TicketInEscrow,
    ValidationRecord,
)


def _event(ev: EventRecord) -> GameEvent:
    return GameEvent(ev.id, ev.kind, ev.station, ev.amount, ev.at, dict(ev.detail), ev.txn)


def _row(r: Mapping[str, Any]) -> RoundRow:
    staked = r["ante"] + r["blind"] + r["trips"] + r["play"]
    return RoundRow(
        r["id"], r["seat"], r["state"], staked, r["paid"] or 0, r["jackpot"] or 0,
        r["started_at"] or "", r["settled_at"] or "",
    )  # fmt: skip


def base_pct(machine: Machine) -> int:
    """The paytable's main-game return under optimal play, hundredths of a percent, when
    the PAR cache has it (else 0: not known)."""
    from engine.maths.cache import cached_rtp

    try:
        rtps = cached_rtp(machine.snapshot().paytable)
    except (OSError, ValueError):
        return 0
    return 0 if not rtps else round(rtps["main_total"] * 10_000)


class MachinePort:
    """One :class:`Machine` as station 1."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self._info: MachineInfo | None = None
        self._reader: Ledger | None = None

    def _view(self) -> Ledger:
        """The read-only connection (opened on first use, on the updater thread)."""
        if self._reader is None:
            config = self.machine.config
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
        return (1,)

    def machine_info(self) -> MachineInfo:
        if self._info is None:
            snap = self.machine.snapshot()
            config = self.machine.config
            limits = snap.limits
            number = "".join(c for c in config.machine_number if c.isdigit()) or "0"
            self._info = MachineInfo(
                game_id="UT",
                additional_id="000",
                paytable_id=(snap.paytable.name.replace(" ", "")[:4] + snap.paytable.sha256[:2]).upper(),
                base_pct=base_pct(self.machine),
                max_bet=6 * limits.ante_max + limits.trips_max,
                serial=config.machine_number,
                asset_number=int(number) % 2**32,
                expiry_days=config.ticket_expiry_days,
            )
        return self._info

    def capabilities(self) -> Capabilities:
        return Capabilities()

    def meters(self, station: int) -> Mapping[str, int]:
        return self.machine.meter_readings() or {}

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
        def wake(_snapshot: Any) -> None:
            callback()

        return self.machine.subscribe(wake)

    def set_enabled(self, station: int, enabled: bool, by: str) -> None:
        tilts = {t.code for t in self.machine.snapshot().tilts}
        if not enabled:
            if HOST_SHUTDOWN_TILT not in tilts:
                self.machine.tilt(HOST_SHUTDOWN_TILT, f"play stopped by the slot system ({by})")
            return
        if HOST_SHUTDOWN_TILT not in tilts:
            return
        try:
            self.machine.clear_tilt(HOST_SHUTDOWN_TILT)
        except MachineError as exc:
            raise PortRefused(f"play resumes when an attendant clears it: {exc.reason}") from None

    def set_note_acceptance(self, station: int, enabled: bool, by: str) -> None:
        raise PortRefused("the cabinet's validator is not reachable from the controller")

    def pending_cashout(self, station: int) -> PendingCashout | None:
        return None

    def deliver_validation(self, station: int, cashout_id: str, validation: str | None) -> None:
        raise PortRefused("the cabinet issues its own validation numbers")

    def validation_records(self, station: int, limit: int) -> Sequence[ValidationRecord]:
        printed = [
            t
            for t in self._view().tickets(last=limit + 8)
            if t.print_event is not None and t.printed_at is not None and t.station == station
        ]
        return [
            ValidationRecord(t.print_event or 0, t.validation, t.amount, t.sequence,
                             t.printed_at or "", t.expires_on)  # fmt: skip
            for t in printed[-limit:]
        ]

    def ticket_in_escrow(self, station: int) -> TicketInEscrow | None:
        return None

    def redeem_ticket(self, station: int, escrow_id: str, amount: int, restricted: bool) -> None:
        raise PortRefused("the cabinet redeems only its own tickets")

    def refuse_ticket(self, station: int, escrow_id: str, code: int) -> None:
        raise PortRefused("the cabinet redeems only its own tickets")

    def redemption(self, station: int, escrow_id: str) -> Redemption | None:
        return None
