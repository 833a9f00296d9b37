"""The hold report of the rounds in the ledger, grouped by paytable: what ``uth audit
hold`` prints and the operator's Hold page shows.

For each paytable the settled rounds were played on: the actual hold per bet against the
theoretical hold of the decisions made and the optimal theoretical hold, with 99%
intervals and the flag (:func:`engine.maths.hold.hold_report`).

The optimal RTPs are the paytable's proven record (:func:`kiosk.game.paytables.rtp_record.rtp_record`:
the PAR report with this cabinet's signed proof beside it, or the program's shipped
record), since anyone with file access can write the PAR cache.  Without a proof, ``compute`` computes the report
afresh (in a private folder, from no cached file) and signs it; otherwise the cache's
figure is used but marked unproven (:attr:`PaytableHold.unproven` says why).
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from engine.maths.hold import BETS, HoldReport, hold_report
from engine.uth.paytable import Paytable
from kiosk.game.paytables.par_proof import ProofError, sign_proof
from kiosk.game.paytables.rtp_record import RtpRecordError, rtp_record
from kiosk.ledger.key import CabinetKey
from kiosk.ledger.records import RoundRecord
from kiosk.ledger.view import LedgerView

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PaytableHold:
    """The hold of the ``rounds`` settled rounds played on ``table``.  ``report`` always
    has the actual hold; its optimal and decision figures are NaN when ``rtp_known`` is
    False (the table's exact RTP is not computed on this cabinet yet)."""

    table: Paytable
    rounds: int
    report: HoldReport
    rtp_known: bool = True
    #: Why the optimal figures are not proven on this cabinet ("" when they are MAC'd
    #: with its key, or were computed just now).
    unproven: str = ""

    @property
    def flagged(self) -> bool:
        return self.report.flagged

    def as_dict(self) -> dict[str, object]:
        head = {
            "paytable": self.table.name,
            "paytable_sha256": self.table.sha256,
            "rounds": self.rounds,
        }
        return {
            **head,
            **self.report.as_dict(),
            **({} if self.rtp_known else {"rtp_unknown": True}),
            **({"rtp_unproven": self.unproven} if self.unproven else {}),
        }


def hold_of_rounds(rounds: Sequence[RoundRecord], rtps: dict[str, float] | None) -> HoldReport:
    """The hold report (:func:`engine.maths.hold.hold_report`) of settled ``rounds`` against
    the optimal RTPs ``rtps`` (fractions of 1; None: the actual hold alone); each round's decision loss is the sum of
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


def optimal_rtps(
    table: Paytable, compute: bool, key: CabinetKey | None = None
) -> tuple[dict[str, float] | None, str]:
    """The exact optimal-play RTPs of ``table`` (fractions of 1) and why they are
    unproven ("" when proven): its proven record; else, with ``compute``, the
    report computed now from no cached file (and signed with ``key``); else the PAR
    cache's unsigned figures with the reason; ``(None, ...)`` when none is known."""
    from engine.maths.cache import cached_rtp

    try:
        return dict(rtp_record(table, key).figures), ""
    except RtpRecordError as exc:
        reason = f"the PAR cache's figures are not this paytable's proven record ({exc})"
    if compute:
        from engine.maths.par import par

        with tempfile.TemporaryDirectory(prefix="uth-par-") as private:
            report = par(table, "optimal", cache=private, use_cache=False)
        if key is not None:
            try:
                sign_proof(key, table, report)
            except (OSError, ProofError) as exc:
                log.warning("could not keep the proof of %s: %s", table.name, exc)
        return {str(k): float(v) for k, v in report.rtps().items()}, ""
    rtps = cached_rtp(table)
    return (None if rtps is None else {str(k): float(v) for k, v in rtps.items()}), reason


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
        rtps, unproven = optimal_rtps(table, compute, ledger.key)
        report = hold_of_rounds(rounds, rtps)
        known = rtps is not None
        out.append(PaytableHold(table, len(rounds), report, known, unproven if known else ""))
    return out
