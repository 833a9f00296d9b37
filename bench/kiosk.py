"""Kiosk benchmark: frame time of a round with dealing animations, cold start, memory.

    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy .venv/bin/python bench/kiosk.py [--frames 1000] [--size 1920x1080]

Plays rounds back to back through the real controller (a temporary ledger) and the real
screens, drawing every frame at the given size headless, and prints the median, 95th
percentile and worst frame (update + draw + flip), the cold start to the first attract
frame (a fresh interpreter), the peak resident memory, and the machine it ran on.
Targets: median < 4 ms/frame at 1920x1080, cold start < 2 s, peak RSS < 200 MB.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COLD_START = r"""
import os, sys, time
t0 = float(sys.argv[1])
os.environ.setdefault("SDL_VIDEODRIVER", "dummy"); os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
from kiosk.config import load_config
from kiosk.machine.controller import Machine
from kiosk.ui.app import App
from kiosk.ui.demo import DemoTicketPayout
payout = DemoTicketPayout()
machine = Machine.open(load_config(None, db_path=sys.argv[2]), payout=payout)
app = App(machine, (int(sys.argv[3]), int(sys.argv[4])), payout=payout)
app.step(0)
import pygame; pygame.display.flip()
print(time.time() - t0)
machine.close()
"""


def machine_info() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware")):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import pygame

    return (f"{platform.system()} {platform.machine()}, {cpu}, {os.cpu_count()} cpu, "
            f"Python {platform.python_version()}, pygame-ce {pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))}), "
            f"SDL_VIDEODRIVER={os.environ.get('SDL_VIDEODRIVER')}")


def cold_start(size: tuple[int, int], tmp: Path) -> float:
    db = tmp / "cold.db"
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", COLD_START, str(t0), str(db), str(size[0]), str(size[1])],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def frames(n: int, size: tuple[int, int], tmp: Path) -> list[float]:

    from engine.rng import SeededRandomSource
    from kiosk.config import load_config
    from kiosk.machine.controller import Machine
    from kiosk.machine.snapshot import MachinePhase
    from kiosk.ui.app import App
    from kiosk.ui.demo import DemoTicketPayout
    from kiosk.ui.events import Command

    payout = DemoTicketPayout()
    machine = Machine.open(load_config(None, db_path=str(tmp / "bench.db")), rng=SeededRandomSource(7), payout=payout)
    app = App(machine, size, payout=payout)
    t0 = time.perf_counter()
    app.warm_up()  # what App.run does right after READY=1, while the attract screen shows
    print(f"warm-up (table layer, 104 card faces): {(time.perf_counter() - t0) * 1000:.0f} ms")
    app.go("table")
    full = 0
    dt = 1 / 60
    times: list[float] = []
    table = app.scenes["table"]
    for _i in range(n):
        snap = app.model.snap
        phase = snap.phase
        if phase in (MachinePhase.IDLE, MachinePhase.BETTING, MachinePhase.RESULT) and not table.busy:
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
        t0 = time.perf_counter()
        app.step(dt)
        app.present()
        times.append((time.perf_counter() - t0) * 1000)
        full += app.dirty is None
    rounds = machine.ledger.counts()[0] if machine.ledger is not None else 0
    machine.close()
    print(f"rounds played: {rounds}; text surfaces rendered: {app.text.renders}; "
          f"frames repainted in full: {full} of {n} (the rest redraw only moving cards)")
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=1000)
    ap.add_argument("--size", default="1920x1080")
    args = ap.parse_args()
    w, h = (int(x) for x in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        cold = cold_start((w, h), Path(tmp))
        times = frames(args.frames, (w, h), Path(tmp))
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    steady = sorted(times)
    p95 = steady[int(0.95 * (len(steady) - 1))]
    print(f"machine: {machine_info()}")
    print(f"frames: {len(times)} at {w}x{h}: median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms, "
          f"max {max(times):.1f} ms (target median < 4 ms)")
    print(f"cold start to attract: {cold:.2f} s (target < 2 s)")
    print(f"peak RSS: {rss_mb:.0f} MB (target < 200 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
