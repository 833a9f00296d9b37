"""The round at the table: the betting window, one deal for every seat with an Ante,
decisions in parallel under the phase's timer, and one transaction settling every seat.

The deal, each decision and settlement are the round's ledger life of
:mod:`kiosk.machine.round_book`, the code the single cabinet runs for its one seat: every
change is committed before it takes effect in memory, every seat is settled by the
engine's one ``settle()`` in one transaction, and each seat's row holds its result,
payout and breakage.  What is the table's own stays here: the betting window, the
decision timers and their timed-out defaults.  Amounts are cents.
"""

from __future__ import annotations

from engine.rng import RandomSource
from engine.uth.round import Action, Decision, Phase, UthRound
from kiosk.machine.betting import check_bets, check_chip, require_ante, require_previous
from kiosk.machine.errors import MachineError, WrongState
from kiosk.machine.round_book import RoundBook, affordable, checked_action
from kiosk.machine.snapshot import ActionOffer
from kiosk.machine.state import JACKPOT_TILT, Bets, Spot
from kiosk.table.state import TableState, TimedOut
from kiosk.table.timing import deadline_after, timeout_action


class TablePlay:
    """The betting window, the deal, the decisions and settlement of the table's round."""

    def __init__(self, state: TableState, rng: RandomSource) -> None:
        self.state = state
        self.rng = rng
        self.book = RoundBook(
            rng,
            state.config.jackpot_limit_cents,
            lambda seat, message: state.set_tilt(seat, JACKPOT_TILT, message),
        )

    # -- the betting window ------------------------------------------------------------
    @property
    def timed_window(self) -> bool:
        """A table of one station has no countdown: its window is "Deal pressed"."""
        return len(self.state.stations) > 1

    def _between_rounds(self, number: int) -> None:
        st = self.state
        st.require_playable(number)
        if st.round_open:
            raise WrongState("the round is in progress", code="round_in_progress")
        if st.station(number).payout is not None:
            raise WrongState("a payout is in progress", code="payout_in_progress")

    def _open_window(self) -> None:
        st = self.state
        if self.timed_window and st.betting_deadline is None:
            st.betting_deadline = deadline_after(st.now(), st.timing.betting_seconds)

    def add_chip(self, number: int, spot: Spot, cents: int) -> None:
        """Add a chip of ``cents`` to ``spot`` at station ``number``; opens the window."""
        self._between_rounds(number)
        station = self.state.station(number)
        if station.ready:
            raise WrongState("Deal was pressed: the bets are placed", code="bets_placed")
        check_chip(spot, cents)
        bets = station.pending.add(spot, cents)
        check_bets(self.state.limits, self.state.credits(number), bets, complete=False)
        station.pending, station.passed = bets, False
        self._open_window()

    def clear_bets(self, number: int) -> None:
        self._between_rounds(number)
        self.state.station(number).reset_window()

    def repeat_bets(self, number: int) -> None:
        self._between_rounds(number)
        station = self.state.station(number)
        require_previous(station.last_bets)
        check_bets(self.state.limits, self.state.credits(number), station.last_bets, complete=True)
        station.pending, station.passed = station.last_bets, False
        self._open_window()

    def press_deal(self, number: int) -> None:
        """Station ``number`` is done betting; the window closes when every station with
        credits is done (at once for a table of one)."""
        self._between_rounds(number)
        station = self.state.station(number)
        require_ante(station.pending)
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
            if not bets.ante or not st.playable(number):
                continue
            try:
                check_bets(st.limits, st.credits(number), bets, complete=True)
            except MachineError as exc:
                station.message = f"Not dealt in: {exc.reason}"
                continue
            seats[number] = bets
        if not seats:
            for station in st.stations.values():
                station.reset_window()
            return
        credits = {s: st.credits(s) for s in seats}
        dealt = self.book.deal(ledger, st.paytable, seats, credits, st.stamp())
        st.round, st.round_open = dealt.round, True
        st.row_ids, st.commitment = dealt.row_ids, dealt.commitment
        for number, station in st.stations.items():
            if number in seats:
                station.last_bets = station.pending
            station.reset_window()
            station.timed_out = None
        self.start_timer()

    def start_timer(self) -> None:
        """The current phase's decision timer starts (again) at its full length."""
        st = self.state
        st.decision_deadline = (
            deadline_after(st.now(), st.timing.decision_seconds) if st.round_open else None
        )

    # -- decisions ---------------------------------------------------------------------
    def offers(self, number: int) -> tuple[ActionOffer, ...]:
        """The decisions station ``number`` may take now that its credits cover, with
        the Play each wagers (cents)."""
        st = self.state
        rnd = st.round
        if not st.round_open or rnd is None or number not in rnd.seats or not st.playable(number):
            return ()
        return affordable(rnd, number, st.credits(number))

    def decide(self, number: int, action: Action | str) -> None:
        """Station ``number``'s decision for its seat; the last one settles every seat."""
        st = self.state
        st.require_playable(number)
        rnd = st.round
        if not st.round_open or rnd is None:
            raise WrongState("no round in progress", code="no_round")
        if number not in rnd.seats:
            raise WrongState("this station sits this round out", code="not_in_round")
        action = checked_action(rnd, number, action, self.offers(number))
        self._apply(rnd, number, action, timed_out=False)

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

    def _apply(self, rnd: UthRound, seat: int, action: Action, *, timed_out: bool) -> None:
        st = self.state
        ledger = st.require_ledger()

        def timed_out_event(decision: Decision, row_id: int) -> None:
            detail = {"phase": decision.phase.value, "action": action.value}
            st.event("decision_timed_out", detail, seat, round_id=row_id)

        done = self.book.decide(
            ledger, rnd, seat, action, st.stamp(), also=timed_out_event if timed_out else None
        )
        st.round = done.round
        if timed_out:
            st.station(seat).timed_out = TimedOut(done.row_id, done.decision.phase, action)
        if done.settled:
            st.round_open, st.decision_deadline = False, None
        elif done.round.phase is not rnd.phase:
            self.start_timer()

    @property
    def phase(self) -> Phase | None:
        rnd = self.state.round
        return None if rnd is None else rnd.phase
