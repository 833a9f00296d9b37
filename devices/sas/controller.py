"""A technician's progressive controller (SAS 6.02's progressive messages, the
controller's end): one meter per level of one group, broadcast to every line it links,
each machine's contributions and progressive wins read; its state in a small SQLite
file.

Each :meth:`ProgressiveController.cycle`, on every line in turn:

1. the levels are broadcast to address 0 (long poll 86, every machine of the group on
   the line takes them; none answers): a machine that hears none for 5 seconds stops
   play (exception 53);
2. each machine address on the line is general-polled until it has nothing to say; a
   win's exception (54 progressive win credited, 51 handpay pending, 56 SAS level hit)
   is recorded in the file before the machine is acknowledged
   (:meth:`ControllerStore.expect`);
3. each machine's contribution meter is read (extended meters 6F, the cabinet's code
   :data:`CONTRIBUTION_METER`): what it grew by since the last reading is added to the
   level, in one transaction with the reading;
4. each win recorded is read, with 84 for 54, 1B for 51 and 87 for 56: a win of the
   group no larger than its level's meter is taken off the level, which goes back to its
   reset when the win leaves it below; the award (line, address, level, cents) and the
   end of the reading are one transaction; an answer that does not decode ends no
   reading (it is tried again next cycle).

So a power cut of the controller at any instant loses and doubles nothing: a win seen
but not read is read after the power-up, a win read is never read again.  Every sum is
a lifetime one: a level's meter is ``seeded + contributed - awarded``.  Amounts are
cents; levels 1..32; the group 1..255.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from devices.sas.bcd import BcdError, from_bcd
from devices.sas.host import SasHost
from devices.sas.progressive import (
    HANDPAY_INFO,
    PROGRESSIVE_WIN,
    SAS_LEVEL_HIT,
    SEND_MULTIPLE_SAS_WIN_AMOUNTS,
    SEND_WIN_AMOUNT,
    ProgressiveMessageError,
    Win,
    check_amount,
    check_group,
    check_level,
    decode_handpay_info,
    decode_wins,
    multiple_level_broadcast,
)

#: General poll exception 51, handpay pending: a hand-paid progressive win is read with 1B.
HANDPAY_PENDING = 0x51
#: General polls of one machine in one cycle at most (its queue holds up to 32).
EXCEPTIONS_PER_CYCLE = 32
#: Long poll 6F, send extended meters (game number, then 2-byte meter codes).
EXTENDED_METERS = 0x6F
#: The cabinet's contribution meter code (cents of progressive wagers fed to the linked
#: level; SAS 6.02's Table C-7 has no such meter, see kiosk.sas.codes).
CONTRIBUTION_METER = 0x1000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS levels (
    level INTEGER PRIMARY KEY, reset INTEGER NOT NULL,
    seeded INTEGER NOT NULL, contributed INTEGER NOT NULL DEFAULT 0,
    awarded INTEGER NOT NULL DEFAULT 0, resets INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS awards (
    id INTEGER PRIMARY KEY, line TEXT NOT NULL, address INTEGER NOT NULL,
    level INTEGER NOT NULL, cents INTEGER NOT NULL, answer TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pending (
    id INTEGER PRIMARY KEY, line TEXT NOT NULL, address INTEGER NOT NULL, code INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS readings (
    line TEXT NOT NULL, address INTEGER NOT NULL, contributed INTEGER NOT NULL,
    PRIMARY KEY (line, address)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


class ControllerStore:
    """The controller's levels of ``group`` in the SQLite file ``path`` (created with
    ``resets``, level -> reset cents, on a first run; afterwards the file's own).

    Every column is a lifetime sum, so a level's meter is always
    ``seeded + contributed - awarded`` (cents): ``seeded`` is the reset put on the level
    when it was created and each time an award left it below its reset (the casino's
    money), ``contributed`` what the machines' contribution meters grew by, ``awarded``
    every win taken off it (one row in ``awards`` each)."""

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
                    "INSERT OR IGNORE INTO levels (level, reset, seeded) VALUES (?, ?, ?)",
                    (check_level(level), check_amount(reset), reset),
                )
        self.group = group

    def _txn(self) -> _Txn:
        self.db.execute("BEGIN IMMEDIATE")
        return _Txn(self.db)

    def levels(self) -> dict[int, int]:
        """Each level's meter: seeded + contributed - awarded (cents)."""
        rows = self.db.execute("SELECT level, seeded, contributed, awarded FROM levels")
        return {level: seeded + fed - awarded for level, seeded, fed, awarded in rows}

    def totals(self, level: int) -> tuple[int, int, int]:
        """``level``'s lifetime (seeded, contributed, awarded), cents."""
        row = self.db.execute(
            "SELECT seeded, contributed, awarded FROM levels WHERE level = ?", (level,)
        ).fetchone()
        if row is None:
            raise KeyError(level)
        return row[0], row[1], row[2]

    def contribute(self, level: int, cents: int) -> None:
        """``cents`` more on ``level``'s meter (recorded at once)."""
        with self._txn():
            self._add(level, check_amount(cents))

    def _add(self, level: int, cents: int) -> None:
        self.db.execute(
            "UPDATE levels SET contributed = contributed + ? WHERE level = ?", (cents, level)
        )

    def reading(self, line: str, address: int, level: int, meter: int) -> int:
        """A machine's contribution meter read (cents, lifetime): what it grew by since
        the last reading is added to ``level``, in one transaction with the reading, so a
        power cut neither loses nor counts it twice.  Returns the cents added; a meter
        that went back (another ledger at that address) is taken as the new start and
        adds nothing."""
        with self._txn():
            row = self.db.execute(
                "SELECT contributed FROM readings WHERE line = ? AND address = ?",
                (line, address),
            ).fetchone()
            last = 0 if row is None else row[0]
            grew = meter - last if meter >= last else 0
            self.db.execute(
                "INSERT INTO readings VALUES (?, ?, ?) ON CONFLICT (line, address) "
                "DO UPDATE SET contributed = excluded.contributed",
                (line, address, check_amount(meter)),
            )
            if grew:
                self._add(level, grew)
        return grew

    def expect(self, line: str, address: int, code: int) -> int:
        """A win's exception (54, 51 or 56) seen at ``address`` on ``line``, recorded
        before the machine is acknowledged: a power cut between the acknowledgement and
        the win's reading leaves the reading to do.  Returns its id."""
        with self._txn():
            cur = self.db.execute(
                "INSERT INTO pending (line, address, code) VALUES (?, ?, ?)", (line, address, code)
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def expected(self) -> list[tuple[int, str, int, int]]:
        """Wins' exceptions whose reading is still to do: (id, line, address, code)."""
        return list(self.db.execute("SELECT id, line, address, code FROM pending ORDER BY id"))

    def read(
        self, pending: int, line: str, address: int, wins: Sequence[Win], answer: bytes
    ) -> list[Win]:
        """The reading of the exception ``pending``: each of ``wins`` (``answer``: the
        machine's message) taken off its level and the reading done, in one
        transaction (so a power cut either leaves it all to do or has done it all).  A
        level a win leaves below its reset goes back to the reset (seeded by the
        difference).  Returns the wins awarded; a win of another group or level, or of
        more than the level's meter (a machine's word is checked against the
        controller's own meter, never taken for it), is left out."""
        made: list[Win] = []
        with self._txn():
            if not self.db.execute("SELECT 1 FROM pending WHERE id = ?", (pending,)).fetchone():
                return made  # read already
            self.db.execute("DELETE FROM pending WHERE id = ?", (pending,))
            for win in wins:
                row = self.db.execute(
                    "SELECT reset, seeded + contributed - awarded FROM levels WHERE level = ?",
                    (win.level,),
                ).fetchone()
                if win.group != self.group or row is None or win.cents > row[1]:
                    continue
                reset, meter = row
                self.db.execute(
                    "INSERT INTO awards (line, address, level, cents, answer) VALUES (?, ?, ?, ?, ?)",
                    (line, address, win.level, win.cents, answer.hex()),
                )
                left = meter - win.cents
                seed = reset - left if left < reset else 0
                self.db.execute(
                    "UPDATE levels SET awarded = awarded + ?, seeded = seeded + ?, "
                    "resets = resets + ? WHERE level = ?",
                    (win.cents, seed, 1 if seed else 0, win.level),
                )
                made.append(win)
        return made

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

    def __init__(
        self,
        store: ControllerStore,
        lines: Iterable[ControllerLine],
        *,
        level: int = 1,
        read_contributions: bool = True,
    ) -> None:
        """``level``: the level the machines' contribution meters feed."""
        self.store = store
        self.lines = list(lines)
        self.level = level
        self.read_contributions = read_contributions
        self.broadcasts = 0
        self.refused: list[str] = []

    def cycle(self) -> list[tuple[str, int, Win]]:
        """One round of every line: broadcast, poll, contributions, awards (the readings
        a power cut left to do first).  Returns the awards made."""
        made: list[tuple[str, int, Win]] = []
        lines = {line.name: line for line in self.lines}
        for line in self.lines:
            message = multiple_level_broadcast(0, self.store.group, self.store.levels())
            line.host.line.send(message, wakeup_first=True)
            self.broadcasts += 1
            for address in line.addresses:
                self._exceptions(line, address)
                if self.read_contributions:
                    self._read_contributions(line, address)
        for pending, name, address, code in self.store.expected():
            if name in lines:
                made += self._read_wins(pending, lines[name], address, code)
        return made

    def _exceptions(self, line: ControllerLine, address: int) -> None:
        """The machine's queued exceptions up to :data:`EXCEPTIONS_PER_CYCLE` or its "no
        activity", each acknowledged; a win's recorded first (:meth:`ControllerStore.expect`)."""
        for _ in range(EXCEPTIONS_PER_CYCLE):
            ex = line.host.general_poll(address)
            if ex.kind != "exception" or not ex.code:
                return
            if ex.code in (PROGRESSIVE_WIN, SAS_LEVEL_HIT, HANDPAY_PENDING):
                self.store.expect(line.name, address, ex.code)
            line.host.acknowledge()
            line.seen.append((address, ex.code))

    def _read_contributions(self, line: ControllerLine, address: int) -> None:
        """The machine's contribution meter (extended meters 6F, this cabinet's code
        :data:`CONTRIBUTION_METER`), its growth added to the linked level."""
        code = CONTRIBUTION_METER.to_bytes(2, "little")
        ex = line.host.long_poll(address, EXTENDED_METERS, b"\x00\x00" + code)
        if ex.kind != "data":
            return
        body = ex.answer[3:-2]  # after the length byte: game (2 BCD), then code, size, value
        if len(body) < 5 or body[2:4] != code or body[4] == 0:
            return
        size = body[4]
        try:
            meter = from_bcd(body[5 : 5 + size])
        except BcdError as exc:
            self.refused.append(f"{line.name} {address}: contribution meter: {exc}")
            return
        self.store.reading(line.name, address, self.level, meter)

    def _read_wins(
        self, pending: int, line: ControllerLine, address: int, code: int
    ) -> list[tuple[str, int, Win]]:
        if code == HANDPAY_PENDING:
            command = HANDPAY_INFO
        elif code == PROGRESSIVE_WIN:
            command = SEND_WIN_AMOUNT
        else:
            command = SEND_MULTIPLE_SAS_WIN_AMOUNTS
        ex = line.host.long_poll(address, command)
        if ex.kind != "data":
            self.refused.append(f"{line.name} {address}: no answer to {command:02X}")
            return []  # read again next cycle
        wins: list[Win] = []
        try:
            if command == HANDPAY_INFO:
                found = decode_handpay_info(ex.answer[2:-2])
                wins = [] if found is None else [found]  # a handpay that is no progressive win
            else:
                wins = decode_wins(command, ex.answer[2:-2])
        except ProgressiveMessageError as exc:
            self.refused.append(f"{line.name} {address}: {exc}")
            return []  # a garbled answer ends no reading: read again next cycle
        levels = self.store.levels()
        made = self.store.read(pending, line.name, address, wins, ex.answer)
        for win in wins:
            if win not in made:
                self.refused.append(
                    f"{line.name} {address}: a win of {win.cents} cents on group {win.group} "
                    f"level {win.level} refused: above its meter "
                    f"({levels.get(win.level, 0)} cents) or not this controller's"
                )
        return [(line.name, address, win) for win in made]


__all__ = ["ControllerLine", "ControllerStore", "ProgressiveController"]
