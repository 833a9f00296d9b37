"""The table state rebuilt from a verified ledger: the paytable and limits in force,
each station's tilts, door and pending payout, and the open round replayed from every
seat's row (same deck, same bets, the decisions so far)."""

from __future__ import annotations

from collections.abc import Iterable

from kiosk.config import CabinetConfig
from kiosk.ledger.ledger import Ledger
from kiosk.machine.restore import restored_tilt
from kiosk.machine.round_book import reopen
from kiosk.machine.state import Bets
from kiosk.table.state import Station, TableState
from kiosk.table.tickets import pending_payout
from kiosk.table.timing import Clock, TableTiming


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
        station.payout = pending_payout(ledger, number)
    _restore_round(st, ledger)
    return st


def _restore_round(st: TableState, ledger: Ledger) -> None:
    """The open round, replayed from every seat's row (:func:`reopen`), or the last
    settled seat's bets to repeat."""
    found = reopen(ledger)
    if found is None:
        last = ledger.last_settled()
        if last is not None and last.seat in st.stations:
            st.stations[last.seat].last_bets = Bets(last.ante, last.trips)
        return
    st.round, st.round_open = found.round, True
    st.row_ids, st.commitment = found.row_ids, found.commitment
    for seat, bets in found.bets.items():
        if seat in st.stations:
            st.stations[seat].last_bets = bets
