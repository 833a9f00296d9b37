"""The PAR sheet as one HTML file: what a test lab files for a paytable.

:func:`sheet_html` lays out the paytable and the rules, then for each strategy (a
column) the return of every bet and in total as exact fractions, the house edge per
Ante, the standard deviation and element of risk, the hit frequency of every pay line,
the decision and outcome frequencies, the strategy (the 169 starting hands, the flop and
river rules), the intervals a simulation of ``N`` rounds must fall in, and the commands
that reproduce each figure.  A simulation's sheet has the same form, with its own
confidence intervals and its check against the exact figures.

Every figure is a cell ``<td class=fig data-key="COLUMN:PATH" data-value=... [data-exact=n/d]>``
whose PATH is its place in ``uth par --json`` (or ``uth simulate --json``), so a reader
or a test can hold each one to the JSON.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from engine.maths.par_report import ParReport
from engine.maths.par_sheet import (
    LEVELS,
    RETURNS,
    SHEET_ROUNDS,
    Figure,
    Moments,
    exact_figures,
    figure,
    interval,
    rule_text,
)
from engine.money import format_cents
from engine.uth.paytable import Paytable

RANKS = "AKQJT98765432"
RETURN_LABELS = {
    "rtp_total_main_bet": "Main game, per total wager (Ante + Blind + Play)",
    "rtp_initial_main_bet": "Main game, per Ante (initial bet)",
    "ante": "Ante",
    "blind": "Blind",
    "play": "Play (per unit staked on Play)",
    "trips": "Trips",
}
STYLE = (
    "body{font-family:sans-serif;max-width:80em;margin:1em auto}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #999;"
    "padding:2px 6px;text-align:right}th{background:#eee}td.l,th.l{text-align:left}"
    "code{font-size:90%}.g td{width:3.2em;text-align:center;font-size:85%}"
    ".d4x{background:#7c7}.d3x{background:#bdb}.dcheck{background:#fff}"
    "td code{overflow-wrap:anywhere;word-break:break-all}"
    "td.path code{white-space:nowrap;word-break:normal}"
    "pre{white-space:pre-wrap;overflow-wrap:anywhere}"
    "table.id td.field{min-width:18em;height:1.6em}"
    # printed on A4 (ISO 216, 210 x 297 mm): every column inside the page; long exact
    # fractions and JSON paths break inside their cells rather than run off the edge
    "@page{size:A4;margin:12mm}"
    "@media print{body{max-width:none;margin:0;font-size:7.5pt}"
    "table{width:100%;table-layout:auto}td,th{padding:1px 3px}"
    "h2{break-after:avoid}tr{break-inside:avoid}details{display:none}}"
)


@dataclass
class SheetColumn:
    """One strategy's (or one simulation's) figures: ``key`` names it in the cells'
    ``data-key``; ``moments`` (exact reports) give the variances and intervals."""

    key: str
    label: str
    report: ParReport
    moments: Moments | None = None
    exact: dict[str, Fraction] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.exact:
            self.exact = exact_figures(self.report)


def pct(x: float, places: int = 4) -> str:
    return f"{100 * x:.{places}f}%"


def _frac(x: Fraction | None) -> str:
    return "" if x is None else f"{x.numerator}/{x.denominator}"


def cell(col: SheetColumn, fig: Figure, fmt: Callable[[float], str], exact: bool = True) -> str:
    """A figure's cell (and its exact fraction's cell when ``exact``)."""
    attrs = f" data-exact='{_frac(fig.exact)}'" if fig.exact is not None else ""
    out = (
        f"<td class=fig data-key='{col.key}:{fig.path}' data-value='{fig.value!r}'"
        f"{attrs}>{fmt(fig.value)}</td>"
    )
    if exact and col.report.exact:
        out += f"<td><code>{_frac(fig.exact)}</code></td>"
    return out


def _head(columns: Sequence[SheetColumn], first: str, exact: bool = True) -> str:
    out = f"<tr><th class=l>{first}</th>"
    for col in columns:
        span = 2 if exact and col.report.exact else 1
        out += f"<th colspan={span}>{html.escape(col.label)}</th>"
    return out + "<th class=l>JSON path</th></tr>"


def figure_table(
    columns: Sequence[SheetColumn],
    rows: Sequence[tuple[str, str]],
    fmt: Callable[[float], str],
    first: str = "",
    exact: bool = True,
) -> str:
    """One row per (label, JSON path), one column per strategy."""
    body = [_head(columns, first, exact)]
    for label, path in rows:
        cells = "".join(cell(c, figure(c.report, path, c.exact), fmt, exact) for c in columns)
        body.append(
            f"<tr><td class=l>{html.escape(label)}</td>{cells}"
            f"<td class='l path'><code>{path}</code></td></tr>"
        )
    return "<table>" + "".join(body) + "</table>"


def paytable_section(table: Paytable) -> str:
    lim = table.limits
    pays = "".join(
        f"<tr><td class=l>{cat.name.replace('_', ' ').title()}</td><td>"
        f"{table.blind.lines().get(cat, '') or 'push'}</td><td>{table.trips.lines().get(cat, '')}"
        f"</td></tr>"
        for cat in table.trips.lines()
    )
    rules = "".join(f"<p>{html.escape(p)}</p>" for p in rule_text(table))
    return (
        "<h2>Paytable and rules</h2>"
        f"<p>{html.escape(table.name)} {html.escape(table.version)}, SHA-256 "
        f"<code>{table.sha256}</code>. Currency {table.currency}; Ante "
        f"{format_cents(lim.ante_min)} to {format_cents(lim.ante_max)} in steps of "
        f"{format_cents(lim.ante_step)}; Trips {format_cents(lim.trips_min)} to "
        f"{format_cents(lim.trips_max)}.</p>"
        "<table><tr><th class=l>hand</th><th>Blind</th><th>Trips</th></tr>"
        f"{pays}</table>{rules}"
    )


def returns_section(columns: Sequence[SheetColumn]) -> str:
    rows = [(RETURN_LABELS[name], path) for name, path in RETURNS]
    edges = [
        ("Ante", "main.bets.ante.house_edge_per_ante"),
        ("Blind", "main.bets.blind.house_edge_per_ante"),
        ("Play", "main.bets.play.house_edge_per_ante"),
        ("Main game (sum of the three)", "main.house_edge_per_ante"),
    ]
    spread = [
        ("Average total wager (Antes)", "main.average_total_wager"),
        ("Average Play bet (Antes)", "main.bets.play.average_stake"),
        ("Element of risk (house edge per total wager)", "main.element_of_risk"),
        ("Trips house edge (per unit)", "trips.house_edge"),
    ]
    sd = [
        ("Standard deviation of the main game's result (Antes per round)", "main.sd_antes"),
        ("Variance (Antes squared)", "main.variance_antes"),
        ("Standard deviation of Trips (units per bet)", "trips.sd"),
    ]
    return (
        "<h2>Return to player</h2><p>Returns include the stake; the exact column is the "
        "fraction the figure is.</p>"
        + figure_table(columns, rows, pct, "return per bet")
        + "<h3>House edge per Ante, by bet</h3>"
        + figure_table(columns, edges, pct, "bet")
        + figure_table(columns, spread, lambda x: f"{x:.6f}" if x > 0.5 else pct(x), "")
        + figure_table(columns, sd, lambda x: f"{x:.6f}", "", exact=False)
        + _moment_table(columns)
    )


def _moment_table(columns: Sequence[SheetColumn]) -> str:
    exact = [c for c in columns if c.moments is not None]
    if not exact:
        return ""
    cells = "".join(
        f"<td class=fig data-key='{c.key}:main.variance_antes' "
        f"data-value='{float(c.moments.variance)!r}' data-exact='{_frac(c.moments.variance)}'>"
        f"<code>{_frac(c.moments.variance)}</code></td>"
        for c in exact
        if c.moments is not None
    )
    heads = "".join(f"<th>{html.escape(c.label)}</th>" for c in exact)
    return (
        "<table><tr><th class=l></th>" + heads + "</tr><tr><td class=l>Variance, exact "
        "(from the analysis' counts)</td>" + cells + "</tr></table>"
    )


def lines_section(columns: Sequence[SheetColumn]) -> str:
    first = columns[0].report
    blind = [
        (
            f"{n.replace('_', ' ')} ({line['pay']}), {what.replace('_', ' ')}",
            f"main.blind_lines.{n}.{what}",
        )
        for n, line in first.main["blind_lines"].items()
        for what in ("hit_frequency", "contribution")
    ]
    trips = [
        (
            f"{n.replace('_', ' ')} ({line['pay']}), {what.replace('_', ' ')}",
            f"trips.lines.{n}.{what}",
        )
        for n, line in first.trips["lines"].items()
        for what in ("hit_frequency", "contribution")
    ]
    return (
        "<h2>Hit frequencies per pay line</h2><p>Blind: the player wins with the hand "
        "(a fold never hits, so the frequency depends on the strategy); the contribution "
        "is the hit frequency times the pay, in Antes. Trips: the player's final hand, "
        "whatever the strategy; the contribution includes the stake.</p><h3>Blind</h3>"
        + figure_table(columns, blind, lambda x: pct(x, 6), "line")
        + "<h3>Trips</h3>"
        + figure_table(columns[:1], trips, lambda x: pct(x, 6), "line")
    )


def decisions_section(columns: Sequence[SheetColumn]) -> str:
    decisions = [
        (f"Play {d}" if d != "fold" else "fold on the river", f"main.decisions.{d}")
        for d in ("4x", "3x", "2x", "1x", "fold")
    ]
    outcomes = [
        (o.replace("_", " "), f"main.outcomes.{o}") for o in columns[0].report.main["outcomes"]
    ]
    return (
        "<h2>Decision and outcome frequencies (per round)</h2>"
        + figure_table(columns, decisions, pct, "decision", exact=False)
        + figure_table(columns, outcomes, pct, "outcome", exact=False)
    )


def preflop_grid(col: SheetColumn) -> str:
    """The 169 starting hands as a 13 x 13 grid: pairs on the diagonal, suited above it,
    offsuit below; each cell the pre-flop decision."""
    pre = col.report.preflop
    rows = ["<table class=g><tr><th></th>" + "".join(f"<th>{r}</th>" for r in RANKS) + "</tr>"]
    for i, hi in enumerate(RANKS):
        cells = []
        for j, lo in enumerate(RANKS):
            name = hi + lo if i == j else (hi + lo + "s" if i < j else lo + hi + "o")
            if name not in pre:  # a reduced deck has fewer hands
                cells.append(f"<td title='{name}'>-</td>")
                continue
            decision = pre[name]["decision"]
            cells.append(
                f"<td class='fig d{decision}' data-key='{col.key}:preflop.{name}.decision'"
                f" data-value='{decision}' title='{name}'>{name}<br>{decision}</td>"
            )
        rows.append(f"<tr><th>{hi}</th>{''.join(cells)}</tr>")
    return "".join(rows) + "</table>"


def preflop_table(col: SheetColumn) -> str:
    """Every starting hand's expected value of 4x, 3x and check (Antes per hand)."""
    body = [
        "<table><tr><th class=l>hand</th><th>decision</th><th>EV 4x</th><th>EV 3x</th>"
        "<th>EV check</th></tr>"
    ]
    for name, p in col.report.preflop.items():
        cells = "".join(
            cell(
                col,
                figure(col.report, f"preflop.{name}.ev.{o}", col.exact),
                lambda x: f"{x:+.6f}",
                exact=False,
            )
            for o in ("4x", "3x", "check")
        )
        body.append(f"<tr><td class=l>{name}</td><td>{p['decision']}</td>{cells}</tr>")
    return "".join(body) + "</table>"


