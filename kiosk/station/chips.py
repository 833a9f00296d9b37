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

from dataclasses import replace

from engine.uth.paytable import Limits, Paytable
from engine.uth.progressive import Progressive
from kiosk.game.rules.betting import (
    check_bets,
    check_chip,
    check_progressive,
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


def progressive_offered(snap: StationSnapshot, paytable: Paytable | None) -> Progressive | None:
    """The progressive whose wager the table takes now: the paytable's ``[progressive]``
    when the service's snapshot says it takes that wager (a linked table takes none)."""
    table = paytable.progressive if paytable is not None else None
    if table is None or snap.progressive_wager != table.wager:
        return None
    return table


def check_chip_at(
    snap: StationSnapshot,
    limits: Limits,
    pending: Bets,
    spot: Spot,
    cents: int,
    door_open: bool = False,
    progressive: Progressive | None = None,
) -> Bets:
    """``pending`` with a chip of ``cents`` on ``spot``, checked as the service checks a
    chip (``progressive``: the progressive offered, :func:`progressive_offered`); raises
    the service's :class:`~kiosk.game.errors.MachineError` for one it would refuse."""
    require_betting(snap, door_open)
    require_not_dealt(snap.ready)
    check_chip(spot, cents)  # a forged chip (``True``, "500") is refused here
    bets = pending.add(spot, cents)
    check_progressive(progressive, bets)
    check_bets(limits, snap.credits, bets, complete=False)
    return bets


def take_progressive(snap: StationSnapshot, pending: Bets, door_open: bool = False) -> Bets:
    """``pending`` without its progressive wager, between rounds as the service takes it
    back."""
    require_betting(snap, door_open)
    require_not_dealt(snap.ready)
    return replace(pending, progressive=0)


def repeat_bets(
    snap: StationSnapshot,
    limits: Limits,
    last: Bets,
    door_open: bool = False,
    progressive: Progressive | None = None,
) -> Bets:
    """The previous round's ``last`` bets placed again, checked as the service checks a
    rebet (complete: the minimums apply); its progressive wager only while
    ``progressive`` is offered at that wager, as the service repeats it."""
    require_betting(snap, door_open)
    require_previous(last)
    if last.progressive and (progressive is None or progressive.wager != last.progressive):
        last = replace(last, progressive=0)  # the paytable in force no longer offers it
    check_bets(limits, snap.credits, last, complete=True)
    return last
