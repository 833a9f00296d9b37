"""The kiosk on a Raspberry Pi's budget: what its screens cost and how its SAS link
answers in each state.

    sudo .venv/bin/python bench/pi.py [--seconds 20] [--size 1920x1080]
                                      [--states attract,play,tilt,door,handpay,operator,ramclear]
                                      [--no-budget] [--root DIR] [--core 1] [--keep]

Runs the real kiosk (``uth kiosk --headless --window WxH``, the demo's simulated
devices, a fresh ledger, ``sas_port`` on a pseudo-terminal) once per state and measures
it over ``--seconds`` after its warm-up:

* ``attract``: the attract screen, nobody at the cabinet;
* ``play``: the scripted player (``--autoplay``) playing rounds back to back;
* ``tilt``: a device fault (the simulated bill validator reports a failure): the CALL
  ATTENDANT overlay standing;
* ``door``: the main door open (a simulated door, ``sim:`` in the configuration);
* ``handpay``: a cash-out with the ticket printer out of paper: the HAND PAY screen
  waiting for an attendant;
* ``operator``: the operator menu (the key switch, the attendant's PIN);
* ``ramclear``: the RAM clear page (door open, the manager's PIN), its witness keypad up.

The states past ``play`` are reached by a driver inside the kiosk's process
(``--kiosk-driver``: this file run as the kiosk, feeding the screens the same input
events a finger or the demo keys send, once a frame, before the frame is drawn); it
writes down the state it reached, which is printed with the figures.

The casino's system is this process: the project's host (:class:`devices.sas.host.SasHost`)
on the pty's other end polls address 1 every 40 ms, a general poll and every fourth a
meter long poll (1A), each exception acknowledged, from the warm-up on; an answer not
started within 100 ms is unanswered.  Per state it prints the answer start p50/p99/max
and the unanswered polls (the goal: p99 <= 10 ms, max <= 20 ms, none unanswered), the
kiosk's CPU share at full speed (user and system seconds of its process and its
children, the SAS link's process among them, over the wall time: 100% is one core; the
link's part in brackets; a window starts once the power-up's other children, the
paytable's return being proven, have ended), then,
under the budget, the frame p95 (update, draw and show: the main loop's record,
:data:`kiosk.ui.app.FRAME_LOG_ENV`; wall time, and in brackets the drawing thread's CPU
time, which other programs do not inflate), the frames a second and the rounds played.
The budget is a third of one core (a Raspberry Pi 4's worth of this core; ``--share 2``:
a half, about a Pi 5's): a cgroup ``cpu`` quota of 1 ms in every 3 ms (1.5 ms), pinned
by ``cpuset`` to core ``--core``, which needs root and either cgroup v1
(``/sys/fs/cgroup/cpu`` and ``/sys/fs/cgroup/cpuset`` mounted) or v2 (the ``cpu`` and
``cpuset`` controllers in ``/sys/fs/cgroup``); the kiosk's children are born in its
groups, and this process (the poller) is pinned to another core.  Without root, or with
``--no-budget``, the budget runs are left out.

The SAS link runs in a process of its own (:mod:`kiosk.sas.process`); under the budget
it gets a budget of its own, the same share of the other core (``--link own``, the
default): a Raspberry Pi 4 or 5 has four cores and the kiosk's screens draw on one, so
the link's process is scheduled beside them, not inside their share.  ``--link shared``
keeps it in the kiosk's budget (one Pi core for everything: an upper bound that no Pi
gives).  Without root, a developer gets the same budget from
systemd's user manager around the whole bench::

    systemd-run --user --scope -p CPUQuota=33% taskset -c 1 .venv/bin/python bench/pi.py --no-budget

(the poller then shares the kiosk's budget and core: its answer times are an upper bound).

``--root`` runs another checkout's kiosk (its code first on the path), to compare before
and after on the same machine at the same time; a kiosk without the frame record shows
its CPU share only.  The load average is printed with every state's figures: on a shared
machine the CPU shares are only comparable between runs made back to back.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CGROUP_V1 = Path("/sys/fs/cgroup")
#: This bench's own groups (two benches at once never share a budget).
GROUP = f"uth-pi-bench-{os.getpid()}"
PERIOD_US, QUOTA_US = 3000, 1000
WARM_UP = 8.0  # seconds: start-up, the first frames, the table's caches, the state reached
STATES = ("attract", "play", "tilt", "door", "handpay", "operator", "ramclear")
#: The host's poll cycle, seconds, and how long it waits for an answer to start.
POLL_S, ANSWER_TIMEOUT_S = 0.040, 0.100


def cpu_seconds(pid: int, children: bool = False) -> float:
    """User plus system seconds of process ``pid`` (its threads included; ``children``:
    and its children it has waited for)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """The live processes below ``pid``."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parent[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def is_link(pid: int) -> bool:
    """Whether process ``pid`` is a kiosk's SAS link process."""
    try:
        return b"kiosk.sas.remote" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def tree_cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds of ``pid``, its children waited for and its live descendants; and of
    its SAS link's process."""
    total, link = cpu_seconds(pid, children=True), 0.0
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            seconds = cpu_seconds(child, children=True)
            total += seconds
            link += seconds if is_link(child) else 0.0
    return total, link


