"""The cabinet's SAS link in a process of its own (:mod:`kiosk.sas.process`): its answers
start in time while the cabinet's interpreter is held, it answers the same as in one
process, it is started again when it dies alone, it ends with the cabinet, and the
cabinet runs only the port's own calls, checked."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.cabinet import insert_note

from devices.sas.host import SasHost, decode
from devices.sas.line import PtyPair
from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import SetDoor
from kiosk.sas.game_port import TablePort
from kiosk.sas.process import LinkProcess, PortServer
from kiosk.sas.service import SasService
from kiosk.sas.start import start_slot_system
from kiosk.sas.wire import read_message, send_message
from kiosk.wiring.lone_cabinet import LoneCabinet
from tests.support.sas_rig import wait_for

ROOT = Path(__file__).resolve().parents[3]

#: The poller in a process of its own, on the pty's master end (its descriptor) (the cabinet's interpreter is held here): a
#: general poll every 40 ms, every fourth a meter long poll, for ``seconds``; prints the
#: answers' start times (seconds) and the polls unanswered within 100 ms.
POLLER = """
import json, sys, time
from devices.sas.host import SasHost
from devices.sas.line import PtyLine
fd, seconds = int(sys.argv[1]), float(sys.argv[2])
h = SasHost(PtyLine(fd), answer_timeout=0.1, retries=0)
deadline = time.monotonic() + 10
while h.general_poll(1).kind != "exception":  # the link is up
    assert time.monotonic() < deadline, "the link never answered"
    time.sleep(0.05)
h.stats.starts.clear(); h.stats.timeouts = 0
print("polling", flush=True)
n, end = 0, time.monotonic() + seconds
next_at = time.monotonic()
while time.monotonic() < end:
    next_at += 0.040
    if n % 4 == 3:
        h.long_poll(1, 0x1A)
    elif h.general_poll(1).code:
        h.acknowledge()
    n += 1
    time.sleep(max(0.0, next_at - time.monotonic()))
