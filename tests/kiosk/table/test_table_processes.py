"""The shared table as separate processes on loopback: a host (``uth table serve``) and
three headless stations (``uth table station --autoplay random``), paired through the
real pairing code path, real TLS sockets and a real SQLite ledger; a station and then
the host are killed with SIGKILL mid-round and restarted."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TIMERS = ["--betting-seconds", "1.5", "--decision-seconds", "1.5"]


class Proc:
    """A ``python -m kiosk.cli`` process whose output lines are collected."""

    def __init__(self, name: str, *args: str) -> None:
        self.name = name
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        self.p = subprocess.Popen(
            [sys.executable, "-m", "kiosk.cli", *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def wait_line(self, pattern: str, timeout: float = 30.0, after: int = 0) -> re.Match[str]:
        """The first line from index ``after`` on matching ``pattern``."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines[after:]:
                    if m := rx.search(line):
                        return m
                left = deadline - time.monotonic()
                if left <= 0 or (self.p.poll() is not None and not self._more()):
                    tail = "\n".join(self.lines[-30:])
                    raise AssertionError(f"{self.name}: no line /{pattern}/\n{tail}")
                self._cond.wait(min(left, 0.2))

    def _more(self) -> bool:
        return self.p.stdout is not None and not self.p.stdout.closed

    def mark(self) -> int:
        with self._cond:
            return len(self.lines)

    def kill(self) -> None:
        self.p.send_signal(signal.SIGKILL)
        self.p.wait(10)

    def finish(self, timeout: float) -> int:
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            tail = "\n".join(self.lines[-30:])
            raise AssertionError(f"{self.name} did not finish:\n{tail}") from None


def uth(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk.cli", *args],
        cwd=ROOT,
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
