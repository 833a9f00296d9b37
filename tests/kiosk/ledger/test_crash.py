"""Power-failure recovery: hundreds of SIGKILLs at random moments, then the books balance.

Each cycle starts a scripted session in a child process (open the cabinet, resume any
unfinished round, insert bills, play rounds with random decisions, cash out by handpay
every few rounds), kills it with SIGKILL after a random delay, and starts the next one
on the same database.  Most cycles fork from a harness process (this file run as a
script) that has already imported the engine, so a cycle costs tens of milliseconds
rather than the interpreter's start-up second; a few cycles run the real
``uth autoplay`` command line in a fresh interpreter.  At the end: ``uth audit verify --replay`` passes, credits in = credits out +
credits on the meter + house net win, every round is settled exactly once (resumed
rounds included), and nothing is left pending.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

import pytest

from engine.rng import SeededRandomSource
from kiosk.cli import main as uth
from kiosk.commands.autoplay import Session, random_policy
from kiosk.config import load_config
from kiosk.game.vocabulary import LEDGER_TILT
from kiosk.ledger.ledger import Ledger, balance
from kiosk.wiring.lone_cabinet import LoneCabinet

FORK_KILLS = 220
CLI_KILLS = 4
ROOT = Path(__file__).resolve().parents[3]


def session(config, seed: int, rounds: int, on_open=lambda: None) -> int:
    """One scripted session (the child's whole life unless it is killed)."""
    machine = LoneCabinet.open(config, rng=SeededRandomSource(seed))
    if any(t.code == LEDGER_TILT for t in machine.station.snapshot().tilts):
        return 3
    on_open()
    rng = random.Random(seed)
    s = Session(
        machine,
        random_policy(seed),
        ante=rng.choice((500, 1000)),
        trips=rng.choice((0, 100, 500)),
        bill=rng.choice((2000, 5000, 10000)),
        pin="1111",
    )
    s.run(rounds, cashout_every=rng.choice((2, 3, 5)))
    machine.close()
    return 0


def forked_cycle(config, seed: int, delay: float, after_open: bool) -> int | None:
    """Run :func:`session` in a forked child and SIGKILL it ``delay`` seconds after the
    fork, or after the cabinet is open (power up recorded) when ``after_open``.

    Returns the exit status if the child finished first, else None (killed)."""
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        code = 1
        try:
            os.close(ready_r)
            code = session(config, seed, rounds=10_000, on_open=lambda: os.write(ready_w, b"r"))
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(ready_w)
    try:
        if after_open:
            os.read(ready_r, 1)  # empty read (EOF) if the child exited without opening
        deadline = time.monotonic() + delay
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.002)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(ready_r)
    assert os.WIFSIGNALED(status) or os.waitstatus_to_exitcode(status) == 0
    return None


def fork_loop(db: Path, cycles: int, seed: int = 2024) -> dict[str, int]:
    """``cycles`` forked sessions on ``db``, each killed at a random moment."""
    config = load_config(db_path=db)
    LoneCabinet.open(
        config
    ).close()  # first run: create the ledger (no connection kept across forks)
    rng = random.Random(seed)
    kills = finished = kills_after_open = 0
    for cycle in range(cycles):
        # a quarter of the kills anywhere from the start (opening, verifying the ledger,
        # recording power up), the rest within 100 ms of the cabinet being open (resuming
        # the round, bills, bets, deals, decisions, settlements, cash-outs, handpays)
        after_open = rng.random() < 0.75
        delay = rng.uniform(0.0, 0.1 if after_open else 0.08)
        result = forked_cycle(config, seed=cycle, delay=delay, after_open=after_open)
        if result is None:
            kills += 1
            kills_after_open += after_open
        elif result == 0:
            finished += 1
        else:
            raise SystemExit(f"cycle {cycle}: the session failed with exit code {result}")
    return {"kills": kills, "after_open": kills_after_open, "finished": finished}


@pytest.mark.heavy
@pytest.mark.slow
def test_sigkill_at_random_moments_never_unbalances_the_books(tmp_path):
    config = load_config(db_path=tmp_path / "uth.db")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # the fork loop runs in a fresh single-threaded interpreter: forking pytest itself
    # could copy locks held by other tests' threads
    proc = subprocess.run(
        [sys.executable, __file__, str(config.db_path), str(FORK_KILLS)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    kills, kills_after_open = summary["kills"], summary["after_open"]

    for cycle in range(CLI_KILLS):  # the real command line, in a fresh interpreter each time
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk.commands.autoplay",
                "--db",
                str(config.db_path),
                "--rounds",
                "10000",
                "--seed",
                str(1000 + cycle),
                "--strategy",
                "random",
                "--cashout-every",
                "3",
                "--quiet",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        time.sleep(random.Random(cycle).uniform(1.2, 2.5))
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate()
        assert proc.returncode == -signal.SIGKILL, err.decode()
        kills += 1

    # the last session is left to finish: it resumes what the last kill interrupted
    assert session(config, seed=99_999, rounds=3) == 0
    assert kills >= 200, f"only {kills} kills landed: {summary}"

    assert uth(["audit", "verify", "--db", str(config.db_path), "--replay"]) == 0
    ledger = Ledger.open(config.db_path, readonly=True)
    report = ledger.verify(replay=True)
    assert report.ok, report.problem
    bal = balance(report.meters)
    assert bal["balanced"], bal
    assert bal["credits_in"] == bal["credits_out"] + bal["credits"] + bal["house_net_win"]
    assert bal["credits"] == 0 and bal["payout_pending"] == 0 and bal["ram_cleared"] == 0
    rounds = ledger.recall(report.rounds)
    assert len(rounds) == report.rounds == ledger.meters["games_played"] >= 50
    assert all(r.state == "settled" and r.commitment_ok() for r in rounds)
    assert len({r.id for r in rounds}) == len(rounds)
    resumed = ledger.events(("round_resumed",))
    settled_ids = {r.id for r in rounds}
    assert {e.round_id for e in resumed} <= settled_ids
    assert len({e.round_id for e in resumed}) >= 10, "too few kills landed inside a round"
    power_ups = ledger.events(("power_up",))
    assert sum(not e.detail["clean_shutdown"] for e in power_ups) >= kills_after_open
    # a bill is credited once per insertion: the count matches the meter and the rows
    assert ledger.meters["bills_in_count"] == len(ledger.events(("bill_in",)))
    ledger_meters = dict(ledger.meters)
    ledger.close()
    summary |= {
        "kills": kills,
        "rounds": report.rounds,
        "rounds_resumed": len({e.round_id for e in resumed}),
        "resumptions": len(resumed),
        "cashouts": ledger_meters["handpay_count"],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    print(json.dumps(fork_loop(Path(sys.argv[1]), int(sys.argv[2]))))