def settle_children(pid: int, most: float) -> float:
    """Wait (at most ``most`` seconds) until the kiosk ``pid`` runs no child but its SAS
    link (the paytable's return proven at power-up); the seconds waited."""
    start = time.monotonic()
    while time.monotonic() - start < most and any(not is_link(c) for c in descendants(pid)):
        time.sleep(0.5)
    return time.monotonic() - start


def cgroup_version() -> int | None:
    """1 or 2: the cgroup hierarchy whose ``cpu`` and ``cpuset`` controllers this process
    (root) can use; None when it cannot."""
    if os.geteuid() != 0:
        return None
    if (CGROUP_V1 / "cpu").is_dir() and (CGROUP_V1 / "cpuset").is_dir():
        return 1
    controllers = CGROUP_V1 / "cgroup.controllers"
    if controllers.exists() and {"cpu", "cpuset"} <= set(controllers.read_text().split()):
        return 2
    return None


def budget_available() -> bool:
    return cgroup_version() is not None


@contextlib.contextmanager
def budget_group(core: int, quota_us: int = QUOTA_US, name: str = GROUP) -> Iterator[list[Path]]:
    """cgroup groups ``name`` holding a process (and the children it starts) to
    ``quota_us`` in every :data:`PERIOD_US` of core ``core`` (default a third; v1: ``cpu``
    and ``cpuset`` groups; v2: one group with ``cpu.max`` and ``cpuset.cpus``); yields the
    files to write a thread's id to (v1 ``tasks``: that thread only; a process moves
    whole through :func:`move_process`)."""
    if cgroup_version() == 2:
        group = CGROUP_V1 / name
        (CGROUP_V1 / "cgroup.subtree_control").write_text("+cpu +cpuset")
        group.mkdir(exist_ok=True)
        try:
            (group / "cpu.max").write_text(f"{quota_us} {PERIOD_US}")
            (group / "cpuset.cpus").write_text(str(core))
            yield [group / "cgroup.procs"]
        finally:
            with contextlib.suppress(OSError):
                group.rmdir()
        return
    cpu, cpuset = CGROUP_V1 / "cpu" / name, CGROUP_V1 / "cpuset" / name
    cpu.mkdir(exist_ok=True)
    cpuset.mkdir(exist_ok=True)
    try:
        (cpu / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (cpu / "cpu.cfs_quota_us").write_text(str(quota_us))
        (cpuset / "cpuset.cpus").write_text(str(core))
        (cpuset / "cpuset.mems").write_text(
            (CGROUP_V1 / "cpuset" / "cpuset.mems").read_text().strip()
        )
        yield [cpu / "tasks", cpuset / "tasks"]
    finally:
        for group in (cpu, cpuset):
            with contextlib.suppress(OSError):
                group.rmdir()


def move_process(pid: int, tasks: list[Path]) -> None:
    """Every thread of process ``pid`` into the groups whose ``tasks`` (v1) or
    ``cgroup.procs`` (v2) files are ``tasks`` (each group's ``cgroup.procs``)."""
    for t in tasks:
        (t.parent / "cgroup.procs").write_text(str(pid))


class LinkMover:
    """Moves the kiosk's SAS link process, once it is born, into a budget group of its
    own (a second Pi core: a Raspberry Pi 4 has four, the kiosk draws on one); watches
    on a thread until stopped.  ``moved``: the link's pid once moved."""

    def __init__(self, kiosk: int, tasks: list[Path]) -> None:
        self.kiosk, self.tasks, self.moved = kiosk, tasks, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="link-mover", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            for pid in descendants(self.kiosk):
                if is_link(pid) and pid != self.moved:
                    with contextlib.suppress(OSError):
                        move_process(pid, self.tasks)
                        self.moved = pid

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)


