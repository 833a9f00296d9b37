"""The player's words for the controller's refusals.

A :class:`kiosk.game.errors.MachineError` carries a stable ``code`` (the error class's own,
such as ``insufficient_credits``, or a more precise one such as ``credit_limit`` or
``ticket_redeemed``) and ``params`` (amounts in cents).  :func:`message` turns
``(code, params)`` into text in the current language; the English ``reason`` stays for
operators and logs.  Every :class:`~kiosk.game.error_codes.ErrorCode` has its message
here (the tests hold :data:`MESSAGES` to the enum and the catalogues); a code that is
not a member (one read off the link) falls back to its error class's message, then to
a generic one, so a refusal never shows English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.game.error_codes import BetRule, ErrorCode
from kiosk.game.errors import MachineError
from kiosk.ui.i18n import N_, _, money

GENERIC = N_("That is not possible right now.")

SUSPENDED = N_("Play is suspended. Please call an attendant.")
TICKET_VOID = N_("This ticket is void. Please call an attendant.")

#: The message of an :class:`ErrorCode.INSUFFICIENT_CREDITS` refusal that says what the
#: bet needs (``needed``) and what the credits are (``credits``), both in cents.
NEEDED = N_(
    "This bet needs {needed}: Ante, Blind, any Trips and a 1x Play kept for the river. Credits: {credits}."
)

#: Error code -> msgid, one for every :class:`ErrorCode` (the player's words for a
#: player's refusal, the attendant's for an operator's).  Placeholders are filled from
#: the error's ``params``; amounts (cents) are shown as money.
MESSAGES: dict[ErrorCode, str] = {
    # the error classes
    ErrorCode.REFUSED: GENERIC,
    ErrorCode.INSUFFICIENT_CREDITS: N_("Not enough credits for that bet."),
    ErrorCode.BET_OUT_OF_LIMITS: N_("That bet is outside the table limits."),
    ErrorCode.PLAY_DISABLED: SUSPENDED,
    ErrorCode.NOT_AUTHORISED: N_("Not authorised."),
    ErrorCode.WRONG_STATE: GENERIC,
    ErrorCode.CONFIGURATION_ERROR: N_("That setting is not allowed."),
    ErrorCode.TICKET_REFUSED: N_("This ticket cannot be accepted."),
    ErrorCode.AWAITING_SYSTEM: N_("The casino's system is checking this ticket. Please wait."),
    # money in
    ErrorCode.BAD_AMOUNT: N_("That amount is not valid."),
    ErrorCode.BAD_CREDIT_SOURCE: N_("Credits come from a note, a ticket or a test."),
    ErrorCode.BILL_NOT_ACCEPTED: N_("This bill is not accepted."),
    ErrorCode.CREDIT_LIMIT: N_("The credit limit is {limit}."),
    ErrorCode.NOTES_OFF: N_("Notes are not accepted right now."),
    ErrorCode.NOT_AT_STATION: N_("Please insert notes into the bill validator."),
    ErrorCode.NO_TEST_CREDITS: N_("Test credits only in demo or burn-in mode."),
    ErrorCode.ESCROW_FINISHED: N_("This note or ticket has already been handled."),
    ErrorCode.LEDGER_WRITE: N_("This could not be recorded and was returned. Please call an attendant."),
    # tickets
    ErrorCode.TICKET_UNKNOWN: N_("This ticket is not valid on this machine."),
    ErrorCode.TICKET_PENDING: TICKET_VOID,
    ErrorCode.TICKET_VOID: TICKET_VOID,
    ErrorCode.TICKET_REDEEMED: N_("This ticket has already been paid."),
    ErrorCode.TICKET_EXPIRED: N_("This ticket has expired."),
    ErrorCode.TICKET_ALTERED: N_("The ticket amount does not match our records."),
    ErrorCode.TICKET_IN_ESCROW: N_("This ticket is already in the validator."),
    ErrorCode.TICKET_REFUSED_BY_SYSTEM: N_("The casino's system refused this ticket."),
    ErrorCode.BAD_NUMBER: N_("The casino's system sent an invalid validation number."),
    ErrorCode.NOT_WAITING: N_("Nothing is waiting for the casino's system."),
    # play
    ErrorCode.ACTION_NOT_ALLOWED: N_("That choice is not available now."),
    ErrorCode.BETS_PLACED: N_("Your bets are placed: wait for the deal."),
    ErrorCode.NO_PREVIOUS_BET: N_("There is no previous bet to repeat."),
    ErrorCode.NO_ROUND: N_("No round is in progress."),
    ErrorCode.NOT_IN_ROUND: N_("You are not playing this round."),
    ErrorCode.ROUND_IN_PROGRESS: N_("Finish the round first."),
    # payouts
    ErrorCode.NO_CREDITS: N_("There are no credits to cash out."),
    ErrorCode.PAYOUT_IN_PROGRESS: N_("A payout is in progress. Please wait."),
    ErrorCode.NO_PAYOUT_PENDING: N_("No payout is pending."),
    ErrorCode.TICKET_PRINTING: N_("The ticket is being printed. Please wait."),
    # tilts and the ledger
    ErrorCode.TILTED: SUSPENDED,
    ErrorCode.DOOR_OPEN: N_("The cabinet door is open."),
    ErrorCode.LEDGER_FAULT: SUSPENDED,
    ErrorCode.HOST_LEDGER_BEHIND: SUSPENDED,
    ErrorCode.NO_TILT: N_("That tilt is already cleared."),
    # the table link
    ErrorCode.NO_SNAPSHOT: N_("The table cannot be reached. Please wait."),
    ErrorCode.NO_STATION: N_("That station is not at this table."),
    ErrorCode.RECALL_UNAVAILABLE: N_("The game history cannot be read now."),
    # operators
    ErrorCode.OPERATOR_REQUIRED: N_("An operator must log in first."),
    ErrorCode.ROLE_REQUIRED: N_("Your role does not allow this."),
    ErrorCode.WRONG_PIN: N_("Wrong PIN."),
    ErrorCode.PIN_LOCKED: N_("Too many wrong PINs: the PIN pad is locked for now."),
    ErrorCode.LOGIN_DISABLED: N_("Operator login is off: no operator is configured."),
    ErrorCode.DOOR_CLOSED: N_("Open the main door first."),
    ErrorCode.CREDITS_ON_METER: N_("Cash out all credits first."),
    ErrorCode.SAME_OPERATOR: N_("The second PIN must be another operator's."),
    ErrorCode.WITNESS_REQUIRED: N_("A second operator must enter a PIN first."),
    ErrorCode.RAM_CLEAR_NOT_REQUESTED: N_("Request the RAM clear first."),
    ErrorCode.WRONG_CODE: N_("Wrong confirmation code."),
    # paytables
    ErrorCode.RTP_UNKNOWN: N_(
        "The exact return to player of this paytable is not proven yet: run the paytable check first."
    ),
    ErrorCode.RTP_UNPROVEN: N_(
        "The return to player of this paytable is not signed on this cabinet: run the paytable check."
    ),
    ErrorCode.OUT_OF_BOUNDS: N_("The return to player is outside the allowed bounds."),
    ErrorCode.NO_DRAFT: N_("No paytable is being edited."),
    ErrorCode.FILE_EXISTS: N_("A file of that name holds another paytable."),
    ErrorCode.SAME_PAYTABLE: N_("That paytable is already in force."),
    ErrorCode.NO_PAYTABLE: N_("That paytable is not in the paytables folder."),
    ErrorCode.BET_NOT_OFFERED: N_("That paytable has a progressive bet this cabinet does not offer yet."),
    ErrorCode.EXPORT_FAILED: N_("The paytable could not be exported."),
    # the progressive
    ErrorCode.NO_PROGRESSIVE: N_("The paytable in force has no progressive meter."),
    ErrorCode.PROGRESSIVE_LINKED: N_("The progressive meter is kept by the casino's progressive controller."),
    ErrorCode.METER_OUT_OF_RANGE: N_("The progressive meter can be set from 0 up to {cents}."),
}

#: A refused bet's broken limit (its ``rule`` parameter) -> msgid; ``{cents}`` is the limit.
RULES: dict[BetRule, str] = {
    BetRule.NO_ANTE: N_("Place an Ante first: choose a chip, then touch ANTE."),
    BetRule.ANTE_MIN: N_("The Ante minimum is {cents}."),
    BetRule.ANTE_MAX: N_("The Ante maximum is {cents}."),
    BetRule.ANTE_STEP: N_("The Ante goes in steps of {cents}."),
    BetRule.TRIPS_MIN: N_("The Trips minimum is {cents}."),
    BetRule.TRIPS_MAX: N_("The Trips maximum is {cents}."),
    BetRule.PROGRESSIVE_WAGER: N_("The progressive bet is exactly {cents}."),
    BetRule.PROGRESSIVE_NOT_OFFERED: N_("This paytable offers no progressive bet now."),
}
#: The progressive refused without an Ante (rule ``no_ante``, ``spot`` ``progressive``).
PROGRESSIVE_NO_ANTE = N_("The progressive bet goes with an Ante: place an Ante first.")

#: Parameters that are amounts in cents.
_CENTS = {"limit", "amount", "needed", "credits", "cents"}


def _member(code: str | None) -> ErrorCode | None:
    """``code`` as an :class:`ErrorCode`, None when it is not one."""
    try:
        return None if code is None else ErrorCode(code)
    except ValueError:
        return None


def msgid_for(code: str, class_code: str | None = None) -> str:
    """The msgid of ``code``, else of ``class_code``, else the generic one."""
    for known in (_member(code), _member(class_code)):
        if known is not None:
            return MESSAGES[known]
    return GENERIC


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
    if rule == BetRule.NO_ANTE and params.get("spot") == "progressive":
        msgid = PROGRESSIVE_NO_ANTE
    elif isinstance(rule, str) and rule in BetRule.__members__.values():
        msgid = RULES[BetRule(rule)]
    elif code == ErrorCode.INSUFFICIENT_CREDITS and "needed" in params and "credits" in params:
        msgid = NEEDED
    text = _(msgid)
    values = {
        k: money(v, currency) if k in _CENTS and isinstance(v, int) else v
        for k, v in params.items()
    }
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a parameter missing: the generic text
        return _(msgid_for("", class_code))


def error_code(exc: BaseException) -> tuple[ErrorCode, ErrorCode | None]:
    """``(code, class code)`` of a refusal: its own code and its class's; anything that
    is not a :class:`MachineError` is a generic refusal."""
    if not isinstance(exc, MachineError):
        return ErrorCode.REFUSED, None
    return exc.code, type(exc).code


def describe(exc: BaseException, currency: str = "USD") -> str:
    """The player's message for a refused operation."""
    code, class_code = error_code(exc)
    params = exc.params if isinstance(exc, MachineError) else None
    return message(code, params, currency=currency, class_code=class_code)
