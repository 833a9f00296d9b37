"""One round of Ultimate Texas Hold'em for 1 to 7 seats against the dealer.

Phases: ``BETTING`` (Ante, with the Blind mirroring it, and optional Trips) ->
``PREFLOP`` (Play 4x or 3x the Ante, or check) -> ``FLOP`` (Play 2x or check, for
seats that have not played) -> ``RIVER`` (Play 1x or fold, for seats that have not
played) -> ``SETTLED``.  A phase nobody has to decide in is passed over.

The round deals from a deck it is given (52 distinct cards, shuffled by the caller
with :mod:`engine.rng`): one card to each seat in seat order, one to the dealer, a
second round the same way, then the flop, turn and river.  There are no burn cards:
the electronic shuffle fixes every position in advance.

Every operation returns a frozen record, appended to :attr:`UthRound.history`;
replaying the same bets and decisions on the same deck rebuilds the same round
(this is how the cabinet recovers after a power cut).  Amounts are integer cents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TypeVar

import numpy as np

from engine.cards import check_distinct
from engine.errors import IllegalActionError
from engine.hands.categories import HandCategory, category
from engine.hands.evaluator import best_five, describe, evaluate
from engine.uth.paytable import Paytable
from engine.uth.settlement import Outcome, pay_arrays, settle

MAX_SEATS = 7
SEATS = range(1, MAX_SEATS + 1)


class Phase(StrEnum):
    BETTING = "betting"
    PREFLOP = "preflop"
    FLOP = "flop"
    RIVER = "river"
    SETTLED = "settled"


class Action(StrEnum):
    PLAY_4X = "play_4x"
    PLAY_3X = "play_3x"
    PLAY_2X = "play_2x"
    PLAY_1X = "play_1x"
    CHECK = "check"
    FOLD = "fold"


#: Play bet as a multiple of the Ante, per action.
PLAY_MULTIPLE = {Action.PLAY_4X: 4, Action.PLAY_3X: 3, Action.PLAY_2X: 2, Action.PLAY_1X: 1}
LEGAL_BY_PHASE = {
    Phase.PREFLOP: (Action.PLAY_4X, Action.PLAY_3X, Action.CHECK),
    Phase.FLOP: (Action.PLAY_2X, Action.CHECK),
    Phase.RIVER: (Action.PLAY_1X, Action.FOLD),
}
#: Where each seat's two hole cards, the dealer's and the board lie in the committed deck
#: (positions 0..51).  Fixed whatever the other seats do, so one player's cards never
#: depend on whether another player bets: seat 1 takes 0 and 2, the dealer 1 and 3, the
#: board 4 to 8 (a one-seat round is dealt as from the top of the deck, alternately),
#: and seat k of 2..7 takes 2k+5 and 2k+6 (seat 2: 9 and 10, ..., seat 7: 19 and 20).
HOLE_POSITIONS: dict[int, tuple[int, int]] = {
    1: (0, 2),
    **{k: (2 * k + 5, 2 * k + 6) for k in range(2, MAX_SEATS + 1)},
}
DEALER_POSITIONS = (1, 3)
BOARD_POSITIONS = (4, 5, 6, 7, 8)
BOARD_VISIBLE = {
    Phase.BETTING: 0,
    Phase.PREFLOP: 0,
    Phase.FLOP: 3,
    Phase.RIVER: 5,
    Phase.SETTLED: 5,
}


def stake_total(ante: int, blind: int, play: int, trips: int) -> int:
    """One seat's four spots added up, cents: what it staked (or, given the returns of
    the spots, what came back).  The one stake sum of the cabinet."""
    return ante + blind + play + trips


@dataclass(frozen=True)
class BetsPlaced:
    seat: int
    ante: int
    blind: int
    trips: int


@dataclass(frozen=True)
class HoleCardsDealt:
    seats: tuple[tuple[int, tuple[int, int]], ...]  # (seat, (card, card)), dealer's face down


@dataclass(frozen=True)
class BoardDealt:
    phase: Phase
    cards: tuple[int, ...]  # the cards revealed now


@dataclass(frozen=True)
class Decision:
    seat: int
    phase: Phase
    action: Action
    play: int  # Play bet placed by this decision, cents (0 for check / fold)


@dataclass(frozen=True)
class SeatResult:
    """One seat's settled spots.  Returns include the stake; 0 means lost."""

    seat: int
    hole: tuple[int, int]
    strength: int
    category: HandCategory
    best_five: tuple[int, ...]
    hand_name: str
    outcome: Outcome
    ante: int
    blind: int
    play: int
    trips: int
    ante_return: int
    blind_return: int
    play_return: int
    trips_return: int
    breakage: int  # units of 1/breakage_unit cent

    @property
    def staked(self) -> int:
        return stake_total(self.ante, self.blind, self.play, self.trips)

    @property
    def returned(self) -> int:
        return stake_total(self.ante_return, self.blind_return, self.play_return, self.trips_return)

    @property
    def net(self) -> int:
        return self.returned - self.staked


