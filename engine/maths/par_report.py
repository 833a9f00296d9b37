"""Figures of a game from its outcome counts: shared by the exact analysis and the simulator.

Every round of the main game ends in one *cell* ``(m, k, o)``: the Play multiple ``m``
(0 for a fold, else 1 to 4 Antes), the category ``k`` of the player's seven-card hand
and the outcome ``o`` (:data:`engine.maths.par_flop.WIN_Q` ... ``LOSS_NQ``: win, push or loss,
against a dealer who qualifies or not).  What each spot returns is a function of the
cell alone, so a table of cell counts determines every figure exactly: return per bet,
house edge, element of risk, standard deviation, decision and outcome frequencies and
the Blind pay lines.  The exact analysis counts deals (integers, so the figures are
exact fractions); the simulator counts rounds, and takes each cell's returns from
:func:`engine.uth.settlement.settle` rather than from :func:`cell_values`.

Units: Antes.  Ante = Blind = 1, Play = ``m``, Trips = 1.

The rules (seed 002, and seed 004 rule 4): a fold loses Ante and Blind; otherwise the
Ante pushes whenever the dealer does not qualify (pair or better), and wins 1:1 when the
player wins against a qualifying dealer; the Blind pays its table on a win (pushes
below a straight); the Play pays 1:1 on a win; a loss loses the Blind and the Play, and
the Ante unless the dealer did not qualify; a tie pushes everything.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from engine.hands.categories import HandCategory
from engine.maths.par_flop import (
    LOSS_NQ,
    LOSS_Q,
    N_CATEGORIES,
    N_OUTCOMES,
    PUSH_NQ,
    PUSH_Q,
    WIN_NQ,
    WIN_Q,
)
from engine.uth.paytable import BLIND_LINES, TRIPS_LINES, Paytable

MULTIPLES = (0, 1, 2, 3, 4)
N_MULTIPLES = len(MULTIPLES)
DECISION_NAMES = {4: "4x", 3: "3x", 2: "2x", 1: "1x", 0: "fold"}
FIELDS = ("ante", "blind", "play", "stake_play", "trips")
Z95 = 1.959963984540054
Z99 = 2.5758293035489004


def cell_values(table: Paytable) -> dict[str, list[list[list[Fraction]]]]:
    """Per cell ``[m][k][o]``: what the Ante, Blind and Play return (stake included),
    the Play staked, and what a Trips bet of 1 returns (which depends on ``k`` only)."""
    blind = {k: p.ratio for k, p in table.blind.lines().items()}
    trips = {k: p.ratio for k, p in table.trips.lines().items()}
    zero = Fraction(0)
    out: dict[str, list[list[list[Fraction]]]] = {f: [] for f in FIELDS}
    for m in MULTIPLES:
        for f in FIELDS:
            out[f].append([])
        for k in range(N_CATEGORIES):
            b = blind.get(HandCategory(k), zero)
            t = trips.get(HandCategory(k))
            trips_ret = 1 + t if t is not None else zero
            row: dict[str, list[Fraction]] = {f: [] for f in FIELDS}
            for o in range(N_OUTCOMES):
                if m == 0:
                    a, bl, p = zero, zero, zero
                elif o in (WIN_Q, WIN_NQ):
                    a, bl, p = Fraction(2 if o == WIN_Q else 1), 1 + b, Fraction(2 * m)
                elif o in (PUSH_Q, PUSH_NQ):
                    a, bl, p = Fraction(1), Fraction(1), Fraction(m)
                elif o == LOSS_NQ:  # the Ante pushes when the dealer does not qualify
                    a, bl, p = Fraction(1), zero, zero
                else:
                    a, bl, p = zero, zero, zero
                row["ante"].append(a)
                row["blind"].append(bl)
                row["play"].append(p)
                row["stake_play"].append(Fraction(m))
                row["trips"].append(trips_ret)
            for f in FIELDS:
                out[f][-1].append(row[f])
    return out


def cell_arrays(values: dict[str, Any]) -> dict[str, np.ndarray]:
    """:func:`cell_values` as float arrays ``(5, 10, 6)`` (for confidence intervals)."""
    return {f: np.array([[[float(x) for x in r] for r in mm] for mm in values[f]]) for f in FIELDS}


@dataclass
class ParReport:
    """The figures of one paytable under one strategy, exact or simulated.

    ``main``, ``trips`` and ``preflop`` are JSON-ready dicts (see :func:`build_report`).
    """

    strategy: str
    paytable_sha256: str
    paytable_name: str
    exact: bool
    main: dict[str, Any]
    trips: dict[str, Any]
    preflop: dict[str, Any]
    seconds: float
    deck_size: int = 52
    rounds: int | None = None
    workers: int | None = None
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(d.pop("extra"))
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ParReport:
        known = {f for f in cls.__dataclass_fields__ if f != "extra"}
        return cls(
            **{k: v for k, v in d.items() if k in known},
            extra={k: v for k, v in d.items() if k not in known},
        )

    def rtps(self) -> dict[str, float]:
        """Return to player per bet (fractions of 1): main game (per total wager and per
        Ante), Ante, Blind, Play and Trips."""
        return {
            "main_total": self.main["rtp_total_main_bet"],
            "main_initial": self.main["rtp_initial_main_bet"],
            "ante": self.main["bets"]["ante"]["rtp"],
            "blind": self.main["bets"]["blind"]["rtp"],
            "play": self.main["bets"]["play"]["rtp"],
            "trips": self.trips["rtp"],
        }


def _f(x: Fraction | float) -> float:
    return float(x)


def _exact(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def main_figures(
    counts: np.ndarray, values: dict[str, Any], table: Paytable, exact: bool
) -> dict[str, Any]:
    """Main-game figures from cell counts ``(5, 10, 6)`` and per-cell returns."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    if total <= 0:
        raise ValueError("no rounds counted")
    cells = [
        (m, k, o)
        for m in range(N_MULTIPLES)
        for k in range(N_CATEGORIES)
        for o in range(N_OUTCOMES)
        if counts[m, k, o]
    ]

    def mean(fn: Any) -> Fraction:
        return sum((int(counts[c]) * Fraction(fn(*c)) for c in cells), Fraction(0)) / total

    def v(f: str) -> Any:
        return lambda m, k, o: values[f][m][k][o]

    ante, blind, play = mean(v("ante")), mean(v("blind")), mean(v("play"))
    stake_play = mean(v("stake_play"))
    ret = ante + blind + play
    stake = 2 + stake_play
    net = ret - stake

    def net_cell(m: int, k: int, o: int) -> Fraction:
        return (
            Fraction(values["ante"][m][k][o])
            + values["blind"][m][k][o]
            + values["play"][m][k][o]
            - 2
            - values["stake_play"][m][k][o]
        )

    second = mean(lambda m, k, o: net_cell(m, k, o) ** 2)
    var = second - net**2
    he = -net
    freq = {DECISION_NAMES[MULTIPLES[m]]: int(counts[m].sum()) / total for m in range(N_MULTIPLES)}
    decisions = {name: freq[name] for name in ("4x", "3x", "2x", "1x", "fold")}
    played = counts[1:]
    outcomes = {
        "win": int(played[:, :, [WIN_Q, WIN_NQ]].sum()) / total,
        "push": int(played[:, :, [PUSH_Q, PUSH_NQ]].sum()) / total,
        "loss": int(played[:, :, [LOSS_Q, LOSS_NQ]].sum()) / total,
        "fold": int(counts[0].sum()) / total,
        "dealer_not_qualifying": int(counts[:, :, [WIN_NQ, PUSH_NQ, LOSS_NQ]].sum()) / total,
        "win_dealer_not_qualifying": int(played[:, :, WIN_NQ].sum()) / total,
    }
    lines = {}
    for cat in BLIND_LINES:
        pay = table.blind.lines()[cat]
        hits = int(played[:, cat, [WIN_Q, WIN_NQ]].sum())
        hit = Fraction(hits, total)
        lines[cat.name.lower()] = {
            "pay": str(pay),
            "hit_frequency": _f(hit),
            "contribution": _f(hit * pay.ratio),
            **({"contribution_exact": _exact(hit * pay.ratio)} if exact else {}),
        }
    fig: dict[str, Any] = {
        "rtp_total_main_bet": _f(ret / stake),
        "rtp_initial_main_bet": _f(1 + net),
        "house_edge_per_ante": _f(he),
        "element_of_risk": _f(he / stake),
        "average_total_wager": _f(stake),
        "sd_antes": math.sqrt(_f(var)),
        "variance_antes": _f(var),
        "bets": {  # house edges per Ante; they add up to the game's
            "ante": {"rtp": _f(ante), "house_edge_per_ante": _f(1 - ante), "average_stake": 1.0},
            "blind": {"rtp": _f(blind), "house_edge_per_ante": _f(1 - blind), "average_stake": 1.0},
            "play": {
                "rtp": _f(play / stake_play) if stake_play else None,
                "house_edge_per_ante": _f(stake_play - play),
                "average_stake": _f(stake_play),
            },
        },
        "decisions": decisions,
        "outcomes": outcomes,
        "blind_lines": lines,
    }
    if exact:
        fig["exact"] = {
            "rtp_total_main_bet": _exact(ret / stake),
            "rtp_initial_main_bet": _exact(1 + net),
            "house_edge_per_ante": _exact(he),
            "element_of_risk": _exact(he / stake),
            "average_total_wager": _exact(stake),
            "ante_rtp": _exact(ante),
            "blind_rtp": _exact(blind),
            "play_rtp": _exact(play / stake_play) if stake_play else None,
        }
    return fig


