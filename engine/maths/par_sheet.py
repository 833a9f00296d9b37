"""The figures of a PAR sheet, each with its name in ``uth par --json``.

A sheet is built from the reports of :func:`engine.maths.par.par` (or of the simulator)
and adds nothing but what follows from them: every figure carries the JSON path it is
read from (``main.bets.ante.rtp``) and, for exact reports, its exact fraction, taken from
the report's own fractions (``main.exact``, ``contribution_exact``, ``rtp_exact``,
``ev_exact``) or derived from them (a bet's house edge is 1 minus its return; a Blind
line's hit frequency is its contribution over its pay).  The main game's exact variance,
decision frequencies and the standard deviation of each return come from the analysis'
cell counts (:func:`cell_moments`); they give the interval a simulation of ``N`` rounds
must fall in (:func:`interval`).

Units: Antes (Ante = Blind = 1); returns include the stake.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from engine.maths.par_report import DECISION_NAMES, FIELDS, MULTIPLES, Z95, Z99, ParReport
from engine.uth.paytable import Paytable

#: The returns a sheet gives an interval for, with the JSON path of each.
RETURNS: tuple[tuple[str, str], ...] = (
    ("rtp_total_main_bet", "main.rtp_total_main_bet"),
    ("rtp_initial_main_bet", "main.rtp_initial_main_bet"),
    ("ante", "main.bets.ante.rtp"),
    ("blind", "main.bets.blind.rtp"),
    ("play", "main.bets.play.rtp"),
    ("trips", "trips.rtp"),
)
#: Rounds of the simulations a sheet gives intervals for.
SHEET_ROUNDS = (1_000_000, 10_000_000, 100_000_000, 1_000_000_000)
#: Confidence levels: name, two-sided normal quantile.
LEVELS = (("95%", Z95), ("99%", Z99))


@dataclass(frozen=True)
class Figure:
    """One figure: ``path`` in the report's JSON, its ``value`` there, and its exact
    fraction when the report is exact."""

    path: str
    value: float
    exact: Fraction | None = None


def lookup(data: dict[str, Any], path: str) -> Any:
    """The value at a dotted ``path`` of a report's JSON (``main.bets.ante.rtp``)."""
    node: Any = data
    for part in path.split("."):
        node = node[part]
    return node


def fraction(text: str | None) -> Fraction | None:
    """A report's exact fraction ``"n/d"`` (None stays None)."""
    if text is None:
        return None
    n, d = text.split("/")
    return Fraction(int(n), int(d))


def exact_figures(report: ParReport) -> dict[str, Fraction]:
    """Every exact fraction the report holds or implies, by JSON path (empty for a
    simulated report)."""
    if not report.exact:
        return {}
    m, t = report.main, report.trips
    ex = {k: fraction(v) for k, v in m["exact"].items()}
    out: dict[str, Fraction] = {}

    def put(path: str, value: Fraction | None) -> None:
        if value is not None:
            out[path] = value

    put("main.rtp_total_main_bet", ex["rtp_total_main_bet"])
    put("main.rtp_initial_main_bet", ex["rtp_initial_main_bet"])
    put("main.house_edge_per_ante", ex["house_edge_per_ante"])
    put("main.element_of_risk", ex["element_of_risk"])
    put("main.average_total_wager", ex["average_total_wager"])
    ante, blind, play = ex["ante_rtp"], ex["blind_rtp"], ex.get("play_rtp")
    stake_play = ex["average_total_wager"] - 2 if ex["average_total_wager"] is not None else None
    put("main.bets.ante.rtp", ante)
    put("main.bets.blind.rtp", blind)
    put("main.bets.play.rtp", play)
    if ante is not None:
        put("main.bets.ante.house_edge_per_ante", 1 - ante)
    if blind is not None:
        put("main.bets.blind.house_edge_per_ante", 1 - blind)
    if stake_play is not None:
        put("main.bets.play.average_stake", stake_play)
        put(
            "main.bets.play.house_edge_per_ante",
            stake_play - (play * stake_play if play is not None else 0),
        )
    for name, line in m["blind_lines"].items():
        contribution = fraction(line.get("contribution_exact"))
        if contribution is not None:
            out[f"main.blind_lines.{name}.contribution"] = contribution
            out[f"main.blind_lines.{name}.hit_frequency"] = contribution / _ratio(line["pay"])
    rtp = fraction(t.get("rtp_exact"))
    if rtp is not None:
        out["trips.rtp"] = rtp
        out["trips.house_edge"] = 1 - rtp
    for name, line in t["lines"].items():
        hit = fraction(line.get("hit_frequency_exact"))
        if hit is not None:
            out[f"trips.lines.{name}.hit_frequency"] = hit
            out[f"trips.lines.{name}.contribution"] = hit * (1 + _ratio(line["pay"]))
    for hand, p in report.preflop.items():
        for option, value in p.get("ev_exact", {}).items():
            out[f"preflop.{hand}.ev.{option}"] = Fraction(value)
    return out


def _ratio(pay: str) -> Fraction:
    n, d = pay.split(":")
    return Fraction(int(n), int(d))


@dataclass(frozen=True)
class Moments:
    """Exact moments of one round from the analysis' cell counts: the variance of the
    net result in Antes², the decision frequencies, and for each return of
    :data:`RETURNS` the variance of its per-round influence ``(X - R Y) / E[Y]`` (a
    simulation's estimate of R over ``N`` rounds has variance this over ``N``)."""

    variance: Fraction
    decisions: dict[str, Fraction]
    return_variance: dict[str, Fraction]


