"""A seat's progressive in its recalled rounds: the wager and the award the ledger's
events record beside each round's row (``progressive_wager``, ``progressive_award`` and
``progressive_jackpot``, each with the station and the seat's row as its round).
Amounts are cents."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import RoundRecord

#: The events that name a seat's progressive in a round.
KINDS = (EventKind.PROGRESSIVE_WAGER, EventKind.PROGRESSIVE_AWARD, EventKind.PROGRESSIVE_JACKPOT)


def with_progressive(ledger: Ledger, rows: Sequence[RoundRecord]) -> list[RoundRecord]:
    """``rows`` (a recall's, the most recent rounds) with each seat's progressive wager,
    award and the award's hand."""
    wagers: dict[tuple[int, int], int] = {}
    awards: dict[tuple[int, int], tuple[int, str]] = {}
    for seat in sorted({r.seat for r in rows}):
        count = sum(1 for r in rows if r.seat == seat)  # at most two events a round
        for ev in ledger.events(KINDS, station=seat, last=2 * count + 2):
            if ev.round_id is None:
                continue
            if ev.kind == EventKind.PROGRESSIVE_WAGER:
                wagers[(seat, ev.round_id)] = ev.amount
            else:
                awards[(seat, ev.round_id)] = (ev.amount, str(ev.detail.get("hand", "")))
    out = []
    for r in rows:
        key = (r.seat, r.id)
        if key not in wagers:
            out.append(r)
            continue
        award, hand = awards.get(key, (0, None))
        out.append(
            dataclasses.replace(
                r, progressive=wagers[key], progressive_award=award, progressive_hand=hand
            )
        )
    return out
