"""The player's words for the controller's refusals.

A :class:`kiosk.machine.errors.MachineError` carries a stable ``code`` (the error class's own,
such as ``insufficient_credits``, or a more precise one such as ``credit_limit`` or
``ticket_redeemed``) and ``params`` (amounts in cents).  :func:`message` turns
``(code, params)`` into text in the current language; the English ``reason`` stays for
operators and logs.  A code not listed falls back to the message of its error class,
then to a generic one, so a new refusal in the controller never shows English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.machine.errors import MachineError
from kiosk.ui.i18n import N_, _, money

GENERIC = N_("That is not possible right now.")

#: Error code -> msgid.  Placeholders are filled from the error's ``params``; amounts
#: (cents) are shown as money.
MESSAGES: dict[str, str] = {
    # the error classes
    "refused": GENERIC,
    "insufficient_credits": N_("Not enough credits for that bet."),
    "insufficient_credits:needed": N_(
        "This bet needs {needed}: Ante, Blind, any Trips and a 1x Play kept for the river. Credits: {credits}."
    ),
    "bet_out_of_limits": N_("That bet is outside the table limits."),
    "play_disabled": N_("Play is suspended. Please call an attendant."),
    "not_authorised": N_("Not authorised."),
    "wrong_state": GENERIC,
    "configuration_error": N_("That setting is not allowed."),
    "rtp_unknown": N_(
        "The exact return to player of this paytable is not proven yet: run the paytable check first."
    ),
    "ticket_refused": N_("This ticket cannot be accepted."),
    # more precise codes
    "ledger_fault": N_("Play is suspended. Please call an attendant."),
    "tilted": N_("Play is suspended. Please call an attendant."),
    "door_open": N_("The cabinet door is open."),
    "credit_limit": N_("The credit limit is {limit}."),
    "no_credits": N_("There are no credits to cash out."),
    "payout_in_progress": N_("A payout is in progress. Please wait."),
    "round_in_progress": N_("Finish the round first."),
    "no_previous_bet": N_("There is no previous bet to repeat."),
    "bill_not_accepted": N_("This bill is not accepted."),
    "operator_required": N_("An operator must log in first."),
    "wrong_pin": N_("Wrong PIN."),
    "ticket_unknown": N_("This ticket is not valid on this machine."),
    "ticket_redeemed": N_("This ticket has already been paid."),
    "ticket_expired": N_("This ticket has expired."),
    "ticket_altered": N_("The ticket amount does not match our records."),
    "ticket_void": N_("This ticket is void. Please call an attendant."),
    "ticket_pending": N_("This ticket is void. Please call an attendant."),
}

#: A refused bet's broken limit (its ``rule`` parameter) -> msgid; ``{cents}`` is the limit.
RULES: dict[str, str] = {
    "no_ante": N_("Place an Ante first: choose a chip, then touch ANTE."),
    "ante_min": N_("The Ante minimum is {cents}."),
    "ante_max": N_("The Ante maximum is {cents}."),
    "ante_step": N_("The Ante goes in steps of {cents}."),
    "trips_min": N_("The Trips minimum is {cents}."),
    "trips_max": N_("The Trips maximum is {cents}."),
}

#: Parameters that are amounts in cents.
_CENTS = {"limit", "amount", "needed", "credits", "cents"}


def msgid_for(code: str, class_code: str | None = None) -> str:
    """The msgid of ``code``, else of ``class_code``, else the generic one."""
    return MESSAGES.get(code) or MESSAGES.get(class_code or "") or GENERIC


def message(
    code: str,
    params: Mapping[str, Any] | None = None,
    *,
    currency: str = "USD",
    class_code: str | None = None,
) -> str:
    """``(code, params)`` in the current language: a broken limit says which (its
    ``rule``), a bet the credits do not cover says what it needs, the 1x Play included."""
    params = params or {}
    msgid = msgid_for(code, class_code)
    rule = params.get("rule")
    if isinstance(rule, str) and rule in RULES:
        msgid = RULES[rule]
    elif code == "insufficient_credits" and "needed" in params and "credits" in params:
        msgid = MESSAGES["insufficient_credits:needed"]
    text = _(msgid)
    values = {
        k: money(v, currency) if k in _CENTS and isinstance(v, int) else v
        for k, v in params.items()
    }
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a parameter missing: the generic text
        return _(msgid_for("", class_code))


def error_code(exc: BaseException) -> tuple[str, str | None]:
    """``(code, class code)`` of a refusal: its own code and its class's; anything that
    is not a :class:`MachineError` is a generic refusal."""
    if not isinstance(exc, MachineError):
        return "refused", None
    return exc.code, type(exc).code


def describe(exc: BaseException, currency: str = "USD") -> str:
    """The player's message for a refused operation."""
    code, class_code = error_code(exc)
    params = exc.params if isinstance(exc, MachineError) else None
    return message(code, params, currency=currency, class_code=class_code)