def trips_figures(category_counts: np.ndarray, table: Paytable, exact: bool) -> dict[str, Any]:
    """Trips figures from the counts of the player's seven-card categories."""
    counts = [int(x) for x in category_counts]
    total = sum(counts)
    lines = {}
    rtp = Fraction(0)
    second = Fraction(0)
    for cat in TRIPS_LINES:
        pay = table.trips.lines()[cat]
        hit = Fraction(counts[cat], total)
        rtp += hit * (1 + pay.ratio)
        second += hit * pay.ratio**2
        lines[cat.name.lower()] = {
            "pay": str(pay),
            "hit_frequency": _f(hit),
            "contribution": _f(hit * (1 + pay.ratio)),
            **({"hit_frequency_exact": _exact(hit)} if exact else {}),
        }
    lose = 1 - sum((Fraction(counts[c], total) for c in TRIPS_LINES), Fraction(0))
    second += lose  # a loss nets -1
    net = rtp - 1
    out: dict[str, Any] = {
        "rtp": _f(rtp),
        "house_edge": _f(-net),
        "sd": math.sqrt(_f(second - net**2)),
        "lines": lines,
    }
    if exact:
        out["rtp_exact"] = _exact(rtp)
    return out


def confidence(
    counts: np.ndarray, values: dict[str, np.ndarray], z: float
) -> dict[str, tuple[float, float, float]]:
    """Estimate and ``z``-sigma interval of each RTP from simulated cell counts.

    Each RTP is a ratio of per-round sums ``X / Y`` (returned over staked); its standard
    error is that of the ratio estimator (delta method): ``sd(X - R Y) / (mean(Y) sqrt(n))``.
    """
    n_c = np.asarray(counts, dtype=np.float64)
    n = n_c.sum()
    ret = values["ante"] + values["blind"] + values["play"]
    stake = 2 + values["stake_play"]
    net = ret - stake
    ratios = {
        "rtp_total_main_bet": (ret, stake, 0.0),
        "rtp_initial_main_bet": (net, np.ones_like(net), 1.0),
        "ante": (values["ante"], np.ones_like(net), 0.0),
        "blind": (values["blind"], np.ones_like(net), 0.0),
        "play": (values["play"], values["stake_play"], 0.0),
        "trips": (values["trips"], np.ones_like(net), 0.0),
    }
    out = {}
    for name, (x, y, shift) in ratios.items():
        sy = (n_c * y).sum()
        if sy == 0:
            continue
        r = (n_c * x).sum() / sy
        resid = x - r * y
        var = (n_c * resid**2).sum() / n
        se = math.sqrt(var / n) / (sy / n)
        est = r + shift
        out[name] = (float(est), float(est - z * se), float(est + z * se))
    return out


