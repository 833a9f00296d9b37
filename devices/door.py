"""The cabinet's slot door switch: where its state comes from, and a watch that reports
each change.

A source is named by one line of text (the configuration's ``door``), parsed here once
into a :class:`DoorSpec`:

``gpio:/dev/gpiochip0:17``
    line 17 of the GPIO chip, read through the kernel's GPIO character device with
    libgpiod's Python bindings (``pip install gpiod``, version 2; imported only when such
    a source is opened).  The line reads active when the door is open; add
    ``:active_low`` for a switch that pulls the line low when open.
``sim:/var/lib/uth/door``
    a simulated door: a file holding ``open`` or ``closed`` (missing: closed), written by
    ``uth devices simulate door open|close``, for tests, the demo and a technician's
    bench.

:class:`DoorWatch` reads the source every :data:`POLL_S` seconds on a thread of its own
and calls back with the state once at start and at every change held for
:data:`SETTLE_READS` reads (a bouncing contact reports once).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

from pydantic import PlainValidator

log = logging.getLogger(__name__)

#: How often the watch reads the switch, seconds.
POLL_S = 0.05
#: Reads a new state must hold before it is reported (debounce).
SETTLE_READS = 2


class DoorError(ValueError):
    """A door source that cannot be parsed or opened (``reason`` says why)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class DoorSpec:
    """A parsed door source: ``kind``, the chip or file ``path``, the GPIO ``line`` and
    whether it is ``active_low``."""

    kind: Literal["gpio", "sim"]
    path: Path
    line: int = 0
    active_low: bool = False

    def __str__(self) -> str:
        if self.kind == "sim":
            return f"sim:{self.path}"
        return f"gpio:{self.path}:{self.line}" + (":active_low" if self.active_low else "")


def parse_door(text: str) -> DoorSpec:
    """``text`` as a door source; raises :class:`DoorError` naming what is wrong."""
    kind, _, rest = text.partition(":")
    if kind == "sim":
        if not rest.startswith("/"):
            raise DoorError(f"sim: needs an absolute file path, not {rest!r}")
        return DoorSpec("sim", Path(rest))
    if kind == "gpio":
        parts = rest.split(":")
        flags = parts[2:]
        if len(parts) < 2 or not parts[0].startswith("/dev/") or flags not in ([], ["active_low"]):
            raise DoorError(f"gpio: is gpio:/dev/gpiochipN:LINE[:active_low], not {text!r}")
        if not parts[1].isdigit() or int(parts[1]) > 511:
            raise DoorError(f"gpio: the line is an offset 0..511, not {parts[1]!r}")
        return DoorSpec("gpio", Path(parts[0]), int(parts[1]), bool(flags))
    raise DoorError(f"a door source is gpio:/dev/gpiochipN:LINE or sim:/path, not {text!r}")


def door_value(value: object) -> DoorSpec:
    """A configuration's ``door``: text parsed by :func:`parse_door` (a spec as is)."""
    if isinstance(value, DoorSpec):
        return value
    if not isinstance(value, str):
        raise DoorError(f"a door source is text, not {type(value).__name__}")
    return parse_door(value)


#: A configuration field holding a door source (text at load, a :class:`DoorSpec` after).
DoorField = Annotated[DoorSpec, PlainValidator(door_value)]


class DoorSource(Protocol):
    """A switch read on demand: True while the door is open."""

    def read(self) -> bool: ...

    def close(self) -> None: ...


class SimulatedDoor:
    """The simulated door's state file at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> bool:
        try:
            return self.path.read_text(encoding="ascii").strip() == "open"
        except FileNotFoundError:
            return False

    def close(self) -> None:
        pass

    @staticmethod
    def set(path: Path, open: bool) -> None:
        """Open or close the simulated door at ``path`` (the whole file replaced at once)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text("open\n" if open else "closed\n", encoding="ascii")
        os.replace(tmp, path)


class GpioDoor:
    """A GPIO line as the door switch, requested as an input through libgpiod."""

    def __init__(self, spec: DoorSpec) -> None:
        try:
            import gpiod  # type: ignore[import-not-found]  # only on a cabinet wired so
            from gpiod.line import Direction, Value  # type: ignore[import-not-found]
        except ImportError:
            raise DoorError(
                f"{spec}: a GPIO door needs libgpiod's Python bindings (pip install gpiod)"
            ) from None
        self._active: Any = Value.ACTIVE
        self.line = spec.line
        try:
            settings = gpiod.LineSettings(direction=Direction.INPUT, active_low=spec.active_low)
            self._request = gpiod.request_lines(
                str(spec.path), consumer="uth-door", config={spec.line: settings}
            )
        except OSError as exc:
            raise DoorError(f"{spec}: cannot request the line: {exc}") from None

    def read(self) -> bool:
        return bool(self._request.get_value(self.line) == self._active)

    def close(self) -> None:
        self._request.release()


def open_door(spec: DoorSpec) -> DoorSource:
    """The source ``spec`` names, ready to read; raises :class:`DoorError`."""
    if spec.kind == "sim":
        return SimulatedDoor(spec.path)
    return GpioDoor(spec)


class DoorWatch:
    """Reads ``source`` and calls ``on_change(open)`` with its state at :meth:`start` and
    at each change; a failing read is logged and retried (the last state stands)."""

    def __init__(self, source: DoorSource, on_change: Callable[[bool], object]) -> None:
        self.source = source
        self.on_change = on_change
        self.state: bool | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="door", daemon=True)

    def start(self) -> DoorWatch:
        self._report(self.source.read())
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.source.close()

    def _report(self, state: bool) -> None:
        try:
            self.on_change(state)
        except Exception:  # the game refused or is closing: said again at the next change
            log.exception("door: reporting %s failed", "open" if state else "closed")
        self.state = state

    def _run(self) -> None:
        seen, held = self.state, 0
        while not self._stop.wait(POLL_S):
            try:
                now = self.source.read()
            except OSError as exc:
                log.warning("door: cannot read the switch: %s", exc)
                continue
            held = held + 1 if now == seen else 1
            seen = now
            if now != self.state and held >= SETTLE_READS:
                self._report(now)
