"""The PAR sheet's progressive section: the figures and a plot of return against meter.

The plot is inline SVG (no script, no image file): the return of one wager (percent)
against the meter (dollars) from the reset to the top of the curve, a line at 100%
and a mark at the break-even meter.
"""

from __future__ import annotations

import html

from engine.maths.progressive import ProgressiveFigures

_W, _H, _PAD = 560, 300, 50


def return_plot(fig: ProgressiveFigures) -> str:
    """An SVG plot of the return (percent) against the meter (dollars)."""
    levels = fig.curve_levels()
    lo_m, hi_m = levels[0], levels[-1]
    returns = [100 * float(fig.return_at(m)) for m in levels]
    lo_r = min(0.0, *returns)
    hi_r = max(110.0, *returns)

    def x(m: float) -> float:
        return _PAD + (m - lo_m) / max(1, hi_m - lo_m) * (_W - 2 * _PAD)

    def y(r: float) -> float:
        return _H - _PAD - (r - lo_r) / (hi_r - lo_r) * (_H - 2 * _PAD)

    points = " ".join(f"{x(m):.1f},{y(r):.1f}" for m, r in zip(levels, returns, strict=True))
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{_W}' height='{_H}' "
        "role='img' aria-label='return against meter' data-id='progressive-plot'>",
        f"<line x1='{_PAD}' y1='{_H - _PAD}' x2='{_W - _PAD}' y2='{_H - _PAD}' stroke='black'/>",
        f"<line x1='{_PAD}' y1='{_PAD}' x2='{_PAD}' y2='{_H - _PAD}' stroke='black'/>",
        f"<line x1='{_PAD}' y1='{y(100):.1f}' x2='{_W - _PAD}' y2='{y(100):.1f}' "
        "stroke='grey' stroke-dasharray='4 3'/>",
        f"<text x='{_PAD - 4}' y='{y(100) + 4:.1f}' text-anchor='end' font-size='11'>100%</text>",
        f"<text x='{_PAD - 4}' y='{y(lo_r) + 4:.1f}' text-anchor='end' font-size='11'>"
        f"{lo_r:.0f}%</text>",
        f"<text x='{_PAD - 4}' y='{y(hi_r) + 4:.1f}' text-anchor='end' font-size='11'>"
        f"{hi_r:.0f}%</text>",
        f"<polyline fill='none' stroke='#1f4e9e' stroke-width='2' points='{points}'/>",
        f"<text x='{_PAD}' y='{_H - _PAD + 16}' font-size='11'>{lo_m / 100:,.0f}</text>",
        f"<text x='{_W - _PAD}' y='{_H - _PAD + 16}' font-size='11' text-anchor='end'>"
        f"{hi_m / 100:,.0f}</text>",
        f"<text x='{_W / 2}' y='{_H - 10}' font-size='12' text-anchor='middle'>meter (dollars)"
        "</text>",
        f"<text x='14' y='{_H / 2}' font-size='12' transform='rotate(-90 14 {_H / 2})' "
        "text-anchor='middle'>return (%)</text>",
    ]
    be = float(fig.break_even)
    if lo_m <= be <= hi_m:
        parts.append(
            f"<circle cx='{x(be):.1f}' cy='{y(100):.1f}' r='4' fill='#c0392b'/>"
            f"<text x='{x(be) + 6:.1f}' y='{y(100) - 6:.1f}' font-size='11'>break-even "
            f"{be / 100:,.2f}</text>"
        )
    return "".join(parts) + "</svg>"


def progressive_section(fig: ProgressiveFigures) -> str:
    """The sheet's section: the bet's terms, its lines with their exact counts, the
    return curve as a table and as a plot, the break-even meter and the top award's
    frequency."""
    d = fig.to_dict()
    t = fig.table
    rows = "".join(
        f"<tr><td class=l>{html.escape(line['hand'].replace('_', ' '))}</td>"
        f"<td>{line['count']:,}</td><td>{line['probability']:.4e}</td><td>"
        + (
            f"{line['meter_bp'] / 100:g}% of the meter"
            if line["meter_bp"] is not None
            else f"{line['cents'] / 100:,.2f}"
        )
        + "</td></tr>"
        for line in d["lines"]
    )
    curve = "".join(
        f"<tr><td>{p['meter'] / 100:,.2f}</td><td>{100 * p['return']:.3f}%</td></tr>"
        for p in d["return_curve"]
    )
    reach = "" if d["break_even_reachable"] else " (above the ceiling: never reached)"
    hours = ", ".join(
        f"{h:,.0f} h at {w} wagers an hour" for w, h in d["hours_between_top"].items()
    )
    return (
        "<h2>Progressive</h2>"
        f"<p>A fixed wager of {t.wager / 100:,.2f} judged on the first five cards (the two "
        f"hole cards and the flop). {t.contribution_bp / 100:g}% of each wager goes to the "
        f"meter, {t.reserve_bp / 100:g}% to the reserve; reset {t.reset / 100:,.2f}, ceiling "
        f"{t.ceiling / 100:,.2f}; several seats on one meter line in a round: {t.split}.</p>"
        "<table><tr><th class=l>hand</th><th>hands of 2,598,960</th><th>probability</th>"
        f"<th>award</th></tr>{rows}</table>"
        f"<p>Return = {d['fixed_return']:.6f} + {d['return_per_meter_dollar']:.4e} x meter "
        f"(dollars); at the reset {100 * d['return_at_reset']:.3f}%; break-even meter "
        f"<span data-id='break-even'>{d['break_even_meter'] / 100:,.2f}</span>{reach}; "
        f"long-run return while the ceiling is not reached "
        f"{100 * d['long_run_return']:.3f}%. Top award ({d['top'].replace('_', ' ')}): one in "
        f"{d['wagers_between_top']:,.0f} wagers ({hours}).</p>"
        f"<table><tr><th>meter</th><th>return</th></tr>{curve}</table>" + return_plot(fig)
    )
