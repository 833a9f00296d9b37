"""Kiosk benchmark: frame time of a round with dealing animations, cold start, memory,
on SDL's headless driver and on a real X display (Xvfb).

    .venv/bin/python bench/kiosk.py [--frames 1000] [--size 1920x1080] [--driver both|dummy|x11]

Plays rounds back to back through the real controller (a temporary ledger) and the real
screens, drawing every frame at the given size, and prints for each video driver the
median, 95th percentile and worst frame (update + draw + flip; wall time, and the CPU
time of the drawing thread, which other programs on a shared machine do not inflate),
how many frames were repainted in full and the share of the screen a frame shows on
average (dirty rectangles), the cold start to the first attract frame (a fresh
interpreter), the resident memory after the first frame, after the warm-up and at the
end, the peak, and the machine it ran on.

``x11`` draws into a real X window: on ``DISPLAY`` if one is set, else on an Xvfb server
this script starts at the given size (``apt-get install xvfb``).  Each driver runs in
its own interpreter, so one's libraries and surfaces do not count against the other.
Targets: p95 < 4 ms/frame at 1920x1080, cold start < 2 s, peak RSS < 200 MB on both.

The cabinet's memory over a session (``--memory``), each case in a fresh interpreter on
the chosen driver with decision values on, a PAR cache of its own and the peak resident
memory of the kiosk's process (the maths a child process runs is not the kiosk's):

* ``warm``: the standard table's exact analysis already in the PAR cache; five minutes
  of cabinet time (``--seconds``): rounds of Ultimate Texas Hold'em with every decision's
  value, the operator's hold page, then a No-limit Hold'em tournament to its end or the
  time's end, then rounds again;
* ``fresh``: an empty PAR cache, as on a new machine: the first deal (its decision
  values need the table's analysis), then the operator's paytable editor computing a
  copy's exact RTP (COMPUTE RTP) to the end.

    .venv/bin/python bench/kiosk.py --memory warm,fresh --driver x11 --size 1920x1080
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kiosk_session import child_env, interactive_session, load, ready_figures  # noqa: E402

#: Timed runs to READY (after one that compiles the bytecode).
READY_RUNS = 5


def rss_mb() -> float:
    """Resident memory now, MB (from /proc; the peak from getrusage where /proc is missing)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def machine_info() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware")):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.system()} {platform.machine()}, {cpu}, {os.cpu_count()} cpu, Python {platform.python_version()}"


def frames(n: int, size: tuple[int, int], tmp: Path) -> dict[str, object]:
    """Play rounds for ``n`` frames in this interpreter; the figures as a dict."""
    from kiosk.ui.sdl_hints import prefer_native_framebuffer

    prefer_native_framebuffer()
    import pygame

    from engine.rng import SeededRandomSource
    from kiosk.config import load_config
    from kiosk.game.snapshot import MachinePhase
    from kiosk.station.paperless import PaperlessDevices
    from kiosk.ui.demo import DemoTicketPayout
    from kiosk.ui.events import Command
    from kiosk.wiring.cabinet import cabinet_app
    from kiosk.wiring.lone_cabinet import LoneCabinet

    cabinet = LoneCabinet.open(
        load_config(None, db_path=str(tmp / "bench.db")), rng=SeededRandomSource(7)
    )
    payout = DemoTicketPayout(PaperlessDevices().attach(cabinet.link))
    app = cabinet_app(cabinet, size, payout=payout)
    app.step(0)
    app.present()
    rss_start = rss_mb()
    t0 = time.perf_counter()
    app.warm_up()  # what App.run does right after READY=1, while the attract screen shows
    warm_ms = (time.perf_counter() - t0) * 1000
    rss_warm = rss_mb()
    app.go("table")
    full = 0
    dt = 1 / 60
    times: list[float] = []
    cpu: list[float] = []
    shown = 0.0
    table = app.scenes["table"]
    for _i in range(n):
        snap = app.model.snap
        phase = snap.phase
        if (
            phase in (MachinePhase.IDLE, MachinePhase.BETTING, MachinePhase.RESULT)
            and not table.busy
        ):
            if snap.credits < 20000:
                app.feed(Command("bill", 10000))
            elif snap.bet_ante == 0:
                app.feed(Command("chip", "ante"))
            else:
                app.feed(Command("deal"))
        elif phase is MachinePhase.IN_ROUND and not table.busy and snap.legal:
            # check twice then play: the most cards to animate
            legal = snap.legal
            action = "check" if any(a.value == "check" for a in legal) else "play_max"
            app.feed(Command(action))
        t0, c0 = time.perf_counter(), time.thread_time()
        app.step(dt)
        app.present()
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        full += app.dirty is None
        screen = size[0] * size[1]
        shown += (
            1.0 if app.dirty is None else min(screen, sum(r.w * r.h for r in app.dirty)) / screen
        )
    ledger = cabinet.table.ledger
    rounds = ledger.counts()[0] if ledger is not None else 0
    caches = {
        c.name: c.stats()
        for c in (app.text.surfaces, app.painter.surfaces, app.cards.faces, app.cards.flips)
    }
    cabinet.close()
    return {
        "driver": pygame.display.get_driver(),
        "times": times,
        "cpu": cpu,
        "shown": shown / n,
        "rounds": rounds,
        "renders": app.text.renders,
        "full": full,
        "warm_ms": warm_ms,
        "rss_start": rss_start,
        "rss_warm": rss_warm,
        "rss_end": rss_mb(),
        "rss_peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "caches": caches,
        "sdl": ".".join(map(str, pygame.get_sdl_version())),
        "pygame": pygame.version.ver,
    }


