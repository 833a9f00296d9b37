"""What the dealer display and the operator menu show of the whole table: the dealer's
cards (at settlement), the board as far as it is shown, every seat's public status, the
countdowns and each seat's result; and each station's money and tilts.  Amounts are
cents; countdowns are seconds (None when no timer runs)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.uth.round import Phase, SeatResult
from kiosk.game.snapshot import ProgressiveHit
from kiosk.service.snapshot import SeatStatus, last_hit, progressive_meter, seat_statuses
from kiosk.service.state import TableState
from kiosk.service.timing import seconds_left


@dataclass(frozen=True)
class TableSnapshot:
    """The dealer display's model: no seat's hole cards before settlement."""

    round_open: bool
    round_id: int | None  # the round's first row
    phase: Phase | None
    board: tuple[int, ...]
    dealer: tuple[int, ...]  # at settlement only
    seats: tuple[SeatStatus, ...]
    results: tuple[SeatResult, ...]  # every seat's, once settled
    betting_seconds: float | None
    decision_seconds: float | None
    stopped: bool  # a host tilt stops the table
    dealer_qualifies: bool | None = None  # at settlement only (the paytable's qualifying hand)
    has_progressive: bool = False  # the paytable in force has a progressive: its meter shows
    progressive_meter: int | None = None  # cents (None while a linked meter is not known yet)
    progressive_hit: ProgressiveHit | None = None  # the table's last hit of the meter


@dataclass(frozen=True)
class StationStatus:
    """One station as the operator menu lists it."""

    station: int
    credits: int
    tilts: tuple[str, ...]  # codes of its tilts
    door_open: bool
    payout_pending: int
    in_round: bool


def table_snapshot(st: TableState) -> TableSnapshot:
    rnd = st.round
    result = rnd.outcome() if rnd is not None else None
    now = st.now()
    return TableSnapshot(
        round_open=st.round_open,
        round_id=st.round_id,
        phase=rnd.phase if rnd is not None else None,
        board=rnd.board() if rnd is not None else (),
        dealer=result.dealer_hole if result is not None else (),
        seats=seat_statuses(st),
        results=result.seats if result is not None else (),
        betting_seconds=seconds_left(st.betting_deadline, now),
        decision_seconds=seconds_left(st.decision_deadline, now),
        stopped=bool(st.table_tilts),
        dealer_qualifies=result.dealer_qualifies if result is not None else None,
        has_progressive=st.paytable.progressive is not None,
        progressive_meter=progressive_meter(st),
        progressive_hit=last_hit(st),
    )


def station_statuses(st: TableState) -> tuple[StationStatus, ...]:
    rnd = st.round
    return tuple(
        StationStatus(
            station=n,
            credits=st.credits(n),
            tilts=tuple(s.tilts),
            door_open=s.door_open,
            payout_pending=s.payout.amount if s.payout else 0,
            in_round=st.round_open and rnd is not None and n in rnd.seats,
        )
        for n, s in sorted(st.stations.items())
    )
