"""The shared table's soak: a host (``uth table serve``) and seven headless stations
(``uth kiosk --station N --autoplay random``), each with its validator (and printer)
simulators in a peripherals process of its own and its link to the host through a
:class:`~kiosk.link.testing.FaultProxy` of its own, playing by themselves while seeded
random cuts hit them:

* ``host``: SIGKILL the host and restart it on the same ports;
* ``host_stacking``: SIGKILL the host as a station's validator stacks a note;
* ``station``: SIGKILL a station and restart it (its peripherals stay up);
* ``station_stacking``: SIGKILL a station as its validator stacks a note;
* ``link_cut`` / ``link_blackhole``: abort a station's connections, or swallow their
  bytes both ways with nothing closed;
* ``link_delay``: delay a station's chunks for a few seconds.

The harness is the patrons: it inserts a note into a station's validator when that
station's credits run low and, when the stations print tickets, inserts printed tickets
into other stations' validators.  At the end the stations cash out (a station is
restarted with ``--rounds 0``), the host is stopped with SIGTERM, and
:func:`support.table_soak_check.check` reads the host's ledger with the project's
readers::

    soak = Soak(folder, Plan(seed=7, seconds=90))   # printers when stations take them
    try:
        soak.start(); soak.run(); soak.finish()
    finally:
        soak.close()
    result = check(soak)          # result.problems empty when nothing was lost
    print(result.summary())

Money is integer cents throughout.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from support.cli_process import Proc
from support.peripherals import Peripherals

from kiosk.link.client import pair_station
from kiosk.link.testing import FaultProxy, Faults

STATIONS = tuple(range(1, 8))
NOTES = (2000, 5000, 10_000)
CUT_KINDS = (
    "host",
    "host_stacking",
    "station",
    "station_stacking",
    "link_cut",
    "link_blackhole",
    "link_delay",
)
#: How many of each kind of cut in every 10 (the host's cost the most).
CUT_WEIGHTS = (1, 1, 2, 1, 2, 1, 2)
DELAYED = Faults(delay=1.0, max_delay_s=0.25)


@dataclass(frozen=True)
class Plan:
    """How long the stations play and how often something is cut (seconds)."""

    seed: int = 7
    seconds: float = 90.0
    cut_every: tuple[float, float] = (2.0, 5.0)
    betting_s: float = 1.5
    decision_s: float = 1.5
    #: credits under which the patron inserts a note, in cents
    low_credits: int = 6000
    #: the longest the table may go without settling a round while the host is up
    stall_s: float = 45.0


def printer_supported() -> bool:
    """Whether a station takes ``--printer`` (``uth kiosk --help`` says so)."""
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "kiosk", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return "--printer" in done.stdout


def barcode(text: str) -> str:
    """A printed ticket's validation number, digits only."""
    return "".join(c for c in text if c.isdigit())


def tickets_in_hand(
    held: dict[int, dict[str, Any]], inserts: Counter[str]
) -> list[tuple[str, int]]:
    """(validation number, station that printed it) of every ticket printed, or returned
    by a validator, and neither inserted since nor in a cash box; ``held`` is each
    station's peripherals' state, ``inserts`` how often each number was inserted."""
    printed = {barcode(t): n for n, h in held.items() for t in h["printed"] if barcode(t)}
    returned: Counter[str] = Counter()
    boxed: set[str] = set()
    for h in held.values():
        returned.update(i["ticket"] for i in h["returned"] if "ticket" in i)
        boxed.update(i["ticket"] for i in h["cashbox"] if "ticket" in i)
    return [
        (number, issuer)
        for number, issuer in sorted(printed.items())
        if number not in boxed and 1 + returned[number] - inserts[number] > 0
    ]


@dataclass
class Station:
    """One station: its pairing, its peripherals, its proxy and its current process."""

    n: int
    folder: Path
    devices: Peripherals
    proxy: FaultProxy
    proc: Proc | None = None
    starts: int = 0
    delayed_until: float = 0.0
    #: cents of the notes the patrons inserted into its validator
    inserted: int = 0
    done: list[dict[str, Any]] = field(default_factory=list)
    #: what its peripherals held at the end (``op=state``)
    held: dict[str, Any] = field(default_factory=dict)


