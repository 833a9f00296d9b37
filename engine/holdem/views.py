"""What a seat may see and do: the legal actions of the seat to act, and a seat's view.

A :class:`PlayerView` is the only thing a bot or a remote seat is ever given: never the
deck, never anybody else's hole cards.  Chips are whole numbers (tournament points).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.holdem.actions import Street
from engine.holdem.records import Record


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
