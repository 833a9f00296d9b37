"""The shared table as separate processes on loopback: a host (``uth table serve``) and
three headless stations (``uth table station --autoplay random``), paired through the
real pairing code path, real TLS sockets and a real SQLite ledger; a station and then
the host are killed with SIGKILL mid-round and restarted."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_process import Proc

ROOT = Path(__file__).resolve().parents[3]
TIMERS = ["--betting-seconds", "1.5", "--decision-seconds", "1.5"]


def uth(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def procs():
    started: list[Proc] = []
    yield started
    for proc in started:
        print(f"--- {proc.name}\n" + "\n".join(proc.lines[-40:]))
        if proc.p.poll() is None:
            proc.p.kill()
            proc.p.wait(10)


@pytest.mark.heavy
def test_three_station_processes_survive_a_station_cut_and_a_host_cut(tmp_path, procs):
    db = tmp_path / "host" / "uth.db"
    serve = ["table", "serve", "--db", str(db), "--stations", "1-3", *TIMERS]
    host = Proc("host", *serve, "--port", "0", "--pair-code")
    procs.append(host)
    port = host.wait_line(r"listening on 127\.0\.0\.1:(\d+)").group(1)

    # pairing through the real code path: one code per station, shown by the host
    folders = {n: tmp_path / f"station-{n}" for n in (1, 2, 3)}
    seen = 0
    for n in (1, 2, 3):
        code = host.wait_line(r"pairing code (\d{4}-\d{4})", after=seen)
        seen = host.mark()
        done = uth(
            "table",
            "pair",
            "--host",
            "127.0.0.1",
            "--port",
            port,
            "--code",
            code.group(1),
            "--station",
            str(n),
            "--folder",
            str(folders[n]),
        )
        assert done.returncode == 0, done.stderr
        assert (folders[n] / "station.json").exists()
    host.wait_line("every station is paired")

    def station(n: int, rounds: int, seed: int, think: str = "0.25") -> Proc:
        proc = Proc(
            f"station {n}",
            "table",
            "station",
            "--host",
            "127.0.0.1",
            "--port",
            port,
            "--station",
            str(n),
            "--folder",
            str(folders[n]),
            "--autoplay",
            "random",
            "--rounds",
            str(rounds),
            "--seed",
            str(seed),
            "--think",
            think,
            "--timeout",
            "60",
        )
        procs.append(proc)
        return proc

    stations = {n: station(n, 10, n) for n in (1, 3)}
    two = station(2, 20, 2, think="1.2")  # slow enough to be cut before it decides
    two.wait_line(r"settled round=")

    # station 2 is cut mid-round: its seat times out, the round settles
    at = host.mark()
    cut_round = int(host.wait_line(r"round (\d+) dealt seats [\d,]*2", after=at).group(1))
    two.kill()
    host.wait_line(rf"round {cut_round} settled", after=at, timeout=20)
    two = station(2, 4, 22)
    shown = int(two.wait_line(r"resynced credits=(\d+)").group(1))

    # the host is cut mid-round: the round resumes, the stations reconnect
    at = host.mark()
    host_round = int(host.wait_line(r"round (\d+) dealt", after=at, timeout=30).group(1))
    host.kill()
    host = Proc("host again", *serve, "--port", port)
    procs.append(host)
    host.wait_line(rf"round {host_round} settled", timeout=30)

    for proc in (*stations.values(), two):
        assert proc.finish(60) == 0, "\n".join(proc.lines[-20:])
        report = json.loads(proc.wait_line(r"^done (.*)$").group(1))
        assert report["rounds"] >= 4
    host.p.send_signal(signal.SIGTERM)
    assert host.finish(20) == 0

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute("SELECT id, seat, state, commitment, credits_after FROM rounds").fetchall()
    assert rows and all(state == "settled" for _, _, state, _, _ in rows)
    seats = [(commitment, seat) for _, seat, _, commitment, _ in rows]
    assert len(seats) == len(set(seats))  # every seat of every round settled once
    by_id = {rid: (seat, commitment, after) for rid, seat, _, commitment, after in rows}
    cut = by_id[cut_round][1]
    two_row = next(after for seat, c, after in by_id.values() if c == cut and seat == 2)
    assert shown == two_row  # the restarted station showed its credits exactly
    kinds = conn.execute("SELECT kind, station FROM events").fetchall()
    assert ("decision_timed_out", 2) in kinds
    assert any(kind == "round_resumed" for kind, _ in kinds)
    conn.close()

    for n in (1, 2, 3):
        meters = uth("audit", "meters", "--db", str(db), "--station", str(n), "--json")
        assert meters.returncode == 0, meters.stderr
        bal = json.loads(meters.stdout)["balance"]
        assert bal["balanced"] and bal["credits"] == 0 and bal["credits_in"] > 0
    verify = uth("audit", "verify", "--replay", "--db", str(db))
    assert verify.returncode == 0, verify.stdout + verify.stderr
