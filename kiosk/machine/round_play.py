"""The round on the table: the deal, the player's decisions, settlement, and which
decisions are legal and affordable now.

Every change of a round in progress is committed to the ledger (one SQLite
transaction with the meters) *before* it takes effect in memory: a decision is applied
to a copy of the round, the copy's records are written, then the copy replaces the
round.  The deck is shuffled with the cabinet's cryptographic generator and its salted
SHA-256 commitment is committed before any card is shown.  A win of
``config.jackpot_limit_cents`` or more is recorded as a jackpot handpay and tilts the
machine (``jackpot``).  Amounts are cents.

Each decision is stored with its exact value and the optimal decision's
(:mod:`kiosk.machine.round_values`, computed from the deal on while the player looks):
the commit itself does no analysis.
"""

from __future__ import annotations

from typing import Any

from engine.money import format_cents as money
from engine.rng import RandomSource, shuffled_deck
from engine.uth.replay import replay
from engine.uth.round import (
    BOARD_POSITIONS,
    HOLE_POSITIONS,
    PLAY_MULTIPLE,
    Action,
    BetsPlaced,
    UthRound,
)
from kiosk.ledger.records import append_decision
from kiosk.machine.betting import Betting
from kiosk.machine.errors import InsufficientCredits, WrongState
from kiosk.machine.round_values import SeatValues
from kiosk.machine.rows import dealt_columns, settled_columns
from kiosk.machine.snapshot import ActionOffer
from kiosk.machine.state import JACKPOT_TILT, SEAT, Bets, CabinetState

#: How long a decision waits for its exact values when they are not ready, seconds.
VALUE_WAIT_S = 1.0


class RoundPlay:
    """Deals and plays the cabinet's round (``CabinetState.round``) for seat 1."""

    def __init__(self, state: CabinetState, betting: Betting, rng: RandomSource) -> None:
        self.state = state
        self.betting = betting
        self.rng = rng
        self.values: SeatValues | None = None

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
        ante = rnd.view(SEAT).ante
        credits = st.credits
        found = (ActionOffer(a, PLAY_MULTIPLE.get(a, 0) * ante) for a in rnd.legal_actions(SEAT))
        return tuple(o for o in found if o.play <= credits)

    # -- the deal -----------------------------------------------------------------------
    def deal(self) -> None:
        """Wager the pending chips and deal.  The bets and the deck commitment are
        committed to the ledger before any card is shown."""
        st = self.state
        ledger = st.require_playable()
        st.require_between_rounds()
        bets = self.betting.bets_to_deal()
        deck = shuffled_deck(self.rng)
        salt = bytes(self.rng.randbelow(256) for _ in range(16))
        rnd = replay(st.paytable, deck, [_placed(bets)])
        round_id = ledger.begin_round(dealt_columns(rnd, st.credits, st.stamp()), deck, salt)
        row = ledger.open_round
        assert row is not None
        st.round, st.round_id, st.round_open = rnd, round_id, True
        st.commitment = row["commitment"]
        st.jackpot = 0
        st.last_bets = bets
        st.clear_bets()
        self._values_of(rnd, round_id)

    # -- decisions ----------------------------------------------------------------------
    def decide(self, action: Action | str) -> None:
        """The player's decision; the last one settles the round (all in one transaction)."""
        st = self.state
        ledger = st.require_playable()
        rnd = st.round
        if not st.round_open or rnd is None:
            raise WrongState("no round in progress", code="no_round")
        try:
            action = Action(action)
        except ValueError:
            raise WrongState(f"unknown action {action!r}") from None
        legal = rnd.legal_actions(SEAT)
        if action not in legal:
            raise WrongState(
                f"{action.value} is not allowed now ({', '.join(a.value for a in legal)})",
                code="action_not_allowed",
                params={"action": action.value},
            )
        if action not in {o.action for o in self.offers()}:
            raise InsufficientCredits(
                f"not enough credits for {action.value}", params={"action": action.value}
            )
        row = ledger.open_round
        assert row is not None
        seat_values = self._values_of(rnd, int(row["id"]))
        values = seat_values.get(rnd.phase, VALUE_WAIT_S) if seat_values is not None else None
        new = rnd.copy()
        decision = new.act(SEAT, action)
        at = st.stamp()
        changes: dict[str, Any] = {
            "play": new.view(SEAT).play,
            "decisions": append_decision(row["decisions"], SEAT, decision, at, values),
            "credits_after": row["credits_before"] - new.staked(SEAT),
        }
        result = new.outcome()
        jackpot = 0
        with ledger.transaction():
            if result is not None:
                changes.update(
                    settled_columns(
                        result, row["credits_before"], at, st.config.jackpot_limit_cents
                    )
                )
                jackpot = changes["jackpot"]
            ledger.update_round(changes)
            if jackpot:
                st.set_tilt(JACKPOT_TILT, f"Jackpot {money(jackpot)}: an attendant pays it by hand")
        st.round = new
        if result is not None:
            st.round_open = False
            st.show_result = True
            st.jackpot = jackpot
            if jackpot:
                st.message = f"JACKPOT {money(jackpot)} - call an attendant"

    # -- RAM clear -----------------------------------------------------------------------
    def void(self) -> int | None:
        """Void the open round, inside the caller's ledger transaction: every stake goes
        back on the meter.  Returns its id (None when no round was open)."""
        st = self.state
        ledger = st.require_ledger()
        row = ledger.open_round
        if row is None:
            return None
        rnd = st.round
        assert st.round_open and rnd is not None  # the open row's round, rebuilt at power-up
        staked = rnd.staked(SEAT)
        ledger.update_round(
            {
                "state": "voided",
                "settled_at": st.stamp(),
                "outcome": "void",
                "paid": staked,
                "jackpot": 0,
                "credits_after": row["credits_before"],
            }
        )
        st.round, st.round_open = None, False
        return int(row["id"])


def _placed(bets: Bets) -> BetsPlaced:
    """The engine's record of ``bets`` on seat 1 (the Blind mirrors the Ante)."""
    return BetsPlaced(seat=SEAT, ante=bets.ante, blind=bets.ante, trips=bets.trips)

