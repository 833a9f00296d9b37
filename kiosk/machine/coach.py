"""The strategy coach: after a settled round, the costliest of its decisions that was not
optimal, from the exact values stored with each decision in the ledger
(:mod:`kiosk.machine.round_values`).  A round whose decisions were all optimal, or whose
values were not recorded, has no tip."""

from __future__ import annotations

from kiosk.ledger.records import RoundRecord
from kiosk.machine.snapshot import CoachTip
from kiosk.machine.state import CabinetState

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


def coach_tip(st: CabinetState) -> CoachTip | None:
    """The coach's tip on the settled round the table shows; None while the coach is off,
    a round is open or no result is shown."""
    global _last
    ledger = st.ledger
    if not st.coach or ledger is None or st.round_open or not st.show_result or st.round_id is None:
        return None
    key = (str(ledger.path), st.round_id)
    if _last is None or _last[0] != key:
        record = ledger.round(st.round_id)
        _last = (key, tip_of(record) if record is not None and record.state == "settled" else None)
    return _last[1]
