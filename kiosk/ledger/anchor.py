"""The ledger's head and its anchor outside the database file.

The *head* names the state of the ledger after one commit: a sequence number that grows
by one with every commit, the number of event and round rows, the hash of the last row of
each chain, the ledger id and the machine number, MAC'd with the cabinet key (see
:mod:`kiosk.ledger.key`).  Every commit writes it into the database (``meta`` key
``head``, in the same transaction as the rows) and, once committed, into the *anchor*: a
file in a second location, replaced atomically (temporary file, fsync, rename, fsync of
the directory).

At open (:func:`check_anchor`) the database's head is compared with the anchor's: a
database *behind* its anchor (an older copy of the file, its ``-wal`` deleted or
swapped for an older one) or belonging to another ledger or machine number is refused.
A database *ahead* of its anchor is what a power cut between the commit and the anchor
write leaves; it is accepted when the anchored event is still in the database with the
anchored hash, and the anchor is then brought up to date.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from kiosk.ledger.chain import dumps
from kiosk.ledger.errors import LedgerCorruptError
from kiosk.ledger.files import _fsync_dir
from kiosk.ledger.key import CabinetKey


@dataclass(frozen=True)
class Head:
    """The ledger after commit ``seq``: ``events`` / ``rounds`` rows, the hash of the last
    of each (64 zeros when none), whose ledger and machine; ``mac`` is the cabinet key's
    MAC of the other fields ("" when written without the key)."""

    seq: int
    ledger_id: str
    machine_number: str
    events: int
    event_head: str
    rounds: int
    round_head: str
    mac: str = ""

    def body(self) -> str:
        """The canonical JSON the MAC covers (every field but ``mac``)."""
        fields = asdict(self)
        del fields["mac"]
        return dumps(fields)

    def signed(self, key: CabinetKey | None) -> Head:
        """This head with ``key``'s MAC ("" without a key)."""
        return replace(self, mac=key.mac(self.body()) if key is not None else "")

    def authentic(self, key: CabinetKey) -> bool:
        return key.check(self.body(), self.mac)

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str, where: str) -> Head:
        """Parse a stored head; raises :class:`LedgerCorruptError` naming ``where``."""
        try:
            data = json.loads(text)
            return cls(
                seq=int(data["seq"]),
                ledger_id=str(data["ledger_id"]),
                machine_number=str(data["machine_number"]),
                events=int(data["events"]),
                event_head=str(data["event_head"]),
                rounds=int(data["rounds"]),
                round_head=str(data["round_head"]),
                mac=str(data.get("mac", "")),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise LedgerCorruptError(f"unreadable head record ({exc!r})", where) from None


def read_anchor(path: Path) -> Head | None:
    """The head stored in the anchor file, None when there is no anchor file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise LedgerCorruptError(f"anchor {path} is unreadable ({exc})") from None
    return Head.from_json(text, f"anchor {path}")


def write_anchor(path: Path, head: Head) -> None:
    """Replace the anchor file with ``head``, atomically and durably."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(head.to_json() + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def check_anchor(
    db: Head, anchor: Head, path: Path, key: CabinetKey | None, event_hash_at: dict[int, str]
) -> None:
    """Refuse a database head ``db`` that the anchor ``anchor`` (file ``path``) shows to
    be rolled back or foreign.  ``event_hash_at`` maps the anchored event id to its hash
    in the database (empty when that row is absent).  With ``key`` the anchor's MAC is
    checked too.  Raises :class:`LedgerCorruptError` with the reason."""
    where = f"anchor {path}"
    if key is not None and not anchor.authentic(key):
        raise LedgerCorruptError("not signed with this cabinet's key (forged or foreign)", where)
    if anchor.ledger_id != db.ledger_id:
        raise LedgerCorruptError(
            f"names ledger {anchor.ledger_id}, the database is ledger {db.ledger_id} "
            "(another cabinet's or a replaced database)",
            where,
        )
    if anchor.machine_number != db.machine_number:
        raise LedgerCorruptError(
            f"names machine {anchor.machine_number!r}, the database machine {db.machine_number!r}",
            where,
        )
    if db.seq < anchor.seq or db.events < anchor.events or db.rounds < anchor.rounds:
        raise LedgerCorruptError(
            f"the database is behind its anchor: commit {db.seq} with {db.events} events and "
            f"{db.rounds} rounds, the anchor records commit {anchor.seq} with {anchor.events} "
            f"events and {anchor.rounds} rounds (an older copy of the file, or its -wal "
            "deleted or replaced)",
            where,
        )
    if db.seq == anchor.seq:
        if (db.event_head, db.round_head) != (anchor.event_head, anchor.round_head):
            raise LedgerCorruptError(
                f"the database's commit {db.seq} differs from the anchored one "
                "(rows changed outside the cabinet)",
                where,
            )
        return
    if event_hash_at.get(anchor.events) != anchor.event_head:
        raise LedgerCorruptError(
            f"events {anchor.events}: differs from the anchored event (the database is "
            "not a continuation of the anchored ledger)",
            where,
        )
