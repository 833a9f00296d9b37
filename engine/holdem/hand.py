"""One hand of No-limit Texas Hold'em for 2 to 6 seats (the tournament mode).

Chips are whole numbers (tournament points, never credits).  Seats are numbered
clockwise ``0..n-1``; a seat with no chips sits the hand out.

Rules (seeds 000/001, implemented exactly):

* The seat left of the button posts the small blind, the next the big blind.  Heads-up,
  the button posts the small blind, acts first before the flop and last after it.  A
  player who cannot cover a blind posts everything and is all in; the others must still
  call the *full* big blind (the casino convention), though nobody ever has to put in
  more than some other player in the hand can match.
* Hole cards are dealt one at a time starting with the small blind; a card is burned
  before the flop, the turn and the river.
* Amounts are the player's total for the betting round ("raise to").  The smallest bet
  is one big blind; the smallest raise increment is the last *full* bet or raise of the
  round (before the flop the big blind counts as the opening bet); each round the
  minimum returns to one big blind.  Anyone may always go all in.
* A short all-in (less than a full raise) does not reopen the betting: a player who has
  already acted on a wager may only call or fold, unless the bet they now face has gone
  up by at least a full raise since they acted (a later full raise, or several short
  all-ins adding up to one -- the TDA reading).  A post-flop opening bet, even a short
  all-in, lets the players who checked raise: a check is not a wager.
* Chips nobody matched are returned.  Main and side pots are formed by contribution
  levels; folded players' chips stay in the pots.  Each pot goes to the best hand among
  its eligible players; ties split it and the odd chips are given one at a time to the
  winners starting with the first winner left of the button.
* When at most one player can still bet, the rest of the board is dealt at once.

API in the pokerkit style: every player action and dealer job has ``verify_x()`` (raises
:class:`IllegalActionError` naming the rule, before any state changes), ``can_x()`` and
``x()`` returning a frozen record; ``history`` is the list of those records.  With
``automate=True`` (the default) the dealer jobs run by themselves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum, StrEnum
from typing import Any

from engine.cards import check_distinct
from engine.errors import IllegalActionError
from engine.rng import RandomSource, SystemRandomSource, shuffled_deck

MIN_SEATS = 2
MAX_SEATS = 6

Evaluate = Callable[[Sequence[int]], int]


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


class DealerJob(Enum):
    """Work for the dealer; each has ``verify_/can_/`` methods of the same name."""

    POST_BLINDS = "post_blinds"
    DEAL_HOLE = "deal_hole"
    BURN_CARD = "burn_card"
    DEAL_BOARD = "deal_board"
    SHOW_HANDS = "show_hands"
    PUSH_CHIPS = "push_chips"


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "allin"


@dataclass(frozen=True, slots=True)
class Action:
    """A player's decision; ``amount`` is the total for the round ("to"), bet/raise only."""

    kind: ActionKind
    amount: int | None = None

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(ActionKind.BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(ActionKind.RAISE, to)

    @classmethod
    def all_in(cls) -> Action:
        return cls(ActionKind.ALL_IN)

    def to_list(self) -> list[Any]:
        """JSON form used by replay files: ``["raise", 60]`` or ``["call"]``."""
        return [self.kind.value] if self.amount is None else [self.kind.value, self.amount]

    @classmethod
    def from_list(cls, item: Any) -> Action:
        """Parse ``["raise", 60]`` / ``["fold"]``; raises ``ValueError`` if malformed."""
        if isinstance(item, str):
            item = [item]
        if not isinstance(item, list | tuple) or not item or not isinstance(item[0], str):
            raise ValueError(f'an action is a list like ["call"] or ["raise", 60], not {item!r}')
        try:
            kind = ActionKind(item[0].lower())
        except ValueError:
            names = ", ".join(k.value for k in ActionKind)
            raise ValueError(f"unknown action {item[0]!r} (one of {names})") from None
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if len(item) != 2 or type(item[1]) is not int:
                raise ValueError(f'{kind.value} needs a whole-number amount: ["{kind.value}", 60]')
            return cls(kind, item[1])
        if len(item) != 1:
            raise ValueError(f"{kind.value} takes no amount")
        return cls(kind)


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class BlindPosted:
    seat: int
    blind: str  # "small" or "big"
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    seat: int
    cards: tuple[int, int]


@dataclass(frozen=True, slots=True)
class CardBurned:
    card: int


@dataclass(frozen=True, slots=True)
class BoardDealt:
    street: Street
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Folded:
    seat: int


@dataclass(frozen=True, slots=True)
class Checked:
    seat: int


@dataclass(frozen=True, slots=True)
class Called:
    seat: int
    amount: int  # chips added
    total: int  # the seat's bet for the round afterwards
    all_in: bool


@dataclass(frozen=True, slots=True)
class BetMade:
    seat: int
    total: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Raised:
    seat: int
    total: int
    increment: int  # over the previous highest bet
    full: bool  # at least a full raise: reopens the betting
    all_in: bool


@dataclass(frozen=True, slots=True)
class UncalledReturned:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandShown:
    seat: int
    cards: tuple[int, int]
    strength: int


@dataclass(frozen=True, slots=True)
class PotAwarded:
    index: int  # 0 = main pot, then the side pots in order
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]  # clockwise from the left of the button (odd-chip order)
    shares: tuple[int, ...]  # chips to each winner, same order