def session_memory(
    case: str, seconds: float, size: tuple[int, int], tmp: Path
) -> dict[str, object]:
    """Play the ``case`` session (``warm`` or ``fresh``, see the module's help) in this
    interpreter; the resident memory after each part and the peak, MB."""
    from kiosk.ui.sdl_hints import prefer_native_framebuffer

    prefer_native_framebuffer()
    import pygame

    from engine.rng import SeededRandomSource
    from kiosk.config import load_config
    from kiosk.friends.context import TournamentContext
    from kiosk.game.commands import SetDoor
    from kiosk.game.snapshot import MachinePhase
    from kiosk.station.paperless import PaperlessDevices
    from kiosk.ui.demo import DemoTicketPayout
    from kiosk.ui.events import Command, Key, Touch
    from kiosk.wiring.cabinet import cabinet_app
    from kiosk.wiring.lone_cabinet import LoneCabinet

    def peak() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    config = load_config(None, db_path=str(tmp / "session.db"))
    cabinet = LoneCabinet.open(config, rng=SeededRandomSource(7))
    payout = DemoTicketPayout(PaperlessDevices().attach(cabinet.link))
    app = cabinet_app(cabinet, size, payout=payout, tournament=TournamentContext(None))
    app.tournament.bot_samples = 0
    parts: dict[str, float] = {}
    dt = 1 / 60
    clock = [0.0]

    def frame() -> None:
        app.step(dt)
        app.present()
        clock[0] += dt

    def touch(bid: str) -> bool:
        for b in app.scene.buttons():
            if b.id == bid and b.enabled:
                app.feed(Touch(app.layout.rect(*b.rect).center))
                frame()
                return True
        return False

    def rounds(until: float) -> None:
        app.go("table")
        table = app.scenes["table"]
        while clock[0] < until:
            snap = app.model.snap
            if (
                snap.phase in (MachinePhase.IDLE, MachinePhase.BETTING, MachinePhase.RESULT)
                and not table.busy
            ):
                if snap.credits < 20000:
                    app.feed(Command("bill", 10000))
                elif snap.bet_ante == 0:
                    app.feed(Command("chip", "ante"))
                else:
                    app.feed(Command("deal"))
            elif snap.phase is MachinePhase.IN_ROUND and not table.busy and snap.legal:
                app.feed(
                    Command("check" if any(a.value == "check" for a in snap.legal) else "play_max")
                )
            frame()

    def operator(pin: str = "3333") -> None:
        cabinet.station.execute(SetDoor(True))
        app.feed(Command("operator_key"))
        for d in pin:
            app.feed(Key(d, d))
        app.feed(Key("return"))
        frame()

    app.step(0)
    app.present()
    parts["attract"] = rss_mb()
    app.warm_up()
    if case == "fresh":
        app.go("table")
        app.feed(Command("bill", 10000))
        app.feed(Command("chip", "ante"))
        app.feed(Command("deal"))
        frame()
        table = app.scenes["table"]
        while app.model.snap.phase is MachinePhase.IN_ROUND:  # each decision waits for its values
            snap = app.model.snap
            if not table.busy and snap.legal:
                app.feed(
                    Command("check" if any(a.value == "check" for a in snap.legal) else "play_max")
                )
            frame()
        parts["first round"] = rss_mb()
        for _ in range(3000):  # cash out: the editor needs zero credits
            if app.model.snap.credits == 0 and app.model.snap.phase is not MachinePhase.CASHOUT:
                break
            if app.scene.name == "table" and not touch("confirm_cashout"):
                app.feed(Command("cashout"))
            frame()
        app.go("table")
        operator()
        touch("page_paytable")
        touch("copy_standard")
        touch("editor_compute")
        editor = app.scenes["operator"].pages["paytable"].editor
        if editor is None or editor.session.job is None:
            raise RuntimeError(
                f"the paytable editor did not start computing: {app.scenes['operator'].result}"
            )
        while editor.session.job.running:
            frame()
            time.sleep(0.005)
        parts["COMPUTE RTP"] = rss_mb()
        cabinet.station.execute(SetDoor(False))
        frame()
    else:
        rounds(seconds * 0.3)
        parts["rounds"] = rss_mb()
        operator()
        touch("page_hold")
        for _ in range(60):
            frame()
        parts["hold page"] = rss_mb()
        cabinet.station.execute(SetDoor(False))
        frame()
        app.go("tournament_setup")
        frame()
        touch("speed_fast")
        touch("start")
        end = seconds * 0.8
        while (
            clock[0] < end
            and app.scene.name.startswith("tournament")
            and app.scene.name != "tournament_results"
        ):
            s = app.tournament.session
            if s is not None and s.my_turn:
                app.feed(Key("c", "c"))
            elif s is not None and s.hand_over:
                app.feed(Key("space", " "))
            frame()
        parts["tournament"] = rss_mb()
        rounds(seconds)
        parts["rounds again"] = rss_mb()
    cabinet.close()
    return {
        "case": case,
        "driver": pygame.display.get_driver(),
        "parts": parts,
        "peak": peak(),
        "seconds": clock[0],
    }