class Soak:
    """The processes of one soak (see the module)."""

    def __init__(self, folder: Path, plan: Plan, printers: bool | None = None) -> None:
        self.folder = folder
        self.plan = plan
        self.rng = random.Random(plan.seed)  # the cuts: what, where, when
        self.patrons = random.Random(plan.seed + 1)  # the notes and tickets
        self._bag: list[str] = []
        self.db = folder / "host" / "uth.db"
        self.printers = printer_supported() if printers is None else printers
        self.cuts: Counter[str] = Counter()
        self.patron: Counter[str] = Counter()
        self.problems: list[str] = []
        self.timeline: list[str] = []
        self.host: Proc | None = None
        self.port = self.display_port = 0
        self.stations: dict[int, Station] = {}
        self.procs: list[Proc] = []
        self.ticket_inserts: Counter[str] = Counter()
        self.started = 0.0
        self._hosts = 0
        self._t0 = time.monotonic()

    # -- processes ---------------------------------------------------------------------------
    def _serve(self, *extra: str) -> Proc:
        args = ["table", "serve", "--db", str(self.db), "--stations", "1-7"]
        args += ["--betting-seconds", str(self.plan.betting_s)]
        args += ["--decision-seconds", str(self.plan.decision_s)]
        self._hosts += 1
        proc = Proc(f"host#{self._hosts}", *args, *extra)
        self.procs.append(proc)
        return proc

    def start(self) -> None:
        """Start the host, pair the seven stations, start their peripherals, proxies and
        processes."""
        self.host = self._serve("--port", "0", "--pair-code")
        self.port = int(self.host.wait_line(r"listening on 127\.0\.0\.1:(\d+)").group(1))
        self.display_port = int(self.host.wait_line(r"dealer displays on [\d.]+:(\d+)").group(1))
        seen = 0
        for n in STATIONS:
            code = self.host.wait_line(r"pairing code (\d{4}-\d{4})", after=seen).group(1)
            seen = self.host.mark()
            folder = self.folder / f"station-{n}"
            pair_station("127.0.0.1", self.port, code, f"station-{n}", n, folder, timeout=30.0)
            proxy = FaultProxy(self.port, Faults(), seed=self.plan.seed * 10 + n)
            proxy.start()
            self.stations[n] = Station(n, folder, Peripherals(), proxy)
        self.host.wait_line("every station is paired")
        for station in self.stations.values():
            self._start_station(station)
        self.started = time.monotonic()

    def _start_station(self, station: Station, rounds: int = 100_000) -> Proc:
        args = ["kiosk", "--station", str(station.n), "--host", "127.0.0.1"]
        args += ["--port", str(station.proxy.port), "--pairing", str(station.folder)]
        args += ["--autoplay", "random", "--rounds", str(rounds), "--headless"]
        args += ["--seed", str(self.plan.seed * 1000 + station.n * 10 + station.starts)]
        args += ["--validator", station.devices.ports["validator"]]
        if self.printers:
            args += ["--printer", station.devices.ports["printer"]]
        station.starts += 1
        station.proc = Proc(f"station {station.n}#{station.starts}", *args)
        self.procs.append(station.proc)
        return station.proc

    def _log(self, what: str) -> None:
        self.timeline.append(f"{time.monotonic() - self._t0:7.1f}s {what}")

    # -- the soak ----------------------------------------------------------------------------
    def run(self) -> None:
        """Play for :attr:`Plan.seconds`, cutting at random; the patrons keep inserting."""
        deadline = self.started + self.plan.seconds
        next_cut = time.monotonic() + self.rng.uniform(*self.plan.cut_every)
        last_settled = time.monotonic()
        watched, seen = self.host, 0
        while time.monotonic() < deadline:
            assert self.host is not None
            if self.host is not watched:  # restarted: read the new host's lines
                watched, seen = self.host, 0
            lines = self.host.lines[seen:]
            seen += len(lines)
            if any(" settled seats" in line for line in lines):
                last_settled = time.monotonic()
            if time.monotonic() - last_settled > self.plan.stall_s:
                self.problems.append(f"stall: no round settled for {self.plan.stall_s:.0f} s")
                self._log("stall")
                return
            self._check_processes()
            self._patrons()
            if time.monotonic() >= next_cut:
                self._cut(self._next_kind())
                next_cut = time.monotonic() + self.rng.uniform(*self.plan.cut_every)
                last_settled = max(last_settled, time.monotonic() - 5.0)
            time.sleep(0.3)

    def _check_processes(self) -> None:
        now = time.monotonic()
        for station in self.stations.values():
            if station.delayed_until and now > station.delayed_until:
                station.proxy.faults = Faults()
                station.delayed_until = 0.0
            proc = station.proc
            if proc is not None and proc.p.poll() is not None:
                tail = " | ".join(proc.lines[-5:])
                self.problems.append(f"{proc.name} exited {proc.p.returncode}: {tail}")
                self._log(f"{proc.name} exited by itself")
                self._start_station(station)
        if self.host is not None and self.host.p.poll() is not None:
            self.problems.append(f"{self.host.name} exited {self.host.p.returncode}")
            self._restart_host()

    def _restart_host(self) -> None:
        self.host = self._serve("--port", str(self.port), "--display-port", str(self.display_port))
        self.host.wait_line(r"listening on", timeout=60)

    def _next_kind(self) -> str:
        """The next cut's kind, drawn without replacement from a bag holding each kind
        its weight's times (so every kind comes within one bag's worth of cuts)."""
        if not self._bag:
            self._bag = [k for k, w in zip(CUT_KINDS, CUT_WEIGHTS, strict=True) for _ in range(w)]
            self.rng.shuffle(self._bag)
        return self._bag.pop()

    def _cut(self, kind: str) -> None:
        station = self.stations[self.rng.choice(STATIONS)]
        if kind in ("station_stacking", "host_stacking"):
            self._cut_while_stacking(station, kind)
            return
        self.cuts[kind] += 1
        self._log(f"cut {kind}" + ("" if kind == "host" else f" at station {station.n}"))
        if kind == "host":
            assert self.host is not None
            self.host.kill()
            time.sleep(self.rng.uniform(0.0, 1.0))
            self._restart_host()
        elif kind == "station":
            assert station.proc is not None
            station.proc.kill()
            time.sleep(self.rng.uniform(0.0, 1.0))
            self._start_station(station)
        elif kind == "link_cut":
            station.proxy.cut_all()
        elif kind == "link_blackhole":
            station.proxy.blackhole_all()
        elif kind == "link_delay":
            station.proxy.faults = DELAYED
            station.delayed_until = time.monotonic() + self.rng.uniform(2.0, 6.0)

    def _cut_while_stacking(self, station: Station, kind: str) -> None:
        """Arm a SIGKILL of the station (or of the host) on STACKING, insert a note into
        the station's validator, and restart what was cut."""
        deadline = time.monotonic() + 5.0
        while not self._accepting(station):
            if time.monotonic() > deadline:
                self.cuts[f"{kind}_skipped"] += 1
                held = station.devices.ask(op="state")
                held = {k: held[k] for k in ("validator", "inhibited", "item", "queue")}
                self._log(f"no {kind}: station {station.n} takes no note: {held}")
                return
            time.sleep(0.2)
        victim = self.host if kind == "host_stacking" else station.proc
        assert victim is not None
        self.cuts[kind] += 1
        self._log(f"cut {kind} at station {station.n}")
        station.devices.ask(op="arm", pid=victim.p.pid, on="validator:STACKING", delay=0.0)
        self._insert(station, self.patrons.choice(NOTES))
        try:
            victim.p.wait(15)
            self.cuts[f"{kind}_landed"] += 1
        except subprocess.TimeoutExpired:  # the note was refused: cut it anyway
            victim.kill()
        station.devices.ask(op="disarm")
        if kind == "host_stacking":
            self._restart_host()
        else:
            self._start_station(station)

    # -- the patrons -------------------------------------------------------------------------
    def _credits(self) -> dict[int, int]:
        try:
            conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=2)
            try:
                rows = conn.execute(
                    "SELECT station, value FROM station_meters WHERE name = 'credits'"
                ).fetchall()
            finally:
                conn.close()
        except sqlite3.Error:
            return {}
        return {int(s): int(v) for s, v in rows}

    def _accepting(self, station: Station) -> bool:
        held = station.devices.ask(op="state")
        return (
            held["validator"] == "IDLING"
            and not held["inhibited"]
            and not held["item"]
            and not held["queue"]
        )

    def _insert(self, station: Station, cents: int) -> None:
        station.devices.ask(op="bill", cents=cents)
        station.inserted += cents
        self.patron["notes"] += 1
        self.patron["notes_cents"] += cents

    def _patrons(self) -> None:
        credits = self._credits()
        for station in self.stations.values():
            if credits.get(station.n, 0) < self.plan.low_credits and self._accepting(station):
                self._insert(station, self.patrons.choice(NOTES))
        if self.printers and self.patrons.random() < 0.2:
            self._redeem_a_ticket()

    def _redeem_a_ticket(self) -> None:
        """Insert one ticket in the patrons' hands (printed, or returned by a validator)
        into the validator of a station other than the one that printed it."""
        held = {n: st.devices.ask(op="state") for n, st in self.stations.items()}
        hand = tickets_in_hand(held, self.ticket_inserts)
        if not hand:
            return
        barcode, issuer = self.patrons.choice(hand)
        target = self.stations[self.patrons.choice([n for n in STATIONS if n != issuer])]
        if self._accepting(target):
            self.ticket_inserts[barcode] += 1
            target.devices.ask(op="ticket", barcode=barcode)
            self.patron["tickets"] += 1

    # -- the end -----------------------------------------------------------------------------
    def finish(self) -> None:
        """Stop the players, cash every station out, stop the host cleanly."""
        for station in self.stations.values():
            station.proxy.faults = Faults()
        for station in self.stations.values():  # the last notes inserted are credited first
            self._settle_validator(station)
        for station in self.stations.values():
            if station.proc is not None and station.proc.p.poll() is None:
                station.proc.p.send_signal(signal.SIGTERM)
        for station in self.stations.values():
            if station.proc is not None:
                station.proc.finish(30)
        for station in self.stations.values():
            self._start_station(station, rounds=0)
        for station in self.stations.values():
            assert station.proc is not None
            code = station.proc.finish(120)
            if code != 0:
                tail = " | ".join(station.proc.lines[-5:])
                self.problems.append(f"station {station.n} did not cash out ({code}): {tail}")
            else:
                station.done.append(json.loads(station.proc.wait_line(r"^done (.*)$").group(1)))
        assert self.host is not None
        self.host.p.send_signal(signal.SIGTERM)
        if self.host.finish(30) != 0:
            self.problems.append("the host did not stop cleanly")
        for station in self.stations.values():
            station.held = station.devices.ask(op="state")

    def _settle_validator(self, station: Station, timeout: float = 30.0) -> None:
        """Wait until the validator holds no note and has none queued."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            held = station.devices.ask(op="state")
            if not held["item"] and not held["queue"] and held["validator"] != "STACKING":
                return
            time.sleep(0.2)
        self.problems.append(f"station {station.n}: the validator still holds a note")

    def close(self) -> None:
        """Stop whatever still runs (the processes, the proxies, the peripherals)."""
        for proc in self.procs:
            if proc.p.poll() is None:
                proc.p.kill()
                proc.p.wait(10)
        for station in self.stations.values():
            station.proxy.stop()
            station.devices.close()

    def tails(self, lines: int = 20) -> str:
        """The last lines of every process started, for a failure's report."""
        return "\n".join(
            f"--- {p.name}\n" + "\n".join(p.lines[-lines:]) for p in self.procs if p.lines
        )
