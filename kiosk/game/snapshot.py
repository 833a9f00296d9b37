"""What the screens read from the controller: one :class:`MachineSnapshot` at a time."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from engine.hands.categories import HandCategory
from engine.uth.paytable import Limits, Paytable
from engine.uth.round import Action, Phase, RoundSettled


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
class CoachTip:
    """The strategy coach's note on a settled round: its costliest decision that was not
    optimal, ``action`` taken where ``best`` was worth ``loss`` Antes more (exact)."""

    round_id: int
    action: Action
    best: Action
    loss: Fraction


@dataclass(frozen=True)
class ProgressiveWin:
    """One seat's award on the progressive meter in a hit: ``hand`` paid ``cents``."""

    seat: int
    hand: HandCategory
    cents: int


@dataclass(frozen=True)
class ProgressiveHit:
    """The table's last hit of the progressive meter: round ``round_id`` (its first row),
    ``cents`` taken off the meter (the awards and any breakage), each seat's award on it."""

    round_id: int
    cents: int
    wins: tuple[ProgressiveWin, ...]


@dataclass(frozen=True)
class ProgressiveAward:
    """A seat's progressive award in the round it shows: ``hand`` paid ``cents``, a share
    of the meter (``on_meter``) or a fixed amount, hand-paid by an attendant when
    ``hand_paid`` (a jackpot)."""

    hand: HandCategory
    cents: int
    on_meter: bool
    hand_paid: bool


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
    anchor_beside_db: bool = False  # demo mode: the ledger's anchor is beside the database
    coach: bool = False  # the strategy coach is on
    coach_tip: CoachTip | None = None  # its note on the round shown (see kiosk.game.coach)
    bet_progressive: int = 0  # the pending progressive wager (0 or the fixed wager)
    progressive: int = 0  # the progressive wagered in the current / last round
    progressive_wager: int = 0  # the fixed wager the table takes now (0: no progressive bet)
    progressive_meter: int | None = None  # the meter, when the paytable has a progressive
    # (None also while a linked meter is not known yet)
    progressive_hit: ProgressiveHit | None = None  # the table's last hit of the meter
    progressive_hit_here: bool = False  # ... won (in part) at this station
    progressive_award: ProgressiveAward | None = None  # this seat's in the round shown

    @property
    def playable(self) -> bool:
        return not self.tilts and not self.door_open
