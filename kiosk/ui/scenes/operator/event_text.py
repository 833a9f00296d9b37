"""The ledger's events in words: one sentence per event kind, in the current language.

Amounts are written as money (the event's ``amount`` and amounts in its detail are
cents), people by the name recorded with the event, ticket numbers as the controller
gave them (masked to their last four digits unless a manager is logged in).  A kind
without a sentence of its own is named, with no raw detail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import EventRecord
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.chrome import tilt_text

Money = Callable[[int], str]

#: Sentences that need nothing but the event's amount (``{amount}``).
PLAIN: dict[str, str] = {
    EventKind.BILL_IN: N_("Bill of {amount} stacked."),
    EventKind.POWER_DOWN: N_("Shut down cleanly."),
    EventKind.DOOR_OPEN: N_("Main door opened."),
    EventKind.DOOR_CLOSED: N_("Main door closed."),
    EventKind.CHECKPOINT: N_("Ledger checkpoint signed."),
    EventKind.SCHEMA_MIGRATED: N_("Ledger format updated."),
    EventKind.INSTALL_MARKER_WRITTEN: N_("Installation marker written."),
    EventKind.LEDGER_REPLACED: N_("Ledger replaced by a new one."),
}
ROLES = {"attendant": N_("attendant"), "technician": N_("technician"), "manager": N_("manager")}
METHODS = {"ticket": N_("ticket"), "handpay": N_("hand pay")}
ITEMS = {"bill": N_("Bill"), "ticket": N_("Ticket")}
UNKNOWN = "—"


def _who(detail: Mapping[str, Any], key: str = "operator") -> str:
    value = detail.get(key)
    return str(value) if value else UNKNOWN


def _role(value: object) -> str:
    return _(ROLES[str(value)]) if str(value) in ROLES else str(value or UNKNOWN)


def _reason(detail: Mapping[str, Any]) -> str:
    return str(detail.get("reason") or detail.get("detail") or UNKNOWN)


def _number(detail: Mapping[str, Any]) -> str:
    return str(detail.get("validation") or UNKNOWN)


def _table(d: object) -> str:
    if not isinstance(d, Mapping):
        return UNKNOWN
    return f"{d.get('name', '')} {d.get('version', '')}".strip() or UNKNOWN


def _payee(reference: str) -> str:
    """The attendant of a hand pay's reference (``attendant:<name>``), else the reference."""
    return reference.partition(":")[2] if reference.startswith("attendant:") else reference or UNKNOWN