# -- the casino's system ---------------------------------------------------------------
class Poller:
    """The host on the pty's master end (``line``), polling address 1 every
    :data:`POLL_S` on a thread: a general poll, every fourth a meter long poll (1A);
    each poll's monotonic time and answer start (None: not within
    :data:`ANSWER_TIMEOUT_S`)."""

    def __init__(self, line: Any) -> None:
        from devices.sas.host import SasHost

        self.host = SasHost(line, answer_timeout=ANSWER_TIMEOUT_S, retries=0)
        #: (sent at, answer start or None, whether it followed an acknowledged exception)
        self.polls: list[tuple[float, float | None, bool]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sas-poller", daemon=True)

    def start(self) -> Poller:
        self._thread.start()
        return self

    def _run(self) -> None:
        h, n, next_at, acked = self.host, 0, time.monotonic(), False
        while not self._stop.is_set():
            at = time.monotonic()
            try:
                if n % 4 == 3:
                    ex = h.long_poll(1, 0x1A)
                else:
                    ex = h.general_poll(1)
                    if ex.code:
                        h.acknowledge()
            except OSError:  # the kiosk is not up yet, or gone
                ex = None
            start = None if ex is None or ex.kind == "none" else ex.start_s
            self.polls.append((at, start, acked))
            acked = ex is not None and bool(ex.code)
            n += 1
            next_at = max(next_at + POLL_S, time.monotonic())  # late: the next now, no burst
            self._stop.wait(max(0.0, next_at - time.monotonic()))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def window(self, w0: float, w1: float) -> dict[str, Any]:
        """The answer starts (seconds) and the unanswered polls sent within [w0, w1]; the
        answers late (over 20 ms or none) and how many of them came right after the host
        acknowledged an exception (the machine writes the acknowledgement to disk first)."""
        inside = [(start, acked) for at, start, acked in self.polls if w0 <= at <= w1]
        starts = [s for s, _ in inside if s is not None]
        late = [acked for s, acked in inside if s is None or s > 0.020]
        return {"polls": len(inside), "starts": starts, "unanswered": len(inside) - len(starts),
                "late": len(late), "late_after_ack": sum(late)}  # fmt: skip


# -- one state ----------------------------------------------------------------------------
def run_state(
    state: str,
    args: argparse.Namespace,
    tasks: list[Path] | None,
    link_tasks: list[Path] | None = None,
) -> dict[str, Any]:
    """One kiosk in ``state``, polled; its CPU share, frames, rounds and SAS answers over
    the window.  ``tasks``: the kiosk's budget groups (None: full speed); ``link_tasks``:
    its SAS link process's own (None: the link stays in the kiosk's)."""
    from devices.sas.line import PtyPair

    work = Path(tempfile.mkdtemp(prefix=f"uth-pi-{state}-"))
    door = work / "door"
    pair = PtyPair()
    (work / "uth.toml").write_text(
        f'demo = true\ndb_path = "{work / "uth.db"}"\ndoor = "sim:{door}"\nsas_port = "{pair.port}"\n'
    )
    log = work / "frames.json"
    reached = work / "reached.json"
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
    kiosk = ["kiosk", "--headless", "--window", args.size, "--config", str(work / "uth.toml"),
             "--no-sound", "--seed", "7"]  # fmt: skip
    if state == "play":
        cmd = [sys.executable, "-c", "from kiosk.cli import main; raise SystemExit(main())", *kiosk,
               "--autoplay", "random", "--rounds", "100000"]  # fmt: skip
    else:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--kiosk-driver", state,
               "--reached", str(reached), "--", *kiosk]  # fmt: skip

    def enter_budget() -> None:
        for t in tasks or []:
            t.write_text(str(os.getpid()))
        os.sched_setaffinity(0, {args.core} if tasks else range(os.cpu_count() or 1))

    poller = Poller(pair.line)
    child = subprocess.Popen(
        cmd,
        cwd=work,
        env=env,
        preexec_fn=enter_budget,
        stdout=subprocess.DEVNULL,
        stderr=open(work / "stderr.txt", "w"),
    )
    mover = LinkMover(child.pid, link_tasks) if link_tasks else None
    try:
        poller.start()
        time.sleep(WARM_UP / 2)
        if state == "door":
            door.write_text("open\n")
        time.sleep(WARM_UP / 2)
        if child.poll() is not None:
            raise SystemExit(
                f"the kiosk ended early ({state}): {(work / 'stderr.txt').read_text()[-2000:]}"
            )
        settled = settle_children(child.pid, 120.0)
        c0, w0 = tree_cpu_seconds(child.pid), time.monotonic()
        time.sleep(args.seconds)
        c1, w1 = tree_cpu_seconds(child.pid), time.monotonic()
    finally:
        if mover:
            mover.stop()
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        poller.stop()
        pair.close()
    out: dict[str, Any] = {
        "cpu": (c1[0] - c0[0]) / (w1 - w0),
        "link_cpu": (c1[1] - c0[1]) / (w1 - w0),
        "settled": settled,
        "sas": poller.window(w0, w1),
    }
    if mover:
        out["link_moved"] = bool(mover.moved)
    if reached.exists():
        out["reached"] = json.loads(reached.read_text()).get("what", "")
    if log.exists():
        data = json.loads(log.read_text())
        inside = [f for f in data["frames"] if w0 <= f[0] <= w1]
        out["frames"] = len(inside)
        out["fps"] = len(inside) / (w1 - w0)
        out["p95_ms"] = p95([f[1] for f in inside])
        out["p95_cpu_ms"] = p95([f[2] for f in inside])
        out["rounds"] = data["rounds"]
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return out


