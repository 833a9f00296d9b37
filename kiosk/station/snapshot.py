"""A station's :class:`StationSnapshot` as the :class:`MachineSnapshot` the screens read.

The station's own seat is shown as the cabinet's seat 1 (the screens show one seat):
its settled :class:`SeatResult` is renumbered, and the dealer's hand is evaluated here
from the dealer's cards and the board the host sent (public once settled).  Chips
placed on the station but not yet sent (they go with Deal) count as pending bets.
Amounts are cents.
"""

from __future__ import annotations

import dataclasses

from engine.hands.categories import category
from engine.hands.evaluator import best_five, describe, evaluate
from engine.uth.paytable import Limits, Paytable
from engine.uth.round import RoundSettled
from engine.uth.settlement import pay_arrays
from kiosk.game.snapshot import CoachTip, MachinePhase, MachineSnapshot, PayoutRequest, Tilt
from kiosk.game.vocabulary import Bets
from kiosk.ledger.records import parse_value
from kiosk.service.snapshot import SeatStatus, StationSnapshot

#: The seat number the screens show (the cabinet's one seat).
SHOWN_SEAT = 1
#: No chips placed.
NO_BETS = Bets()


def own_seat(snap: StationSnapshot) -> SeatStatus | None:
    """The station's own seat in ``snap.seats``."""
    return next((s for s in snap.seats if s.seat == snap.station), None)


def settled_round(snap: StationSnapshot, paytable: Paytable) -> RoundSettled | None:
    """The station's view of the settled round (the dealer and its own seat, as seat
    :data:`SHOWN_SEAT`), or None before settlement."""
    if snap.result is None or len(snap.dealer) != 2:
        return None
    cards = (*snap.dealer, *snap.board)
    strength = int(evaluate(cards))
    dealer_hole = (snap.dealer[0], snap.dealer[1])
    return RoundSettled(
        dealer_hole=dealer_hole,
        board=snap.board,
        dealer_strength=strength,
        dealer_category=category(strength),
        dealer_best_five=tuple(best_five(cards)),
        dealer_hand_name=describe(strength),
        dealer_qualifies=bool(strength >= pay_arrays(paytable).qualify_min_strength),
        breakage_unit=1,
        seats=(dataclasses.replace(snap.result, seat=SHOWN_SEAT),),
    )


def phase_of(snap: StationSnapshot, pending: Bets) -> MachinePhase:
    """The phase the screens show for ``snap`` with ``pending`` chips placed here (not
    yet sent)."""
    if snap.payout_pending:
        return MachinePhase.CASHOUT
    if snap.round_open and snap.in_round:
        return MachinePhase.IN_ROUND
    if snap.show_result and not pending.total and not snap.pending.total:
        return MachinePhase.RESULT
    if snap.credits or pending.total or snap.pending.total:
        return MachinePhase.BETTING
    return MachinePhase.IDLE


def machine_snapshot(
    snap: StationSnapshot, paytable: Paytable, limits: Limits, pending: Bets = NO_BETS
) -> MachineSnapshot:
    """What the screens show of station ``snap.station`` (``pending``: chips placed on
    the station, sent with Deal)."""
    bets = pending if pending.total else snap.pending
    seat = own_seat(snap)
    in_round = snap.in_round and seat is not None and seat.in_round
    ante = seat.ante if in_round and seat is not None else 0
    trips = seat.trips if in_round and seat is not None else 0
    play = seat.play if in_round and seat is not None else 0
    progressive = seat.progressive if in_round and seat is not None else 0
    if snap.result is not None:
        ante, trips, play = snap.result.ante, snap.result.trips, snap.result.play
    cashout = None
    if snap.payout_pending:
        method = snap.payout_method or "handpay"
        txn = snap.payout_txn or f"station-{snap.station}"
        cashout = PayoutRequest(txn, snap.payout_pending, method, snap.payout_at)
    texts = {t.code: t.message for t in snap.tilt_texts}
    note = None if pending.total else snap.coach_note  # the result is put away by a bet
    tip = None if note is None else CoachTip(note.round_id, note.action, note.best, parse_value(note.loss))
    return MachineSnapshot(
        credits=snap.credits,
        available=snap.credits - bets.total,
        bet_ante=bets.ante,
        bet_trips=bets.trips,
        phase=phase_of(snap, pending),
        game_phase=snap.phase,
        round_id=snap.round_id,
        hole=snap.hole,
        board=snap.board if snap.in_round else (),
        dealer=snap.dealer if snap.in_round else (),
        ante=ante,
        blind=ante,
        trips=trips,
        play=play,
        legal=tuple(o.action for o in snap.offers),
        last_result=settled_round(snap, paytable) if snap.in_round else None,
        tilts=tuple(Tilt(code, texts.get(code, code)) for code in snap.tilts),
        door_open=snap.door_open,
        operator=snap.operator,
        paytable=paytable,
        limits=limits,
        message=snap.message,
        cashout=cashout,
        commitment=snap.commitment,
        jackpot=snap.jackpot,
        offers=snap.offers,
        coach=snap.coach,
        coach_tip=tip,
        anchor_beside_db=snap.anchor_beside_db,
        bet_progressive=bets.progressive,
        progressive=progressive,
        progressive_wager=snap.progressive_wager,
        progressive_meter=snap.progressive_meter,
        progressive_hit=snap.progressive_hit,
        progressive_hit_here=snap.progressive_hit is not None
        and any(w.seat == snap.station for w in snap.progressive_hit.wins),
        progressive_award=snap.progressive_award if snap.in_round else None,
    )
