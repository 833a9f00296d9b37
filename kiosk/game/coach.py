"""The strategy coach: after a settled round, the costliest of its decisions that was not
optimal, from the exact values stored with each decision in the ledger
(:mod:`kiosk.game.round_values`).  A round whose decisions were all optimal, or whose
values were not recorded, has no tip."""

from __future__ import annotations

from kiosk.game.snapshot import CoachTip
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import RoundRecord

#: The last tip read, by (ledger file, round id): the round is read once, not per snapshot.
_last: tuple[tuple[str, int], CoachTip | None] | None = None


def tip_of(record: RoundRecord) -> CoachTip | None:
    """The costliest non-optimal decision of ``record`` (the first of equal losses); None
    when every decision with values was optimal or none has values."""
    worst = None
    for d in record.decisions:
        loss = d.loss
        if loss is None or loss <= 0 or d.best is None:
            continue
        if worst is None or loss > worst.loss:
            worst = CoachTip(record.id, d.action, d.best, loss)
    return worst


def coach_tip(ledger: Ledger | None, round_id: int | None) -> CoachTip | None:
    """The coach's tip on the settled round ``round_id`` (the one a station shows); None
    without a ledger, a round, or a costly decision."""
    global _last
    if ledger is None or round_id is None:
        return None
    key = (str(ledger.path), round_id)
    if _last is None or _last[0] != key:
        record = ledger.round(round_id)
        _last = (key, tip_of(record) if record is not None and record.state == "settled" else None)
    return _last[1]
