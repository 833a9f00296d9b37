"""A ``python -m kiosk.cli`` process in a test, its output lines collected as they come,
waited for by pattern (``from support.cli_process import Proc``: the folder of the root
conftest.py is on the import path)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Proc:
    """A ``python -m kiosk.cli`` process whose output lines are collected."""

    def __init__(self, name: str, *args: str, stdin: str | None = None) -> None:
        """``stdin``: text the process reads on its standard input (else none: it is
        closed)."""
        self.name = name
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        self.p = subprocess.Popen(
            [sys.executable, "-m", "kiosk.cli", *args],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.p.stdin is not None
        if stdin:
            self.p.stdin.write(stdin)
        self.p.stdin.close()
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
