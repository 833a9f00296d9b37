"""The ledger's events in words: one sentence per event kind, in the current language.

Amounts are written as money (the event's ``amount`` and amounts in its detail are
cents), people by the name recorded with the event, ticket numbers as the controller
gave them (masked to their last four digits unless a manager is logged in).  A kind
without a sentence of its own is named, with no raw detail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kiosk.ledger.records import EventRecord
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.chrome import tilt_text

Money = Callable[[int], str]

#: Sentences that need nothing but the event's amount (``{amount}``).
PLAIN: dict[str, str] = {
    "bill_in": N_("Bill of {amount} stacked."),
    "power_down": N_("Shut down cleanly."),
    "door_open": N_("Main door opened."),
    "door_closed": N_("Main door closed."),
    "checkpoint": N_("Ledger checkpoint signed."),
    "schema_migrated": N_("Ledger format updated."),
    "install_marker_written": N_("Installation marker written."),
    "ledger_replaced": N_("Ledger replaced by a new one."),
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
    if kind == "ticket_in":
        return _("Ticket {number} redeemed for {amount}.").format(number=_number(d), amount=amount)
    if kind == "ticket_issue":
        return _("Ticket {number} issued for {amount}.").format(number=_number(d), amount=amount)
    if kind == "ticket_out":
        return _("Ticket {number} printed for {amount}.").format(number=d.get("reference") or UNKNOWN,
                                                                  amount=amount)
    if kind == "ticket_void":
        return _("Ticket {number} voided ({amount}): {reason}").format(number=_number(d), amount=amount,
                                                                       reason=_reason(d))
    if kind == "ticket_rejected":
        return _("Ticket {number} refused: {reason}").format(number=_number(d), reason=_reason(d))
    if kind == "cashout":
        method = str(d.get("method", ""))
        return _("Cash-out of {amount} started by {method}.").format(
            amount=amount, method=_(METHODS[method]) if method in METHODS else method)
    if kind == "cashout_failed":
        return _("Cash-out of {amount} failed; the credits went back: {reason}").format(
            amount=amount, reason=_reason(d))
    if kind == "cashout_handpay":
        return _("Cash-out of {amount} became a hand pay: {reason}").format(amount=amount, reason=_reason(d))
    if kind == "handpay":
        return _("Hand pay of {amount} paid by {name}.").format(amount=amount,
                                                                name=_payee(str(d.get("reference", ""))))
    if kind == "power_up":
        if d.get("created"):
            return _("Powered up with a new ledger.")
        if d.get("clean_shutdown"):
            return _("Powered up after a clean shutdown.")
        return _("Powered up after a power loss.")
    if kind == "round_resumed":
        return _("Round {id} resumed after the power came back.").format(id=ev.round_id or UNKNOWN)
    if kind == "operator_login":
        return _("{name} logged in as {role}.").format(name=_who(d), role=_role(d.get("role")))
    if kind == "operator_logout":
        return _("{name} logged out.").format(name=_who(d))
    if kind == "operator_login_failed":
        return _("Wrong PIN ({failures} in a row).").format(failures=d.get("failures", UNKNOWN))
    if kind == "operator_lockout":
        return _("PIN pad locked after {failures} wrong PINs.").format(failures=d.get("failures", UNKNOWN))
    if kind == "operator_lockout_lifted":
        return _("{name} lifted the PIN locks.").format(name=_who(d))
    if kind == "tilt":
        return _("Tilt: {what}").format(what=tilt_text(str(d.get("code", ""))))
    if kind == "tilt_cleared":
        what = tilt_text(str(d.get("code", "")))
        if d.get("by") == "device":
            return _("Cleared by the device: {what}").format(what=what)
        return _("{name} cleared a tilt: {what}").format(name=_who(d), what=what)
    if kind == "paytable_changed":
        return _("{name} changed the paytable from {old} to {new}.").format(
            name=_who(d), old=_table(d.get("old")), new=_table(d.get("new")))
    if kind == "limits_changed":
        given = d.get("new")
        new: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
        return _("{name} set the limits: Ante {ante_min} to {ante_max}, Trips {trips_min} to {trips_max}.").format(
            name=_who(d), **{k: money(int(new.get(k, 0))) for k in ("ante_min", "ante_max", "trips_min", "trips_max")})
    if kind == "coach_changed":
        if d.get("on"):
            return _("{name} turned the strategy coach on.").format(name=_who(d))
        return _("{name} turned the strategy coach off.").format(name=_who(d))
    if kind == "paytable_exported":
        return _("{name} exported the paytable {table} to {folder}.").format(
            name=_who(d), table=_table(d), folder=d.get("folder") or UNKNOWN)
    if kind == "ram_clear_witnessed":
        return _("{witness} countersigned a RAM clear for {name}.").format(witness=_who(d, "witness"), name=_who(d))
    if kind == "ram_clear_requested":
        return _("{name} requested a RAM clear.").format(name=_who(d))
    if kind == "ram_clear":
        return _("{name} cleared the RAM, witnessed by {witness}: {amount} of credits removed.").format(
            name=_who(d), witness=_who(d, "witness"), amount=amount)
    if kind == "escrow_accepted":
        item = str(d.get("item", ""))
        return _("{item} of {amount} held in escrow.").format(item=_(ITEMS[item]) if item in ITEMS else item,
                                                              amount=amount)
    if kind == "escrow_aborted":
        return _("Escrow returned: {reason}").format(reason=_reason(d))
    if kind == "escrow_in_doubt":
        return _("Escrow in doubt: {reason}").format(reason=_reason(d))
    if kind == "device":
        return _("Device {device}: {what}").format(device=d.get("device", UNKNOWN),
                                                   what=str(d.get("detail") or d.get("kind") or UNKNOWN))
    if kind == "ledger_created":
        return _("Ledger created for machine {machine}.").format(machine=d.get("machine_number") or UNKNOWN)
    return _("Event: {kind}").format(kind=kind.replace("_", " "))