def p95(seconds: list[float]) -> float:
    """The 95th percentile in milliseconds (nan with fewer than 20 frames)."""
    return 1000 * statistics.quantiles(seconds, n=20)[-1] if len(seconds) >= 20 else float("nan")


def pct_ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def describe(r: dict[str, Any]) -> str:
    s = f"CPU {100 * r['cpu']:5.1f}% of a core (its SAS link {100 * r['link_cpu']:3.1f}%)"
    if r["settled"] >= 1:
        s += f" [after {r['settled']:.0f} s more for its power-up children]"
    if "fps" in r:
        s += f", {r['fps']:5.1f} frames/s, frame p95 {r['p95_ms']:5.1f} ms (CPU {r['p95_cpu_ms']:4.1f} ms)"
        if r.get("rounds"):
            s += f", {r['rounds']} rounds"
    sas = r["sas"]
    starts = sas["starts"]
    s += (
        f"; SAS answer start p50 {pct_ms(starts, 0.5):4.1f} p99 {pct_ms(starts, 0.99):5.1f}"
        f" max {1000 * max(starts, default=float('nan')):5.1f} ms,"
        f" {sas['unanswered']} of {sas['polls']} unanswered"
    )
    if sas["late"]:
        s += f" ({sas['late']} over 20 ms, {sas['late_after_ack']} of them after an ACK)"
    return s


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


