"""The round: the betting window, one deal for every seat with an Ante, decisions in
parallel under the phase's timer, and one transaction settling every seat.  The one
round loop of the lone cabinet (a table of one station: no countdowns) and of the
shared table.

The deal, each decision and settlement are the round's ledger life of
:mod:`kiosk.game.round_book`: every change is committed before it takes effect in
memory, every seat is settled by the engine's one ``settle()`` in one transaction, and
each seat's row holds its result, payout and breakage.  Each decision is stored with its
exact value and the optimal decision's (:mod:`kiosk.game.round_values`: every dealt
seat's values are computed from the deal on by one worker thread, and the caller waits
for them outside the game's lock); a seat's jackpot (``jackpot_limit`` cents or more) is
hand-paid and tilts its station.  The progressive (:mod:`kiosk.service.progressive`) is
taken in the deal's transaction and settled in the round's.  Amounts are cents.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.money import format_cents as money
from engine.rng import RandomSource
from engine.uth.round import BOARD_POSITIONS, HOLE_POSITIONS, Action, Decision, Phase, UthRound
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, WrongState
from kiosk.game.round_book import RoundBook, affordable, checked_action
from kiosk.game.round_values import SeatValues
from kiosk.game.rules.betting import (
    check_bets,
    check_chip,
    check_progressive,
    require_ante,
    require_not_dealt,
    require_previous,
)
from kiosk.game.snapshot import ActionOffer
from kiosk.game.vocabulary import HOST_SHUTDOWN_TILT, JACKPOT_TILT, Bets, Spot
from kiosk.ledger.kinds import EventKind
from kiosk.service.progressive import TableProgressive
from kiosk.service.progressive_link import PROGRESSIVE_LINK_TILT, linked_level, wager_offered
from kiosk.service.state import TableState, TimedOut
from kiosk.service.timing import deadline_after, timeout_action

if TYPE_CHECKING:
    from engine.maths.decision_values import DecisionValues


#: Tilts that let the round in progress finish (only new bets and deals stop).
FINISHING = frozenset({HOST_SHUTDOWN_TILT, PROGRESSIVE_LINK_TILT})


class TablePlay:
    """The betting window, the deal, the decisions and settlement of the round."""

    def __init__(self, state: TableState, rng: RandomSource) -> None:
        self.state = state
        self.rng = rng
        self.book = RoundBook(
            rng,
            state.config.jackpot_limit_cents,
            lambda seat, message: state.set_tilt(seat, JACKPOT_TILT, message),
        )
        self.progressive = TableProgressive(
            state.event,
            state.config.jackpot_limit_cents,
            lambda seat, message: state.set_tilt(seat, JACKPOT_TILT, message),
        )
        self._values: dict[int, SeatValues] = {}  # seat -> its values in the round open

    # -- the betting window ------------------------------------------------------------
    @property
    def timed_window(self) -> bool:
        """A table of one station has no countdown: its window is "Deal pressed"."""
        return len(self.state.stations) > 1

    def _between_rounds(self, number: int) -> None:
        st = self.state
        st.require_playable(number)
        st.require_between_rounds(number)

    def _open_window(self) -> None:
        st = self.state
        if self.timed_window and st.betting_deadline is None:
            st.betting_deadline = deadline_after(st.now(), st.timing.betting_seconds)

    def add_chip(self, number: int, spot: Spot, cents: int) -> None:
        """Add a chip of ``cents`` to ``spot`` at station ``number``; opens the window."""
        self._between_rounds(number)
        station = self.state.station(number)
        require_not_dealt(station.ready)
        check_chip(spot, cents)
        bets = station.pending.add(spot, cents)
        check_progressive(wager_offered(self.state), bets)
        check_bets(self.state.limits, self.state.credits(number), bets, complete=False)
        station.pending, station.passed, station.show_result = bets, False, False
        self._open_window()

    def clear_bets(self, number: int) -> None:
        st = self.state
        st.require_between_rounds(number)
        station = st.station(number)
        station.reset_window()
        station.show_result = False

    def take_progressive(self, number: int) -> None:
        """Take back station ``number``'s progressive wager placed in the window (its
        other chips stay)."""
        self._between_rounds(number)
        station = self.state.station(number)
        require_not_dealt(station.ready)
        station.pending = replace(station.pending, progressive=0)

    def repeat_bets(self, number: int) -> None:
        self._between_rounds(number)
        station = self.state.station(number)
        require_previous(station.last_bets)
        bets = station.last_bets
        offered = wager_offered(self.state)
        if bets.progressive and (offered is None or offered.wager != bets.progressive):
            bets = replace(bets, progressive=0)  # the paytable in force no longer offers it
        check_bets(self.state.limits, self.state.credits(number), bets, complete=True)
        station.pending, station.passed, station.show_result = bets, False, False
        self._open_window()

    def press_deal(self, number: int) -> None:
        """Station ``number`` is done betting; the window closes when every station with
        credits is done (at once for a table of one)."""
        self._between_rounds(number)
        station = self.state.station(number)
        require_ante(station.pending)
        check_progressive(wager_offered(self.state), station.pending)
        check_bets(self.state.limits, self.state.credits(number), station.pending, complete=True)
        station.ready, station.passed = True, False
        self._open_window()
        self.close_window_if_done()

    def press_pass(self, number: int) -> None:
        """Station ``number`` sits this round out (its chips come back)."""
        self._between_rounds(number)
        station = self.state.station(number)
        station.reset_window()
        station.passed = True
        self.close_window_if_done()

    def close_window_if_done(self) -> None:
        """Deal when every station with credits that may play has pressed Deal or Pass
        and at least one has pressed Deal."""
        st = self.state
        waiting = [
            s
            for n, s in st.stations.items()
            if st.playable(n) and st.credits(n) and not (s.ready or s.passed)
        ]
        if not waiting and any(s.ready for s in st.stations.values()):
            self.deal()

    def window_expired(self) -> None:
        """The window's time is up: deal the seats whose bets are complete."""
        self.deal()

    # -- the deal ----------------------------------------------------------------------
    def deal(self) -> None:
        """Deal one round to every station whose Ante is placed and complete; the
        others sit out.  Every seat's row and the deck's commitment are committed in one
        transaction before any card is shown."""
        st = self.state
        st.betting_deadline = None
        ledger = st.require_ledger()
        seats: dict[int, Bets] = {}
        for number, station in sorted(st.stations.items()):
            bets = station.pending
            if not bets.ante or not st.playable(number) or station.payout is not None:
                continue
            try:
                check_progressive(wager_offered(st), bets)
                check_bets(st.limits, st.credits(number), bets, complete=True)
            except MachineError as exc:
                station.message = f"Not dealt in: {exc.reason}"
                continue
            seats[number] = bets
        if not seats:
            for station in st.stations.values():
                station.reset_window()
            return
        # a row's credits are those its own bets are taken from: after the progressive
        credits = {s: st.credits(s) - b.progressive for s, b in seats.items()}
        at = st.stamp()
        with ledger.transaction():
            dealt = self.book.deal(ledger, st.paytable, seats, credits, at)
            self.progressive.take_wagers(st.paytable, seats, dealt.row_ids, at, linked_level(st))
        st.round, st.round_open = dealt.round, True
        st.row_ids, st.commitment = dealt.row_ids, dealt.commitment
        for number, station in st.stations.items():
            if number in seats:
                station.last_bets = station.pending
                station.jackpot = 0
            station.reset_window()
            station.show_result = False
            station.timed_out = None
        self.start_values()
        self.start_timer()

    def start_values(self) -> None:
        """Start computing every seat's decision values of the round open (when the
        configuration records them; again for a round rebuilt at power-up)."""
        st = self.state
        rnd, first = st.round, st.round_id
        self._values = {}
        if not st.config.decision_values or not st.round_open or rnd is None or first is None:
            return
        board = [rnd.deck[i] for i in BOARD_POSITIONS]
        for seat in sorted(rnd.seats):
            hole = [rnd.deck[i] for i in HOLE_POSITIONS[seat]]
            self._values[seat] = SeatValues(first, rnd.paytable, hole, board, seat)

    def values_for(self, number: int) -> tuple[SeatValues, Phase] | None:
        """The decision values of station ``number``'s seat in the round open, and the
        phase it decides in now (None when it has nothing to decide): the caller waits
        for them outside the game's lock."""
        rnd = self.state.round
        found = self._values.get(number)
        if found is None or rnd is None or not self.state.round_open:
            return None
        return found, rnd.phase

    def start_timer(self) -> None:
        """The current phase's decision timer starts (again) at its full length (none
        at a table without a decision timer)."""
        st = self.state
        seconds = st.timing.decision_seconds
        st.decision_deadline = (
            deadline_after(st.now(), seconds) if st.round_open and seconds is not None else None
        )

    # -- decisions ---------------------------------------------------------------------
    def offers(self, number: int) -> tuple[ActionOffer, ...]:
        """The decisions station ``number`` may take now that its credits cover, with
        the Play each wagers (cents)."""
        st = self.state
        rnd = st.round
        if not st.round_open or rnd is None or number not in rnd.seats:
            return ()
        if not st.playable(number, FINISHING):
            return ()
        return affordable(rnd, number, st.credits(number))

    def decide(
        self, number: int, action: Action | str, values: DecisionValues | None = None
    ) -> None:
        """Station ``number``'s decision for its seat (with its exact ``values`` when
        known); the last one settles every seat."""
        st = self.state
        st.require_playable(number, FINISHING)
        rnd = st.round
        if not st.round_open or rnd is None:
            raise WrongState("no round in progress", code=ErrorCode.NO_ROUND)
        if number not in rnd.seats:
            raise WrongState("this station sits this round out", code=ErrorCode.NOT_IN_ROUND)
        action = checked_action(rnd, number, action, self.offers(number))
        self._apply(rnd, number, action, timed_out=False, values=values)

    def expire_timer(self) -> None:
        """The phase's timer ran out: every seat still to decide takes its default
        (check before the river, fold on it), recorded as timed out."""
        st = self.state
        rnd = st.round
        if not st.round_open or rnd is None:
            return
        phase = rnd.phase
        for seat in rnd.to_act():
            current = st.round
            assert current is not None
            if not st.round_open or current.phase is not phase:
                break
            self._apply(current, seat, timeout_action(phase), timed_out=True)

    def _apply(
        self,
        rnd: UthRound,
        seat: int,
        action: Action,
        *,
        timed_out: bool,
        values: DecisionValues | None = None,
    ) -> None:
        st = self.state
        ledger = st.require_ledger()

        def timed_out_event(decision: Decision, row_id: int) -> None:
            detail = {"phase": decision.phase.value, "action": action.value}
            st.event(EventKind.DECISION_TIMED_OUT, detail, seat, round_id=row_id)

        at = st.stamp()

        def settle_progressive(settled: UthRound, row_ids: dict[int, int]) -> dict[int, int]:
            found = self.progressive.settle(ledger, settled, row_ids, at, linked_level(st))
            return {} if found is None else found.jackpots

        done = self.book.decide(
            ledger,
            rnd,
            seat,
            action,
            at,
            values,
            also=timed_out_event if timed_out else None,
            also_settle=settle_progressive,
        )
        st.round = done.round
        if timed_out:
            st.station(seat).timed_out = TimedOut(done.row_id, done.decision.phase, action)
        if done.settled:
            st.round_open, st.decision_deadline = False, None
            self._values = {}
            for number in done.round.seats:
                station = st.stations.get(number)
                if station is None:
                    continue
                station.show_result = True
                station.jackpot = jackpot = done.jackpots.get(number, 0)
                if jackpot:
                    station.message = f"JACKPOT {money(jackpot)} - call an attendant"
        elif done.round.phase is not rnd.phase:
            self.start_timer()

    # -- RAM clear ---------------------------------------------------------------------
    def void(self) -> int | None:
        """Void the open round, inside the caller's ledger transaction: every seat's
        stake goes back on its meter.  Returns its first row id (None when no round was
        open)."""
        st = self.state
        ledger = st.require_ledger()
        if not ledger.open_rounds:
            return None
        rnd = st.round
        assert st.round_open and rnd is not None  # the open rows' round, rebuilt at power-up
        at = st.stamp()
        self.progressive.refund(ledger, st.row_ids, at)
        voided = self.book.void(ledger, rnd, at)
        st.round, st.round_open, st.decision_deadline = None, False, None
        st.row_ids, st.commitment = {}, None
        self._values = {}
        return voided

    @property
    def phase(self) -> Phase | None:
        rnd = self.state.round
        return None if rnd is None else rnd.phase
