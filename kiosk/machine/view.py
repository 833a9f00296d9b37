"""The :class:`~kiosk.machine.snapshot.MachineSnapshot` of a cabinet state."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from kiosk.ledger.startup import anchor_beside
from kiosk.machine.coach import coach_tip
from kiosk.machine.snapshot import ActionOffer, MachinePhase, MachineSnapshot, Tilt
from kiosk.machine.state import SEAT, CabinetState


def phase_of(st: CabinetState) -> MachinePhase:
    """The cabinet's phase: a payout, a round, a result shown, chips or credits, or idle."""
    if st.cashout is not None:
        return MachinePhase.CASHOUT
    if st.round_open:
        return MachinePhase.IN_ROUND
    if st.show_result:
        return MachinePhase.RESULT
    if st.credits or st.pending.total:
        return MachinePhase.BETTING
    return MachinePhase.IDLE


@lru_cache(maxsize=8)
def _anchor_beside(db: Path, anchor: Path) -> bool:
    """:func:`kiosk.ledger.startup.anchor_beside`, once per pair of paths."""
    return anchor_beside(db, anchor)


def snapshot_of(st: CabinetState, offers: tuple[ActionOffer, ...]) -> MachineSnapshot:
    """Everything a screen shows of ``st``; ``offers``: the decisions legal and
    affordable now (cents of Play each)."""
    rnd = st.round
    credits = st.credits
    hole: tuple[int, ...] = ()
    board: tuple[int, ...] = ()
    dealer: tuple[int, ...] = ()
    ante = trips = play = 0
    result = None
    if rnd is not None:
        view = rnd.view(SEAT)
        hole, board = view.hole, view.board
        ante, trips, play = view.ante, view.trips, view.play
        result = rnd.outcome()
        if result is not None:
            dealer = result.dealer_hole
    return MachineSnapshot(
        credits=credits,
        available=credits - st.pending.total,
        bet_ante=st.pending.ante,
        bet_trips=st.pending.trips,
        phase=phase_of(st),
        game_phase=rnd.phase if rnd is not None else None,
        round_id=st.round_id,
        hole=hole,
        board=board,
        dealer=dealer,
        ante=ante,
        blind=ante,
        trips=trips,
        play=play,
        legal=tuple(o.action for o in offers),
        last_result=result,
        tilts=tuple(Tilt(c, m) for c, m in st.tilts.items()),
        door_open=st.door_open,
        operator=st.operator,
        paytable=st.paytable,
        limits=st.limits,
        message=st.message,
        cashout=st.cashout,
        commitment=st.commitment,
        jackpot=st.jackpot,
        offers=offers,
        coach=st.coach,
        coach_tip=coach_tip(st),
        anchor_beside_db=_anchor_beside(st.config.db_path, st.config.anchor_file),
    )
