"""What the cabinet controller shows and refuses with: constants (seat, tilt codes),
the :class:`MachineError` family, the snapshot the screens read and the payout
strategies."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, Protocol

from engine.uth.paytable import Limits, Paytable
from engine.uth.round import Action, Phase, RoundSettled

if TYPE_CHECKING:
    from kiosk.machine.controller import Machine


Spot = Literal["ante", "trips"]
SEAT = 1
#: The tilt code of a corrupt, tampered or missing ledger: it cannot be cleared here.
LEDGER_TILT = "ledger"
#: A jackpot to be hand-paid by an attendant.
JACKPOT_TILT = "jackpot"
#: A ticket went into the stacker without being redeemed: an attendant reconciles.
TICKET_TILT = "ticket"
#: Tilts raised from device events start with this; they are not restored at power-up
#: (a device re-reports a condition that still stands).
DEVICE_TILT_PREFIX = "device:"
RAM_CLEAR_CODE_SECONDS = 120.0
#: RTP figures of ``engine.maths.par.cached_rtp`` held to the configured bounds: the main game
#: per total wager, and Trips.
BOUNDED_RTPS = ("main_total", "trips")


# -- errors -------------------------------------------------------------------------
class MachineError(ValueError):
    """An operation the machine refuses now.

    ``reason`` is English for operators and logs.  ``code`` is a stable machine-readable
    name (the class's own, e.g. ``insufficient_credits``, or a more precise one such as
    ``credit_limit`` or ``ticket_redeemed``) and ``params`` the values the message needs
    (amounts in cents): the screens turn ``(code, params)`` into a translated message
    (:mod:`kiosk.ui.machine_messages`).
    """

    code = "refused"

    def __init__(
        self, reason: str, *, code: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        if code:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})


class InsufficientCredits(MachineError):
    """Not enough credits for the bet or the Play, or nothing to cash out."""

    code = "insufficient_credits"


class BetOutOfLimits(MachineError):
    """A bet above the maximum, below the minimum or off the Ante step."""

    code = "bet_out_of_limits"


class PlayDisabled(MachineError):
    """A tilt stands or the door is open: no play and no bill acceptance."""

    code = "play_disabled"


class NotAuthorised(MachineError):
    """Wrong PIN, no operator logged in, or a role without the right."""

    code = "not_authorised"


class WrongState(MachineError):
    """Not now: deal during a round, cash out during a round, paytable with credits..."""

    code = "wrong_state"


class ConfigurationError(MachineError):
    """A paytable or limits change that is invalid (bad file, RTP out of bounds...)."""

    code = "configuration_error"


class TicketRefused(MachineError):
    """A TITO ticket that cannot be redeemed here; ``code`` says why: ``ticket_unknown``,
    ``ticket_pending``, ``ticket_void``, ``ticket_redeemed``, ``ticket_expired``,
    ``ticket_altered`` (amount mismatch) or ``ticket_in_escrow``."""

    code = "ticket_refused"


# -- what the screens read -----------------------------------------------------------
class MachinePhase(StrEnum):
    IDLE = "idle"  # no credits and no chips
    BETTING = "betting"  # credits and/or pending chips, no round
    IN_ROUND = "in_round"  # cards dealt, decisions pending
    RESULT = "result"  # last round settled and shown, until the next chip or deal
    CASHOUT = "cashout"  # a payout is pending (handpay awaiting the attendant, ticket printing)


@dataclass(frozen=True)
class Tilt:
    code: str
    message: str


@dataclass(frozen=True)
class PayoutRequest:
    """A cash-out in progress: ``amount`` cents already taken off the credit meter."""

    transaction_id: str
    amount: int
    method: str  # "handpay" | "ticket"
    started_at: str


@dataclass(frozen=True)
class ActionOffer:
    """A decision the player may take now and the Play bet it wagers (cents; 0 for a
    check or a fold)."""

    action: Action
    play: int


@dataclass(frozen=True)
class MachineSnapshot:
    """Everything a screen shows, at one moment.  Cents throughout."""

    credits: int  # the credit meter (pending chips are not deducted)
    available: int  # credits minus pending chips
    bet_ante: int  # pending chips on the Ante spot (the Blind mirrors it)
    bet_trips: int  # pending chips on Trips
    phase: MachinePhase
    game_phase: Phase | None  # engine phase of the current / last round
    round_id: int | None  # current / last round
    hole: tuple[int, ...]
    board: tuple[int, ...]  # community cards visible now
    dealer: tuple[int, ...]  # dealer's hole cards, only once settled
    ante: int  # wagered in the current / last round
    blind: int
    trips: int
    play: int
    legal: tuple[Action, ...]  # decisions allowed now (affordable, machine playable)
    last_result: RoundSettled | None  # settlement of the last round (seat 1)
    tilts: tuple[Tilt, ...]
    door_open: bool
    operator: str | None  # role logged in
    paytable: Paytable
    limits: Limits  # in force (the paytable's, or narrower if set by an operator)
    message: str  # for the player: the last refusal, or news (resumed round, jackpot)
    cashout: PayoutRequest | None  # pending payout
    commitment: str | None  # deck commitment of the current / last round
    jackpot: int  # hand-paid part of the last round, cents (0 normally)
    offers: tuple[ActionOffer, ...] = ()  # ``legal`` with the Play each one wagers

    @property
    def playable(self) -> bool:
        return not self.tilts and not self.door_open


class Payout(Protocol):
    """How credits leave the machine (:class:`HandpayPayout`, or the ticket printer:
    :class:`kiosk.hardware.ticket_payout.TicketPayout`).

    :meth:`Machine.cash_out` has already moved the credits into ``request`` (recorded)
    when ``start`` is called, under the machine's lock: ``start`` must return at once
    (hand the work to another thread) and should not raise.  The strategy finishes it
    later, from any thread, with :meth:`Machine.payout_complete` (ticket printed),
    :meth:`Machine.payout_failed` (not printed: credits go back on the meter) or
    :meth:`Machine.payout_to_handpay` (cannot tell: the ticket is voided, an attendant
    pays).  A ticket strategy records the ticket first with :meth:`Machine.issue_ticket`.
    """

    method: str

    def start(self, machine: Machine, request: PayoutRequest) -> None: ...

    def resume(self, machine: Machine, request: PayoutRequest) -> None:
        """At power-up ``request`` was still pending (e.g. printing was interrupted)."""


class HandpayPayout:
    """Cancelled-credit handpay: the machine stays in CASHOUT until an attendant pays the
    player and calls :meth:`Machine.handpay_reset`, which records the handpay.  A ticket
    cash-out found pending at power-up with no printer strategy becomes a handpay."""

    method = "handpay"

    def start(self, machine: Machine, request: PayoutRequest) -> None:
        return None

    def resume(self, machine: Machine, request: PayoutRequest) -> None:
        if request.method == "ticket":
            machine.payout_to_handpay(request.transaction_id, "no ticket printer to resume it")
