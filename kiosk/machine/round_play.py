"""The round on the cabinet: seat 1 of :mod:`kiosk.machine.round_book` (the table's code
with one seat from the deal to settlement), plus what only the cabinet has: which
decisions the player may take and afford now, the exact value of each decision, and the
jackpot shown to the player.

Each decision is stored with its exact value and the optimal decision's
(:mod:`kiosk.machine.round_values`, computed from the deal on while the player looks):
the commit itself does no analysis.  Amounts are cents.
"""

from __future__ import annotations

from engine.money import format_cents as money
from engine.rng import RandomSource
from engine.uth.round import BOARD_POSITIONS, HOLE_POSITIONS, Action, UthRound
from kiosk.machine.betting import Betting
from kiosk.machine.errors import WrongState
from kiosk.machine.round_book import RoundBook, affordable, checked_action
from kiosk.machine.round_values import SeatValues
from kiosk.machine.snapshot import ActionOffer
from kiosk.machine.state import JACKPOT_TILT, SEAT, CabinetState

#: How long a decision waits for its exact values when they are not ready, seconds.
VALUE_WAIT_S = 1.0


class RoundPlay:
    """Deals and plays the cabinet's round (``CabinetState.round``) for seat 1."""

    def __init__(self, state: CabinetState, betting: Betting, rng: RandomSource) -> None:
        self.state = state
        self.betting = betting
        self.rng = rng
        self.values: SeatValues | None = None
        self.book = RoundBook(
            rng,
            state.config.jackpot_limit_cents,
            lambda _seat, message: state.set_tilt(JACKPOT_TILT, message),
        )

    def _values_of(self, rnd: UthRound, round_id: int) -> SeatValues | None:
        """The decision values of the round ``round_id`` (started now for a round
        rebuilt at power-up); None when the configuration does not record them."""
        if not self.state.config.decision_values:
            return None
        if self.values is None or self.values.round_id != round_id:
            hole = [rnd.deck[i] for i in HOLE_POSITIONS[SEAT]]
            board = [rnd.deck[i] for i in BOARD_POSITIONS]
            self.values = SeatValues(round_id, rnd.paytable, hole, board)
        return self.values

    # -- what the player may do --------------------------------------------------------
    def offers(self) -> tuple[ActionOffer, ...]:
        """The decisions legal now that the credits cover, with the Play each wagers
        (cents); none while a tilt stands or the door is open."""
        st = self.state
        rnd = st.round
        if not st.round_open or st.tilts or st.door_open or rnd is None:
            return ()
        return affordable(rnd, SEAT, st.credits)

    # -- the deal -----------------------------------------------------------------------
    def deal(self) -> None:
        """Wager the pending chips and deal.  The bets and the deck commitment are
        committed to the ledger before any card is shown."""
        st = self.state
        ledger = st.require_playable()
        st.require_between_rounds()
        bets = self.betting.bets_to_deal()
        dealt = self.book.deal(ledger, st.paytable, {SEAT: bets}, {SEAT: st.credits}, st.stamp())
        st.round, st.round_id, st.round_open = dealt.round, dealt.row_ids[SEAT], True
        st.commitment = dealt.commitment
        st.jackpot = 0
        st.last_bets = bets
        st.clear_bets()
        self._values_of(dealt.round, dealt.row_ids[SEAT])

    # -- decisions ----------------------------------------------------------------------
    def decide(self, action: Action | str) -> None:
        """The player's decision; the last one settles the round (all in one transaction)."""
        st = self.state
        ledger = st.require_playable()
        rnd = st.round
        if not st.round_open or rnd is None or st.round_id is None:
            raise WrongState("no round in progress", code="no_round")
        action = checked_action(rnd, SEAT, action, self.offers())
        seat_values = self._values_of(rnd, st.round_id)
        values = seat_values.get(rnd.phase, VALUE_WAIT_S) if seat_values is not None else None
        done = self.book.decide(ledger, rnd, SEAT, action, st.stamp(), values)
        st.round = done.round
        if done.settled:
            st.round_open = False
            st.show_result = True
            st.jackpot = jackpot = done.jackpots.get(SEAT, 0)
            if jackpot:
                st.message = f"JACKPOT {money(jackpot)} - call an attendant"

    # -- RAM clear -----------------------------------------------------------------------
    def void(self) -> int | None:
        """Void the open round, inside the caller's ledger transaction: every stake goes
        back on the meter.  Returns its id (None when no round was open)."""
        st = self.state
        ledger = st.require_ledger()
        if not ledger.open_rounds:
            return None
        rnd = st.round
        assert st.round_open and rnd is not None  # the open row's round, rebuilt at power-up
        voided = self.book.void(ledger, rnd, st.stamp())
        st.round, st.round_open = None, False
        return voided
