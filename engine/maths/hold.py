"""Hold statistics of played rounds: actual against theoretical, with intervals and a flag.

For each bet (Ante, Blind, Play, Trips) and for the main game (Ante + Blind + Play),
over rounds ``i`` with stake ``s_i`` and return ``r_i`` (cents, the stake included, 0
when lost): the *actual hold* is ``sum(s - r) / sum(s)``, a fraction of that bet's
handle.  Its standard error comes from the rounds' own variance (the ratio estimator's
delta method): ``sqrt(sum((s - r - h s)^2)) / sum(s)``.

The *optimal* theoretical hold is ``1 - RTP`` of the paytable under optimal play (the
exact PAR figures).  The theoretical hold *of the decisions made* adds, for the main
game, what the decisions cost: each decision's loss against the optimal one (exact
values, Antes, :mod:`engine.maths.decision_values`) times the round's Ante, over the main
handle (the values telescope: a round's expected net is the optimal value of its deal
less the sum of its decisions' losses).  Trips involves no decision: both theoretical
holds are the optimal one.

The main game and Trips (:data:`FLAGGED`) are *flagged* when at least
``FLAG_MIN_ROUNDS`` rounds are counted and the actual hold lies outside the 99.9% band
(``Z_999`` standard errors) around its reference: the hold of the decisions made when
known, else the optimal hold.  The Ante, Blind and Play rows show their bands but raise
no flag: they move together with the decisions, and the Blind's rare large pays (500:1)
make its sample variance over ten thousand rounds too small to test against.  A player who knows the
dealer's cards holds the house far below its band; a fault that pays wrongly moves it too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

#: The bets reported, then the main game (Ante + Blind + Play).
BETS = ("ante", "blind", "play", "trips")
MAIN = "main"
MAIN_BETS = ("ante", "blind", "play")
#: The rows that can raise the flag.
FLAGGED = (MAIN, "trips")
#: Two-sided normal quantiles: 99% and 99.9%.
Z_99 = 2.5758293035489
Z_999 = 3.2905267314919
#: Rounds below which no row is flagged.
FLAG_MIN_ROUNDS = 10_000
#: The PAR report's RTP name of each row.
RTP_NAMES = {"ante": "ante", "blind": "blind", "play": "play", "trips": "trips", MAIN: "main_total"}


@dataclass(frozen=True)
class HoldRow:
    """One bet's hold over ``rounds`` rounds that staked it (``handle`` cents).

    Holds are fractions of the handle; ``interval`` the 99% interval of the actual hold;
    ``band`` the 99.9% band around ``reference`` (the decisions' hold when known, else
    the optimal one) that ``flagged`` tests.
    """

    bet: str
    rounds: int
    handle: int
    actual: float
    stderr: float
    interval: tuple[float, float]
    optimal: float
    decisions: float | None
    reference: float
    band: tuple[float, float]
    flagged: bool

    def as_dict(self) -> dict[str, object]:
        return {
            "bet": self.bet,
            "rounds": self.rounds,
            "handle_cents": self.handle,
            "actual_hold": _number(self.actual),
            "actual_interval_99": [_number(x) for x in self.interval],
            "optimal_hold": _number(self.optimal),
            "decisions_hold": None if self.decisions is None else _number(self.decisions),
            "band_999": [_number(x) for x in self.band],
            "flagged": self.flagged,
        }


def _number(x: float) -> float | None:
    """``x`` for JSON: None for NaN (no figure)."""
    return None if math.isnan(x) else x


@dataclass(frozen=True)
class HoldReport:
    """The rows of :data:`BETS` then :data:`MAIN`; ``flagged`` when any row is."""

    rows: tuple[HoldRow, ...]

    @property
    def flagged(self) -> bool:
        return any(r.flagged for r in self.rows)

    def row(self, bet: str) -> HoldRow:
        return next(r for r in self.rows if r.bet == bet)

    def as_dict(self) -> dict[str, object]:
        return {"flagged": self.flagged, "bets": [r.as_dict() for r in self.rows]}


def _row(
    bet: str,
    stakes: np.ndarray,
    returns: np.ndarray,
    optimal: float,
    extra: float | None,
    min_rounds: int,
) -> HoldRow:
    staked = stakes > 0
    s = stakes[staked].astype(np.float64)
    r = returns[staked].astype(np.float64)
    handle = float(s.sum())
    n = int(staked.sum())
    if handle <= 0:
        nan = float("nan")
        return HoldRow(bet, 0, 0, nan, nan, (nan, nan), optimal, None, optimal, (nan, nan), False)
    actual = float((s - r).sum() / handle)
    stderr = float(np.sqrt((((s - r) - actual * s) ** 2).sum()) / handle)
    decisions = None if extra is None else optimal + extra / handle
    reference = optimal if decisions is None else decisions
    band = (reference - Z_999 * stderr, reference + Z_999 * stderr)
    flagged = (bet in FLAGGED and n >= min_rounds and not math.isnan(reference)
               and not band[0] <= actual <= band[1])
    interval = (actual - Z_99 * stderr, actual + Z_99 * stderr)
    return HoldRow(
        bet, n, int(handle), actual, stderr, interval, optimal, decisions, reference, band, flagged
    )


def hold_report(
    stakes: Mapping[str, np.ndarray],
    returns: Mapping[str, np.ndarray],
    optimal_rtp: Mapping[str, float] | None,
    decision_loss: np.ndarray | None = None,
    *,
    min_rounds: int = FLAG_MIN_ROUNDS,
) -> HoldReport:
    """The hold report of rounds given per bet (:data:`BETS`) their stakes and returns
    (cents, one entry per round), the RTP of each bet under optimal play (fractions of 1,
    keyed as :meth:`engine.maths.par_report.ParReport.rtps`: ``ante``, ``blind``, ``play``,
    ``trips``, ``main_total``) and, when known, each round's decision loss in cents (the
    sum of its decisions' losses in Antes times its Ante).  ``optimal_rtp`` None (the
    paytable's RTP is not known): the actual hold alone, the optimal and decision
    figures NaN and nothing flagged."""
    nan = float("nan")
    rtp = optimal_rtp if optimal_rtp is not None else dict.fromkeys((*RTP_NAMES.values(), "main_total"), nan)
    if optimal_rtp is None:
        decision_loss = None
    arrays = {b: np.asarray(stakes[b], np.int64) for b in BETS}
    backs = {b: np.asarray(returns[b], np.int64) for b in BETS}
    loss = None if decision_loss is None else float(np.asarray(decision_loss, np.float64).sum())
    rows = [
        _row(b, arrays[b], backs[b], 1.0 - rtp[RTP_NAMES[b]], None, min_rounds)
        for b in BETS
    ]
    main_s = sum(arrays[b] for b in MAIN_BETS)
    main_r = sum(backs[b] for b in MAIN_BETS)
    rows.append(
        _row(
            MAIN,
            np.asarray(main_s),
            np.asarray(main_r),
            1.0 - rtp["main_total"],
            loss,
            min_rounds,
        )
    )
    return HoldReport(tuple(rows))
