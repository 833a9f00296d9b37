"""What one station's screen shows at a moment: its own credits, chips, cards and
offers, the countdowns, the dealer and board as far as they are shown, and every seat's
public status (never another seat's cards before settlement).  Amounts are cents;
countdowns are seconds (None when no timer runs)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine.hands.categories import HandCategory
from engine.uth.round import Action, Phase, SeatResult
from kiosk.game.coach import coach_tip
from kiosk.game.snapshot import (
    ActionOffer,
    ProgressiveAward,
    ProgressiveHit,
    ProgressiveWin,
    Tilt,
)
from kiosk.game.vocabulary import Bets
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import value_text
from kiosk.ledger.schema import STATIONS
from kiosk.ledger.startup import anchor_beside
from kiosk.service.play import FINISHING
from kiosk.service.progressive import TABLE_STATION, levels
from kiosk.service.progressive_link import shown_meter, wager_offered
from kiosk.service.state import TableState, TimedOut
from kiosk.service.timing import seconds_left


@dataclass(frozen=True)
class SeatStatus:
    """One station's seat as every screen may show it."""

    seat: int
    in_round: bool  # dealt into the round on the table
    ante: int  # wagered in the round, or placed in the betting window
    trips: int
    play: int
    ready: bool  # pressed Deal in the betting window
    decided: bool  # has nothing (more) to decide in this phase
    folded: bool
    tilted: bool  # the station is stopped (its own tilt or door)
    net: int | None = None  # once the round is settled: returned minus staked (cents)
    seated: bool = False  # someone sits there: the station has credits (its chips stay
    # at the station until Deal, so a seat betting shows no Ante here before it is ready)
    passed: bool = False  # sits this round out (passed in the betting window)
    progressive: int = 0  # the progressive wager in the round, or placed in the window


@dataclass(frozen=True)
class CoachNote:
    """The strategy coach's note on the round a station shows: its costliest decision
    that was not optimal, ``action`` where ``best`` was worth ``loss`` Antes more (an
    exact ``"N/D"`` text)."""

    round_id: int
    action: Action
    best: Action
    loss: str


@dataclass(frozen=True)
class StationSnapshot:
    """Station ``station``'s screen model."""

    station: int
    credits: int
    pending: Bets  # chips placed in the betting window
    ready: bool
    round_open: bool
    round_id: int | None
    phase: Phase | None  # of the round on the table (or the last one)
    in_round: bool
    hole: tuple[int, ...]  # this seat's cards (empty when not in the round)
    board: tuple[int, ...]  # as far as it is shown
    dealer: tuple[int, ...]  # shown at settlement only
    offers: tuple[ActionOffer, ...]
    betting_seconds: float | None  # the betting window's countdown
    decision_seconds: float | None  # the phase's decision timer
    seats: tuple[SeatStatus, ...]  # every station at the table, in seat order
    result: SeatResult | None  # this seat's, once the round is settled
    timed_out: TimedOut | None  # this station's latest timed-out decision
    tilts: tuple[str, ...]  # codes of the host's and this station's tilts
    payout_pending: int
    payout_method: str  # "handpay" or "ticket" (a ticket printing here); "" with none
    message: str
    tilt_texts: tuple[Tilt, ...] = ()  # ``tilts`` with their text, in the same order
    door_open: bool = False  # the station's main door, as the service knows it
    operator: str | None = None  # the role of the operator logged in at the station
    commitment: str | None = None  # the deck commitment of the round shown
    jackpot: int = 0  # the hand-paid part of the station's last round
    show_result: bool = False  # the settled round stays shown until the next bet
    payout_txn: str = ""  # the pending payout's transaction, and when it began
    payout_at: str = ""
    coach: bool = False  # the strategy coach is on
    coach_note: CoachNote | None = None  # its note on the round shown, if any
    anchor_beside_db: bool = False  # demo mode: the ledger's anchor is beside the database
    notes_off: bool = False  # the casino's system turned note acceptance off here
    #: the table's progressive meter (cents) when the paytable in force has a progressive
    progressive_meter: int | None = None
    #: the progressive's fixed wager the table takes now (cents; 0: no progressive bet)
    progressive_wager: int = 0
    #: the table's last hit of the progressive meter (every station celebrates it)
    progressive_hit: ProgressiveHit | None = None
    #: this seat's progressive award in the round shown (once settled)
    progressive_award: ProgressiveAward | None = None


def seat_statuses(st: TableState) -> tuple[SeatStatus, ...]:
    """Every station's seat, in seat order, as every screen may show it."""
    rnd = st.round
    result = rnd.outcome() if rnd is not None else None
    seats = []
    for n, other in sorted(st.stations.items()):
        dealt = rnd is not None and n in rnd.seats and (st.round_open or result is not None)
        view = rnd.view(n) if dealt and rnd is not None else None
        seats.append(
            SeatStatus(
                seat=n,
                in_round=dealt,
                ante=view.ante if view else other.pending.ante,
                trips=view.trips if view else other.pending.trips,
                play=view.play if view else 0,
                ready=other.ready,
                decided=bool(view) and rnd is not None and n not in rnd.to_act(),
                folded=bool(view and view.folded),
                tilted=bool(other.tilts) or other.door_open,
                net=result.seat(n).net if dealt and result is not None else None,
                seated=st.credits(n) > 0,
                passed=other.passed,
                progressive=other.last_bets.progressive if dealt else other.pending.progressive,
            )
        )
    return tuple(seats)


