"""A technician's progressive controller (SAS 6.02's progressive messages, the controller's end): one
meter per level of one group, broadcast to every line it links, each machine's
progressive win read and the level reset; its state in a small SQLite file.

Each :meth:`ProgressiveController.cycle`, on every line in turn:

1. the levels are broadcast to address 0 (long poll 86, every machine of the group on
   the line takes them; none answers): a machine that hears none for 5 seconds stops
   play (exception 53);
2. each machine address on the line gets a general poll; an exception 54 (progressive
   win) or 56 (SAS progressive level hit) is acknowledged and its win read, with 84 for
   54 and 87 for 56 (:func:`devices.sas.progressive.decode_wins`); each win of the
   group is an award: the level goes back to its reset, in one transaction with the
   award's record (line, address, level, cents), so a power cut of the controller
   loses and doubles nothing (an award is keyed by line, address and the machine's
   answer: the same answer read again after a cut is not a second award).

The meter of a level is ``reset + contributions - awards`` as recorded; contributions
(:meth:`ControllerStore.contribute`) are the caller's to report (a machine's progressive
wagers times the contribution rate: SAS 6.02 gives no meter of them that this cabinet
reports yet).  Amounts are cents; levels 1..32; the group 1..255.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from devices.sas.host import SasHost
from devices.sas.progressive import (
    PROGRESSIVE_WIN,
    SAS_LEVEL_HIT,
    SEND_MULTIPLE_SAS_WIN_AMOUNTS,
    SEND_WIN_AMOUNT,
    ProgressiveMessageError,
    Win,
    check_amount,
    check_group,
    check_level,
    decode_wins,
    multiple_level_broadcast,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS levels (
    level INTEGER PRIMARY KEY, reset INTEGER NOT NULL,
    contributed INTEGER NOT NULL DEFAULT 0, awarded INTEGER NOT NULL DEFAULT 0,
    resets INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS awards (
    id INTEGER PRIMARY KEY, line TEXT NOT NULL, address INTEGER NOT NULL,
    level INTEGER NOT NULL, cents INTEGER NOT NULL, answer TEXT NOT NULL,
    UNIQUE (line, address, answer)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


class ControllerStore:
    """The controller's levels of ``group`` in the SQLite file ``path`` (created with
    ``resets``, level -> reset cents, on a first run; afterwards the file's own)."""

    def __init__(self, path: str | Path, group: int, resets: Mapping[int, int]) -> None:
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)
        with self._txn():
            row = self.db.execute("SELECT value FROM meta WHERE key = 'group'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('group', ?)", (check_group(group),))
            elif row[0] != group:
                raise ValueError(f"{path} is the controller of group {row[0]}, not {group}")
            for level, reset in resets.items():
                self.db.execute(
                    "INSERT OR IGNORE INTO levels (level, reset) VALUES (?, ?)",
                    (check_level(level), check_amount(reset)),
                )
        self.group = group

    def _txn(self) -> _Txn:
        self.db.execute("BEGIN IMMEDIATE")
        return _Txn(self.db)

    def levels(self) -> dict[int, int]:
        """Each level's meter: reset + contributions - awards since the last reset."""
        rows = self.db.execute("SELECT level, reset, contributed, awarded FROM levels")
        return {level: reset + contributed - awarded for level, reset, contributed, awarded in rows}

    def contribute(self, level: int, cents: int) -> None:
        """``cents`` more on ``level``'s meter (recorded at once)."""
        with self._txn():
            self.db.execute(
                "UPDATE levels SET contributed = contributed + ? WHERE level = ?",
                (check_amount(cents), level),
            )

    def award(self, line: str, address: int, win: Win, answer: bytes) -> bool:
        """Record ``win`` read from ``address`` on ``line`` (``answer``: the machine's
        message) and reset its level, in one transaction; False when the same answer was
        recorded already (read again after a cut), the level is not this controller's, or
        the machine claims more than the level's meter (a machine's word is checked
        against the controller's own meter, never taken for it)."""
        with self._txn():
            row = self.db.execute(
                "SELECT reset + contributed - awarded FROM levels WHERE level = ?", (win.level,)
            ).fetchone()
            if win.group != self.group or row is None or win.cents > row[0]:
                return False
            try:
                self.db.execute(
                    "INSERT INTO awards (line, address, level, cents, answer) VALUES (?, ?, ?, ?, ?)",
                    (line, address, win.level, win.cents, answer.hex()),
                )
            except sqlite3.IntegrityError:
                return False
            self.db.execute(
                "UPDATE levels SET contributed = 0, awarded = 0, resets = resets + 1 "
                "WHERE level = ?",
                (win.level,),
            )
        return True

    def awards(self) -> list[tuple[str, int, int, int]]:
        """Every award recorded: (line, address, level, cents), oldest first."""
        return list(self.db.execute("SELECT line, address, level, cents FROM awards ORDER BY id"))

    def close(self) -> None:
        self.db.close()


class _Txn:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> _Txn:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute("ROLLBACK" if kind is not None else "COMMIT")


@dataclass
class ControllerLine:
    """One line the controller links: its name (the port), its host end and the machine
    addresses on it."""

    name: str
    host: SasHost
    addresses: Sequence[int]
    #: Exceptions seen, in order: (address, code).
    seen: list[tuple[int, int]] = field(default_factory=list)


class ProgressiveController:
    """The controller of ``store``'s group over ``lines`` (see the module)."""

    def __init__(self, store: ControllerStore, lines: Iterable[ControllerLine]) -> None:
        self.store = store
        self.lines = list(lines)
        self.broadcasts = 0
        self.refused: list[str] = []

    def cycle(self) -> list[tuple[str, int, Win]]:
        """One round of every line: broadcast, poll, awards.  Returns the awards made."""
        made: list[tuple[str, int, Win]] = []
        for line in self.lines:
            message = multiple_level_broadcast(0, self.store.group, self.store.levels())
            line.host.line.send(message, wakeup_first=True)
            self.broadcasts += 1
            for address in line.addresses:
                ex = line.host.general_poll(address)
                if ex.kind != "exception" or not ex.code:
                    continue
                line.host.acknowledge()
                line.seen.append((address, ex.code))
                if ex.code in (PROGRESSIVE_WIN, SAS_LEVEL_HIT):
                    made += self._read_wins(line, address, ex.code)
        return made

    def _read_wins(
        self, line: ControllerLine, address: int, code: int
    ) -> list[tuple[str, int, Win]]:
        command = SEND_WIN_AMOUNT if code == PROGRESSIVE_WIN else SEND_MULTIPLE_SAS_WIN_AMOUNTS
        ex = line.host.long_poll(address, command)
        if ex.kind != "data":
            self.refused.append(f"{line.name} {address}: no answer to {command:02X}")
            return []
        try:
            wins = decode_wins(command, ex.answer[2:-2])
        except ProgressiveMessageError as exc:
            self.refused.append(f"{line.name} {address}: {exc}")
            return []
        made = []
        for win in wins:
            if self.store.award(line.name, address, win, ex.answer):
                made.append((line.name, address, win))
            elif win.cents > self.store.levels().get(win.level, 0):
                self.refused.append(
                    f"{line.name} {address}: a win of {win.cents} cents on level {win.level}, "
                    "above its meter"
                )
        return made


__all__ = ["ControllerLine", "ControllerStore", "ProgressiveController"]