STRATEGY_RULES = {
    "optimal": (
        "Pre-flop: the decision of the grid (each hand's best expected value over every "
        "deal). Flop: bet 2x when that returns more than checking, over every turn, river "
        "and dealer hand; the decision is taken for every hand on every flop by the exact "
        "analysis. River: bet 1x when its expected value over the 990 dealer hands "
        "exceeds folding's (the loss of Ante and Blind), else fold."
    ),
    "simple": (
        "Pre-flop: 4x with 33 or better, any ace, K2s+, K5o+, Q6s+, Q8o+, J8s+ or JTo, "
        "else check. Flop: 2x with two pair or better (the five cards, board included), a "
        "hidden pair except pocket deuces, or four to a flush holding a ten or better of "
        "that suit. River: 1x with a hidden pair or better, or when fewer than 21 of the "
        "unseen cards would beat the player in the dealer's hand; else fold."
    ),
    "cautious": "Check pre-flop and on the flop; on the river the simple strategy's rule.",
}


def strategy_section(columns: Sequence[SheetColumn]) -> str:
    out = ["<h2>Strategy</h2>"]
    for col in columns:
        name = col.report.strategy
        out.append(
            f"<h3>{html.escape(col.label)}</h3><p>{html.escape(STRATEGY_RULES.get(name, ''))}</p>"
        )
        if col.report.preflop:
            out.append(preflop_grid(col))
            if name == "optimal":
                out.append(
                    "<details><summary>Expected values of the 169 hands"
                    "</summary>" + preflop_table(col) + "</details>"
                )
    return "".join(out)


