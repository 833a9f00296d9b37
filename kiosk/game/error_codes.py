"""Every refusal code the cabinet raises, and the bet limits a refused bet names.

A :class:`~kiosk.game.errors.MachineError` carries one :class:`ErrorCode`: its class's
own (the first group) or a more precise one.  The members are :class:`~enum.StrEnum`, so
a code compares equal to its name as a string (``exc.code == "no_credits"``), goes over
the link and into JSON as that string, and a string that is not a member cannot become
a code (``ErrorCode("no_credit")`` raises :class:`ValueError`).  Each member has a
message in :data:`kiosk.ui.machine_messages.MESSAGES`; the tests hold both lists to every
code the source raises.
"""

from __future__ import annotations

from enum import StrEnum, unique


@unique
class ErrorCode(StrEnum):
    """A refusal's stable machine-readable name; the comment says when it is raised."""

    # -- the error classes' own codes ---------------------------------------------------
    REFUSED = "refused"  # MachineError: a refusal with no more precise reason
    INSUFFICIENT_CREDITS = "insufficient_credits"  # the credits do not cover the bet or Play
    BET_OUT_OF_LIMITS = "bet_out_of_limits"  # a bet breaks a table limit (params["rule"])
    PLAY_DISABLED = "play_disabled"  # a tilt stands or the door is open
    NOT_AUTHORISED = "not_authorised"  # wrong PIN, no operator, or a role without the right
    WRONG_STATE = "wrong_state"  # the operation is not possible in the current state
    CONFIGURATION_ERROR = "configuration_error"  # an invalid paytable or limits change
    TICKET_REFUSED = "ticket_refused"  # a TITO ticket that cannot be redeemed here
    AWAITING_SYSTEM = "awaiting_system"  # a ticket of another machine waits for the slot system

    # -- money in ----------------------------------------------------------------------
    BAD_AMOUNT = "bad_amount"  # credits, a note or a ticket amount not a positive whole cents
    BAD_CREDIT_SOURCE = "bad_credit_source"  # a credit source not bill:, ticket: or test:
    BILL_NOT_ACCEPTED = "bill_not_accepted"  # a note of a denomination the cabinet refuses
    CREDIT_LIMIT = "credit_limit"  # the credits would pass the credit limit (params["limit"])
    NOTES_OFF = "notes_off"  # the casino's system turned note acceptance off
    NOT_AT_STATION = "not_at_station"  # credits a station cannot take (only notes, by the validator)
    NO_TEST_CREDITS = "no_test_credits"  # test credits outside demo and burn-in mode
    ESCROW_FINISHED = "escrow_finished"  # a note or ticket escrow already stacked or returned
    LEDGER_WRITE = "ledger_write"  # the ledger could not record an escrow: it was returned

    # -- tickets -----------------------------------------------------------------------
    TICKET_UNKNOWN = "ticket_unknown"  # a ticket this cabinet never issued
    TICKET_PENDING = "ticket_pending"  # a ticket never reported printed
    TICKET_VOID = "ticket_void"  # a voided ticket
    TICKET_REDEEMED = "ticket_redeemed"  # a ticket already paid
    TICKET_EXPIRED = "ticket_expired"  # a ticket past its expiry date
    TICKET_ALTERED = "ticket_altered"  # a ticket offered for another amount than issued
    TICKET_IN_ESCROW = "ticket_in_escrow"  # a ticket already held in a validator's escrow
    TICKET_REFUSED_BY_SYSTEM = "ticket_refused_by_system"  # the slot system refused the ticket
    BAD_NUMBER = "bad_number"  # a validation number from the system that is not 18 digits
    NOT_WAITING = "not_waiting"  # a system answer for a cash-out or ticket that awaits none

    # -- play --------------------------------------------------------------------------
    ACTION_NOT_ALLOWED = "action_not_allowed"  # a decision that is not legal now
    BETS_PLACED = "bets_placed"  # a bet changed after Deal was pressed
    NO_PREVIOUS_BET = "no_previous_bet"  # a rebet with no previous Ante
    NO_ROUND = "no_round"  # a decision with no round in progress
    NOT_IN_ROUND = "not_in_round"  # a decision from a station that sits the round out
    ROUND_IN_PROGRESS = "round_in_progress"  # an operation only allowed between rounds

    # -- payouts -----------------------------------------------------------------------
    NO_CREDITS = "no_credits"  # a cash-out with no credits
    PAYOUT_IN_PROGRESS = "payout_in_progress"  # an operation while a payout is pending
    NO_PAYOUT_PENDING = "no_payout_pending"  # a printer or handpay report for no pending payout
    TICKET_PRINTING = "ticket_printing"  # a handpay while the ticket is being printed

    # -- tilts and the ledger ----------------------------------------------------------
    TILTED = "tilted"  # a tilt stands (params["tilt"])
    DOOR_OPEN = "door_open"  # play with the main door open
    LEDGER_FAULT = "ledger_fault"  # the ledger is missing or faulty; cleared only by a restore
    HOST_LEDGER_BEHIND = "host_ledger_behind"  # a station saw the host's ledger go back
    NO_TILT = "no_tilt"  # clearing a tilt that does not stand

    # -- the table link ----------------------------------------------------------------
    NO_SNAPSHOT = "no_snapshot"  # the table host not heard yet or not reachable
    NO_STATION = "no_station"  # a station number that is not at this table
    RECALL_UNAVAILABLE = "recall_unavailable"  # the game history could not be read from the host

    # -- operators ---------------------------------------------------------------------
    OPERATOR_REQUIRED = "operator_required"  # an operator's operation with nobody logged in
    ROLE_REQUIRED = "role_required"  # the operator logged in has too low a role
    WRONG_PIN = "wrong_pin"  # a wrong PIN, or the PIN of a locked account
    PIN_LOCKED = "pin_locked"  # the PIN pad is locked after too many wrong PINs
    LOGIN_DISABLED = "login_disabled"  # the configuration names no operator
    DOOR_CLOSED = "door_closed"  # an operation that needs the main door open (params["what"])
    CREDITS_ON_METER = "credits_on_meter"  # a configuration change with credits on a meter
    SAME_OPERATOR = "same_operator"  # a RAM clear witnessed by the same operator
    WITNESS_REQUIRED = "witness_required"  # a RAM clear without a second operator's PIN
    RAM_CLEAR_NOT_REQUESTED = "ram_clear_not_requested"  # a RAM clear code with no request
    WRONG_CODE = "wrong_code"  # a wrong RAM clear confirmation code

    # -- paytables ---------------------------------------------------------------------
    RTP_UNKNOWN = "rtp_unknown"  # a paytable whose exact RTP is not computed yet
    RTP_UNPROVEN = "rtp_unproven"  # a paytable whose RTP is not signed on this cabinet
    OUT_OF_BOUNDS = "out_of_bounds"  # a paytable whose RTP is outside the allowed bounds
    NO_DRAFT = "no_draft"  # an editor operation with no paytable being edited
    FILE_EXISTS = "file_exists"  # a paytable file name taken by another paytable
    SAME_PAYTABLE = "same_paytable"  # choosing the paytable already in force
    NO_PAYTABLE = "no_paytable"  # choosing a paytable not in the paytables folder
    BET_NOT_OFFERED = "bet_not_offered"  # a paytable with a bet this cabinet does not play
    EXPORT_FAILED = "export_failed"  # a paytable that could not be read or written for export

    # -- the progressive ---------------------------------------------------------------
    NO_PROGRESSIVE = "no_progressive"  # a meter adjustment when the paytable has no progressive
    PROGRESSIVE_LINKED = "progressive_linked"  # a meter adjustment when the casino's controller keeps it
    METER_OUT_OF_RANGE = "meter_out_of_range"  # a meter set below 0 or above the ceiling (params["cents"])


@unique
class BetRule(StrEnum):
    """The limit a refused bet broke (:class:`~kiosk.game.errors.BetOutOfLimits`'
    ``params["rule"]``; ``params["cents"]`` is the limit's value)."""

    NO_ANTE = "no_ante"  # a deal, Trips or the progressive (``spot``) with no Ante
    ANTE_MIN = "ante_min"  # an Ante below the minimum
    ANTE_MAX = "ante_max"  # an Ante above the maximum
    ANTE_STEP = "ante_step"  # an Ante off the step
    TRIPS_MIN = "trips_min"  # a Trips below the minimum
    TRIPS_MAX = "trips_max"  # a Trips above the maximum
    PROGRESSIVE_WAGER = "progressive_wager"  # a progressive off its fixed wager (``cents``)
    PROGRESSIVE_NOT_OFFERED = "progressive_not_offered"  # the paytable offers none now


__all__ = ["BetRule", "ErrorCode"]
