"""The game state rebuilt from a verified ledger: the paytable and limits in force, the
host's and each station's tilts, doors, pending payouts and open escrows, and the open
round replayed from every seat's row (same deck, same bets, the decisions so far); a lone
cabinet also shows its last round again.  Every row read here is authenticated by the
ledger (its hash and MAC)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.uth.paytable import PAYTABLE_DIR, PaytableError, load_paytable
from engine.uth.replay import replay
from kiosk.config import CabinetConfig
from kiosk.game.round_book import reopen
from kiosk.game.vocabulary import DEVICE_TILT_PREFIX, LEDGER_TILT, RESTORED_DEVICE_KINDS, Bets
from kiosk.ledger.errors import LedgerCorruptError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.service.escrows import StationEscrows, unresolved
from kiosk.service.payouts import pending_payout
from kiosk.service.progressive import round_wagers
from kiosk.service.state import Station, TableState
from kiosk.service.timing import Clock, TableTiming


def restored_tilt(code: str) -> bool:
    """Whether a tilt with ``code`` stands again at power-up: every tilt but a device's
    standing condition, which the device re-reports while it stands; a device's one-shot
    money tilts (:data:`RESTORED_DEVICE_KINDS`) stand again."""
    if not code.startswith(DEVICE_TILT_PREFIX):
        return True
    return code.rsplit(":", 1)[-1] in RESTORED_DEVICE_KINDS


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
    own = {n: Station(n, StationEscrows(unresolved(ledger, n))) for n in sorted(stations)}
    st = TableState(config, ledger, clock, paytable, limits, timing, own)
    for ev in ledger.events(
        (
            EventKind.TILT,
            EventKind.TILT_CLEARED,
            EventKind.DOOR_OPEN,
            EventKind.DOOR_CLOSED,
            EventKind.RAM_CLEAR,
        )
    ):
        station = st.stations.get(ev.station)
        code = ev.detail.get("code", "")
        if ev.kind == EventKind.RAM_CLEAR:
            st.table_tilts.clear()
            for s in st.stations.values():
                s.tilts.clear()
        elif ev.detail.get("host"):
            if ev.kind == EventKind.TILT:
                st.table_tilts[code] = ev.detail.get("message", "")
            elif ev.kind == EventKind.TILT_CLEARED:
                st.table_tilts.pop(code, None)
        elif station is None:
            continue
        elif ev.kind == EventKind.TILT and restored_tilt(code):
            station.tilts[code] = ev.detail.get("message", "")
        elif ev.kind == EventKind.TILT_CLEARED:
            station.tilts.pop(code, None)
        elif ev.kind in (EventKind.DOOR_OPEN, EventKind.DOOR_CLOSED):
            station.door_open = ev.kind == EventKind.DOOR_OPEN
    for number, station in st.stations.items():
        station.payout = pending_payout(ledger, number)
        notes = ledger.events((EventKind.NOTE_ACCEPTANCE,), last=1, station=number)
        station.notes_off = bool(notes) and not notes[-1].detail.get("enabled", True)
    _restore_round(st, ledger)
    return st


def _restore_round(st: TableState, ledger: Ledger) -> None:
    """The open round, replayed from every seat's row (:func:`reopen`); else the last
    settled seat's bets to repeat (a lone cabinet also shows that round again)."""
    found = reopen(ledger)
    if found is None:
        last = ledger.last_settled()
        if last is None or last.seat not in st.stations:
            return
        station = st.stations[last.seat]
        progressive = round_wagers(ledger, {last.seat: last.id}).get(last.seat, 0)
        station.last_bets = Bets(last.ante, last.trips, progressive)
        if len(st.stations) == 1:
            station.jackpot = last.jackpot
            st.row_ids, st.commitment = {last.seat: last.id}, last.commitment
            if last.state == "settled":
                st.round = replay(ledger.paytable(last.paytable_sha256), last.deck, last.inputs())
        return
    absent = sorted(set(found.row_ids) - set(st.stations))
    if absent and st.timing.decision_seconds is None:  # nobody would ever decide for them
        mine = sorted(st.stations)
        named = f"seat {mine[0]}" if len(mine) == 1 else f"stations {mine}"
        raise LedgerCorruptError(
            f"the open round is dealt to seats {sorted(found.row_ids)}, not {named} alone",
            f"rounds {found.first_id}",
        )
    st.round, st.round_open = found.round, True
    st.row_ids, st.commitment = found.row_ids, found.commitment
    wagered = round_wagers(ledger, found.row_ids)
    for seat, bets in found.bets.items():
        if seat in st.stations:
            st.stations[seat].last_bets = Bets(bets.ante, bets.trips, wagered.get(seat, 0))


def stopped_state(
    config: CabinetConfig, clock: Clock, stations: Iterable[int], timing: TableTiming, fault: str
) -> TableState:
    """The state of a service whose ledger could not be opened: stopped in the
    ``ledger`` host tilt with ``fault``, showing the configured paytable (or, when that
    cannot be read, the shipped standard one)."""
    problem = ""
    try:
        table = load_paytable(config.paytable)
    except PaytableError as exc:
        table = load_paytable(PAYTABLE_DIR / "standard.toml")
        problem = f"PAYTABLE FAULT - play stopped: {exc}"
    own = {n: Station(n, StationEscrows()) for n in sorted(stations)}
    st = TableState(config, None, clock, table, table.limits, timing, own)
    st.table_tilts[LEDGER_TILT] = fault or problem or "the ledger is not available"
    return st


def tilt_on_anchor_failure(st: TableState) -> None:
    """Turn every failed anchor write of the ledger into the ``ledger`` host tilt (play
    stops: the database can no longer be shown to be the latest), including one that
    failed while the ledger was being opened."""
    ledger = st.ledger
    if ledger is None:
        return

    def tilt(reason: str) -> None:
        st.table_tilts[LEDGER_TILT] = reason

    ledger.on_anchor_problem = tilt
    if ledger.anchor_problem:
        tilt(ledger.anchor_problem)