def station_snapshot(
    st: TableState, number: int, offers: tuple[ActionOffer, ...]
) -> StationSnapshot:
    """The snapshot of station ``number`` (``offers``: its legal, affordable decisions)."""
    station = st.station(number)
    rnd = st.round
    now = st.now()
    in_round = rnd is not None and number in rnd.seats
    result = rnd.outcome() if rnd is not None else None
    seats = seat_statuses(st)
    view = rnd.view(number) if in_round and rnd is not None else None
    tilts = st.tilts_of(number)
    if st.round_open and in_round:  # its round finishes first: not shown as stopped yet
        tilts = {c: m for c, m in tilts.items() if c not in FINISHING}
    payout = station.payout
    round_id = st.row_ids.get(number) if in_round else st.round_id
    return StationSnapshot(
        station=number,
        credits=st.credits(number),
        pending=station.pending,
        ready=station.ready,
        round_open=st.round_open,
        round_id=round_id,
        phase=rnd.phase if rnd is not None else None,
        in_round=in_round,
        hole=view.hole if view else (),
        board=rnd.board() if rnd is not None else (),
        dealer=result.dealer_hole if result is not None else (),
        offers=offers,
        betting_seconds=seconds_left(st.betting_deadline, now),
        decision_seconds=seconds_left(st.decision_deadline, now) if in_round else None,
        seats=seats,
        result=result.seat(number) if result is not None and in_round else None,
        timed_out=station.timed_out,
        tilts=tuple(tilts),
        payout_pending=payout.amount if payout else 0,
        payout_method=payout.method if payout else "",
        message=station.message,
        tilt_texts=tuple(Tilt(c, m) for c, m in tilts.items()),
        door_open=station.door_open,
        operator=station.operator.role if station.operator is not None else None,
        commitment=st.commitment,
        jackpot=station.jackpot,
        show_result=station.show_result,
        payout_txn=payout.txn if payout else "",
        payout_at=payout.at if payout else "",
        coach=st.coach,
        coach_note=_coach_note(st, number, round_id) if station.show_result else None,
        anchor_beside_db=_anchor_beside(st.config.db_path, st.config.anchor_file),
        notes_off=station.notes_off,
        progressive_meter=progressive_meter(st),
        progressive_wager=_wager(st),
        progressive_hit=last_hit(st),
        progressive_award=_award(st, number) if result is not None and in_round else None,
    )


def last_hit(st: TableState) -> ProgressiveHit | None:
    """The table's last hit of its progressive meter, from its ledger's ``progressive_hit``
    event; linked, of the controller's level, from the last round's
    ``progressive_link_win`` events (None before the first, or with no ledger)."""
    if st.ledger is None:
        return None
    if st.config.progressive_link is not None:
        return _last_linked_hit(st.ledger)
    found = st.ledger.events((EventKind.PROGRESSIVE_HIT,), last=1, station=TABLE_STATION)
    hit = found[0] if found else None
    if hit is None or hit.round_id is None:
        return None
    wins = tuple(
        ProgressiveWin(int(a["seat"]), HandCategory[str(a["hand"]).upper()], int(a["cents"]))
        for a in hit.detail.get("awards", ())
    )
    return ProgressiveHit(hit.round_id, hit.amount, wins)


def _last_linked_hit(ledger: Ledger) -> ProgressiveHit | None:
    """The last round's wins on the linked level: the events its settlement wrote (one
    per winning seat, at one instant); the hit is named by its first row."""
    found = ledger.events((EventKind.PROGRESSIVE_LINK_WIN,), last=len(STATIONS))
    if not found or found[-1].round_id is None:
        return None
    last = [e for e in found if e.at == found[-1].at and e.round_id is not None]
    wins = tuple(
        ProgressiveWin(e.station, HandCategory[str(e.detail["hand"]).upper()], e.amount)
        for e in last
    )
    first = min(e.round_id for e in last if e.round_id is not None)
    return ProgressiveHit(first, sum(w.cents for w in wins), wins)


def _award(st: TableState, number: int) -> ProgressiveAward | None:
    """Station ``number``'s progressive award in the settled round on the table."""
    row = st.row_ids.get(number)
    if st.ledger is None or row is None:
        return None
    kinds = (EventKind.PROGRESSIVE_AWARD, EventKind.PROGRESSIVE_JACKPOT)
    for ev in st.ledger.events(kinds, last=2, station=number):
        if ev.round_id == row:
            return ProgressiveAward(
                HandCategory[str(ev.detail["hand"]).upper()],
                ev.amount,
                bool(ev.detail.get("on_meter")),
                ev.kind == EventKind.PROGRESSIVE_JACKPOT,
            )
    return None


def _wager(st: TableState) -> int:
    """The progressive's fixed wager the table takes now (cents), 0 when it takes none."""
    offered = wager_offered(st)
    return 0 if offered is None else offered.wager


def progressive_meter(st: TableState) -> int | None:
    """The progressive meter (cents) the ledger holds, when the paytable offers one; a
    linked progressive's is the controller's last broadcast (None before the first)."""
    if st.config.progressive_link is not None:
        return shown_meter(st)
    if st.paytable.progressive is None or st.ledger is None:
        return None
    return levels(st.ledger).meter


@lru_cache(maxsize=8)
def _anchor_beside(db: Path, anchor: Path) -> bool:
    """:func:`kiosk.ledger.startup.anchor_beside`, once per pair of paths."""
    return anchor_beside(db, anchor)


def _coach_note(st: TableState, number: int, round_id: int | None) -> CoachNote | None:
    """The coach's note on station ``number``'s settled round ``round_id``, while the
    coach is on."""
    if not st.coach or st.round_open:
        return None
    tip = coach_tip(st.ledger, round_id)
    if tip is None:
        return None
    return CoachNote(tip.round_id, tip.action, tip.best, value_text(tip.loss))