def intervals_section(columns: Sequence[SheetColumn], rounds: Sequence[int] = SHEET_ROUNDS) -> str:
    """The interval each simulated return must fall in, per strategy and rounds."""
    out = [
        "<h2>Where a simulation must fall</h2><p>A simulation of N rounds estimates "
        "each return; with the exact return R and the exact variance s^2 of one round's "
        "part in the estimate, the estimate lies in R &plusmn; z s / sqrt(N) with the "
        "confidence shown (normal approximation).</p>"
    ]
    for col in columns:
        if col.moments is None:
            continue
        head = "".join(f"<th colspan=2>{lvl}</th>" for lvl, _ in LEVELS)
        body = [
            f"<h3>{html.escape(col.label)}</h3><table><tr><th class=l>return</th>"
            f"<th>exact</th><th>s per round</th><th>rounds N</th>{head}</tr>"
        ]
        for name, path in RETURNS:
            var = col.moments.return_variance.get(name)
            if var is None:
                continue
            rtp = figure(col.report, path).value
            for i, n in enumerate(rounds):
                cells = ""
                for lvl, z in LEVELS:
                    lo, hi = interval(rtp, var, n, z)
                    cells += (
                        f"<td class=ci data-key='{col.key}:interval.{name}.{n}.{lvl}' "
                        f"data-low='{lo!r}' data-high='{hi!r}'>{pct(lo)}</td>"
                        f"<td>{pct(hi)}</td>"
                    )
                lead = (
                    (
                        f"<td class=l rowspan={len(rounds)}>{RETURN_LABELS[name]}</td>"
                        f"<td rowspan={len(rounds)}>{pct(rtp)}</td><td class=sd rowspan="
                        f"{len(rounds)} data-key='{col.key}:sigma.{name}' data-value="
                        f"'{float(var) ** 0.5!r}' data-variance='{_frac(var)}'>"
                        f"{float(var) ** 0.5:.6f}</td>"
                    )
                    if i == 0
                    else ""
                )
                body.append(f"<tr>{lead}<td>{n:,}</td>{cells}</tr>")
        out.append("".join(body) + "</table>")
    return "".join(out)


def commands_section(commands: Sequence[str]) -> str:
    return (
        "<h2>Commands that reproduce every figure</h2><p>Each figure's JSON path is "
        "given beside it: it is the value at that path of the command's JSON.</p><pre>"
        + html.escape("\n".join(commands))
        + "</pre>"
    )


def sheet_html(
    table: Paytable,
    columns: Sequence[SheetColumn],
    *,
    title: str,
    preface: str,
    commands: Sequence[str],
    extra: str = "",
    rounds: Sequence[int] = SHEET_ROUNDS,
) -> str:
    """The whole sheet (``preface``, ``extra``: HTML placed before the figures and after
    the strategy; ``rounds``: the simulation sizes of the intervals)."""
    return (
        f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<style>{STYLE}</style><h1>{html.escape(title)}</h1>{preface}"
        + paytable_section(table)
        + returns_section(columns)
        + lines_section(columns)
        + decisions_section(columns)
        + strategy_section(columns)
        + extra
        + intervals_section(columns, rounds)
        + commands_section(commands)
        + "\n"
    )
