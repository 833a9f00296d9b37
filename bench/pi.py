"""The kiosk on a Raspberry Pi's budget: what its screens cost in each state.

    sudo .venv/bin/python bench/pi.py [--seconds 20] [--size 1920x1080] [--states attract,play,tilt]
                                      [--no-budget] [--root DIR]

Runs the real kiosk (``uth kiosk --headless --window WxH``, the demo's simulated
devices, a fresh ledger) once per state and measures it over ``--seconds`` after its
warm-up:

* ``attract``: the attract screen, nobody at the cabinet;
* ``play``: the scripted player (``--autoplay``) playing rounds back to back;
* ``tilt``: the table with the main door open (a simulated door, ``sim:`` in the
  configuration), the CALL ATTENDANT overlay standing.

For each it prints the kiosk's CPU share at full speed (its process's user and system
seconds over the wall time: 100% is one core), then, under the budget, the frame p95
(update, draw and show: the main loop's record, :data:`kiosk.ui.app.FRAME_LOG_ENV`; wall
time, and in brackets the drawing thread's CPU time, which other programs do not inflate), the
frames a second and the rounds played.  The budget is a third of one core: a cgroup v1
``cpu`` quota of 1 ms in every 3 ms, pinned by ``cpuset`` to one core, which needs root
(``/sys/fs/cgroup/cpu`` and ``/sys/fs/cgroup/cpuset`` mounted).  Without root, or with
``--no-budget``, the budget runs are left out; a developer without root gets the same
budget from systemd's user manager around the whole bench::

    systemd-run --user --scope -p CPUQuota=33% taskset -c 1 .venv/bin/python bench/pi.py --no-budget

``--root`` runs another checkout's kiosk (its code first on the path), to compare before
and after on the same machine at the same time; a kiosk without the frame record shows
its CPU share only.  The load average at the start and the end is printed: on a shared
machine the CPU shares are only comparable between runs made back to back.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CGROUP_V1 = Path("/sys/fs/cgroup")
GROUP = "uth-pi-bench"
PERIOD_US, QUOTA_US = 3000, 1000
WARM_UP = 8.0  # seconds: start-up, the first frames, the table's caches
STATES = ("attract", "play", "tilt")


def cpu_seconds(pid: int) -> float:
    """User plus system seconds of process ``pid`` (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def budget_available() -> bool:
    return os.geteuid() == 0 and (CGROUP_V1 / "cpu").is_dir() and (CGROUP_V1 / "cpuset").is_dir()


@contextlib.contextmanager
def budget_group(core: int) -> Iterator[list[Path]]:
    """cgroup v1 groups holding a process to a third of core ``core``; yields the
    ``tasks`` files to write its pid to."""
    cpu, cpuset = CGROUP_V1 / "cpu" / GROUP, CGROUP_V1 / "cpuset" / GROUP
    cpu.mkdir(exist_ok=True)
    cpuset.mkdir(exist_ok=True)
    try:
        (cpu / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (cpu / "cpu.cfs_quota_us").write_text(str(QUOTA_US))
        (cpuset / "cpuset.cpus").write_text(str(core))
        (cpuset / "cpuset.mems").write_text(
            (CGROUP_V1 / "cpuset" / "cpuset.mems").read_text().strip()
        )
        yield [cpu / "tasks", cpuset / "tasks"]
    finally:
        for group in (cpu, cpuset):
            with contextlib.suppress(OSError):
                group.rmdir()


def run_state(state: str, args: argparse.Namespace, tasks: list[Path] | None) -> dict:
    """One kiosk in ``state``; its CPU share, frames and rounds over the window."""
    work = Path(tempfile.mkdtemp(prefix=f"uth-pi-{state}-"))
    door = work / "door"
    (work / "uth.toml").write_text(
        f'demo = true\ndb_path = "{work / "uth.db"}"\ndoor = "sim:{door}"\n'
    )
    log = work / "frames.json"
    env = dict(
        os.environ,
        SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "dummy"),
        SDL_AUDIODRIVER="dummy",
        UTH_HEADLESS="1",
        HOME=str(work),
        XDG_CACHE_HOME=str(work / "cache"),
        UTH_FRAME_LOG=str(log),
        PYTHONPATH=str(args.root),
    )
    cmd = [
        sys.executable,
        "-c",
        "from kiosk.cli import main; raise SystemExit(main())",
        "kiosk",
        "--headless",
        "--window",
        args.size,
        "--config",
        str(work / "uth.toml"),
        "--no-sound",
        "--seed",
        "7",
    ]
    if state == "play":
        cmd += ["--autoplay", "random", "--rounds", "100000"]

    def enter_budget() -> None:
        for t in tasks or []:
            t.write_text(str(os.getpid()))

    child = subprocess.Popen(
        cmd,
        cwd=work,
        env=env,
        preexec_fn=enter_budget if tasks else None,
        stdout=subprocess.DEVNULL,
        stderr=open(work / "stderr.txt", "w"),
    )
    try:
        time.sleep(WARM_UP / 2)
        if state == "tilt":
            door.write_text("open\n")
        time.sleep(WARM_UP / 2)
        if child.poll() is not None:
            raise SystemExit(
                f"the kiosk ended early ({state}): {(work / 'stderr.txt').read_text()[-2000:]}"
            )
        c0, w0 = cpu_seconds(child.pid), time.monotonic()
        time.sleep(args.seconds)
        c1, w1 = cpu_seconds(child.pid), time.monotonic()
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    out = {"cpu": (c1 - c0) / (w1 - w0)}
    if log.exists():
        data = json.loads(log.read_text())
        inside = [f for f in data["frames"] if w0 <= f[0] <= w1]
        out["frames"] = len(inside)
        out["fps"] = len(inside) / (w1 - w0)
        out["p95_ms"] = p95([f[1] for f in inside])
        out["p95_cpu_ms"] = p95([f[2] for f in inside])
        out["rounds"] = data["rounds"]
    return out


def p95(seconds: list[float]) -> float:
    """The 95th percentile in milliseconds (nan with fewer than 20 frames)."""
    return 1000 * statistics.quantiles(seconds, n=20)[-1] if len(seconds) >= 20 else float("nan")


def describe(r: dict) -> str:
    s = f"CPU {100 * r['cpu']:5.1f}% of a core"
    if "fps" in r:
        s += f", {r['fps']:5.1f} frames/s, frame p95 {r['p95_ms']:5.1f} ms (CPU {r['p95_cpu_ms']:4.1f} ms)"
        if r.get("rounds"):
            s += f", {r['rounds']} rounds"
    return s


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--states", default=",".join(STATES))
    p.add_argument("--no-budget", action="store_true", help="full speed only (no root needed)")
    p.add_argument(
        "--root", type=Path, default=ROOT, help="the checkout whose kiosk runs (default: this one)"
    )
    p.add_argument(
        "--core", type=int, default=1, help="the core the budget pins the kiosk to (default 1)"
    )
    args = p.parse_args(argv)
    states = [s for s in args.states.split(",") if s]
    bad = [s for s in states if s not in STATES]
    if bad:
        p.error(f"unknown state(s) {','.join(bad)}; the states are {','.join(STATES)}")
    budget = not args.no_budget and budget_available()
    print(
        f"{platform.node()} {platform.machine()} {os.cpu_count()} cores, {platform.processor() or ''}"
        f" Python {platform.python_version()}; kiosk {args.root}; {args.size}, {args.seconds:g} s a state"
    )
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    if not budget:
        print(
            "budget runs left out: "
            + ("--no-budget" if args.no_budget else "they need root and cgroup v1")
        )
    for state in states:
        full = run_state(state, args, None)
        print(f"{state:8s} full speed:      {describe(full)}", flush=True)
        if budget:
            with budget_group(args.core) as tasks:
                held = run_state(state, args, tasks)
            print(f"{state:8s} a third of core: {describe(held)}", flush=True)
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
