"""``uth tournament host`` in a process of its own, with the computer players' pacing
cut to a few milliseconds (the command's own code otherwise), for the tests of
tests/kiosk/friends.

``python tests/support/friends_cli_host.py ARGS...`` runs ``uth tournament host ARGS...``.
:class:`CliHost` starts it (:class:`support.cli_process.Proc`, its output collected) and
reads the link it prints; :func:`seat_socket` is a raw seat socket bound to a loopback
source address of its own (127.0.0.2, 127.0.0.3...: a friend at another phone).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str]) -> int:
    import kiosk.tournament.session as session_module
    from kiosk.cli import main as cli_main

    for speed in ("slow", "normal", "fast"):
        session_module.AI_DELAYS[speed] = 0.02
        session_module.BOARD_PAUSE[speed] = 0.0
    return cli_main(["tournament", "host", *argv])


class CliHost:
    """The host process; :attr:`link` ``http://127.0.0.1:PORT/g/CODE`` once it listens."""

    def __init__(self, *args: str, name: str = "host") -> None:
        self.proc = _ScriptProc(name, *args)
        m = self.proc.wait_line(r"^Link (http://\S+)$", timeout=30)
        self.link = m.group(1)
        self.port = int(self.link.split(":")[2].split("/")[0])
        self.code = self.link.rsplit("/", 1)[1]

    def kill(self) -> None:
        self.proc.kill()


class _ScriptProc:
    """:class:`support.cli_process.Proc` running this script instead of ``kiosk.cli``."""

    def __new__(cls, name: str, *args: str) -> Any:
        import os
        import subprocess

        from support.cli_process import Proc

        proc = Proc.__new__(Proc)
        proc.name = name
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
        proc.p = subprocess.Popen([sys.executable, str(Path(__file__)), *args], cwd=ROOT, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        import threading

        proc.lines = []
        proc._cond = threading.Condition()
        threading.Thread(target=proc._read, daemon=True).start()
        return proc


class Seat:
    """A raw seat socket from loopback address ``source`` (``127.0.0.N``): every message
    kept in :attr:`messages`, the latest table in :attr:`state`."""

    def __init__(self, link: str, source: str, timeout: float = 5.0) -> None:
        from websockets.sync.client import connect

        url = link.replace("http://", "ws://", 1) + "/ws"
        self.ws = connect(url, open_timeout=timeout, source_address=(source, 0), legacy=True)
        self.source = source
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.closed = False

    def send(self, **msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def poll(self, timeout: float = 0.0) -> None:
        from websockets.exceptions import ConnectionClosed

        first = True
        while not self.closed:
            try:
                text = self.ws.recv(timeout=timeout if first else 0)
            except TimeoutError:
                return
            except ConnectionClosed:
                self.closed = True
                return
            first = False
            msg = json.loads(text)
            self.messages.append(msg)
            if msg.get("type") == "state":
                self.state = msg
            elif msg.get("type") == "welcome":
                self.welcome = msg

    def wait_for(self, predicate: Any, timeout: float = 15.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.poll(0.05)
            if predicate(self):
                return self.state or {}
            if self.closed:
                break
        raise AssertionError(f"{self.source}: timed out; last state {json.dumps(self.state)[:400]}")

    def close(self) -> None:
        self.ws.close()
        self.closed = True


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