def format_report(rep: ParReport) -> str:
    """The report as text for a terminal."""
    m, t = rep.main, rep.trips
    how = (
        "exact (every deal)"
        if rep.exact
        else f"simulated ({rep.rounds:,} rounds, {rep.workers} workers, seed {rep.seed})"
    )
    ci = rep.extra.get("ci95", {})

    def pct(x: float, key: str | None = None) -> str:
        s = f"{100 * x:8.4f}%"
        if key and key in ci:
            lo, hi = ci[key]
            s += f"  (95% CI {100 * lo:.4f}% .. {100 * hi:.4f}%)"
        return s

    lines = [
        f"{rep.paytable_name}  sha256 {rep.paytable_sha256}",
        f"strategy {rep.strategy}; {how}; {rep.seconds:.1f} s"
        + ("" if rep.deck_size == 52 else f"; deck of {rep.deck_size} cards"),
        "",
        "Main game (Ante + Blind + Play)",
        f"  RTP, total main bet      {pct(m['rtp_total_main_bet'], 'rtp_total_main_bet')}",
        f"  RTP, initial main bet    {pct(m['rtp_initial_main_bet'], 'rtp_initial_main_bet')}",
        f"  house edge per Ante      {pct(m['house_edge_per_ante'])}",
        f"  element of risk          {pct(m['element_of_risk'])}",
        f"  average total wager      {m['average_total_wager']:9.5f} Antes",
        f"  standard deviation       {m['sd_antes']:9.5f} Antes per round",
        f"  Ante RTP                 {pct(m['bets']['ante']['rtp'], 'ante')}",
        f"  Blind RTP                {pct(m['bets']['blind']['rtp'], 'blind')}",
        f"  Play RTP                 {pct(m['bets']['play']['rtp'] or 0.0, 'play')}",
        "  decisions   " + "  ".join(f"{k} {100 * v:.3f}%" for k, v in m["decisions"].items()),
        "  outcomes    "
        + "  ".join(f"{k.replace('_', ' ')} {100 * v:.3f}%" for k, v in m["outcomes"].items()),
        "  Blind pays            pay      hit frequency   contribution (Antes)",
    ]
    for name, line in m["blind_lines"].items():
        lines.append(
            f"    {name.replace('_', ' '):18s} {line['pay']:>7s}   {100 * line['hit_frequency']:12.6f}%   {line['contribution']:.6f}"
        )
    lines += [
        "",
        "Trips",
        f"  RTP                      {pct(t['rtp'], 'trips')}",
        f"  house edge               {pct(t['house_edge'])}",
        f"  standard deviation       {t['sd']:9.5f} units",
        "  Trips pays            pay      hit frequency   contribution",
    ]
    for name, line in t["lines"].items():
        lines.append(
            f"    {name.replace('_', ' '):18s} {line['pay']:>7s}   {100 * line['hit_frequency']:12.6f}%   {line['contribution']:.6f}"
        )
    if rep.preflop:
        lines += ["", "Pre-flop decisions (EV in Antes per hand: 4x / 3x / check)"]
        row = []
        for name, p in rep.preflop.items():
            ev = p["ev"]
            row.append(
                f"{name:>4s} {p['decision']:>5s} {ev['4x']:+.4f} {ev['3x']:+.4f} {ev['check']:+.4f}"
            )
            if len(row) == 3:
                lines.append("   " + "   ".join(row))
                row = []
        if row:
            lines.append("   " + "   ".join(row))
    return "\n".join(lines)
