"""The table state rebuilt from a verified ledger: the paytable and limits in force,
each station's tilts, door and pending payout, and the open round replayed from every
seat's row (same deck, same bets, the decisions so far)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import IllegalActionError
from engine.uth.replay import InputRecord, replay
from engine.uth.round import BetsPlaced, Phase
from kiosk.config import CabinetConfig
from kiosk.ledger.errors import LedgerCorruptError
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import parse_decisions
from kiosk.machine.restore import restored_tilt
from kiosk.machine.state import Bets
from kiosk.table.state import PendingPayout, Station, TableState
from kiosk.table.timing import Clock, TableTiming

_ORDER = {Phase.PREFLOP: 0, Phase.FLOP: 1, Phase.RIVER: 2}


def restore_table(
    config: CabinetConfig,
    ledger: Ledger,
    clock: Clock,
    stations: Iterable[int],
    timing: TableTiming,
) -> TableState:
    """The state the ledger records for a table of ``stations``.  Raises
    :class:`LedgerCorruptError` when the open round does not replay to its rows."""
    paytable, limits = ledger.table_in_force()
    st = TableState(
        config, ledger, clock, paytable, limits, timing, {n: Station(n) for n in sorted(stations)}
    )
    for ev in ledger.events(("tilt", "tilt_cleared", "door_open", "door_closed", "ram_clear")):
        station = st.stations.get(ev.station)
        code = ev.detail.get("code", "")
        if ev.kind == "ram_clear":
            for s in st.stations.values():
                s.tilts.clear()
        elif ev.kind == "tilt" and ev.detail.get("host"):
            st.host_tilts[code] = ev.detail.get("message", "")
        elif station is None:
            continue
        elif ev.kind == "tilt" and restored_tilt(code):
            station.tilts[code] = ev.detail.get("message", "")
        elif ev.kind == "tilt_cleared":
            station.tilts.pop(code, None)
        elif ev.kind in ("door_open", "door_closed"):
            station.door_open = ev.kind == "door_open"
    for number, station in st.stations.items():
        pay = ledger.events(("cashout", "handpay"), last=1, station=number)
        if pay and pay[0].kind == "cashout":
            station.payout = PendingPayout(pay[0].txn or "", pay[0].amount)
    _restore_round(st, ledger)
    return st


def _restore_round(st: TableState, ledger: Ledger) -> None:
    rows = ledger.open_rounds
    if not rows:
        last = ledger.last_settled()
        if last is not None and last.seat in st.stations:
            st.stations[last.seat].last_bets = Bets(last.ante, last.trips)
        return
    deck, _salt = ledger.recovery_deck(rows[0]["id"])
    table = ledger.paytable(rows[0]["paytable_sha256"])
    bets: list[InputRecord] = [
        BetsPlaced(seat=r["seat"], ante=r["ante"], blind=r["blind"], trips=r["trips"]) for r in rows
    ]
    decisions = [d for r in rows for d in parse_decisions(r["decisions"], r["seat"])]
    decisions.sort(key=lambda d: (_ORDER[d.phase], d.at))  # seats decide apart in a phase
    try:
        rnd = replay(table, deck, [*bets, *(d.decision for d in decisions)])
    except IllegalActionError as exc:
        raise LedgerCorruptError(
            f"the open round cannot be replayed: {exc}", f"rounds {rows[0]['id']}"
        ) from None
    if rnd.phase == Phase.SETTLED or any(rnd.view(r["seat"]).play != r["play"] for r in rows):
        raise LedgerCorruptError(
            "the open round does not replay to its stored state", f"rounds {rows[0]['id']}"
        )
    st.round, st.round_open = rnd, True
    st.row_ids = {r["seat"]: r["id"] for r in rows}
    st.commitment = rows[0]["commitment"]
    for r in rows:
        if r["seat"] in st.stations:
            st.stations[r["seat"]].last_bets = Bets(r["ante"], r["trips"])
