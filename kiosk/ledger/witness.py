"""A monotonic counter that witnesses the ledger from outside its media, moved with the money.

The anchor file on a second medium witnesses every commit, but whoever can image both
media (the ledger's card and the witness medium) and put the images back rolls both back
together.  A hardware monotonic counter (a TPM 2.0 NV index of type counter, through
``tpm2-tools``) cannot be copied nor put back: it only goes up.  The ledger records each
value it moves the counter to, in chained, MAC'd ``witness`` events:

1. ``{"counter": name, "value": v + 1, "state": "pending", "on": why}``, committed;
2. the counter incremented to ``v + 1`` (and read back);
3. ``{"counter": name, "value": v + 1, "state": "done", "on": why}``, committed.

When it moves: at every power-up and orderly power-down (:func:`witness_power_up`,
:func:`witness_power_down`), and with the money (:class:`MoneyWitness`, attached to the
ledger at power-up): every commit holding a :data:`MONEY_KINDS` event (a note or a ticket
credited, a cash-out, a ticket printed, a handpay) carries step 1 in the same
transaction, and steps 2 and 3 follow the commit.  So a copy of both media taken while
the cabinet runs is behind the counter as soon as one more note, ticket or cash-out has
gone through, and a put-back copy is refused at the next power-up whether the cabinet
went down in order or by a power cut.

A cut at any instant is safe: at power-up the counter must read what the last
``witness`` event says: ``done v`` needs ``v``; ``pending v`` (a cut inside the three
steps) takes ``v - 1`` (before the increment) or ``v`` (after it; the ``done`` event is
then written).  A counter *ahead* of the ledger (the counter moved without this
database: an earlier copy of it put back, another database in its place, or the
counter moved by something else) and a counter *behind* it (not this ledger's counter:
replaced or reset) are refused (:class:`LedgerCorruptError`), each named as such.  At
run time a counter that cannot be moved, or reads another value after the move, is a
ledger tilt (through :attr:`Ledger.on_anchor_problem`): play stops.

Writes, at a busy cabinet (one player station, 20 busy hours a day, each hour 12 notes,
3 tickets credited and 3 cash-outs, each cash-out a ``cashout`` and a ``ticket_out``):
12 + 3 + 2 x 3 = 21 moves an hour, 420 a day, about 153,000 a year, plus two per power
cycle; a table host with 7 stations at that rate, 2,940 a day (about 1.07 million a
year).  Each move is one increment of the counter and two ledger commits (the
``pending`` row rides with the money's own commit, the ``done`` row is one more).

Endurance of the medium the counter lands on:

* a TPM NV counter: flash-based TPMs are rated about 500,000 write cycles (for example
  ST's ST33GTPMISPI, over its full temperature range); older NVRAM about 100,000.  At
  420 moves a day a 500,000-cycle index lasts about 3.3 years if every increment wears
  the same cells (the TPM's own wear levelling lengthens it); a 7-station host wears it
  in about 6 months.  The counter's value *is* its number of increments, so its wear is
  read off it.  Define the index without ``orderly`` (an orderly counter jumps ahead
  after a power cut and would be refused as ahead of the ledger).  A worn-out index
  refuses the increment: a ledger tilt, never a silent pass.
* a file counter (``file:``) on an SD card or USB key: each move replaces a small
  file (about four block writes with its fsyncs) and adds one commit (the ``done`` row),
  so one more anchor write on the same medium: 840 writes a day at 420 moves.  The
  anchor there is rewritten at every commit anyway: about 4 commits a round (measured:
  50 rounds with 17 notes and 5 cash-outs made 221 commits, 27 of them the counter's),
  about 8,000 a day at 100 rounds an hour for 20 hours, so the counter adds about 10%
  to that medium's wear, which the flash's wear levelling spreads over the whole
  device.  A file counter is copied with its medium: it only holds against whoever
  cannot image that medium.

What it cannot see: a copy put back when no money has moved since it was taken (rounds
played and lost, then the copy put back, gives the credits back; the anchor on the
second medium sees that one unless that medium is rolled back too), and, with a file
counter, the counter's own medium rolled back with the others.

Counters: :class:`TpmCounter` (``tpm:0x1500016``) and :class:`FileCounter`
(``file:/path``: a number in a file on another medium, for a cabinet without a TPM, and
for tests); :func:`counter_from_spec` reads the configuration's ``witness_counter``.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
from collections.abc import Set
from pathlib import Path
from typing import Protocol

from kiosk.ledger.errors import LedgerCorruptError, LedgerError
from kiosk.ledger.files import _fsync_dir
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger

log = logging.getLogger(__name__)

#: The events that move money into or out of the cabinet: a commit holding one moves
#: the counter (:class:`MoneyWitness`).
MONEY_KINDS = frozenset(
    {
        EventKind.BILL_IN,
        EventKind.TICKET_IN,
        EventKind.SYSTEM_TICKET_IN,
        EventKind.CASHOUT,
        EventKind.TICKET_OUT,
        EventKind.HANDPAY,
    }
)


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
        """The value (0 before the first increment); raises :class:`LedgerError` when the
        file's folder is missing (its medium not mounted) or the file is unreadable."""
        if not self.path.parent.is_dir():
            raise LedgerError(
                f"witness counter {self.path}: its folder {self.path.parent} is missing "
                "(the medium holding it is not mounted?)"
            )
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
    found = ledger.last_event(EventKind.WITNESS)
    if found is None or found.detail.get("counter") != name:
        return None
    return int(found.detail["value"]), str(found.detail["state"])


