"""A monotonic counter that witnesses the ledger's power cycles from outside its medium.

The anchor file on a second medium witnesses every commit; a hardware monotonic counter
(a TPM 2.0 NV index of type counter, through ``tpm2-tools``) witnesses each power-up and
orderly power-down, and no copy of any file can make it go back.  The ledger records each
value it moves the counter to, in chained, MAC'd ``witness`` events:

1. ``{"counter": name, "value": v + 1, "state": "pending"}``, committed;
2. the counter incremented to ``v + 1``;
3. ``{"counter": name, "value": v + 1, "state": "done"}``, committed.

At power-up (:func:`witness_power_up`) the counter must read what the last ``witness``
event says: ``done v`` needs ``v``; ``pending v`` (a cut inside the three steps) takes
``v - 1`` or ``v``.  A database put back from a copy made before the last power cycle
reads behind the counter and is refused (:class:`LedgerCorruptError`); then the counter
is moved on, so the copy the cabinet runs on now is the only one that matches.

What it cannot see: a copy made while the cabinet runs, put back after a power cut that
left no orderly power-down (the anchor on the second medium sees that one).

Counters: :class:`TpmCounter` (``tpm:0x1500016``) and :class:`FileCounter`
(``file:/path``: a number in a file on another medium, for a cabinet without a TPM, and
for tests); :func:`counter_from_spec` reads the configuration's ``witness_counter``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Protocol

from kiosk.ledger.errors import LedgerCorruptError, LedgerError
from kiosk.ledger.files import _fsync_dir
from kiosk.ledger.ledger import Ledger

#: The event kind that records the counter's value.
WITNESS_KIND = "witness"


class MonotonicCounter(Protocol):
    """A counter that only goes up; ``name`` says which (shown in tilts and events)."""

    name: str

    def read(self) -> int:
        """The counter's value; raises :class:`LedgerError` when it cannot be read."""
        ...

    def increment(self) -> None:
        """Add one; raises :class:`LedgerError` when it cannot."""
        ...


class FileCounter:
    """A counter kept as decimal text in ``path`` (replaced atomically, fsynced); it goes
    up only as far as the medium holding it is out of an attacker's reach."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.name = f"file:{self.path}"

    def read(self) -> int:
        try:
            text = self.path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return 0
        except (OSError, UnicodeDecodeError) as exc:
            raise LedgerError(f"witness counter {self.path} is unreadable ({exc})") from None
        if not text.isdigit():
            raise LedgerError(f"witness counter {self.path} does not hold a number")
        return int(text)

    def increment(self) -> None:
        value = self.read() + 1
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(tmp, "w", encoding="ascii") as fh:
                fh.write(f"{value}\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
            _fsync_dir(self.path.parent)
        except OSError as exc:
            raise LedgerError(f"witness counter {self.path} cannot be written ({exc})") from None


class TpmCounter:
    """A TPM 2.0 NV counter index (defined once with ``tpm2_nvdefine -C o -s 8 -a
    "ownerread|ownerwrite|nt=counter" INDEX``), read with ``tpm2_nvread`` (8 bytes, big
    endian) and moved with ``tpm2_nvincrement``."""

    def __init__(self, index: str, timeout_s: float = 10.0) -> None:
        self.index = index
        self.name = f"tpm:{index}"
        self.timeout_s = timeout_s

    def _run(self, *args: str) -> bytes:
        try:
            done = subprocess.run(args, capture_output=True, timeout=self.timeout_s, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise LedgerError(f"TPM counter {self.index}: {args[0]} failed ({exc})") from None
        if done.returncode != 0:
            err = done.stderr.decode(errors="replace").strip()[:200]
            raise LedgerError(f"TPM counter {self.index}: {args[0]} failed: {err}")
        return done.stdout

    def read(self) -> int:
        out = self._run("tpm2_nvread", "-C", "o", "-s", "8", self.index)
        if len(out) != 8:
            raise LedgerError(f"TPM counter {self.index}: read {len(out)} bytes, not 8")
        return int.from_bytes(out, "big")

    def increment(self) -> None:
        self._run("tpm2_nvincrement", "-C", "o", self.index)


def counter_from_spec(spec: str) -> MonotonicCounter:
    """The counter a configuration names: ``tpm:<NV index>`` or ``file:<path>``;
    raises :class:`ValueError` with the accepted forms."""
    kind, _, rest = spec.partition(":")
    if kind == "tpm" and rest.lower().startswith("0x"):
        int(rest, 16)  # a ValueError for a malformed index
        return TpmCounter(rest)
    if kind == "file" and rest.startswith("/"):
        return FileCounter(Path(rest))
    raise ValueError(f"must be tpm:<NV index, 0x...> or file:<absolute path>, not {spec!r}")


def _last(ledger: Ledger, name: str) -> tuple[int, str] | None:
    found = ledger.last_event(WITNESS_KIND)
    if found is None or found.detail.get("counter") != name:
        return None
    return int(found.detail["value"]), str(found.detail["state"])


def _advance(ledger: Ledger, counter: MonotonicCounter, value: int, step: str) -> None:
    """Steps 1-3 of the module docstring, to ``value``; ``step`` is the occasion."""
    detail = {"counter": counter.name, "value": value, "on": step}
    ledger.event(WITNESS_KIND, detail={**detail, "state": "pending"})
    counter.increment()
    if counter.read() != value:
        raise LedgerError(f"witness counter {counter.name} did not move to {value}")
    ledger.event(WITNESS_KIND, detail={**detail, "state": "done"})


def witness_power_up(ledger: Ledger, counter: MonotonicCounter) -> None:
    """Check the ledger against ``counter`` and move both on (see the module
    docstring).  Raises :class:`LedgerCorruptError` for a ledger behind or ahead of the
    counter, :class:`LedgerError` when the counter cannot be used."""
    value = counter.read()
    last = _last(ledger, counter.name)
    where = f"witness {counter.name}"
    if last is not None:
        recorded, state = last
        allowed = {recorded - 1, recorded} if state == "pending" else {recorded}
        if value not in allowed:
            behind = value > recorded
            raise LedgerCorruptError(
                f"the counter reads {value}, the ledger last recorded {state} {recorded}: "
                + (
                    "the database is behind its witness (an older copy put back)"
                    if behind
                    else "the counter is not this ledger's (replaced or reset)"
                ),
                where,
            )
        if state == "pending" and value == recorded:  # cut after the increment
            ledger.event(
                WITNESS_KIND, detail={"counter": counter.name, "value": value, "state": "done"}
            )
        # a cut before the increment (value == recorded - 1): the steps are done again
    _advance(ledger, counter, value + 1, "power_up")


def witness_power_down(ledger: Ledger, counter: MonotonicCounter) -> None:
    """Move the counter on at an orderly power-down, so a copy made while the cabinet
    ran is behind it at the next power-up."""
    _advance(ledger, counter, counter.read() + 1, "power_down")