print(json.dumps({"starts": h.stats.starts, "unanswered": h.stats.timeouts, "polls": n}), flush=True)
"""


def hold_interpreter(seconds: float) -> None:
    """Hold this process's interpreter lock for ``seconds`` (a C call that keeps it, as a
    frame of the screens being drawn does)."""
    ctypes.PyDLL(None).usleep(int(seconds * 1_000_000))


@dataclass
class Cabinet:
    machine: LoneCabinet
    pair: PtyPair
    link: LinkProcess | SasService

    def stop(self) -> None:
        self.link.stop()
        self.machine.close()
        self.pair.close()


def open_cabinet(tmp_path: Path, own_process: bool) -> Cabinet:
    pair = PtyPair()
    config = load_config(db_path=tmp_path / "uth.db", sas_port=pair.port)
    machine = LoneCabinet.open(config, rng=SeededRandomSource(7))
    link = start_slot_system(machine.table, own_process=own_process)
    assert link is not None
    return Cabinet(machine, pair, link)


@pytest.fixture
def cabinet(tmp_path: Path) -> Iterator[Cabinet]:
    c = open_cabinet(tmp_path, own_process=True)
    yield c
    c.stop()


@pytest.mark.parametrize(
    "own_process",
    [
        True,
        pytest.param(
            False,
            marks=pytest.mark.xfail(strict=True, reason="one interpreter: the hold delays answers"),
        ),
    ],
    ids=["own-process", "in-process"],
)
def test_answers_start_within_20_ms_while_the_cabinets_interpreter_is_held(tmp_path, own_process):
    """The cabinet's interpreter held 200 ms at a time (a frame that long) for two
    seconds, polled from another process every 40 ms: every answer starts within 20 ms.
    The link in the cabinet's own process (as before) fails it."""
    c = open_cabinet(tmp_path, own_process)
    try:
        poller = subprocess.Popen(
            [sys.executable, "-c", POLLER, str(c.pair.line.fileno()), "2.4"],
            pass_fds=(c.pair.line.fileno(),), stdout=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert poller.stdout is not None
        assert poller.stdout.readline().strip() == "polling"
        end = time.monotonic() + 2.0
        while time.monotonic() < end:
            hold_interpreter(0.2)
            time.sleep(0.01)
        out = json.loads(poller.stdout.readline())
        poller.wait(10)
    finally:
        c.stop()
    starts = sorted(out["starts"])
    assert out["polls"] >= 50
    assert out["unanswered"] == 0
    # the holds cover 80% of the time: in one interpreter most answers wait for them (tens
    # to 200 ms).  In its own process an answer may still be late for the machine's own
    # load (a shared test machine's scheduler, both ends' wake-ups): at most one in 20
    # over 20 ms, none over 100 ms (the bench measures the budget's p99 and max)
    late = [t for t in starts if t > 0.020]
    assert len(late) <= len(starts) // 20, f"{len(late)} of {len(starts)} over 20 ms: {late}"
    assert starts[-1] <= 0.100, f"slowest answer start {starts[-1] * 1000:.1f} ms"


def test_the_link_in_its_process_answers_from_the_ledger(cabinet):
    """Meters, identity and exceptions come through the process's port as in one
    process: the door opened and closed is 11 then 12, the credits are the ledger's."""
    m = cabinet.machine.station  # the screens' controller
    h = SasHost(cabinet.pair.line, answer_timeout=0.5, silence=0.02)
    assert wait_for(lambda: h.general_poll(1).kind == "exception", 10)
    h.acknowledge()
    insert_note(cabinet.machine, 2000)
    m.execute(SetDoor(True))
    m.execute(SetDoor(False))
    got: list[int] = []

    def drained() -> bool:
        ex = h.general_poll(1)
        h.acknowledge()
        if ex.code:
            got.append(ex.code)
        return 0x12 in got

    assert wait_for(drained, 10)
    assert got[-2:] == [0x11, 0x12]
    assert (
        decode(0x1A, h.long_poll(1, 0x1A).answer)["credits"]
        == cabinet.machine.table.read(lambda a: a.meters())["credits"]
        == 2000
    )
    assert decode(0x1F, h.long_poll(1, 0x1F).answer)["game_id"] == "UT"


def test_a_link_process_that_dies_alone_is_started_again_and_logged(cabinet, caplog):
    link = cabinet.link
    assert isinstance(link, LinkProcess)
    first = link.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    assert wait_for(lambda: link.pid not in (None, first), 10)
    assert link.restarts == 1
    assert "ended by itself" in caplog.text
    h = SasHost(cabinet.pair.line, answer_timeout=0.5, silence=0.02)
    assert wait_for(lambda: h.general_poll(1).kind == "exception", 10)


CABINET = """
import sys, time
from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.sas.start import start_slot_system
from kiosk.wiring.lone_cabinet import LoneCabinet
config = load_config(db_path=sys.argv[1], sas_port=sys.argv[2])
machine = LoneCabinet.open(config, rng=SeededRandomSource(7))
link = start_slot_system(machine.table, own_process=True)
print(link.pid, flush=True)
time.sleep(60)
"""


def test_the_link_process_ends_when_the_cabinet_is_killed(tmp_path):
    with PtyPair() as pair:
        cab = subprocess.Popen(
            [sys.executable, "-c", CABINET, str(tmp_path / "uth.db"), pair.port],
            stdout=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert cab.stdout is not None
        child = int(cab.stdout.readline())
        os.kill(cab.pid, signal.SIGKILL)
        cab.wait(10)

        def gone() -> bool:
            try:
                stat = Path(f"/proc/{child}/stat").read_text()
            except FileNotFoundError:
                return True
            return stat.rsplit(")", 1)[1].split()[0] == "Z"

        assert wait_for(gone, 10)


@pytest.mark.parametrize(
    "message, reason",
    [
        ({"id": 1, "call": "close", "args": []}, "not a method of the port"),
        ({"id": 2, "call": "__init__", "args": []}, "not a method of the port"),
        ({"id": 3, "call": "meters", "args": [2]}, "not a station"),
        ({"id": 4, "call": "meters", "args": [True]}, "not a station"),
        ({"id": 5, "call": "redeem_ticket", "args": [1, "e1", -500, False]}, "not a whole number"),
        ({"id": 6, "call": "redeem_ticket", "args": [1, "e1", 5.0, False]}, "not a whole number"),
        ({"id": 7, "call": "deliver_validation", "args": [1, "c1", "12345"]}, "18-digit"),
        ({"id": 8, "call": "set_enabled", "args": [1, 1, "host"]}, "not true or false"),
        ({"id": 9, "call": "events_after", "args": [0]}, "takes 2 argument"),
    ],
)
def test_the_cabinet_runs_only_the_ports_calls_with_checked_arguments(tmp_path, message, reason):
    config = load_config(db_path=tmp_path / "uth.db")
    machine = LoneCabinet.open(config, rng=SeededRandomSource(7))
    ours, theirs = socket.socketpair()
    server = PortServer(ours, TablePort(machine.table)).start()
    try:
        send_message(theirs, message)
        answer = read_message(theirs, 1 << 20)
        while "changed" in answer:
            answer = read_message(theirs, 1 << 20)
        assert answer["id"] == message["id"] and reason in answer["error"]
        assert server.refused == 1 and server.calls == 0
        send_message(theirs, {"id": 10, "call": "meters", "args": [1]})
        answer = read_message(theirs, 1 << 20)
        while "changed" in answer:
            answer = read_message(theirs, 1 << 20)
        assert answer == {"id": 10, "ok": {**answer["ok"], "credits": 0}}
    finally:
        server.close()
        server.join(5)
        theirs.close()
        machine.close()


def test_a_killed_link_process_loses_and_repeats_no_exception(cabinet):
    """The link's process killed between exceptions (the host has acknowledged some):
    the one started again raises each of the ledger's door events once, in order, as
    after a power cut."""
    m, link = cabinet.machine.station, cabinet.link
    assert isinstance(link, LinkProcess)
    h = SasHost(cabinet.pair.line, answer_timeout=0.5, silence=0.02)
    assert wait_for(lambda: h.general_poll(1).kind == "exception", 10)
    h.acknowledge()
    got: list[int] = []

    def drain(until: int) -> bool:
        ex = h.general_poll(1)
        if ex.code:
            got.append(ex.code)
            h.acknowledge()
        return len(got) >= until

    for _ in range(3):
        m.execute(SetDoor(True))
        m.execute(SetDoor(False))
    assert wait_for(lambda: drain(2), 10)
    time.sleep(0.3)  # the acknowledgement on disk (no answer tells the host when)
    first = link.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    assert wait_for(lambda: link.pid not in (None, first), 10)
    m.execute(SetDoor(True))
    m.execute(SetDoor(False))
    assert wait_for(lambda: drain(8), 15)
    time.sleep(0.5)
    assert not drain(9)  # nothing more
    assert got == [0x11, 0x12] * 4


def test_the_link_process_outlives_a_sigterm_and_stops_with_the_cabinet(cabinet):
    """A service manager stopping the cabinet signals every process of it: the link's
    process stays until the cabinet closes its port, so it is not started again."""
    link = cabinet.link
    assert isinstance(link, LinkProcess)
    h = SasHost(cabinet.pair.line, answer_timeout=0.5, silence=0.02)
    assert wait_for(lambda: h.general_poll(1).kind == "exception", 10)
    pid = link.pid
    assert pid is not None
    os.kill(pid, signal.SIGTERM)
    time.sleep(0.5)
    assert link.pid == pid and link.restarts == 0
    link.stop()
    assert link.pid is None and link.restarts == 0
    assert not Path(f"/proc/{pid}").exists()
