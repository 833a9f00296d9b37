"""Tickets at player stations as separate processes: a table host (``uth table serve``),
station 1 playing by itself with its ticket printer (``uth table station --autoplay
random --printer PTY``), station 2 serving its validator (``--autoplay idle --validator
PTY``), and the TCL printer and ID-003 validator simulators on ptys in a fourth process
that outlives every host and station that is cut.  Station 1 and the host are killed
with SIGKILL when the printer accepts a cash-out ticket and when it validates it, and
restarted; then every ticket the printer printed is inserted at station 2.  Nothing is
lost or paid twice: every cash-out ends once (ticket issued, credits back, or a handpay
with its ticket void), only issued tickets are redeemed, each once, and every station's
meters balance; ``uth audit verify --replay`` passes."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.cli_process import Proc

ROOT = Path(__file__).resolve().parents[3]
TIMERS = ["--betting-seconds", "1.0", "--decision-seconds", "1.0"]
#: (who is cut, when the printer cuts it)
CUTS = (
    ("station", "print"),
    ("host", "print"),
    ("station", "validated"),
    ("host", "validated"),
)


def wait_for(predicate, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or predicate}")


def uth(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def rows(db: Path, sql: str, *params: object) -> list[tuple]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()




@pytest.mark.heavy
def test_tickets_survive_station_and_host_cuts_at_print_and_at_validation(device_processes):
    tmp_path, procs, devices = device_processes
    db = tmp_path / "host" / "uth.db"
    serve = ["table", "serve", "--db", str(db), "--stations", "1-2", *TIMERS]
    serve += ["--log-level", "INFO"]
    host = Proc("host", *serve, "--port", "0", "--pair-code")
    procs.append(host)
    port = host.wait_line(r"listening on 127\.0\.0\.1:(\d+)").group(1)
    shown = host.wait_line(r"dealer displays on 127\.0\.0\.1:(\d+)").group(1)
    serve += ["--display-port", shown]  # a restarted host takes the same ports
    folders = {n: tmp_path / f"station-{n}" for n in (1, 2)}
    seen = 0
    for n in (1, 2):
        code = host.wait_line(r"pairing code (\d{4}-\d{4})", after=seen).group(1)
        seen = host.mark()
        pair = ["table", "pair", "--host", "127.0.0.1", "--port", port, "--code", code]
        done = uth(*pair, "--station", str(n), "--folder", str(folders[n]))
        assert done.returncode == 0, done.stderr
    station = ["table", "station", "--host", "127.0.0.1", "--port", port, "--log-level", "INFO"]

    def player(seed: int) -> Proc:
        proc = Proc(
            "station 1",
            *station,
            *("--station", "1", "--folder", str(folders[1]), "--autoplay", "random"),
            *("--rounds", "2", "--seed", str(seed), "--timeout", "60"),
            *("--printer", devices.ports["printer"]),
        )
        procs.append(proc)
        return proc

    def printed() -> list[str]:
        return list(devices.ask(op="state")["printed"])

    cut: list[tuple[str, str]] = []  # who was cut, the ticket being printed then
    for i, (who, when) in enumerate(CUTS):
        before = len(printed())
        if who == "host":
            devices.ask(op="arm", pid=host.p.pid, on=f"printer:{when}", delay=0.0)
        stn = player(seed=10 + i)
        if who == "station":
            devices.ask(op="arm", pid=stn.p.pid, on=f"printer:{when}", delay=0.0)
        victim = stn if who == "station" else host
        try:
            victim.p.wait(60)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the {who} was not cut at printer:{when}") from None
        devices.ask(op="disarm")
        if who == "host":
            host = Proc("host again", *serve, "--port", port)
            procs.append(host)
            host.wait_line(r"listening on")
        else:
            stn = player(seed=20 + i)  # the restarted station finishes the payout
        # the job in the printer ends once a driver polls it again
        wait_for(lambda b=before: len(printed()) > b, 30, "the ticket out of the printer")
        cut.append((who, printed()[before]))
        assert stn.p.wait(90) == 0, f"station 1 did not finish after cutting the {who}"

    # every ticket the printer printed goes into station 2's validator
    validator = Proc(
        "station 2",
        *station,
        *("--station", "2", "--folder", str(folders[2]), "--autoplay", "idle"),
        *("--validator", devices.ports["validator"]),
    )
    procs.append(validator)
    validator.wait_line(r"validator enabled", 30)
    tickets = printed()
    assert len(tickets) >= len(CUTS)
    for number in tickets:
        devices.ask(op="ticket", barcode=number)
    status = dict(rows(db, "SELECT validation, status FROM tickets"))

    def settled() -> bool:
        held = devices.ask(op="state")
        return held["queue"] == 0 and not held["item"] and held["validator"] == "IDLING"

    wait_for(settled, 60, "every ticket through the validator")
    cashbox = {item["ticket"] for item in devices.ask(op="state")["cashbox"] if "ticket" in item}
    issued = {n for n in tickets if status.get(n) == "issued"}
    assert cashbox == issued  # issued ones stacked; void ones returned
    redeemed = rows(
        db,
        "SELECT json_extract(detail, '$.validation'), station FROM events WHERE kind = 'ticket_in'",
    )
    assert sorted(n for n, _ in redeemed) == sorted(issued)  # each once, at station 2
    assert {s for _, s in redeemed} <= {2}
    voided = {n for n in tickets if status.get(n) == "void"}
    # the host cut: the station reports the job again, so it is issued; the station cut:
    # no one can tell, so the number is void and an attendant paid it
    assert [(who, status[n]) for who, n in cut] == [
        (who, "issued" if who == "host" else "void") for who, _ in CUTS
    ]

    # every cash-out of station 1 ended exactly once
    for (txn,) in rows(db, "SELECT txn FROM events WHERE kind = 'cashout'"):
        ends = rows(
            db,
            "SELECT kind FROM events WHERE txn = ? AND kind IN "
            "('ticket_out', 'cashout_failed', 'cashout_handpay')",
            txn,
        )
        handpaid = rows(
            db,
            "SELECT 1 FROM events WHERE kind = 'handpay' "
            "AND json_extract(detail, '$.cashout_txn') = ?",
            txn,
        )
        assert len(ends) + (len(handpaid) if not ends else 0) == 1, (txn, ends, handpaid)

    validator.p.send_signal(signal.SIGTERM)
    host.p.send_signal(signal.SIGTERM)
    assert validator.p.wait(20) == 0 and host.p.wait(20) == 0
    audit = uth("audit", "verify", "--db", str(db), "--replay")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    for n in (1, 2):
        meters = uth("audit", "meters", "--db", str(db), "--station", str(n))
        assert meters.returncode == 0, meters.stdout + meters.stderr
    print(f"tickets printed {len(tickets)}, redeemed {len(redeemed)}, void {len(voided)}")