def cell_moments(counts: np.ndarray, values: dict[str, list[list[list[Fraction]]]]) -> Moments:
    """Exact :class:`Moments` from cell counts ``(5, 10, 6)`` (integers) and the cells'
    returns (:func:`engine.maths.par_report.cell_values`)."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    cells = [c for c in np.argwhere(counts > 0)]
    weight = [Fraction(int(counts[tuple(c)]), total) for c in cells]

    def val(field: str, c: np.ndarray) -> Fraction:
        return Fraction(values[field][c[0]][c[1]][c[2]])

    def mean(fn: Any) -> Fraction:
        return sum((w * fn(c) for w, c in zip(weight, cells, strict=True)), Fraction(0))

    def ret(c: np.ndarray) -> Fraction:
        return val("ante", c) + val("blind", c) + val("play", c)

    def stake(c: np.ndarray) -> Fraction:
        return 2 + val("stake_play", c)

    ratios: dict[str, tuple[Any, Any, bool]] = {
        "rtp_total_main_bet": (ret, stake, False),
        "rtp_initial_main_bet": (lambda c: ret(c) - stake(c), lambda c: Fraction(1), True),
        "ante": (lambda c: val("ante", c), lambda c: Fraction(1), False),
        "blind": (lambda c: val("blind", c), lambda c: Fraction(1), False),
        "play": (lambda c: val("play", c), lambda c: val("stake_play", c), False),
        "trips": (lambda c: val("trips", c), lambda c: Fraction(1), False),
    }
    out: dict[str, Fraction] = {}
    for name, (x, y, _) in ratios.items():
        ey = mean(y)
        if ey == 0:
            continue
        r = mean(x) / ey
        out[name] = mean(lambda c, x=x, y=y, r=r: (x(c) - r * y(c)) ** 2) / ey**2
    net_mean = mean(lambda c: ret(c) - stake(c))
    variance = mean(lambda c: (ret(c) - stake(c)) ** 2) - net_mean**2
    decisions = {
        DECISION_NAMES[m]: Fraction(int(counts[i].sum()), total) for i, m in enumerate(MULTIPLES)
    }
    return Moments(variance, decisions, out)


def interval(rtp: float, return_variance: Fraction, rounds: int, z: float) -> tuple[float, float]:
    """Where the estimate of a return from ``rounds`` simulated rounds falls with the
    confidence of ``z`` (normal approximation): ``rtp +- z sigma / sqrt(rounds)``."""
    half = z * math.sqrt(float(return_variance) / rounds)
    return rtp - half, rtp + half


def interval_figures(
    report: ParReport, moments: Moments, rounds: Sequence[int] = SHEET_ROUNDS
) -> dict[str, Any]:
    """The sheet's sampling figures as JSON members (``uth par --json`` carries them, so
    every figure of the sheet has a path): ``sigma.NAME`` the standard deviation of one
    round's part in the estimate of each return of :data:`RETURNS`,
    ``return_variance.NAME`` its exact variance (``"n/d"``), and
    ``interval.NAME.N.LEVEL`` the ``[low, high]`` a simulation of ``N`` rounds falls in
    with that confidence (:func:`interval`)."""
    data = report.to_dict()
    sigma: dict[str, float] = {}
    variance: dict[str, str] = {}
    intervals: dict[str, dict[str, dict[str, list[float]]]] = {}
    for name, path in RETURNS:
        var = moments.return_variance.get(name)
        if var is None:
            continue
        sigma[name] = float(var) ** 0.5
        variance[name] = f"{var.numerator}/{var.denominator}"
        rtp = float(lookup(data, path))
        intervals[name] = {
            str(n): {lvl: list(interval(rtp, var, n, z)) for lvl, z in LEVELS} for n in rounds
        }
    return {"sigma": sigma, "return_variance": variance, "interval": intervals}


def rule_text(table: Paytable) -> list[str]:
    """The rules of the game as the paytable sets them, one paragraph each."""
    qualifier = table.dealer.category.name.replace("_", " ").lower()
    return [
        "One 52-card deck, shuffled before every round. The player bets an Ante and an "
        "equal Blind (and may bet Trips); player and dealer each get two cards; five "
        "community cards are dealt, three (the flop), then two (the turn and the river).",
        "Before the flop the player may bet Play at 3 or 4 times the Ante, or check; after "
        "the flop Play at 2 times the Ante, or check; after the river Play at 1 times the "
        "Ante, or fold (losing Ante and Blind). Only one Play bet is made per round.",
        f"The dealer qualifies with a {qualifier} or better. Each hand is the best five of "
        "its seven cards; equal hands tie and push every bet.",
        "When the player wins: the Play pays 1:1; the Ante pays 1:1 if the dealer qualifies "
        "and pushes if not; the Blind pays its table below for a straight or better and "
        "pushes otherwise. When the dealer wins: the Play and the Blind lose; the Ante "
        "loses if the dealer qualifies and pushes if not.",
        "Trips pays its table on the player's final hand, three of a kind or better, "
        "whatever the dealer holds and whether or not the player folds.",
        "Pays are to one (500:1 returns the stake and 500 times it); fractional pays are "
        "rounded down to the cent.",
    ]


def figure(report: ParReport, path: str, exact: dict[str, Fraction] | None = None) -> Figure:
    """The figure at ``path`` of ``report`` with its exact fraction, if any."""
    value = lookup(report.to_dict(), path)
    return Figure(path, float(value) if value is not None else math.nan, (exact or {}).get(path))


__all__ = [
    "FIELDS",
    "LEVELS",
    "RETURNS",
    "SHEET_ROUNDS",
    "Figure",
    "Moments",
    "cell_moments",
    "exact_figures",
    "figure",
    "fraction",
    "interval",
    "interval_figures",
    "lookup",
    "rule_text",
]