Record = (
    BlindPosted
    | HoleCardsDealt
    | CardBurned
    | BoardDealt
    | Folded
    | Checked
    | Called
    | BetMade
    | Raised
    | UncalledReturned
    | HandShown
    | PotAwarded
)


def record_to_dict(record: Record) -> dict[str, Any]:
    """JSON-able form of a record: ``{"type": "Raised", "seat": 2, ...}``."""
    out: dict[str, Any] = {"type": type(record).__name__}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the seat to act may do.  Amounts are round totals ("to") unless named ``*_amount``.

    ``min_to``/``max_to`` bound a bet (``can_bet``) or raise (``can_raise``); below
    ``min_to`` only ``max_to`` itself (all in) is allowed.
    """

    seat: int
    can_fold: bool
    can_check: bool
    can_call: bool
    call_amount: int  # chips the call adds (all in if it equals the stack)
    can_bet: bool
    can_raise: bool
    min_to: int
    max_to: int
    current_bet: int
    bet: int  # the seat's bet so far this round
    stack: int
    pot: int  # every chip in the middle, bets included
    big_blind: int
    small_blind: int

    @property
    def can_bet_or_raise(self) -> bool:
        return self.can_bet or self.can_raise

    def pot_fraction_to(self, fraction: float, round_to: int | None = None) -> int:
        """Raise/bet total for "½ pot", "pot"...: call first, then add ``fraction`` of the pot.

        Rounded down to a multiple of ``round_to`` (default the small blind) and clamped to
        ``min_to..max_to``.  Only meaningful when ``can_bet_or_raise``.
        """
        call = self.call_amount
        target = self.bet + call + int(fraction * (self.pot + call))
        step = round_to if round_to is not None else self.small_blind
        if step > 1:
            target -= target % step
        return max(self.min_to, min(self.max_to, target))


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything a seat may know: built by :meth:`HoldemHand.view`, never the deck or
    anybody else's hole cards.  Bots receive only this."""

    seat: int
    hole_cards: tuple[int, ...]
    board: tuple[int, ...]
    street: Street
    button: int
    small_blind_seat: int
    big_blind_seat: int
    small_blind: int
    big_blind: int
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    committed: tuple[int, ...]  # total in the hand so far, this round's bets included
    dealt_in: tuple[bool, ...]
    in_hand: tuple[bool, ...]  # dealt in and not folded
    all_in: tuple[bool, ...]
    pot: int
    current_bet: int
    legal: LegalActions | None  # None unless it is this seat's turn
    actions: tuple[Record, ...]  # public records of this hand: blinds, actions, board

    @property
    def opponents(self) -> int:
        return sum(self.in_hand) - (1 if self.in_hand[self.seat] else 0)

    @property
    def players_dealt(self) -> int:
        """Players dealt into this hand."""
        return sum(self.dealt_in)


