"""A station as the witness of the table host's ledger.

The host sends its ledger's signed head (:class:`kiosk.ledger.anchor.Head`: commit
sequence, row counts, chain heads, ledger id, machine number, the host key's MAC) with
every snapshot (``ledger_head``).  A station keeps the latest head it saw in a file of
its own (:class:`HeadWitness`, beside its pairing), on another machine than the host's
ledger: a host that later presents a head *behind* it (a lower sequence number or fewer
rows of the same ledger, or the same sequence with another chain head) or another
ledger has had its ledger folder rolled back or replaced, which its own anchor on the
same medium cannot see.  The station then stops (:data:`WITNESS_TILT`) until the host's
ledger is restored or the station is paired again (which forgets the witness).

The station cannot check the MAC (the host's key stays on the host); the head comes over
the pinned TLS link from the paired host, and the MAC is kept for an inspector.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.link.files import write_private
from kiosk.link.pairing import WITNESS_FILE

#: The tilt of a station whose host presented a ledger head behind the one it kept.
WITNESS_TILT = "host_ledger_behind"
__all__ = ["WITNESS_FILE", "WITNESS_TILT", "HeadWitness", "SeenHead", "behind"]
_FIELDS = ("seq", "ledger_id", "events", "event_head", "rounds", "round_head")


@dataclass(frozen=True)
class SeenHead:
    """The parts of a host head a witness compares."""

    seq: int
    ledger_id: str
    events: int
    event_head: str
    rounds: int
    round_head: str

    @classmethod
    def parse(cls, data: object) -> SeenHead | None:
        """A head from its JSON object; None when it is not one."""
        if not isinstance(data, dict):
            return None
        try:
            seq, events, rounds = (int(data[k]) for k in ("seq", "events", "rounds"))
            names = (str(data[k]) for k in ("ledger_id", "event_head", "round_head"))
            ledger_id, event_head, round_head = names
        except (KeyError, TypeError, ValueError):
            return None
        return cls(seq, ledger_id, events, event_head, rounds, round_head)


def behind(kept: SeenHead, head: SeenHead) -> str | None:
    """Why ``head`` cannot follow ``kept`` (None when it can: the same or a later state
    of the same ledger)."""
    if head.ledger_id != kept.ledger_id:
        return f"the host presents ledger {head.ledger_id}, not {kept.ledger_id} it kept"
    if head.seq < kept.seq or head.events < kept.events or head.rounds < kept.rounds:
        return (
            f"the host's ledger is at commit {head.seq} ({head.events} events, "
            f"{head.rounds} rounds), behind commit {kept.seq} ({kept.events} events, "
            f"{kept.rounds} rounds) this station saw: rolled back"
        )
    if head.seq == kept.seq and (head.event_head, head.round_head) != (
        kept.event_head,
        kept.round_head,
    ):
        return f"the host's commit {head.seq} has other rows than the one this station saw"
    return None


class HeadWitness:
    """The latest host head a station saw, kept in ``path`` (written when it advances).
    Not thread-safe: the caller serialises :meth:`observe`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.kept: SeenHead | None = None
        self.problem = ""
        if self.path.exists():
            try:
                self.kept = SeenHead.parse(json.loads(self.path.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                self.kept = None
            if self.kept is None:
                self.problem = f"the witness file {self.path} is unreadable"

    def observe(self, data: object) -> str:
        """Take the host head ``data`` (its JSON object); returns why the host is refused
        ("" when it is not).  Once refused, stays refused for this run."""
        if self.problem:
            return self.problem
        head = SeenHead.parse(data)
        if head is None:
            return ""  # a host that sends no head: nothing to compare
        if self.kept is not None:
            why = behind(self.kept, head)
            if why:
                self.problem = why
                return why
            if head == self.kept:
                return ""
        self.kept = head
        body: dict[str, Any] = {k: getattr(head, k) for k in _FIELDS}
        if isinstance(data, dict) and "mac" in data:
            body["mac"] = str(data["mac"])
        write_private(self.path, (json.dumps(body, sort_keys=True) + "\n").encode())
        return ""
