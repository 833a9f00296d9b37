"""The kiosk as ``uth kiosk`` runs it, measured: start-up to READY, and the memory of an
interactive session (the parts :mod:`bench.kiosk` reports).

Both run the real command line (``kiosk.cli.main``: the configuration, the ledger, the
power-up checks, the simulated devices, the screens and their main loop) in a process of
its own, with a fresh database each time:

* :func:`time_to_ready` starts ``python -m kiosk kiosk`` and times it from the process's
  start to systemd's ``READY=1`` on a notify socket of its own (the attract screen up,
  every power-up check done);
* :func:`interactive_session` (in the child) plays the session a person at the cabinet
  would: :data:`ROUNDS` rounds through the screens' own inputs, the language changed
  after each, the Pays, Rules, History and Settings pages, then the main door opened,
  the operator key, a manager's PIN, every page of the operator menu, log out, the door
  closed, and one more round.  It stands in for the scripted player ``--autoplay``
  starts, so nothing but the input differs from ``uth kiosk``.
"""

from __future__ import annotations

import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Rounds the interactive session plays before the pages.
ROUNDS = 5
#: Frames each page stays up.
PAGE_FRAMES = 30


def rss_mb() -> float:
    """Resident memory of this process now, MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def peak_mb() -> float:
    """The peak resident memory of this process so far, MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load() -> str:
    """The load average, as printed beside each figure."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def child_env(base: dict[str, str], pycache: Path) -> dict[str, str]:
    """The environment of a measured kiosk: bytecode compiled once into ``pycache`` and
    reused, as an installed program's is (pip compiles it at install)."""
    env = dict(base, PYTHONPYCACHEPREFIX=str(pycache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("NOTIFY_SOCKET", None)
    return env


def time_to_ready(
    size: tuple[int, int], env: dict[str, str], folder: Path, timeout: float = 120.0
) -> float:
    """Seconds from starting ``uth kiosk`` (a fresh database in ``folder``) to its
    ``READY=1``; the kiosk is stopped (SIGTERM) once it has said it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(timeout)
        run_env = dict(env, NOTIFY_SOCKET=str(path))
        args = [
            sys.executable,
            "-m",
            "kiosk",
            "kiosk",
            "--window",
            f"{size[0]}x{size[1]}",
            "--db",
            str(folder / "fresh.db"),
            "--headless",
        ]
        t0 = time.monotonic()
        proc = subprocess.Popen(
            args, cwd=ROOT, env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            while True:
                try:
                    message = sock.recv(4096).decode()
                except TimeoutError:
                    raise RuntimeError(f"no READY=1 within {timeout:.0f} s") from None
                if "READY=1" in message.splitlines():
                    return time.monotonic() - t0
        finally:
            proc.terminate()
            try:
                _out, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                _out, err = proc.communicate()
            if proc.returncode not in (0, -15):
                print(err.decode(errors="replace")[-3000:], file=sys.stderr)


def ready_figures(size: tuple[int, int], runs: int, env: dict[str, str]) -> dict[str, Any]:
    """One run to compile the bytecode (reported, not counted), then ``runs`` timed
    runs to READY, each with a fresh database; seconds and the load beside each."""
    with tempfile.TemporaryDirectory() as tmp:
        env = child_env(env, Path(tmp) / "pycache")
        first = time_to_ready(size, env, Path(tmp) / "first")
        first_load = load()
        times: list[tuple[float, str]] = []
        for i in range(runs):
            times.append((time_to_ready(size, env, Path(tmp) / f"run{i}"), load()))
    return {
        "first": first,
        "first_load": first_load,
        "runs": times,
        "median": statistics.median(t for t, _ in times),
    }


class SessionPlayer:
    """The interactive session's input, one event a frame (the ``--autoplay`` player's
    interface: ``next_input(scene, snap)`` and ``done``); ``app`` is set by the main
    loop's start.  :attr:`parts` is the resident memory after each part, MB."""

    def __init__(self, rounds: int, seed: int | None = None) -> None:
        from kiosk.ui.autoplay import ScriptedPlayer

        self.app: Any = None
        self.rounds = ScriptedPlayer(rounds, seed)
        self.after = ScriptedPlayer(2, seed)  # the result on the screen counts as one
        self.parts: dict[str, float] = {}
        self.settled = 0
        self._seen = 0
        self._steps: list[Any] = []
        self._wait = 0
        self.done = False
        self.part = "rounds"

    def _plan_pages(self) -> None:
        from kiosk.ui.events import Key

        steps: list[Any] = []
        for key in ("y", "h", "g", "e"):  # Pays, Rules, History, Settings
            steps += [Key(key), PAGE_FRAMES, Key("escape"), 5]
        steps += [("part", "player pages"), Key("f9"), 10, Key("f12"), 10]
        steps += [Key(d, d) for d in "3333"] + [Key("return"), 10]
        from kiosk.ui.scenes.operator.scene import PAGES

        for page in PAGES:
            steps += [("touch", f"page_{page}"), PAGE_FRAMES, ("touch", "menu"), 5]
        steps += [
            ("part", "operator pages"),
            ("touch", "logout"),
            PAGE_FRAMES,
            Key("f9"),
            PAGE_FRAMES,
            ("part", "door closed"),
        ]
        self._steps = steps

    def next_input(self, scene: str, snap: Any) -> Any:
        from kiosk.game.snapshot import MachinePhase
        from kiosk.ui import i18n
        from kiosk.ui.events import Key

        if self._wait > 0:
            self._wait -= 1
            return None
        if self._steps:
            return self._step()
        if self.part == "rounds":
            got = self.rounds.next_input(scene, snap)
            if self.rounds.settled > self._seen:  # a round settled: the next language
                self._seen = self.rounds.settled
                nxt = i18n.next_language()
                self._steps = [Key("l", "l"), 10, ("touch", f"lang_{nxt}"), 10]
                return None
            table = self.app.scenes["table"]
            if self.rounds.done and snap.phase is not MachinePhase.IN_ROUND and not table.busy:
                self.parts[f"{self.rounds.rounds} rounds"] = rss_mb()
                self.part = "pages"
                self._plan_pages()
                return None
            return got
        if self.part == "pages":
            self.part = "after"
        got = self.after.next_input(scene, snap)
        if self.after.done and snap.phase is not MachinePhase.IN_ROUND:
            self.parts["a round after"] = rss_mb()
            self.done = True
        return got

    def _step(self) -> Any:
        """The next planned input (None: a pause or a measurement)."""
        from kiosk.ui.events import Touch

        step = self._steps.pop(0)
        if isinstance(step, int):
            self._wait = step
            return None
        if isinstance(step, tuple) and step[0] == "part":
            self.parts[step[1]] = rss_mb()
            return None
        if isinstance(step, tuple) and step[0] == "touch":
            for b in self.app.scene.buttons():
                if b.id == step[1] and b.enabled:
                    return Touch(self.app.layout.rect(*b.rect).center)
            raise RuntimeError(f"no button {step[1]!r} on {self.app.scene.name}")
        return step


def interactive_session(size: tuple[int, int], folder: Path) -> dict[str, Any]:
    """Run ``uth kiosk`` in this process with :class:`SessionPlayer` at its screens; the
    resident memory after each part and the peak, MB, and the seconds it took."""
    import kiosk.wiring.cabinet as wiring
    from kiosk.cli import main
    from kiosk.ui.app import App

    player = SessionPlayer(ROUNDS, 7)
    wiring.ScriptedPlayer = lambda rounds, seed: player  # type: ignore[assignment,misc]
    run = App.run

    def run_with_player(
        self: App, fps: int = 60, max_frames: int | None = None, player: Any = None
    ) -> int:
        if player is not None:
            player.app = self
        return run(self, fps, max_frames, player)

    App.run = run_with_player  # type: ignore[method-assign]
    t0 = time.monotonic()
    code = main(
        [
            "kiosk",
            "--window",
            f"{size[0]}x{size[1]}",
            "--db",
            str(folder / "session.db"),
            "--headless",
            "--autoplay",
            "random",
            "--rounds",
            str(ROUNDS),
            "--seed",
            "7",
        ]
    )
    if code != 0 or not player.done:
        raise RuntimeError(f"the session did not end as played (exit {code}, part {player.part})")
    return {"parts": player.parts, "peak": peak_mb(), "seconds": time.monotonic() - t0}
