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

:class:`HoldemHand` is the state machine: it adds the moves to :class:`HandState` (the
chips, cards and turn, and the rules).  Value types live in :mod:`engine.holdem.actions`,
the records in :mod:`engine.holdem.records`, what a seat may see in
:mod:`engine.holdem.views`, the pots in :mod:`engine.holdem.pots`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalActionError
from engine.holdem.actions import Action, ActionKind, DealerJob, Evaluate, Street
from engine.holdem.pots import pot_levels, split_pot
from engine.holdem.records import (
    BetMade,
    BlindPosted,
    BoardDealt,
    Called,
    CardBurned,
    Checked,
    Folded,
    HandResult,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Raised,
    Record,
    UncalledReturned,
)
from engine.holdem.state import HandStage, HandState
from engine.rng import RandomSource


def _default_evaluate() -> Evaluate:
    from engine.hands.evaluator import evaluate  # the table-driven evaluator, loaded on use

    return evaluate


class HoldemHand(HandState):
    """One hand of No-limit Hold'em: the player actions and dealer jobs, each recorded.

    Arguments as :class:`HandState`; with ``automate`` (the default) the dealer jobs run
    by themselves until a player must act.  Every move is checked by its ``verify_x()``
    before any state changes, appended to ``history`` as a frozen record and returned.
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
        super().__init__(
            stacks,
            button,
            small_blind,
            big_blind,
            deck=deck,
            rng=rng,
            automate=automate,
            evaluate=evaluate,
        )
        if automate:
            self.run_dealer()

    # ------------------------------------------------------------------ player actions

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
                self._phase = HandStage.BETTING
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
            self._phase = HandStage.PUSH
        elif self.street is Street.RIVER:
            self._phase = HandStage.SHOWDOWN
        else:
            self._phase = HandStage.BURN

    # ------------------------------------------------------------------ dealer jobs

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
        self._phase = HandStage.HOLE
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
        self._phase = HandStage.BOARD
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
        self._phase = HandStage.PUSH
        return tuple(records)

    def push_chips(self) -> tuple[PotAwarded, ...]:
        """Award the main pot, then each side pot, to the best eligible hand(s)."""
        self.verify_push_chips()
        self._ops.append([DealerJob.PUSH_CHIPS.value])
        records = []
        won = [0] * self.n_seats
        for index, pot in enumerate(pot_levels(self.committed, self.live)):
            winners, shares = split_pot(pot, self.strengths)
            for w, chips in zip(winners, shares, strict=True):
                self.stacks[w] += chips
                won[w] += chips
            record = PotAwarded(index, pot.amount, pot.eligible, winners, shares)
            self.history.append(record)
            records.append(record)
        self.committed = [0] * self.n_seats
        self._phase = HandStage.DONE
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

    # ------------------------------------------------------------------ persistence

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
