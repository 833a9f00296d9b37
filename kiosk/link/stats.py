"""What a link end has done, counted: frames, deliveries, duplicates, resends, refusals."""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field, replace

log = logging.getLogger("kiosk.link")


@dataclass
class LinkStats:
    """Counters of one link end (a snapshot is a copy; see ``snapshot``)."""

    frames_in: int = 0
    frames_out: int = 0
    delivered: int = 0
    duplicates: int = 0
    resent: int = 0
    connections: int = 0
    authenticated: int = 0
    resets: int = 0
    unexpected: int = 0  # connections ended by an exception the link did not expect
    peak_open: int = 0  # the most connections open at once (the host's cap bounds it)
    refusals: Counter[str] = field(default_factory=Counter)

    def refuse(self, reason: str, peer: object, detail: str = "") -> None:
        """Count and log one refusal (``reason`` a stable code, ``peer`` who sent it)."""
        self.refusals[reason] += 1
        log.warning("link refused %s from %s%s", reason, peer, f": {detail}" if detail else "")

    def snapshot(self) -> LinkStats:
        return replace(self, refusals=Counter(self.refusals))
