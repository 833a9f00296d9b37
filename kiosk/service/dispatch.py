"""Which part of the game carries out each command: the one handler table of the
service, for the screens' commands (:mod:`kiosk.game.commands`), a station's devices
and the link's (:mod:`kiosk.service.device_commands`).

Each case names the part that owns the command's concept and what it returns: the
round (:mod:`~kiosk.service.play`), money in (:mod:`~kiosk.service.money_in`), payouts
(:mod:`~kiosk.service.payouts`), the operators (:mod:`~kiosk.service.operators`) and the
configuration (:mod:`~kiosk.service.settings`).  ``n`` is the station the command is for;
``at`` the station whose logged-in operator answers for it.  Amounts are cents.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.game import commands as cmd
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import NotAuthorised, PlayDisabled
from kiosk.link.outcomes import EscrowEnd, MoneyOutcome
from kiosk.service.device_commands import (
    AcceptEscrow,
    AcceptTicket,
    DeliverValidation,
    DeviceReport,
    LiftLockoutAtHost,
    PairingMiss,
    Pass,
    ProbeLedger,
    ReopenPairing,
    ReportPrint,
    SetPrinter,
    SetTablePaytable,
    SettleEscrow,
    StopStation,
    SystemNotes,
    SystemPlay,
    SystemProgressiveLevels,
    SystemProgressiveLost,
    SystemRedeem,
    SystemRefuse,
    TestCredits,
)
from kiosk.service.escrows import escrow_end
from kiosk.service.locks import Locks
from kiosk.service.money_in import MoneyIn
from kiosk.service.operators import Operators
from kiosk.service.payouts import Payouts
from kiosk.service.paytable_export import export_paytable
from kiosk.service.play import TablePlay
from kiosk.service.progressive_adjust import adjust_meter
from kiosk.service.progressive_link import levels_heard, link_lost
from kiosk.service.settings import Settings
from kiosk.service.slot_system import SlotSystem
from kiosk.service.state import PendingPayout, TableState

if TYPE_CHECKING:
    from engine.maths.decision_values import DecisionValues


#: What the service answers a command with (see :func:`dispatch`, case by case): nothing,
#: a name (a role, a confirmation code), a count (cents, wrong codes), yes or no, how a
#: money command left the money, a payout started, a paytable change's SHA-256s
#: (``old``, ``new``) or the files a paytable export wrote.
Outcome = None | str | int | bool | MoneyOutcome | PendingPayout | dict[str, str] | list[Path]


@dataclass(frozen=True)
class Parts:
    """The parts of the game, each owning one concept, all on one state."""

    state: TableState
    play: TablePlay
    money: MoneyIn
    payouts: Payouts
    operators: Operators
    settings: Settings
    system: SlotSystem
    locks: Locks


def dispatch(
    parts: Parts,
    n: int,
    at: int,
    command: object,
    values: DecisionValues | None = None,
    *,
    burn_in: bool = False,
) -> Outcome:
    """Carry out ``command`` for station ``n`` (see the module); ``values``: a decision's
    exact values, fetched before the lock; ``burn_in``: test credits allowed outside
    demo mode.  Raises :class:`TypeError` for an object that is not a command."""
    st, play, money, pay = parts.state, parts.play, parts.money, parts.payouts
    ops, settings = parts.operators, parts.settings
    match command:
        # the round
        case cmd.PlaceChip(spot=spot, cents=cents):
            play.add_chip(n, spot, cents)
            return None
        case cmd.ClearBets():
            play.clear_bets(n)
            return None
        case cmd.TakeProgressive():
            play.take_progressive(n)
            return None
        case cmd.RepeatBets():
            play.repeat_bets(n)
            return None
        case cmd.Deal():
            play.press_deal(n)
            return None
        case Pass():
            play.press_pass(n)
            return None
        case cmd.Decide(action=action):
            play.decide(n, action, values)
            return None
        # money in
        case AcceptEscrow(txn=txn, cents=cents):
            return money.accept_note(n, txn, cents)
        case AcceptTicket(txn=txn, validation=validation, cents=cents):
            return money.accept_ticket(n, txn, validation, cents)
        case SettleEscrow():
            return settle(money, n, command)
        case TestCredits(txn=txn, cents=cents):
            return money.test_credits(n, cents, txn, test_credits_operator(st, at, burn_in))
        case DeviceReport(event=event):
            money.device_event(n, event)
            return None
        case ProbeLedger():
            return money.check_ledger(n)
        # payouts
        case cmd.CashOut():
            return pay.cash_out(n)
        case SetPrinter(ready=ready):
            st.station(n).printer = ready
            return None
        case ReportPrint():
            return pay.report(n, command)
        case cmd.HandpayReset():
            pay.handpay_reset(n, st.require_role(at, "attendant"))
            return None
        # the operators
        case cmd.SetDoor(open=open_):
            ops.door(n, open_)
            return None
        case cmd.ClearTilt(code=code):
            ops.clear_tilt(n, code, at)
            return None
        case StopStation(code=code, message=message):
            ops.tilt(n, code, message)
            return None
        case cmd.OperatorLogin(pin=pin):
            return ops.login(n, pin).role
        case cmd.OperatorLogout():
            ops.logout(n)
            return None
        case cmd.RamClearWitness(pin=pin):
            return ops.ram_clear_witness(n, pin)
        case cmd.RamClearRequest():
            return ops.ram_clear_request(n)
        case cmd.RamClear(confirm_code=code):
            ops.ram_clear(n, code)
            return None
        case cmd.AdjustProgressive(cents=cents, witness_pin=pin, reason=reason):
            return adjust_meter(st, ops, at, cents, pin, reason)
        # locks lifted by people (the PIN pad's, pairing's at the host)
        case cmd.LiftLockout(pin=pin, witness_pin=witness_pin):
            return parts.locks.lift_at_door(n, pin, witness_pin)
        case LiftLockoutAtHost(pin=pin):
            return parts.locks.lift_at_host(pin)
        case PairingMiss(scope=scope, station_id=station_id, seat=seat, limit=limit):
            return parts.locks.pairing_miss(scope, station_id, seat, limit)
        case ReopenPairing(scope=scope, pin=pin):
            return parts.locks.reopen_pairing(scope, pin)
        # the configuration
        case cmd.SetPaytable(path=path):
            name = ops.require_door_change(at, "technician", "a paytable change")
            return settings.set_paytable_file(at, name, path)
        case SetTablePaytable(sha256=sha256):
            name = ops.require_door_change(at, "technician", "a paytable change")
            return settings.set_paytable_offered(at, name, sha256)
        case cmd.SetLimits():
            name = ops.require_door_change(at, "technician", "a limits change")
            settings.set_limits(
                at,
                name,
                ante_min=command.ante_min,
                ante_max=command.ante_max,
                trips_min=command.trips_min,
                trips_max=command.trips_max,
            )
            return None
        case cmd.SetStrategyCoach(on=on):
            settings.set_coach(at, on)
            return None
        # the casino's slot system
        case SystemPlay(enabled=enabled, by=by):
            parts.system.set_play(n, enabled, by)
            return None
        case SystemNotes(enabled=enabled, by=by):
            parts.system.set_notes(n, enabled, by)
            return None
        case SystemProgressiveLevels(group=group, levels=levels, by=by):
            levels_heard(parts.state, group, levels, by)
            return None
        case SystemProgressiveLost(group=group, by=by):
            link_lost(parts.state, group, by)
            return None
        case DeliverValidation(txn=txn, validation=validation):
            return parts.system.deliver_validation(n, txn, validation)
        case SystemRedeem(txn=txn, cents=cents):
            parts.system.redeem(n, txn, cents)
            return None
        case SystemRefuse(txn=txn):
            parts.system.refuse(n, txn)
            return None
        case cmd.ExportPaytable(path=path, folder=folder, stem=stem):
            return export_paytable(st, at, path, folder, stem)
    raise TypeError(f"not a game command: {command!r}")


#: The reason an escrow is recorded ended for when the driver's reason says another
#: end than the one the station reported (the reported end is what counts).
_REPORTED = {
    EscrowEnd.STACKED: "stacked_without_vend_valid",
    EscrowEnd.RETURNED: EscrowEnd.RETURNED.value,
    EscrowEnd.IN_DOUBT: EscrowEnd.IN_DOUBT.value,
}


def settle(money: MoneyIn, n: int, c: SettleEscrow) -> MoneyOutcome:
    """A station validator's report about escrow ``c.txn`` (phase two): VEND VALID
    credits it; otherwise its reason, read as :func:`~kiosk.service.escrows.escrow_end`
    reads it, is kept when it says the end the station reported."""
    if c.end == EscrowEnd.VEND_VALID or (
        c.end == EscrowEnd.STACKED and c.reason in ("", EscrowEnd.VEND_VALID)
    ):
        return money.stacked(n, c.txn, c.cents)
    end = EscrowEnd(c.end)
    reason = c.reason or end.value
    if escrow_end(reason) != end:
        reason = _REPORTED[end]
    return money.ended(n, c.txn, reason)


def test_credits_operator(st: TableState, at: int, burn_in: bool) -> tuple[str, str]:
    """Who answers for test credits keyed in at station ``at`` (name, role): only in demo
    or burn-in mode, a technician logged in there (in demo mode the demo's technician
    when nobody is)."""
    if not (st.config.demo or burn_in):
        raise PlayDisabled(
            "test credits: only in demo or burn-in mode", code=ErrorCode.NO_TEST_CREDITS
        )
    session = st.station(at).operator
    if session is None and st.config.demo:
        account = next((a for a in st.config.accounts if a.role == "technician"), None)
        if account is not None:
            return account.name, account.role
    try:
        name = st.require_role(at, "technician")
    except NotAuthorised as exc:
        raise NotAuthorised(
            f"test credits need a technician logged in at this station ({exc.reason})",
            code=exc.code,
            params=exc.params,
        ) from None
    session = st.station(at).operator
    return name, session.role if session is not None else "technician"


test_credits_operator.__test__ = False  # type: ignore[attr-defined]  # not a test case
