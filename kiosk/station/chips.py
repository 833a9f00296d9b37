"""The chips a station places before Deal: kept at the station's end of its port (both
adapters, :mod:`kiosk.station.local` and :mod:`kiosk.station.remote`) and sent as one
wager with Deal, the service checking every chip again (:mod:`kiosk.service.wager`).

A chip is shown at once, so the screens' controller checks it first
(:func:`check_chip_at`) by the service's own rule functions (:mod:`kiosk.game.rules.betting`)
against the station's latest snapshot: play is not stopped (tilts, door), the table is
between rounds, Deal was not pressed, the chip is one, and the bets stay within the
limits and the credits; a rebet is checked the same way by the adapter that knows the
last wager (:func:`repeat_bets`).  A station cannot disagree with its service.  Chips
placed are not money: they stay on the credit meter until the deal wagers them, so a
power cut before Deal takes nothing.  Amounts are cents.
"""

from __future__ import annotations

from engine.uth.paytable import Limits
from kiosk.game.rules.betting import (
    check_bets,
    check_chip,
    require_between_rounds,
    require_not_dealt,
    require_playing,
    require_previous,
)
from kiosk.game.vocabulary import Bets, Spot
from kiosk.service.snapshot import StationSnapshot


def require_betting(snap: StationSnapshot, door_open: bool = False) -> None:
    """Refuse a bet at the station of ``snap``: stopped by a tilt or its open door
    (``door_open``: also the station's own switch), a round in progress, a payout
    pending (the service's own rules, in its order)."""
    texts = {t.code: t.message for t in snap.tilt_texts}
    require_playing({c: texts.get(c, c) for c in snap.tilts}, snap.door_open or door_open)
    require_between_rounds(snap.round_open, bool(snap.payout_pending))


def check_chip_at(
    snap: StationSnapshot,
    limits: Limits,
    pending: Bets,
    spot: Spot,
    cents: int,
    door_open: bool = False,
) -> Bets:
    """``pending`` with a chip of ``cents`` on ``spot``, checked as the service checks a
    chip; raises the service's :class:`~kiosk.game.errors.MachineError` for one it
    would refuse."""
    require_betting(snap, door_open)
    require_not_dealt(snap.ready)
    check_chip(spot, cents)  # a forged chip (``True``, "500") is refused here
    bets = pending.add(spot, cents)
    check_bets(limits, snap.credits, bets, complete=False)
    return bets


def repeat_bets(snap: StationSnapshot, limits: Limits, last: Bets, door_open: bool = False) -> Bets:
    """The previous round's ``last`` bets placed again, checked as the service checks a
    rebet (complete: the minimums apply)."""
    require_betting(snap, door_open)
    require_previous(last)
    check_bets(limits, snap.credits, last, complete=True)
    return last