@dataclass(frozen=True)
class RoundSettled:
    dealer_hole: tuple[int, int]
    board: tuple[int, ...]
    dealer_strength: int
    dealer_category: HandCategory
    dealer_best_five: tuple[int, ...]
    dealer_hand_name: str
    dealer_qualifies: bool
    breakage_unit: int
    seats: tuple[SeatResult, ...]

    def seat(self, seat: int) -> SeatResult:
        return next(s for s in self.seats if s.seat == seat)


Record = BetsPlaced | HoleCardsDealt | BoardDealt | Decision | RoundSettled
R = TypeVar("R", BetsPlaced, HoleCardsDealt, BoardDealt, Decision, RoundSettled)


@dataclass(frozen=True)
class DealtCards:
    """The cards a deal fixed: ``holes`` (seat, its two cards) in seat order, the dealer's
    two cards and the five board cards."""

    holes: tuple[tuple[int, tuple[int, int]], ...]
    dealer: tuple[int, int]
    board: tuple[int, ...]


@dataclass(frozen=True)
class SeatView:
    """What one player may see: never the dealer's hole cards before settlement."""

    seat: int
    phase: Phase
    hole: tuple[int, ...]
    board: tuple[int, ...]
    ante: int
    trips: int
    play: int
    folded: bool
    legal: tuple[Action, ...]


@dataclass
class _Spot:
    ante: int
    trips: int
    play: int = 0
    folded: bool = False
    hole: tuple[int, int] = (0, 0)