def run_memory(
    case: str, driver: str, seconds: float, size: tuple[int, int], tmp: Path, values: bool = True
) -> dict[str, object]:
    """One session case on ``driver`` in a fresh interpreter with its own PAR cache
    (filled first for ``warm``, by ``uth par`` in a process of its own); ``values``
    False turns the decision values off (what the maths in the kiosk's process costs)."""
    cache = tmp / f"par-{case}"
    env = dict(
        os.environ,
        SDL_AUDIODRIVER="dummy",
        SDL_VIDEODRIVER=driver,
        UTH_HEADLESS="1",
        UTH_PAR_CACHE=str(cache),
        UTH_DECISION_VALUES="1" if values else "0",
    )
    if case in ("warm", "interactive"):
        subprocess.run(
            [sys.executable, "-m", "kiosk", "par", str(ROOT / "paytables" / "standard.toml")],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
    args = [
        sys.executable,
        __file__,
        "--child",
        "--memory",
        case,
        "--seconds",
        str(seconds),
        "--size",
        f"{size[0]}x{size[1]}",
    ]
    if case == "interactive":  # ``uth kiosk`` itself, its bytecode compiled as installed
        env = child_env(env, tmp / "pycache")
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", "engine", "kiosk", "devices"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )

    def measure() -> dict[str, object]:
        out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env)
        if out.returncode != 0:
            raise RuntimeError(f"the {case} session failed:\n{out.stderr[-3000:]}")
        got: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
        return got

    if driver == "x11" and not os.environ.get("DISPLAY"):
        with Xvfb(size) as display:
            env["DISPLAY"] = display
            return measure()
    return measure()