# -- the driver inside the kiosk's process --------------------------------------------------
def drive_kiosk(state: str, reached: Path, kiosk_argv: list[str]) -> int:
    """Run the kiosk (``kiosk_argv``: ``uth``'s arguments) and lead its screens to
    ``state`` with the input events a finger or the demo keys send, one step a frame
    before the frame is drawn; write what was reached to ``reached``."""
    from kiosk.cli import main
    from kiosk.game.commands import CashOut, SetDoor
    from kiosk.ui.app import App
    from kiosk.ui.events import Command, Key, Touch

    def touch(app: Any, bid: str) -> bool:
        found = {b.id: b for b in app.scene.buttons()}
        if bid not in found or not found[bid].enabled:
            return False
        app.feed(Touch(app.layout.rect(*found[bid].rect).center))
        return True

    def pin(app: Any, digits: str) -> None:
        for d in digits:
            app.feed(Key(d, d))
        app.feed(Key("return"))

    def wait(seconds: float) -> Iterator[None]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            yield

    def script(app: Any) -> Iterator[None]:
        """The steps to ``state``; each ``yield`` waits a frame."""
        yield from wait(1.0)  # the first frames
        devices = app.demo.sims.devices if app.demo is not None and app.demo.sims else None
        if state == "tilt":
            devices.validator.sim.set_fault("failure")
        elif state == "handpay":
            # a cash-out with no ready printer is a handpay: the printer out of paper
            # when the player cashes out, refilled once the handpay stands
            app.feed(Command("bill", 2000))
            end = time.monotonic() + 10
            while app.model.snap.credits <= 0 and time.monotonic() < end:
                yield  # through the validator's handshake
            devices.printer.sim.set_fault("paper_out")
            yield from wait(0.5)
            app.model.send(CashOut())
            yield from wait(0.5)
            devices.printer.sim.set_fault("paper_out", active=False)
        elif state == "operator":
            app.feed(Command("operator_key"))
            yield
            pin(app, "2222")
        elif state == "ramclear":
            app.model.send(SetDoor(True))
            yield from wait(0.3)
            app.feed(Command("operator_key"))
            yield
            pin(app, "3333")
            yield from wait(0.3)
            touch(app, "page_ramclear")
        yield from wait(1.0)
        snap = app.model.snap
        scene = app.scene
        what = f"scene {scene.name}"
        if getattr(scene, "state", None):
            what += f" ({scene.state}, page {getattr(getattr(scene, 'current', None), 'id', '-')})"
        if snap.tilts:
            what += f", tilts {', '.join(str(t) for t in snap.tilts)}"
        if snap.cashout is not None:
            what += f", cash-out by {snap.cashout.method}"
        if snap.door_open:
            what += ", door open"
        reached.write_text(json.dumps({"what": what}))
        while True:
            yield

    steps: dict[int, Iterator[None]] = {}
    step = App.step

    def driven_step(self: Any, dt: float, draw: bool = True) -> None:
        it = steps.setdefault(id(self), script(self))
        next(it)
        step(self, dt, draw)

    App.step = driven_step  # type: ignore[method-assign]
    return main(kiosk_argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--kiosk-driver"]:
        split = argv.index("--")
        return drive_kiosk(argv[1], Path(argv[3]), argv[split + 1 :])
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
    p.add_argument(
        "--keep", action="store_true", help="keep each run's folder (ledger, logs) in /tmp"
    )
    p.add_argument(
        "--share",
        type=int,
        default=PERIOD_US // QUOTA_US,
        choices=(2, 3),
        help="the budget: a third of the core (3, a Pi 4's worth) or a half (2, about a Pi 5's)",
    )
    p.add_argument(
        "--link",
        choices=("own", "shared"),
        default="own",
        help="under the budget, the SAS link's process on a budget of its own on another core"
        " (own, the default: a second Pi core) or in the kiosk's (shared)",
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
    print(f"load average at start: {load()}")
    if budget:
        where = (
            f"its own budget on core {(sorted(set(range(os.cpu_count() or 1)) - {args.core}) or [args.core])[0]}"
            if args.link == "own"
            else "the kiosk's budget"
        )
        print(f"budget: the kiosk on core {args.core}; its SAS link process in {where}")
    if not budget:
        print(
            "budget runs left out: "
            + ("--no-budget" if args.no_budget else "they need root and cgroup v1 or v2")
        )
    others = sorted(set(range(os.cpu_count() or 1)) - {args.core}) or [args.core]
    everywhere = os.sched_getaffinity(0)
    for state in states:
        full = run_state(state, args, None)
        seen = f" [{full['reached']}]" if full.get("reached") else ""
        print(f"{state:8s} full speed:      {describe(full)}; load {load()}{seen}", flush=True)
        if budget:
            os.sched_setaffinity(0, others)  # the poller on another core than the kiosk
            try:
                quota = PERIOD_US // args.share
                with contextlib.ExitStack() as stack:
                    tasks = stack.enter_context(budget_group(args.core, quota))
                    link_tasks = None
                    if args.link == "own":
                        link_tasks = stack.enter_context(
                            budget_group(others[0], quota, name=f"{GROUP}-link")
                        )
                    held = run_state(state, args, tasks, link_tasks)
            finally:
                os.sched_setaffinity(0, everywhere)
            seen = f" [{held['reached']}]" if held.get("reached") else ""
            if held.get("link_moved") is False:
                seen += " [the link process was never found: it stayed in the kiosk's budget]"
            part = "a third" if args.share == 3 else "a half"
            print(f"{state:8s} {part} of core: {describe(held)}; load {load()}{seen}", flush=True)
    print(f"load average at the end: {load()}")
    return 0


if __name__ == "__main__":
    if __package__ in (None, ""):  # run as a file: the project's packages, not bench/'s files
        if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
            sys.path.pop(0)
        sys.path.append(str(ROOT))
    raise SystemExit(main())
