"""The hold report of the rounds in the ledger, grouped by paytable: what ``uth audit
hold`` prints and the operator's Hold page shows.

For each paytable the settled rounds were played on: the actual hold per bet against the
theoretical hold of the decisions made and the optimal theoretical hold, with 99%
intervals and the flag (:func:`engine.maths.hold.hold_report`).  The optimal RTPs come
from the exact PAR figures (the cache; computed when asked and not there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from engine.maths.hold import BETS, HoldReport, hold_report
from engine.uth.paytable import Paytable
from kiosk.ledger.records import RoundRecord
from kiosk.ledger.view import LedgerView


@dataclass(frozen=True)
class PaytableHold:
    """The hold of the ``rounds`` settled rounds played on ``table``; ``report`` is None
    when the table's exact RTP is not known (not computed on this cabinet yet)."""

    table: Paytable
    rounds: int
    report: HoldReport | None

    @property
    def flagged(self) -> bool:
        return self.report is not None and self.report.flagged

    def as_dict(self) -> dict[str, Any]:
        head = {
            "paytable": self.table.name,
            "paytable_sha256": self.table.sha256,
            "rounds": self.rounds,
        }
        return {
            **head,
            **(self.report.as_dict() if self.report is not None else {"rtp_unknown": True}),
        }


def hold_of_rounds(rounds: Sequence[RoundRecord], rtps: dict[str, float]) -> HoldReport:
    """The hold report (:func:`engine.maths.hold.hold_report`) of settled ``rounds`` against
    the optimal RTPs ``rtps`` (fractions of 1); each round's decision loss is the sum of
    its decisions' losses (Antes) times its Ante, when every decision has its values."""
    stakes = {b: np.array([getattr(r, b) for r in rounds], np.int64) for b in BETS}
    returns = {b: np.array([getattr(r, f"{b}_return") for r in rounds], np.int64) for b in BETS}
    losses = [[d.loss for d in r.decisions] for r in rounds]
    known = all(x is not None for per in losses for x in per)
    loss = (
        np.array(
            [
                float(sum(x for x in per if x is not None)) * r.ante
                for per, r in zip(losses, rounds, strict=True)
            ]
        )
        if known
        else None
    )
    return hold_report(stakes, returns, rtps, loss)


def optimal_rtps(table: Paytable, compute: bool) -> dict[str, float] | None:
    """The exact optimal-play RTPs of ``table`` (fractions of 1) from the PAR cache, or
    computed when not there and ``compute``; None when not known."""
    from engine.maths.cache import cached_rtp

    rtps = cached_rtp(table)
    if rtps is None and compute:
        from engine.maths.par import par

        rtps = par(table, "optimal").rtps()
    return None if rtps is None else {str(k): float(v) for k, v in rtps.items()}


def ledger_hold(
    ledger: LedgerView, since: str | None = None, *, compute: bool = True
) -> list[PaytableHold]:
    """The hold of the settled rounds of ``ledger`` (those settled at or after the UTC
    stamp ``since`` when given), one entry per paytable in the order first played.
    ``compute``: compute an exact RTP not in the PAR cache (seconds to minutes); else
    that table's report is None."""
    tail, params = "WHERE state = 'settled'", cast(tuple[str, ...], ())
    if since:
        tail, params = tail + " AND settled_at >= ?", (since,)
    groups: dict[str, list[RoundRecord]] = {}
    for row in ledger.round_rows(tail + " ORDER BY id", params):
        rec = RoundRecord.from_row(row)
        groups.setdefault(rec.paytable_sha256, []).append(rec)
    out = []
    for sha, rounds in groups.items():
        table = ledger.paytable(sha)
        rtps = optimal_rtps(table, compute)
        out.append(
            PaytableHold(table, len(rounds), None if rtps is None else hold_of_rounds(rounds, rtps))
        )
    return out