class Xvfb:
    """An Xvfb server on a free display number for the life of a ``with`` block."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.proc: subprocess.Popen[bytes] | None = None
        self.display = ""

    def __enter__(self) -> str:
        exe = shutil.which("Xvfb")
        if exe is None:
            raise RuntimeError("no X display: set DISPLAY or install Xvfb (apt-get install xvfb)")
        for number in range(90, 140):
            if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
                continue
            self.proc = subprocess.Popen(
                [
                    exe,
                    f":{number}",
                    "-screen",
                    "0",
                    f"{self.size[0]}x{self.size[1]}x24",
                    "-nolisten",
                    "tcp",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(100):
                if Path(f"/tmp/.X11-unix/X{number}").exists():
                    self.display = f":{number}"
                    return self.display
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
            self.proc.kill()
        raise RuntimeError("Xvfb did not start")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def run_driver(driver: str, n: int, size: tuple[int, int], tmp: Path) -> dict[str, object]:
    """The figures of one video driver, measured in a fresh interpreter."""
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", SDL_VIDEODRIVER=driver, UTH_HEADLESS="1")
    args = [
        sys.executable,
        __file__,
        "--child",
        "--frames",
        str(n),
        "--size",
        f"{size[0]}x{size[1]}",
    ]

    def measure() -> dict[str, object]:
        out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
        got: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
        ready = ready_figures(size, READY_RUNS, env)
        got["cold"] = ready["median"]
        got["cold_load"] = ready["runs"][-1][1]
        return got

    if driver == "x11" and not os.environ.get("DISPLAY"):
        with Xvfb(size) as display:
            env["DISPLAY"] = display
            return measure()
    return measure()


def report(got: dict[str, object], size: tuple[int, int]) -> None:
    times = sorted(got["times"])  # type: ignore[type-var]
    p95 = times[int(0.95 * (len(times) - 1))]
    cpu = sorted(got["cpu"])  # type: ignore[type-var]
    name = got["driver"]
    print(
        f"[{name}] pygame-ce {got['pygame']} (SDL {got['sdl']}); warm-up (table layer, card faces): "
        f"{got['warm_ms']:.0f} ms; rounds played: {got['rounds']}; text surfaces rendered: {got['renders']}; "
        f"frames repainted in full: {got['full']} of {len(times)}; screen shown per frame: "
        f"{100 * got['shown']:.1f} % on average"
    )
    print(
        f"[{name}] frames: {len(times)} at {size[0]}x{size[1]}: median {statistics.median(times):.2f} ms, "
        f"p95 {p95:.2f} ms, max {max(times):.1f} ms (target p95 < 4 ms); CPU time: median "
        f"{statistics.median(cpu):.2f} ms, p95 {cpu[int(0.95 * (len(cpu) - 1))]:.2f} ms, max {max(cpu):.1f} ms"
    )
    print(
        f"[{name}] start-up to READY with a fresh database: median {got['cold']:.2f} s of {READY_RUNS} "
        f"(target < 2 s; {got['cold_load']})"
    )
    print(
        f"[{name}] RSS: {got['rss_start']:.0f} MB after the first frame, {got['rss_warm']:.0f} MB after the "
        f"warm-up, {got['rss_end']:.0f} MB at the end, peak {got['rss_peak']:.0f} MB (target < 200 MB)"
    )
    caches = got["caches"]
    assert isinstance(caches, dict)
    print(
        f"[{name}] caches: "
        + ", ".join(
            f"{k} {v['bytes'] / 2**20:.1f}/{v['limit'] / 2**20:.0f} MB" for k, v in caches.items()
        )
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--frames", type=int, default=1000)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--driver", choices=("both", "dummy", "x11"), default="both")
    ap.add_argument(
        "--memory",
        help="session cases for the memory figures: interactive, warm, fresh (comma-separated)",
    )
    ap.add_argument(
        "--ready",
        type=int,
        default=0,
        metavar="N",
        help="time N starts of uth kiosk to READY, each with a fresh database",
    )
    ap.add_argument(
        "--seconds",
        type=float,
        default=300.0,
        help="cabinet time of the warm session (default 300)",
    )
    ap.add_argument(
        "--values",
        choices=("on", "off"),
        default="on",
        help="decision values during the sessions (default on, as a cabinet)",
    )
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    w, h = (int(x) for x in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        if args.child:
            if args.memory == "interactive":
                got = interactive_session((w, h), Path(tmp))
                got["driver"] = os.environ.get("SDL_VIDEODRIVER", "")
                print(json.dumps(got))
            elif args.memory:
                print(json.dumps(session_memory(args.memory, args.seconds, (w, h), Path(tmp))))
            else:
                print(json.dumps(frames(args.frames, (w, h), Path(tmp))))
            return 0
        print(f"machine: {machine_info()}")
        if args.ready:
            env = dict(
                os.environ, SDL_AUDIODRIVER="dummy", SDL_VIDEODRIVER="dummy", UTH_HEADLESS="1"
            )
            ready = ready_figures((w, h), args.ready, env)
            print(
                f"[dummy] start-up to READY at {w}x{h}, a fresh database each run (target < 2 s): "
                f"compiling run {ready['first']:.2f} s ({ready['first_load']}), then "
                + ", ".join(f"{t:.2f} s ({lo})" for t, lo in ready["runs"])
                + f"; median {ready['median']:.2f} s"
            )
        if args.memory:
            for case in args.memory.split(","):
                for driver in ("dummy", "x11") if args.driver == "both" else (args.driver,):
                    got = run_memory(
                        case, driver, args.seconds, (w, h), Path(tmp), args.values == "on"
                    )
                    parts = got["parts"]
                    assert isinstance(parts, dict)
                    print(
                        f"[{got['driver']}] {case} session at {w}x{h}, decision values {args.values}, "
                        f"{got['seconds']:.0f} s of cabinet time: "
                        + ", ".join(f"{k} {v:.0f} MB" for k, v in parts.items())
                        + f"; peak RSS {got['peak']:.0f} MB (target <= 200 MB; {load()})"
                    )
            return 0
        if args.ready:
            return 0
        for driver in ("dummy", "x11") if args.driver == "both" else (args.driver,):
            report(run_driver(driver, args.frames, (w, h), Path(tmp)), (w, h))
    return 0


if __name__ == "__main__":
    sys.exit(main())
