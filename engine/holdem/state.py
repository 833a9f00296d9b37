"""The state of a Hold'em hand and the rules that say what may happen next.

:class:`HandState` owns every chip, card and turn of one hand: the stacks, the bets of
the betting round, what each seat has acted on, the stage the dealer is at.  It answers
questions (whose turn, the pots, the legal actions, what a seat may see) and checks
actions and dealer jobs (``verify_x()`` raises :class:`IllegalActionError` naming the
rule; ``can_x()`` returns a bool) but never changes itself after it is set up:
:class:`engine.holdem.hand.HoldemHand` adds the moves.  Chips are whole numbers
(tournament points, never credits).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

from engine.cards import check_distinct
from engine.errors import IllegalActionError
from engine.holdem.actions import (
    MAX_SEATS,
    MIN_SEATS,
    Action,
    ActionKind,
    DealerJob,
    Evaluate,
    Street,
)
from engine.holdem.pots import Pot, pot_levels
from engine.holdem.records import CardBurned, HandResult, HoleCardsDealt, Record
from engine.holdem.views import LegalActions, PlayerView
from engine.rng import RandomSource, SystemRandomSource, shuffled_deck


class HandStage(Enum):
    """Where the hand is: a dealer job is due, a player is to act, or it is over."""

    BLINDS = 0
    HOLE = 1
    BETTING = 2
    BURN = 3
    BOARD = 4
    SHOWDOWN = 5
    PUSH = 6
    DONE = 7


_STAGE_JOB = {
    HandStage.BLINDS: DealerJob.POST_BLINDS,
    HandStage.HOLE: DealerJob.DEAL_HOLE,
    HandStage.BURN: DealerJob.BURN_CARD,
    HandStage.BOARD: DealerJob.DEAL_BOARD,
    HandStage.SHOWDOWN: DealerJob.SHOW_HANDS,
    HandStage.PUSH: DealerJob.PUSH_CHIPS,
}


def _is_int(x: Any) -> bool:
    return type(x) is int


class HandState:
    """One hand of No-limit Hold'em as it stands, with the rules of what may happen next.

    ``stacks``: chips per seat, clockwise (0 = sitting out); ``button``: a seat with chips;
    ``deck``: the cards in dealing order (at least ``2 * players + 8``), else a deck is
    shuffled with ``rng`` (default the OS generator).  ``evaluate`` maps 7 cards to a
    strength (higher wins); default :func:`engine.hands.evaluator.evaluate`.  Invariant:
    the chips in the stacks plus the chips committed always add up to the starting stacks.
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
        self._phase = HandStage.BLINDS
        self._ops: list[list[Any]] = []  # everything done, for to_dict / resume
        self._result: HandResult | None = None

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
        return self._phase is HandStage.DONE

    @property
    def pending_job(self) -> DealerJob | None:
        """The dealer job due now, or ``None`` when a player must act or the hand is over."""
        return _STAGE_JOB.get(self._phase)

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
        return pot_levels(self.committed, self.live)

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

    # ------------------------------------------------------------------ action rules

    def _check_turn(self, seat: int | None) -> int:
        s = self._to_act
        if s is None:
            if self._phase is HandStage.DONE:
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

    # ------------------------------------------------------------------ dealer job rules

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