@dataclass
class UthRound:
    """A round in progress.  ``deck``: 52 distinct cards in deal order."""

    paytable: Paytable
    deck: Sequence[int]
    phase: Phase = Phase.BETTING
    history: list[Record] = field(default_factory=list)
    _spots: dict[int, _Spot] = field(default_factory=dict)
    _decided: set[int] = field(default_factory=set)
    _dealer: tuple[int, int] = (0, 0)
    _board: tuple[int, ...] = ()
    _result: RoundSettled | None = None

    def __post_init__(self) -> None:
        deck = tuple(int(c) for c in self.deck)
        if len(deck) != 52:
            raise ValueError(f"a deck has 52 cards, got {len(deck)}")
        check_distinct(deck)
        self.deck = deck

    def copy(self) -> UthRound:
        """An independent copy sharing the paytable and the deck (both immutable): a
        decision applied to the copy leaves this round as it was."""
        return UthRound(
            paytable=self.paytable,
            deck=self.deck,
            phase=self.phase,
            history=list(self.history),
            _spots={s: replace(sp) for s, sp in self._spots.items()},
            _decided=set(self._decided),
            _dealer=self._dealer,
            _board=self._board,
            _result=self._result,
        )

    # -- queries ---------------------------------------------------------------
    @property
    def seats(self) -> tuple[int, ...]:
        """Seats with bets, in seat order."""
        return tuple(sorted(self._spots))

    def board(self) -> tuple[int, ...]:
        """The community cards shown so far."""
        return self._board[: BOARD_VISIBLE[self.phase]]

    def to_act(self) -> tuple[int, ...]:
        """Seats that still have to decide in the current phase."""
        if self.phase not in LEGAL_BY_PHASE:
            return ()
        return tuple(s for s in self.seats if s not in self._decided and self._needs_decision(s))

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """The actions ``seat`` may take now (empty when it has nothing to decide)."""
        if seat in self.to_act():
            return LEGAL_BY_PHASE[self.phase]
        return ()

    def view(self, seat: int) -> SeatView:
        spot = self._spot(seat)
        return SeatView(
            seat=seat,
            phase=self.phase,
            hole=spot.hole if self.phase != Phase.BETTING else (),
            board=self.board(),
            ante=spot.ante,
            trips=spot.trips,
            play=spot.play,
            folded=spot.folded,
            legal=self.legal_actions(seat),
        )

    def dealt_cards(self) -> DealtCards:
        """Every card the deal fixed (each seat's hole cards, the dealer's, the whole
        board), for outcome collection and audit: never a player's view."""
        if self.phase == Phase.BETTING:
            raise IllegalActionError("the cards have not been dealt")
        holes = tuple((s, self._spots[s].hole) for s in self.seats)
        return DealtCards(holes, self._dealer, self._board)

    def outcome(self) -> RoundSettled | None:
        """The settlement, once the round is settled."""
        return self._result

    def staked(self, seat: int) -> int:
        """Cents at risk on ``seat`` so far (Ante + Blind + Play + Trips)."""
        spot = self._spot(seat)
        return 2 * spot.ante + spot.play + spot.trips

    # -- bets ------------------------------------------------------------------
    def verify_place_bets(self, seat: int, ante: int, trips: int = 0) -> None:
        lim = self.paytable.limits
        if self.phase != Phase.BETTING:
            raise IllegalActionError("bets are placed before the cards are dealt")
        if seat not in SEATS:
            raise IllegalActionError(f"seat {seat} does not exist (seats 1 to {MAX_SEATS})")
        if seat in self._spots:
            raise IllegalActionError(f"seat {seat} has already placed its bets")
        if not isinstance(ante, int) or not isinstance(trips, int):
            raise IllegalActionError("bets are whole numbers of cents")
        if not lim.ante_min <= ante <= lim.ante_max:
            raise IllegalActionError(
                f"the Ante must be between {lim.ante_min} and {lim.ante_max} cents, not {ante}"
            )
        if ante % lim.ante_step:
            raise IllegalActionError(f"the Ante must be a multiple of {lim.ante_step} cents")
        if trips and not lim.trips_min <= trips <= lim.trips_max:
            raise IllegalActionError(
                f"Trips must be 0 or between {lim.trips_min} and {lim.trips_max} cents, not {trips}"
            )
        if trips < 0:
            raise IllegalActionError("Trips cannot be negative")

    def can_place_bets(self, seat: int, ante: int, trips: int = 0) -> bool:
        try:
            self.verify_place_bets(seat, ante, trips)
        except IllegalActionError:
            return False
        return True

    def place_bets(self, seat: int, ante: int, trips: int = 0) -> BetsPlaced:
        """Place the Ante (the Blind mirrors it) and optional Trips for ``seat``."""
        self.verify_place_bets(seat, ante, trips)
        self._spots[seat] = _Spot(ante=ante, trips=trips)
        return self._record(BetsPlaced(seat=seat, ante=ante, blind=ante, trips=trips))

    # -- dealing ---------------------------------------------------------------
    def verify_deal(self) -> None:
        if self.phase != Phase.BETTING:
            raise IllegalActionError("the cards have already been dealt")
        if not self._spots:
            raise IllegalActionError("no seat has placed an Ante")

    def deal(self) -> HoleCardsDealt:
        """Deal hole cards to every seat and the dealer; board cards are fixed, not shown."""
        self.verify_deal()
        seats = self.seats
        d = self.deck
        for s in seats:
            first, second = HOLE_POSITIONS[s]
            self._spots[s].hole = (d[first], d[second])
        self._dealer = (d[DEALER_POSITIONS[0]], d[DEALER_POSITIONS[1]])
        self._board = tuple(d[i] for i in BOARD_POSITIONS)
        self.phase = Phase.PREFLOP
        record = self._record(HoleCardsDealt(seats=tuple((s, self._spots[s].hole) for s in seats)))
        self._advance()
        return record

    # -- decisions -------------------------------------------------------------
    def verify_act(self, seat: int, action: Action | str) -> Action:
        if self.phase not in LEGAL_BY_PHASE:
            raise IllegalActionError(f"no decision is taken in the {self.phase} phase")
        try:
            action = Action(action)
        except ValueError:
            raise IllegalActionError(f"unknown action {action!r}") from None
        spot = self._spots.get(seat)
        if spot is None:
            raise IllegalActionError(f"seat {seat} is not in this round")
        if spot.folded:
            raise IllegalActionError(f"seat {seat} has folded")
        if spot.play:
            raise IllegalActionError(f"seat {seat} has already made its Play bet")
        if seat in self._decided:
            raise IllegalActionError(f"seat {seat} has already decided on the {self.phase}")
        if action not in LEGAL_BY_PHASE[self.phase]:
            allowed = ", ".join(a.value for a in LEGAL_BY_PHASE[self.phase])
            raise IllegalActionError(
                f"{action.value} is not allowed on the {self.phase} ({allowed})"
            )
        return action

    def can_act(self, seat: int, action: Action | str) -> bool:
        try:
            self.verify_act(seat, action)
        except IllegalActionError:
            return False
        return True

    def act(self, seat: int, action: Action | str) -> Decision:
        """Apply ``seat``'s decision; the round moves on when every seat has decided."""
        action = self.verify_act(seat, action)
        spot = self._spots[seat]
        play = PLAY_MULTIPLE.get(action, 0) * spot.ante
        spot.play = play
        spot.folded = action == Action.FOLD
        self._decided.add(seat)
        record = self._record(Decision(seat=seat, phase=self.phase, action=action, play=play))
        self._advance()
        return record

    # -- internals -------------------------------------------------------------
    def _spot(self, seat: int) -> _Spot:
        try:
            return self._spots[seat]
        except KeyError:
            raise IllegalActionError(f"seat {seat} is not in this round") from None

    def _record(self, record: R) -> R:
        self.history.append(record)
        return record

    def _needs_decision(self, seat: int) -> bool:
        spot = self._spots[seat]
        return not spot.folded and not spot.play

    def _advance(self) -> None:
        order = (Phase.PREFLOP, Phase.FLOP, Phase.RIVER)
        while self.phase in LEGAL_BY_PHASE and not self.to_act():
            nxt = order.index(self.phase) + 1
            self._decided.clear()
            if nxt == len(order):
                self._settle()
                return
            shown = BOARD_VISIBLE[self.phase]
            self.phase = order[nxt]
            self._record(
                BoardDealt(phase=self.phase, cards=self._board[shown : BOARD_VISIBLE[self.phase]])
            )

    def _settle(self) -> None:
        self.phase = Phase.SETTLED
        seats = self.seats
        spots = [self._spots[s] for s in seats]
        board = self._board
        dealer_cards = (*self._dealer, *board)
        dealer_strength = evaluate(dealer_cards)
        strengths = [evaluate((*sp.hole, *board)) for sp in spots]
        res = settle(
            ante=np.array([sp.ante for sp in spots]),
            play=np.array([sp.play for sp in spots]),
            trips=np.array([sp.trips for sp in spots]),
            folded=np.array([sp.folded for sp in spots]),
            player_strength=np.array(strengths),
            dealer_strength=dealer_strength,
            table=self.paytable,
        )
        results = tuple(
            SeatResult(
                seat=s,
                hole=sp.hole,
                strength=strengths[i],
                category=category(strengths[i]),
                best_five=tuple(best_five((*sp.hole, *board))),
                hand_name=describe(strengths[i]),
                outcome=Outcome(int(res.outcome[i])),
                ante=sp.ante,
                blind=sp.ante,
                play=sp.play,
                trips=sp.trips,
                ante_return=int(res.ante_return[i]),
                blind_return=int(res.blind_return[i]),
                play_return=int(res.play_return[i]),
                trips_return=int(res.trips_return[i]),
                breakage=int(res.breakage[i]),
            )
            for i, (s, sp) in enumerate(zip(seats, spots, strict=True))
        )
        self._result = RoundSettled(
            dealer_hole=self._dealer,
            board=board,
            dealer_strength=dealer_strength,
            dealer_category=category(dealer_strength),
            dealer_best_five=tuple(best_five(dealer_cards)),
            dealer_hand_name=describe(dealer_strength),
            dealer_qualifies=bool(
                dealer_strength >= pay_arrays(self.paytable).qualify_min_strength
            ),
            breakage_unit=res.unit,
            seats=results,
        )
        self._record(self._result)
