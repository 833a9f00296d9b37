"""The link's updater: keeps the view and the exception queue up to date from the game
service, and carries the host's requests to it.

One thread (:class:`SasLink`), woken by the game's change notifications
(:meth:`~kiosk.sas.port.GamePort.subscribe`), by the poll thread (a request, an
acknowledgement) and every :data:`TICK_S`.  Each pass:

1. runs the host's requests in the order they came (shutdown, validation numbers,
   redemptions), and writes the TITO exchanges down;
2. reads the ledger events and round rows after its cursors, derives their exceptions
   (:mod:`kiosk.sas.exceptions`) and writes them to the queue *with* the new cursors in
   one transaction, so after a power cut nothing is lost and nothing is raised twice;
3. writes down what the host acknowledged (already durable in the acknowledgement
   journal, :class:`~kiosk.sas.store.AckJournal`, since the poll that carried it);
4. builds a fresh :class:`~kiosk.sas.view.LinkView` and swaps it in.

A first start begins at the ledger's end: history is not replayed as exceptions.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from kiosk.ledger.kinds import EventKind
from kiosk.sas.codes import Exc
from kiosk.sas.exceptions import Raised, event_exceptions, game_ended, game_started
from kiosk.sas.port import VALIDATION_TIMEOUT_S, GamePort, PortRefused, Redemption
from kiosk.sas.progressive import BY as PROGRESSIVE_BY
from kiosk.sas.progressive import ProgressiveListener
from kiosk.sas.shared import Shared
from kiosk.sas.store import Exchange, SasStore
from kiosk.sas.view import ExceptionQueue, LinkView, StationView

log = logging.getLogger(__name__)

#: The updater's pass when nothing wakes it, seconds.
TICK_S = 0.5
#: Events and round rows read in one pass at most.
READ_LIMIT = 1000


def program_signature(seed: int) -> int:
    """The ROM signature with ``seed``: ``uth verify crc16`` in a process of its own (the
    whole program is read: seconds, and no lock of this process is held meanwhile).  The
    child runs isolated (``-I``): its working folder is never on its ``sys.path``."""
    out = subprocess.run(
        [sys.executable, "-I", "-m", "kiosk.cli", "verify", "crc16", "--seed", f"{seed:04X}"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return int(out.stdout.strip(), 16)


class SasLink:
    """The updater over ``port`` and ``store`` for ``stations``."""

    def __init__(
        self,
        port: GamePort,
        store: SasStore,
        stations: tuple[int, ...],
        signer: Callable[[int], int] = program_signature,
    ) -> None:
        self.port = port
        self.store = store
        self.stations = stations
        self.signer = signer
        queues, overflow = store.load_queues()
        self.shared = Shared(None, ExceptionQueue(queues, overflow, store.journal))
        linked = port.progressive_link()
        if linked is not None:
            self.shared.progressive = ProgressiveListener(linked, time.monotonic())
        for kind in ("validation", "redeem"):
            for ex in store.exchanges(kind):
                self.shared.exchanges[(ex.station, ex.kind, ex.ref)] = ex
        for st in stations:
            self.shared.read_tickets[st] = int(store.meta(f"read:{st}", "0") or 0)
        self._counts: dict[str, list[int]] = json.loads(store.meta("counts", "{}") or "{}")
        self._cashout_seen: dict[tuple[int, str], float] = {}
        self._rom_thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.passes = 0
        self.errors = 0

    # -- life cycle --------------------------------------------------------------------
    def start(self) -> None:
        self._unsubscribe = self.port.subscribe(self.shared.wake.set)
        self.refresh()
        self._thread = threading.Thread(target=self._run, name="sas-updater", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.shared.wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._unsubscribe is not None:
            self._unsubscribe()
        try:
            self._flush()
        except Exception:  # a closing database: the queue is already safe on disk
            log.exception("SAS link: final flush")

    def _run(self) -> None:
        while not self._stop.is_set():
            self.shared.wake.wait(TICK_S)
            self.shared.wake.clear()
            if self._stop.is_set():
                return
            try:
                self.refresh()
            except Exception:  # the link keeps answering from the last view
                self.errors += 1
                log.exception("SAS link: refresh failed")
                time.sleep(TICK_S)

    # -- one pass ---------------------------------------------------------------------
    def refresh(self) -> None:
        for action in self.shared.take_actions():
            try:
                action()
            except Exception:
                self.errors += 1
                log.exception("SAS link: a host request failed")
        self._flush()
        meters = {st: dict(self.port.meters(st)) for st in self.stations}
        self._read_ledger(meters)
        self._rom()
        self.shared.view = self._build_view(meters)
        self._timeouts()
        self._progressive()
        self.passes += 1

    def _flush(self) -> None:
        acked, cleared, records = self.shared.queue.take_acknowledged()
        self.store.acknowledged(acked, cleared)
        self.shared.queue.applied(records)
        for ex in self.shared.take_dirty():
            self.store.put_exchange(ex)
        for st, event_id in list(self.shared.read_tickets.items()):
            if str(event_id) != self.store.meta(f"read:{st}", "0"):
                with self.store.lock:
                    self.store._set(f"read:{st}", str(event_id))

    def _read_ledger(self, meters: dict[int, dict[str, int]]) -> None:
        ev_cursor, rd_cursor, started = self.store.cursors()
        timed: list[tuple[str, Raised]] = []  # (ledger stamp, exception): in time order
        if ev_cursor is None:  # a first start: from the ledger's end
            latest = self.port.events_after(0, 1)
            ev_cursor = latest[-1].id if latest else 0
        events = self.port.events_after(ev_cursor, READ_LIMIT)
        if events and events[0].id > ev_cursor + 1:  # more came than one pass reads
            timed += [("", Raised(st, Exc.BUFFER_OVERFLOW)) for st in self.stations]
        for ev in events:
            if ev.station not in self.stations:
                continue
            timed += [(ev.at, r) for r in event_exceptions(ev, meters.get(ev.station, {}))]
            self._count(ev.station, ev.kind)
        if events:
            ev_cursor = events[-1].id
        if rd_cursor is None:
            latest_rows = self.port.rounds_after(0, 1)
            rd_cursor = latest_rows[-1].id if latest_rows else 0
            if latest_rows and latest_rows[-1].state == "open":
                rd_cursor -= 1
        rows = self.port.rounds_after(rd_cursor, READ_LIMIT)
        closed_to = rd_cursor
        still_open = False
        for row in rows:
            if row.state == "open":
                still_open = True
            elif not still_open:
                closed_to = row.id
            if row.station not in self.stations:
                continue
            if row.id not in started:
                coin_in = meters.get(row.station, {}).get("coin_in", 0)
                timed.append((row.started_at, game_started(row, coin_in)))
                started.add(row.id)
            if row.state != "open":
                timed.append((row.ended_at, game_ended(row)))
                started.discard(row.id)
        started = {r for r in started if r > closed_to}
        raised = [r for _, r in sorted(timed, key=lambda t: t[0])]
        if raised or events or closed_to != rd_cursor or self.store.meta("event_cursor") is None:
            written = self.store.append(
                ((r.station, int(r.code), r.data) for r in raised), ev_cursor, closed_to, started
            )
            self.shared.queue.extend(written)
            if self._counts:
                with self.store.lock:
                    self.store._set("counts", json.dumps(self._counts, sort_keys=True))

    def _count(self, station: int, kind: str) -> None:
        if kind in (EventKind.DOOR_OPEN, EventKind.POWER_UP):
            doors, powers = self._counts.setdefault(str(station), [0, 0])
            self._counts[str(station)] = [
                doors + (kind == EventKind.DOOR_OPEN),
                powers + (kind == EventKind.POWER_UP),
            ]

    def _build_view(self, meters: dict[int, dict[str, int]]) -> LinkView:
        caps = self.port.capabilities()
        linked = self.shared.progressive is not None
        stations = {}
        for st in self.stations:
            redemptions: dict[str, Redemption] = {}
            with self.shared.lock:
                refs = [k[2] for k in self.shared.exchanges if k[:2] == (st, "redeem")]
            for ref in refs[-8:]:
                red = self.port.redemption(st, ref)
                if red is not None:
                    redemptions[ref] = red
            doors, powers = self._counts.get(str(st), [0, 0])
            stations[st] = StationView(
                meters=meters[st],
                pending_cashout=self.port.pending_cashout(st) if caps.system_validation else None,
                records=tuple(self.port.validation_records(st, 31)),
                escrow=self.port.ticket_in_escrow(st) if caps.ticket_redemption else None,
                redemptions=redemptions,
                door_opens=doors,
                power_ups=powers,
                progressive_win=self.port.progressive_win(st) if linked else None,
            )
        return LinkView(self.port.machine_info(), caps, stations)

    def _timeouts(self) -> None:
        """A cash-out the host has not validated within :data:`VALIDATION_TIMEOUT_S` is
        denied (the game pays it another way)."""
        view = self.shared.view
        if view is None:
            return
        now = time.monotonic()
        for st, sv in view.stations.items():
            cash = sv.pending_cashout
            if cash is None:
                continue
            key = (st, cash.cashout_id)
            first = self._cashout_seen.setdefault(key, now)
            if now - first < VALIDATION_TIMEOUT_S:
                continue
            if self.shared.exchange(st, "validation", cash.cashout_id) is not None:
                continue
            ex = Exchange(st, "validation", cash.cashout_id, "timed_out",
                          {"validation": None, "amount": cash.amount})  # fmt: skip
            self.shared.put_exchange(ex)
            try:
                self.port.deliver_validation(st, cash.cashout_id, None)
            except PortRefused as exc:
                log.warning("denial of %s refused: %s", cash.cashout_id, exc.reason)

    def _progressive(self) -> None:
        """The controller silent for the time SAS sets: the game told once per loss (it
        suspends play; exception 53 comes from its tilt's ledger event)."""
        listener = self.shared.progressive
        if listener is None or not listener.check(time.monotonic()):
            return
        log.warning("no progressive broadcast of group %d: play suspended", listener.link.group)
        try:
            self.port.progressive_lost(listener.link.group, PROGRESSIVE_BY)
        except PortRefused as exc:
            log.warning("the game refused the progressive link's loss: %s", exc.reason)

    def _rom(self) -> None:
        rom = self.shared.rom
        if rom is None or rom.result is not None:
            return
        if self._rom_thread is not None and self._rom_thread.is_alive():
            return

        def work() -> None:
            try:
                result = self.signer(rom.seed)
            except Exception as exc:  # the host asks again
                rom.failed = repr(exc)
                log.error("ROM signature failed: %s", exc)
                if self.shared.rom is rom:
                    self.shared.rom = None
                return
            rom.result = result

        self._rom_thread = threading.Thread(target=work, name="sas-rom-signature", daemon=True)
        self._rom_thread.start()