def sentence(ev: EventRecord, money: Money) -> str:
    """The event ``ev`` as one sentence."""
    d, kind = ev.detail, ev.kind
    amount = money(ev.amount)
    if kind in PLAIN:
        return _(PLAIN[kind]).format(amount=amount)
    if kind == EventKind.TICKET_IN:
        return _("Ticket {number} redeemed for {amount}.").format(number=_number(d), amount=amount)
    if kind == EventKind.TICKET_ISSUE:
        return _("Ticket {number} issued for {amount}.").format(number=_number(d), amount=amount)
    if kind == EventKind.TICKET_OUT:
        return _("Ticket {number} printed for {amount}.").format(number=d.get("reference") or UNKNOWN,
                                                                  amount=amount)
    if kind == EventKind.TICKET_VOID:
        return _("Ticket {number} voided ({amount}): {reason}").format(number=_number(d), amount=amount,
                                                                       reason=_reason(d))
    if kind == EventKind.TICKET_REJECTED:
        return _("Ticket {number} refused: {reason}").format(number=_number(d), reason=_reason(d))
    if kind == EventKind.CASHOUT:
        method = str(d.get("method", ""))
        return _("Cash-out of {amount} started by {method}.").format(
            amount=amount, method=_(METHODS[method]) if method in METHODS else method)
    if kind == EventKind.CASHOUT_FAILED:
        return _("Cash-out of {amount} failed; the credits went back: {reason}").format(
            amount=amount, reason=_reason(d))
    if kind == EventKind.CASHOUT_HANDPAY:
        return _("Cash-out of {amount} became a hand pay: {reason}").format(amount=amount, reason=_reason(d))
    if kind == EventKind.HANDPAY:
        return _("Hand pay of {amount} paid by {name}.").format(amount=amount,
                                                                name=_payee(str(d.get("reference", ""))))
    if kind == EventKind.POWER_UP:
        if d.get("created"):
            return _("Powered up with a new ledger.")
        if d.get("clean_shutdown"):
            return _("Powered up after a clean shutdown.")
        return _("Powered up after a power loss.")
    if kind == EventKind.ROUND_RESUMED:
        return _("Round {id} resumed after the power came back.").format(id=ev.round_id or UNKNOWN)
    if kind == EventKind.OPERATOR_LOGIN:
        return _("{name} logged in as {role}.").format(name=_who(d), role=_role(d.get("role")))
    if kind == EventKind.OPERATOR_LOGOUT:
        return _("{name} logged out.").format(name=_who(d))
    if kind == EventKind.OPERATOR_LOGIN_FAILED:
        return _("Wrong PIN ({failures} in a row).").format(failures=d.get("failures", UNKNOWN))
    if kind == EventKind.OPERATOR_LOCKOUT:
        return _("PIN pad locked after {failures} wrong PINs.").format(failures=d.get("failures", UNKNOWN))
    if kind == EventKind.OPERATOR_LOCKOUT_LIFTED:
        return _("{name} lifted the PIN locks.").format(name=_who(d))
    if kind == EventKind.TILT:
        return _("Tilt: {what}").format(what=tilt_text(str(d.get("code", ""))))
    if kind == EventKind.TILT_CLEARED:
        what = tilt_text(str(d.get("code", "")))
        if d.get("by") == "device":
            return _("Cleared by the device: {what}").format(what=what)
        return _("{name} cleared a tilt: {what}").format(name=_who(d), what=what)
    if kind == EventKind.PAYTABLE_CHANGED:
        return _("{name} changed the paytable from {old} to {new}.").format(
            name=_who(d), old=_table(d.get("old")), new=_table(d.get("new")))
    if kind == EventKind.LIMITS_CHANGED:
        given = d.get("new")
        new: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        return _("{name} set the limits: Ante {ante_min} to {ante_max}, Trips {trips_min} to {trips_max}.").format(
            name=_who(d), **{k: money(int(new.get(k, 0))) for k in ("ante_min", "ante_max", "trips_min", "trips_max")})
    if kind == EventKind.COACH_CHANGED:
        if d.get("on"):
            return _("{name} turned the strategy coach on.").format(name=_who(d))
        return _("{name} turned the strategy coach off.").format(name=_who(d))
    if kind == EventKind.PAYTABLE_EXPORTED:
        return _("{name} exported the paytable {table} to {folder}.").format(
            name=_who(d), table=_table(d), folder=d.get("folder") or UNKNOWN)
    if kind == EventKind.RAM_CLEAR_WITNESSED:
        return _("{witness} countersigned a RAM clear for {name}.").format(witness=_who(d, "witness"), name=_who(d))
    if kind == EventKind.RAM_CLEAR_REQUESTED:
        return _("{name} requested a RAM clear.").format(name=_who(d))
    if kind == EventKind.RAM_CLEAR:
        return _("{name} cleared the RAM, witnessed by {witness}: {amount} of credits removed.").format(
            name=_who(d), witness=_who(d, "witness"), amount=amount)
    if kind == EventKind.ESCROW_ACCEPTED:
        item = str(d.get("item", ""))
        return _("{item} of {amount} held in escrow.").format(item=_(ITEMS[item]) if item in ITEMS else item,
                                                              amount=amount)
    if kind == EventKind.ESCROW_ABORTED:
        return _("Escrow returned: {reason}").format(reason=_reason(d))
    if kind == EventKind.ESCROW_IN_DOUBT:
        return _("Escrow in doubt: {reason}").format(reason=_reason(d))
    if kind == EventKind.DEVICE:
        return _("Device {device}: {what}").format(device=d.get("device", UNKNOWN),
                                                   what=str(d.get("detail") or d.get("kind") or UNKNOWN))
    if kind == EventKind.LEDGER_CREATED:
        return _("Ledger created for machine {machine}.").format(machine=d.get("machine_number") or UNKNOWN)
    return _("Event: {kind}").format(kind=kind.replace("_", " "))