@dataclass(frozen=True, slots=True)
class HandResult:
    """Settlement of a finished hand."""

    starting_stacks: tuple[int, ...]
    final_stacks: tuple[int, ...]
    pots: tuple[PotAwarded, ...]
    returned: tuple[int, ...]  # uncalled chips given back, per seat
    showdown: bool
    shown: tuple[HandShown, ...]
    won: tuple[int, ...]  # chips won from pots, per seat

    @property
    def net(self) -> tuple[int, ...]:
        return tuple(f - s for f, s in zip(self.final_stacks, self.starting_stacks, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {
            "stacks": list(self.final_stacks),
            "pots": [
                {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)}
                for p in self.pots
            ],
            "returned": list(self.returned),
        }


class _Phase(Enum):
    BLINDS = 0
    HOLE = 1
    BETTING = 2
    BURN = 3
    BOARD = 4
    SHOWDOWN = 5
    PUSH = 6
    DONE = 7


_PHASE_JOB = {
    _Phase.BLINDS: DealerJob.POST_BLINDS,
    _Phase.HOLE: DealerJob.DEAL_HOLE,
    _Phase.BURN: DealerJob.BURN_CARD,
    _Phase.BOARD: DealerJob.DEAL_BOARD,
    _Phase.SHOWDOWN: DealerJob.SHOW_HANDS,
    _Phase.PUSH: DealerJob.PUSH_CHIPS,
}


def _default_evaluate() -> Evaluate:
    from engine.hands.evaluator import evaluate  # the lead's table-driven evaluator

    return evaluate


def _is_int(x: Any) -> bool:
    return type(x) is int


class HoldemHand:
    """One hand of No-limit Hold'em.

    ``stacks``: chips per seat, clockwise (0 = sitting out); ``button``: a seat with chips;
    ``deck``: the cards in dealing order (at least ``2 * players + 8``), else a deck is
    shuffled with ``rng`` (default the OS generator).  ``evaluate`` maps 7 cards to a
    strength (higher wins); default :func:`engine.hands.evaluator.evaluate`.
    """

    def __init__(
        self,
        stacks: Sequence[int],
        button: int,
        small_blind: int,
        big_blind: int,
        *,
        deck: Sequence[int] | None = None,
        rng: RandomSource | None = None,
        automate: bool = True,
        evaluate: Evaluate | None = None,
    ) -> None:
        n = len(stacks)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {n}")
        if not all(_is_int(s) and s >= 0 for s in stacks):
            raise ValueError("stacks must be whole numbers of chips, none negative")
        if not (_is_int(small_blind) and _is_int(big_blind) and 0 < small_blind <= big_blind):
            raise ValueError("blinds must be whole numbers with 0 < small blind <= big blind")
        if not _is_int(button) or not 0 <= button < n or stacks[button] == 0:
            raise ValueError("the button must be on a seat with chips")
        order = [(button + 1 + i) % n for i in range(n)]
        order = [s for s in order if stacks[s] > 0]
        if len(order) < 2:
            raise ValueError("a hand needs at least two players with chips")
        needed = 2 * len(order) + 8
        if deck is None:
            deck = shuffled_deck(rng if rng is not None else SystemRandomSource())
        else:
            deck = [int(c) for c in deck]
            check_distinct(deck)
            if len(deck) < needed:
                raise ValueError(f"the deck has {len(deck)} cards; this hand needs {needed}")

        self.n_seats = n
        self.button = button
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.automate = automate
        self._evaluate = evaluate
        self._deck: list[int] = list(deck)
        self._next_card = 0

        self._order = order  # clockwise from the left of the button; button last
        self._pos = {s: i for i, s in enumerate(order)}
        if len(order) == 2:
            self.small_blind_seat, self.big_blind_seat = button, order[0]
        else:
            self.small_blind_seat, self.big_blind_seat = order[0], order[1]

        self.stacks: list[int] = list(stacks)
        self.bets: list[int] = [0] * n
        self.committed: list[int] = [0] * n
        self.dealt_in: tuple[bool, ...] = tuple(s > 0 for s in stacks)
        self.folded: list[bool] = [not d for d in self.dealt_in]
        self.hole_cards: list[tuple[int, int] | None] = [None] * n
        self.board: list[int] = []
        self.street = Street.PREFLOP
        self.history: list[Record] = []
        self.returned: list[int] = [0] * n
        self.voluntary: list[bool] = [False] * n  # VPIP: chips put in by choice pre-flop
        self.strengths: dict[int, int] = {}

        self.current_bet = 0
        self.last_full = big_blind
        self._acted: list[int | None] = [None] * n
        self._to_act: int | None = None
        self._phase = _Phase.BLINDS
        self._ops: list[list[Any]] = []  # everything done, for to_dict / resume
        self._result: HandResult | None = None
        if automate:
            self.run_dealer()

    # ------------------------------------------------------------------ state queries

    @property
    def players(self) -> tuple[int, ...]:
        """Seats dealt in, clockwise from the left of the button (button last)."""
        return tuple(self._order)

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` (dealer's turn, or hand over)."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        return self._phase is _Phase.DONE

    @property
    def pending_job(self) -> DealerJob | None:
        """The dealer job due now, or ``None`` when a player must act or the hand is over."""
        return _PHASE_JOB.get(self._phase)

    @property
    def pot_total(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return sum(self.committed)

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (dealt in, not folded), clockwise from the button's left."""
        return [s for s in self._order if not self.folded[s]]

    def is_all_in(self, seat: int) -> bool:
        return self.dealt_in[seat] and not self.folded[seat] and self.stacks[seat] == 0

    def pots(self) -> list[Pot]:
        """Main pot then side pots, from the chips committed so far (bets included)."""
        return [Pot(a, tuple(e)) for a, e in self._pot_levels()]

    def result(self) -> HandResult:
        if self._result is None:
            raise IllegalActionError("the hand is not over yet")
        return self._result

    # ------------------------------------------------------------------ betting helpers

    def _call_level(self, s: int) -> int:
        """What ``s`` must reach to call: the highest bet, never more than others can match."""
        cap = max(
            (self.bets[o] + self.stacks[o] for o in self._order if o != s and not self.folded[o]),
            default=0,
        )
        return min(self.current_bet, cap)

    def _find_next(self, after: int) -> int | None:
        order, bets, stacks, folded = self._order, self.bets, self.stacks, self.folded
        can_act = [s for s in order if not folded[s] and stacks[s] > 0]
        if not can_act:
            return None
        if len(can_act) == 1:
            s = can_act[0]
            others = max((bets[o] for o in order if o != s and not folded[o]), default=0)
            return s if bets[s] < others else None
        m = len(order)
        p = self._pos[after]
        for i in range(1, m + 1):
            s = order[(p + i) % m]
            if folded[s] or stacks[s] == 0:
                continue
            if self._acted[s] is None or bets[s] < self._call_level(s):
                return s
        return None

    def _raise_block(self, s: int) -> str | None:
        """Why ``s`` may not bet or raise now, or ``None`` if they may."""
        to_call = max(0, self._call_level(s) - self.bets[s])
        if self.stacks[s] <= to_call:
            return "you cannot raise: calling takes all your chips"
        if not any(
            self.bets[o] + self.stacks[o] > self.current_bet
            for o in self._order
            if o != s and not self.folded[o]
        ):
            return "you cannot raise: every other player is all in"
        acted = self._acted[s]
        if acted is not None and acted > 0 and self.current_bet - acted < self.last_full:
            return (
                "a short all-in does not reopen the betting: you have already acted and the bet "
                f"has gone up by {self.current_bet - acted}, less than a full raise of "
                f"{self.last_full}; you may only call or fold"
            )
        return None

    def legal_actions(self) -> LegalActions | None:
        """The options of the seat to act, or ``None`` if no player is to act."""
        s = self._to_act
        if s is None:
            return None
        bet, stack = self.bets[s], self.stacks[s]
        to_call = max(0, self._call_level(s) - bet)
        can_raise = self._raise_block(s) is None
        max_to = bet + stack
        min_to = min(self.current_bet + self.last_full, max_to) if can_raise else max_to
        return LegalActions(
            seat=s,
            can_fold=to_call > 0,
            can_check=to_call == 0,
            can_call=to_call > 0,
            call_amount=min(stack, to_call),
            can_bet=can_raise and self.current_bet == 0,
            can_raise=can_raise and self.current_bet > 0,
            min_to=min_to,
            max_to=max_to,
            current_bet=self.current_bet,
            bet=bet,
            stack=stack,
            pot=self.pot_total,
            big_blind=self.big_blind,
            small_blind=self.small_blind,
        )

    def raise_blocked_by_short_all_in(self, seat: int) -> bool:
        """True if ``seat`` may not raise only because a short all-in did not reopen betting."""
        acted = self._acted[seat]
        return acted is not None and acted > 0 and self.current_bet - acted < self.last_full

    # ------------------------------------------------------------------ player actions

    def _check_turn(self, seat: int | None) -> int:
        s = self._to_act
        if s is None:
            if self._phase is _Phase.DONE:
                raise IllegalActionError("the hand is over")
            raise IllegalActionError("no player is to act: the dealer has a job to do")
        if seat is not None and seat != s:
            raise IllegalActionError(f"it is seat {s}'s turn, not seat {seat}'s")
        return s

    def verify_fold(self, seat: int | None = None) -> None:
        s = self._check_turn(seat)
        if self._call_level(s) <= self.bets[s]:
            raise IllegalActionError("there is nothing to call: check instead of folding")

    def verify_check(self, seat: int | None = None) -> None:
        s = self._check_turn(seat)
        to_call = self._call_level(s) - self.bets[s]
        if to_call > 0:
            raise IllegalActionError(f"you cannot check facing a bet: {to_call} to call")

    def verify_call(self, seat: int | None = None) -> None:
        s = self._check_turn(seat)
        if self._call_level(s) <= self.bets[s]:
            raise IllegalActionError("there is nothing to call: check instead")

    def verify_bet(self, to: int, seat: int | None = None) -> None:
        s = self._check_turn(seat)
        if self.current_bet > 0:
            if self.street is Street.PREFLOP:
                raise IllegalActionError(
                    "before the flop the big blind is the opening bet: raise instead of bet"
                )
            raise IllegalActionError(f"there is already a bet of {self.current_bet}: raise instead")
        self._verify_amount(s, to, "bet")

    def verify_raise(self, to: int, seat: int | None = None) -> None:
        s = self._check_turn(seat)
        if self.current_bet == 0:
            raise IllegalActionError("there is no bet to raise: bet instead")
        self._verify_amount(s, to, "raise")

    def _verify_amount(self, s: int, to: Any, word: str) -> None:
        block = self._raise_block(s)
        if block is not None:
            raise IllegalActionError(block)
        if not _is_int(to):
            raise IllegalActionError(f"a {word} amount is a whole number of chips, not {to!r}")
        max_to = self.bets[s] + self.stacks[s]
        if to > max_to:
            raise IllegalActionError(
                f"you cannot {word} to {to}: you have only {max_to} in all (all in)"
            )
        min_to = self.current_bet + self.last_full
        if to < min_to and to != max_to:
            if word == "bet":
                raise IllegalActionError(
                    f"the smallest bet is one big blind ({self.last_full}); you may also go all in"
                )
            raise IllegalActionError(
                f"the smallest raise is to {min_to} ({self.current_bet} plus the last full raise "
                f"of {self.last_full}); you may also go all in"
            )

    def verify_all_in(self, seat: int | None = None) -> None:
        s = self._check_turn(seat)
        if self.stacks[s] + self.bets[s] > self._call_level(s):
            block = self._raise_block(s)
            if block is not None:
                raise IllegalActionError(block)

    def verify_action(self, action: Action, seat: int | None = None) -> None:
        kind = action.kind
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if action.amount is None:
                raise IllegalActionError(f"{kind.value} needs an amount (the total for the round)")
            (self.verify_bet if kind is ActionKind.BET else self.verify_raise)(action.amount, seat)
        elif action.amount is not None:
            raise IllegalActionError(f"{kind.value} takes no amount")
        elif kind is ActionKind.FOLD:
            self.verify_fold(seat)
        elif kind is ActionKind.CHECK:
            self.verify_check(seat)
        elif kind is ActionKind.CALL:
            self.verify_call(seat)
        else:
            self.verify_all_in(seat)

    def _can(self, verify: Callable[..., None], *args: Any) -> bool:
        try:
            verify(*args)
        except IllegalActionError:
            return False
        return True

    def can_fold(self, seat: int | None = None) -> bool:
        return self._can(self.verify_fold, seat)

    def can_check(self, seat: int | None = None) -> bool:
        return self._can(self.verify_check, seat)

    def can_call(self, seat: int | None = None) -> bool:
        return self._can(self.verify_call, seat)

    def can_bet(self, to: int, seat: int | None = None) -> bool:
        return self._can(self.verify_bet, to, seat)

    def can_raise(self, to: int, seat: int | None = None) -> bool:
        return self._can(self.verify_raise, to, seat)

    def can_all_in(self, seat: int | None = None) -> bool:
        return self._can(self.verify_all_in, seat)

    def can_act(self, action: Action, seat: int | None = None) -> bool:
        return self._can(self.verify_action, action, seat)

    def fold(self, seat: int | None = None) -> Folded:
        self.verify_fold(seat)
        s = self._begin_action(["fold"])
        self.folded[s] = True
        self._acted[s] = self.current_bet
        return self._end_action(s, Folded(s))

    def check(self, seat: int | None = None) -> Checked:
        self.verify_check(seat)
        s = self._begin_action(["check"])
        self._acted[s] = self.current_bet
        return self._end_action(s, Checked(s))

    def call(self, seat: int | None = None) -> Called:
        self.verify_call(seat)
        s = self._begin_action(["call"])
        amount = min(self.stacks[s], self._call_level(s) - self.bets[s])
        self._put(s, amount)
        self._acted[s] = self.current_bet
        if self.street is Street.PREFLOP:
            self.voluntary[s] = True
        return self._end_action(s, Called(s, amount, self.bets[s], self.stacks[s] == 0))

    def bet(self, to: int, seat: int | None = None) -> BetMade:
        self.verify_bet(to, seat)
        s = self._begin_action(["bet", to])
        return self._end_action(s, self._wager(s, to))  # type: ignore[arg-type]

    def raise_to(self, to: int, seat: int | None = None) -> Raised:
        self.verify_raise(to, seat)
        s = self._begin_action(["raise", to])
        return self._end_action(s, self._wager(s, to))  # type: ignore[arg-type]

    def all_in(self, seat: int | None = None) -> Called | BetMade | Raised:
        """Put in every chip: a call, a bet or a raise, whichever that amounts to."""
        self.verify_all_in(seat)
        s = self._to_act
        assert s is not None
        to = self.stacks[s] + self.bets[s]
        if to <= self._call_level(s):
            return self.call(seat)
        if self.current_bet == 0:
            return self.bet(to, seat)
        return self.raise_to(to, seat)

    def act(self, action: Action, seat: int | None = None) -> Record:
        """Perform ``action`` for the seat to act (checked against ``seat`` if given)."""
        self.verify_action(action, seat)
        kind = action.kind
        if kind is ActionKind.FOLD:
            return self.fold(seat)
        if kind is ActionKind.CHECK:
            return self.check(seat)
        if kind is ActionKind.CALL:
            return self.call(seat)
        if kind is ActionKind.BET:
            assert action.amount is not None
            return self.bet(action.amount, seat)
        if kind is ActionKind.RAISE:
            assert action.amount is not None
            return self.raise_to(action.amount, seat)
        return self.all_in(seat)

    def _begin_action(self, op: list[Any]) -> int:
        s = self._to_act
        assert s is not None
        self._ops.append([s, *op])
        return s

    def _put(self, s: int, amount: int) -> None:
        self.stacks[s] -= amount
        self.bets[s] += amount
        self.committed[s] += amount

    def _wager(self, s: int, to: int) -> BetMade | Raised:
        previous = self.current_bet
        self._put(s, to - self.bets[s])
        increment = to - previous
        full = increment >= self.last_full
        if full:
            self.last_full = increment
        self.current_bet = to
        self._acted[s] = to
        if self.street is Street.PREFLOP:
            self.voluntary[s] = True
        all_in = self.stacks[s] == 0
        if previous == 0:
            return BetMade(s, to, all_in)
        return Raised(s, to, increment, full, all_in)

    def _end_action(self, s: int, record: Any) -> Any:
        self.history.append(record)
        if len(self.live) == 1:
            self._close_round()
        else:
            nxt = self._find_next(s)
            if nxt is None:
                self._close_round()
            else:
                self._to_act = nxt
        if self.automate:
            self.run_dealer()
        return record

    # ------------------------------------------------------------------ rounds

    def _start_round(self, street: Street) -> None:
        self.street = street
        if street is not Street.PREFLOP:  # pre-flop the blinds stay as bets
            self.bets = [0] * self.n_seats
        self.current_bet = self.big_blind if street is Street.PREFLOP else 0
        self.last_full = self.big_blind
        self._acted = [None] * self.n_seats
        start = self.big_blind_seat if street is Street.PREFLOP else self.button
        if len(self.live) > 1:
            nxt = self._find_next(start)
            if nxt is not None:
                self._to_act = nxt
                self._phase = _Phase.BETTING
                return
        self._close_round()

    def _close_round(self) -> None:
        self._to_act = None
        committed = self.committed
        top = max(committed)
        holders = [s for s in range(self.n_seats) if committed[s] == top]
        if len(holders) == 1:
            s = holders[0]
            excess = top - max(c for o, c in enumerate(committed) if o != s)
            if excess > 0:
                self.stacks[s] += excess
                committed[s] -= excess
                self.bets[s] -= excess
                self.returned[s] += excess
                self.history.append(UncalledReturned(s, excess))
        self.bets = [0] * self.n_seats
        if len(self.live) == 1:
            self._phase = _Phase.PUSH
        elif self.street is Street.RIVER:
            self._phase = _Phase.SHOWDOWN
        else:
            self._phase = _Phase.BURN

    # ------------------------------------------------------------------ dealer jobs

    def _verify_job(self, job: DealerJob) -> None:
        if self.pending_job is not job:
            due = self.pending_job
            if due is None:
                raise IllegalActionError(
                    "the hand is over" if self.is_over else f"seat {self._to_act} is to act"
                )
            raise IllegalActionError(f"the dealer must {due.value.replace('_', ' ')} first")

    def verify_post_blinds(self) -> None:
        self._verify_job(DealerJob.POST_BLINDS)

    def verify_deal_hole(self) -> None:
        self._verify_job(DealerJob.DEAL_HOLE)

    def verify_burn_card(self) -> None:
        self._verify_job(DealerJob.BURN_CARD)

    def verify_deal_board(self) -> None:
        self._verify_job(DealerJob.DEAL_BOARD)

    def verify_show_hands(self) -> None:
        self._verify_job(DealerJob.SHOW_HANDS)

    def verify_push_chips(self) -> None:
        self._verify_job(DealerJob.PUSH_CHIPS)

    def can_do(self, job: DealerJob) -> bool:
        return self.pending_job is job

    def post_blinds(self) -> tuple[BlindPosted, BlindPosted]:
        self.verify_post_blinds()
        self._ops.append([DealerJob.POST_BLINDS.value])
        records = []
        for seat, amount, name in (
            (self.small_blind_seat, self.small_blind, "small"),
            (self.big_blind_seat, self.big_blind, "big"),
        ):
            paid = min(amount, self.stacks[seat])
            self._put(seat, paid)
            record = BlindPosted(seat, name, paid, self.stacks[seat] == 0)
            self.history.append(record)
            records.append(record)
        self._phase = _Phase.HOLE
        return records[0], records[1]

    def _draw(self) -> int:
        card = self._deck[self._next_card]
        self._next_card += 1
        return card

    def deal_hole(self) -> tuple[HoleCardsDealt, ...]:
        """Two cards each, one at a time, starting with the small blind."""
        self.verify_deal_hole()
        self._ops.append([DealerJob.DEAL_HOLE.value])
        order = self._order
        start = self._pos[self.small_blind_seat]
        seats = [order[(start + i) % len(order)] for i in range(len(order))]
        first = {s: self._draw() for s in seats}
        second = {s: self._draw() for s in seats}
        records = []
        for s in seats:
            self.hole_cards[s] = (first[s], second[s])
            record = HoleCardsDealt(s, (first[s], second[s]))
            self.history.append(record)
            records.append(record)
        self._start_round(Street.PREFLOP)
        return tuple(records)

    def burn_card(self) -> CardBurned:
        self.verify_burn_card()
        self._ops.append([DealerJob.BURN_CARD.value])
        record = CardBurned(self._draw())
        self.history.append(record)
        self._phase = _Phase.BOARD
        return record

    def deal_board(self) -> BoardDealt:
        self.verify_deal_board()
        self._ops.append([DealerJob.DEAL_BOARD.value])
        street = Street(self.street + 1)
        cards = tuple(self._draw() for _ in range(3 if street is Street.FLOP else 1))
        self.board.extend(cards)
        record = BoardDealt(street, cards)
        self.history.append(record)
        self._start_round(street)
        return record

    def show_hands(self) -> tuple[HandShown, ...]:
        """Everyone still in shows; strengths come from the evaluator."""
        self.verify_show_hands()
        self._ops.append([DealerJob.SHOW_HANDS.value])
        evaluate = self._evaluate or _default_evaluate()
        records = []
        for s in self.live:
            cards = self.hole_cards[s]
            assert cards is not None
            strength = int(evaluate([*cards, *self.board]))
            self.strengths[s] = strength
            record = HandShown(s, cards, strength)
            self.history.append(record)
            records.append(record)
        self._phase = _Phase.PUSH
        return tuple(records)

    def _pot_levels(self) -> list[tuple[int, list[int]]]:
        live = self.live
        committed = self.committed
        levels = sorted({committed[s] for s in live})
        pots: list[tuple[int, list[int]]] = []
        prev = 0
        for i, level in enumerate(levels):
            amount = sum(min(c, level) - min(c, prev) for c in committed)
            if i == len(levels) - 1:
                amount += sum(c - level for c in committed if c > level)
            if amount > 0:
                pots.append((amount, [s for s in live if committed[s] >= level]))
            prev = level
        return pots

    def push_chips(self) -> tuple[PotAwarded, ...]:
        """Award the main pot, then each side pot, to the best eligible hand(s)."""
        self.verify_push_chips()
        self._ops.append([DealerJob.PUSH_CHIPS.value])
        records = []
        won = [0] * self.n_seats
        for index, (amount, eligible) in enumerate(self._pot_levels()):
            if len(eligible) == 1:
                winners = eligible
            else:
                best = max(self.strengths[s] for s in eligible)
                winners = [s for s in eligible if self.strengths[s] == best]
            share, odd = divmod(amount, len(winners))
            shares = [share + (1 if i < odd else 0) for i in range(len(winners))]
            for w, chips in zip(winners, shares, strict=True):
                self.stacks[w] += chips
                won[w] += chips
            record = PotAwarded(index, amount, tuple(eligible), tuple(winners), tuple(shares))
            self.history.append(record)
            records.append(record)
        self.committed = [0] * self.n_seats
        self._phase = _Phase.DONE
        self._result = HandResult(
            starting_stacks=self.starting_stacks,
            final_stacks=tuple(self.stacks),
            pots=tuple(records),
            returned=tuple(self.returned),
            showdown=bool(self.strengths),
            shown=tuple(r for r in self.history if isinstance(r, HandShown)),
            won=tuple(won),
        )
        return tuple(records)

    def run_job(self) -> Any:
        """Do the pending dealer job and return its record(s)."""
        job = self.pending_job
        if job is None:
            raise IllegalActionError(
                "the hand is over" if self.is_over else f"seat {self._to_act} is to act"
            )
        return getattr(self, job.value)()

    def run_dealer(self) -> None:
        """Do dealer jobs until a player must act or the hand is over."""
        while self.pending_job is not None:
            self.run_job()

    # ------------------------------------------------------------------ views

    def public_history(self, viewer: int | None = None) -> list[Record]:
        """History as ``viewer`` may see it: no burned cards, no other player's hole cards."""
        out: list[Record] = []
        for r in self.history:
            if isinstance(r, CardBurned):
                continue
            if isinstance(r, HoleCardsDealt) and r.seat != viewer:
                continue
            out.append(r)
        return out

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know -- the only thing a bot or remote seat is ever given."""
        cards = self.hole_cards[seat]
        return PlayerView(
            seat=seat,
            hole_cards=tuple(cards) if cards is not None else (),
            board=tuple(self.board),
            street=self.street,
            button=self.button,
            small_blind_seat=self.small_blind_seat,
            big_blind_seat=self.big_blind_seat,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            stacks=tuple(self.stacks),
            bets=tuple(self.bets),
            committed=tuple(self.committed),
            dealt_in=self.dealt_in,
            in_hand=tuple(not f for f in self.folded),
            all_in=tuple(self.is_all_in(s) for s in range(self.n_seats)),
            pot=self.pot_total,
            current_bet=self.current_bet,
            legal=self.legal_actions() if seat == self._to_act else None,
            actions=tuple(
                r for r in self.history if not isinstance(r, CardBurned | HoleCardsDealt)
            ),
        )

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        """JSON-able state: the set-up, the deck and every operation so far.

        The deck is included so a saved hand resumes exactly; keep it out of any display.
        """
        return {
            "stacks": list(self.starting_stacks),
            "button": self.button,
            "blinds": [self.small_blind, self.big_blind],
            "deck": list(self._deck),
            "automate": self.automate,
            "ops": [list(op) for op in self._ops],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, evaluate: Evaluate | None = None) -> HoldemHand:
        """Rebuild a hand saved by :meth:`to_dict` by replaying its operations."""
        sb, bb = data["blinds"]
        hand = cls(
            data["stacks"],
            data["button"],
            sb,
            bb,
            deck=data["deck"],
            automate=False,
            evaluate=evaluate,
        )
        for op in data["ops"]:
            if isinstance(op[0], str):
                hand.run_job()
                if hand._ops[-1][0] != op[0]:
                    raise ValueError(f"saved hand does not replay: expected {op[0]}")
            else:
                hand.act(Action.from_list(op[1:]), seat=op[0])
        hand.automate = bool(data.get("automate", True))
        if hand.automate:
            hand.run_dealer()
        return hand


def deck_for_deal(
    stacks: Sequence[int],
    button: int,
    hole_cards: Sequence[Sequence[int] | None],
    board: Iterable[int],
) -> list[int]:
    """A deck order that deals the given hole cards and board (burns from unused cards).

    ``hole_cards[s]`` is the pair for seat ``s`` (``None`` for a seat with no chips).  A
    board of fewer than five cards is padded with unused cards (check the hand did not
    need them).  Raises :class:`engine.cards.CardParseError` if a card repeats.
    """
    n = len(stacks)
    order = [(button + 1 + i) % n for i in range(n)]
    order = [s for s in order if stacks[s] > 0]
    if len(order) == 2:
        order = [order[1], order[0]]  # heads-up: the button is the small blind
    board = list(board)
    used: list[int] = []
    for s in order:
        cards = hole_cards[s]
        if cards is None or len(cards) != 2:
            raise ValueError(f"seat {s} needs two hole cards")
        used.extend(cards)
    used.extend(board)
    check_distinct(used)
    taken = set(used)
    spare = [c for c in range(52) if c not in taken]
    deck = [hole_cards[s][0] for s in order] + [hole_cards[s][1] for s in order]  # type: ignore[index]
    full_board = board[:5] + spare[: max(0, 5 - len(board))]
    spare = spare[max(0, 5 - len(board)) :]
    deck += [spare[0], *full_board[:3], spare[1], full_board[3], spare[2], full_board[4]]
    return deck
