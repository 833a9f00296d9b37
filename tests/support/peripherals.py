"""A station's or a cabinet's peripherals in their own process: the ID-003 validator and
TCL printer simulators of ``tests/kiosk/power/power_peripherals.py`` on pseudo-terminals,
driven by JSON lines (``from support.peripherals import Peripherals``; the commands are
listed in that script's docstring)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "kiosk" / "power" / "power_peripherals.py"


class Peripherals:
    """The simulators' process and its JSON-lines control channel; :attr:`ports` holds
    the ``validator`` and ``printer`` pty paths."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert self.proc.stdout is not None
        self.ports: dict[str, str] = json.loads(self.proc.stdout.readline())

    def ask(self, **command: Any) -> dict[str, Any]:
        """Send one command and return its answer."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        reply: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return reply

    def cashbox(self) -> list[int]:
        """The notes in the cash box, in cents, in the order stacked."""
        return [item["bill"] for item in self.ask(op="state")["cashbox"] if "bill" in item]

    def close(self) -> None:
        try:
            self.ask(op="quit")
        except (BrokenPipeError, json.JSONDecodeError, ValueError):
            pass
        self.proc.wait(10)
