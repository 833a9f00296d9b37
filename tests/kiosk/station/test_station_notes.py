"""Notes at a player station, as separate processes: a table host (``uth table serve``),
a station serving its validator (``uth table station --autoplay idle --validator PTY``)
and the ID-003 validator simulator on a pty in a third process, which outlives every
host and station that is cut.  The host and the station are killed with SIGKILL while a
note is held in escrow, stacking, at VEND VALID or stacked, and restarted; every note in
the cash box is credited once, and a note returned to the patron never is."""

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
#: (who is cut, the validator state that cuts it): each with a note in flight.
CUTS = (
    ("host", "STACKING"),
    ("station", "STACKING"),
    ("host", "VEND_VALID"),
    ("station", "VEND_VALID"),
    ("host", "ESCROW"),
    ("station", "ESCROW"),
    ("host", "STACKED"),
    ("station", "STACKED"),
)
NOTES = (2000, 5000, 10_000, 1000, 2000, 5000, 10_000, 1000)
#: Where a note may end when the cut comes at each state: in the box (credited once)
#: or, cut before the host accepted it, back to the patron (never credited).
ENDS = {
    "ESCROW": ("box", "returned"),
    "STACKING": ("box",),
    "VEND_VALID": ("box",),
    "STACKED": ("box",),
}


def wait_for(predicate, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or predicate}")


def ledger_rows(db: Path, kind: str) -> list[tuple[str, int]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return conn.execute(
            "SELECT txn, amount FROM events WHERE kind = ? AND station = 1 ORDER BY id", (kind,)
        ).fetchall()
    finally:
        conn.close()




@pytest.mark.heavy
def test_notes_at_a_station_are_credited_once_through_host_and_station_cuts(device_processes):
    tmp_path, procs, devices = device_processes
    db = tmp_path / "host" / "uth.db"
    serve = ["table", "serve", "--db", str(db), "--stations", "1", "--log-level", "INFO"]
    host = Proc("host", *serve, "--port", "0", "--pair-code")
    procs.append(host)
    port = host.wait_line(r"listening on 127\.0\.0\.1:(\d+)").group(1)
    shown = host.wait_line(r"dealer displays on 127\.0\.0\.1:(\d+)").group(1)
    serve += ["--display-port", shown]  # a restarted host takes the same ports
    code = host.wait_line(r"pairing code (\d{4}-\d{4})").group(1)
    folder = tmp_path / "station-1"
    pair = ["table", "pair", "--host", "127.0.0.1", "--port", port, "--code", code]
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", *pair, "--station", "1", "--folder", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    validator = devices.ports["validator"]

    def station() -> Proc:
        proc = Proc(
            "station",
            *("table", "station", "--host", "127.0.0.1", "--port", port, "--station", "1"),
            *("--folder", str(folder), "--autoplay", "idle", "--validator", validator),
            *("--log-level", "INFO"),
        )
        procs.append(proc)
        proc.wait_line(r"station 1 serving")
        proc.wait_line(r"validator: configured")  # the driver has reset the unit
        proc.wait_line(r"validator enabled")
        return proc

    def accepting() -> bool:
        held = devices.ask(op="state")
        return held["validator"] == "IDLING" and not held["inhibited"] and not held["item"]

    def settled(notes: int) -> bool:
        """All ``notes`` inserted have ended (in the box or returned) and the box holds
        what the host credited."""
        held = devices.ask(op="state")
        box = [item["bill"] for item in held["cashbox"]]
        credited = [a for _, a in ledger_rows(db, "bill_in")]
        if held["item"] or held["queue"] or len(box) + len(held["returned"]) != notes:
            return False
        return sorted(box) == sorted(credited)

    stn = station()
    wait_for(accepting, what="the validator enabled")
    devices.ask(op="bill", cents=2000)  # no cut: stacked and credited once
    wait_for(lambda: settled(1), what="the first note credited")
    notes, cuts, between, ends = 1, 0, 0, []
    for (who, state), cents in zip(CUTS, NOTES, strict=True):
        victim = host if who == "host" else stn
        wait_for(accepting, what="the validator enabled")
        seen, boxed = stn.mark(), len(devices.cashbox())
        devices.ask(op="arm", pid=victim.p.pid, on=f"validator:{state}", delay=0.0)
        devices.ask(op="bill", cents=cents)
        try:
            victim.p.wait(20)
        except subprocess.TimeoutExpired:
            held = devices.ask(op="state")
            raise AssertionError(f"the {who} was not cut at {state}: {held}") from None
        devices.ask(op="disarm")
        cuts += 1
        if who == "host":
            accepted = {t for t, _ in ledger_rows(db, "escrow_accepted")}
            credited = {t for t, _ in ledger_rows(db, "bill_in")}
            assert len(accepted - credited) <= 1  # the escrow is the host's before STACK
            between += len(accepted - credited)  # cut between acceptance and the report
            stn.wait_line(r"validator inhibited", after=seen)  # no host: no new note
            host = Proc("host again", *serve, "--port", port)
            procs.append(host)
            host.wait_line(r"listening on")
        else:
            stn = station()
        notes += 1
        wait_for(lambda n=notes: settled(n), 30, f"note {notes} ended after cutting the {who}")
        end = "box" if len(devices.cashbox()) > boxed else "returned"
        assert end in ENDS[state], f"the note cut at {state} ({who}) ended {end}"
        ends.append(f"{who}@{state}:{end}")
    assert cuts == len(CUTS) and between >= 1

    credited = ledger_rows(db, "bill_in")
    txns = [t for t, _ in credited]
    assert len(txns) == len(set(txns)) == len(devices.cashbox())  # each boxed note once
    lost = sum(devices.cashbox()) - sum(a for _, a in credited)
    assert lost == 0
    print(f"cuts {cuts}, notes credited {len(txns)}, money lost {lost} cents; {ends}")
    stn.p.send_signal(signal.SIGTERM)
    host.p.send_signal(signal.SIGTERM)
    assert stn.p.wait(20) == 0 and host.p.wait(20) == 0
    audit = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "audit", "verify", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
    meters = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "audit", "meters", "--db", str(db), "--station", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert meters.returncode == 0, meters.stdout + meters.stderr