def _detail(counter: MonotonicCounter, value: int, state: str, on: str) -> dict[str, object]:
    return {"counter": counter.name, "value": value, "state": state, "on": on}


def _advance(ledger: Ledger, counter: MonotonicCounter, value: int, step: str) -> None:
    """Steps 1-3 of the module docstring, to ``value``; ``step`` is the occasion."""
    ledger.event(EventKind.WITNESS, detail=_detail(counter, value, "pending", step))
    _move(ledger, counter, value, step)


def _move(ledger: Ledger, counter: MonotonicCounter, value: int, step: str) -> None:
    """Steps 2 and 3: the counter to ``value`` (read back), then the ``done`` event."""
    counter.increment()
    now = counter.read()
    if now != value:
        raise LedgerError(f"witness counter {counter.name} reads {now} after moving to {value}")
    ledger.event(EventKind.WITNESS, detail=_detail(counter, value, "done", step))


class MoneyWitness:
    """Moves ``counter`` (last known at ``value``) with the money of the ledger it is
    attached to (``ledger.witness``): :meth:`before_commit` adds the ``pending`` event to
    a commit that holds a :data:`MONEY_KINDS` event, :meth:`after_commit` moves the
    counter and records it ``done``.  A failure after the commit never undoes the money:
    it goes to ``ledger.on_anchor_problem`` (the ledger tilt) and the next money commit
    tries the same value again."""

    def __init__(self, counter: MonotonicCounter, value: int) -> None:
        self.counter = counter
        self.value = value
        self._due: tuple[int, str] | None = None  # the pending value of this commit

    def before_commit(self, ledger: Ledger, kinds: Set[str]) -> None:
        """Inside the outermost transaction, before its commit (every commit)."""
        money = sorted(k for k in kinds if k in MONEY_KINDS)
        self._due = None
        if money:
            value, on = self.value + 1, ",".join(money)
            ledger.event(EventKind.WITNESS, detail=_detail(self.counter, value, "pending", on))
            self._due = (value, on)

    def after_commit(self, ledger: Ledger) -> None:
        """After the commit: steps 2 and 3 when it held money; never raises."""
        due, self._due = self._due, None
        if due is None:
            return
        try:
            _move(ledger, self.counter, *due)
            self.value = due[0]
        except (LedgerError, sqlite3.Error) as exc:
            problem = f"witness counter {self.counter.name} not moved with the money: " + (
                exc.reason if isinstance(exc, LedgerError) else repr(exc)
            )
            log.error(problem)
            if ledger.on_anchor_problem is not None:
                ledger.on_anchor_problem(problem)


def witness_power_up(ledger: Ledger, counter: MonotonicCounter) -> None:
    """Check the ledger against ``counter``, move both on (see the module docstring) and
    attach a :class:`MoneyWitness` to the ledger.  Raises :class:`LedgerCorruptError` for
    a counter ahead of or behind the ledger, :class:`LedgerError` when the counter cannot
    be used."""
    value = counter.read()
    last = _last(ledger, counter.name)
    where = f"witness {counter.name}"
    if last is not None:
        recorded, state = last
        allowed = {recorded - 1, recorded} if state == "pending" else {recorded}
        if value not in allowed:
            said = f"it reads {value}, the ledger's last record is {state} {recorded}"
            raise LedgerCorruptError(
                f"counter ahead of the ledger: {said}; the counter moved without this "
                "database (moved by something else, another database in its place, or an "
                "earlier copy of this one put back)"
                if value > recorded
                else f"counter behind the ledger: {said}; not this ledger's counter "
                "(replaced, reset or defined again)",
                where,
            )
        if state == "pending" and value == recorded:  # cut after the increment
            ledger.event(EventKind.WITNESS, detail=_detail(counter, value, "done", "power_up"))
        # a cut before the increment (value == recorded - 1): the steps are done again
    _advance(ledger, counter, value + 1, "power_up")
    ledger.witness = MoneyWitness(counter, value + 1)


def witness_power_down(ledger: Ledger, counter: MonotonicCounter) -> None:
    """Move the counter on at an orderly power-down (the money witness let go first)."""
    ledger.witness = None
    _advance(ledger, counter, counter.read() + 1, "power_down")
