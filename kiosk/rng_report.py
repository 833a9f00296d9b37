"""The RNG dossier as one HTML file: the game-level tests on the cabinet's shuffle and on
the deliberately biased ones, NIST SP 800-22 on the raw dump (and on a weak generator),
ent and Dieharder, with the card-by-position heat map, the p-value histograms
(matplotlib, Agg backend, the ``lab`` extra; without it the report says so) and the
exact commands that reproduce every part."""

from __future__ import annotations

import base64
import html
import io
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.rng_tests import ALPHA, GameTest
from engine.rng_tests.sp800_22_assess import BatteryVerdict, KindResult
from kiosk.rng_tools import ToolRun


@dataclass
class BatteryRun:
    """NIST SP 800-22 over ``sequences`` sequences of ``bits`` bits of one source."""

    source: str
    sequences: int
    bits: int
    rows: list[KindResult]
    verdict: BatteryVerdict
    seconds: float


@dataclass
class Dossier:
    """Everything the report shows.  ``positions`` is the card x position count matrix of
    the cabinet's decks; ``biased`` the game-level results on each biased source."""

    decks: int
    game: list[GameTest]
    positions: np.ndarray
    game_seconds: float
    biased: dict[str, list[GameTest]] = field(default_factory=dict)
    biased_decks: int = 0
    nist: list[BatteryRun] = field(default_factory=list)
    tools: list[ToolRun] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """The cabinet's generator passed everything, and every biased source failed
        some test (each game test fails on at least one)."""
        cabinet = all(t.passed for t in self.game)
        cabinet &= all(run.verdict.ok for run in self.nist if run.source == CABINET)
        cabinet &= all(tool.ok for tool in self.tools)
        return cabinet and all(self.caught_by_bias().values())

    def caught_by_bias(self) -> dict[str, bool]:
        """For each game test: whether some biased source failed it."""
        out = {t.name: False for t in self.game}
        for results in self.biased.values():
            for t in results:
                out[t.name] = out.get(t.name, False) or not t.passed
        return out


#: The name of the cabinet's own generator in the report.
CABINET = "cabinet generator (the shuffle's raw draws)"


def _png(fig: object) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")  # type: ignore[attr-defined]
    data = base64.b64encode(buf.getvalue()).decode()
    return f"<img alt='plot' src='data:image/png;base64,{data}'>"


def plots(d: Dossier) -> str:
    """The plots as inline PNG images, or a note when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "<p>(plots need matplotlib: pip install 'uth-cabinet[lab]')</p>"
    out = []
    fig, ax = plt.subplots(figsize=(6, 5))
    image = ax.imshow(d.positions / (d.decks / 52.0), cmap="coolwarm", vmin=0.9, vmax=1.1)
    ax.set_xlabel("position")
    ax.set_ylabel("card")
    ax.set_title(f"card x position, observed / expected ({d.decks:,} decks)")
    fig.colorbar(image)
    out.append(_png(fig))
    plt.close(fig)
    per = [p for t in d.game for p in t.p_values]
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.hist(per, bins=20, range=(0, 1))
    ax.set_xlabel("p-value")
    ax.set_title("per-position and per-seat p-values (uniform on a good shuffle)")
    out.append(_png(fig))
    plt.close(fig)
    for run in d.nist:
        values = [p for row in run.rows for p in row.p_values]
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.hist(values, bins=20, range=(0, 1))
        ax.set_xlabel("p-value")
        ax.set_title(f"SP 800-22 p-values, {run.source[:40]}")
        out.append(_png(fig))
        plt.close(fig)
    return "".join(out)


def _game_table(results: Sequence[GameTest]) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(t.name)}</td><td>{t.statistic:.2f}</td><td>{t.df}</td>"
        f"<td>{t.p_value:.4g}</td><td>{'pass' if t.passed else 'FAIL'}</td>"
        f"<td>{html.escape(t.detail)}</td></tr>"
        for t in results
    )
    return (
        "<table border=1><tr><th>test</th><th>statistic</th><th>df</th><th>p</th>"
        f"<th>result</th><th>detail</th></tr>{rows}</table>"
    )


def _biased_table(d: Dossier) -> str:
    if not d.biased:
        return ""
    names = list(d.biased)
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    caught = d.caught_by_bias()
    rows = []
    for i, t in enumerate(d.game):
        cells = "".join(
            f"<td>{'FAIL' if not d.biased[n][i].passed else 'pass'} "
            f"(p {d.biased[n][i].p_value:.3g})</td>"
            for n in names
        )
        rows.append(
            f"<tr><td>{html.escape(t.name)}</td>{cells}"
            f"<td>{'yes' if caught[t.name] else 'NO'}</td></tr>"
        )
    return (
        f"<h2>The same tests on deliberately biased shuffles ({d.biased_decks:,} decks "
        "each)</h2><p>Each test must fail on at least one of them, which shows it can "
        f"fail.</p><table border=1><tr><th>test</th>{head}<th>caught</th></tr>"
        f"{''.join(rows)}</table>"
    )


def _nist_section(run: BatteryRun) -> str:
    tests: dict[str, list[KindResult]] = {}
    for row in run.rows:
        tests.setdefault(row.test, []).append(row)
    body = []
    for name, rows in tests.items():
        flagged = [r for r in rows if not r.ok]
        worst = min(rows, key=lambda r: r.passed / r.sequences if r.sequences else 1.0)
        low_u = min(r.uniformity for r in rows)
        seqs = max(r.sequences for r in rows)
        body.append(
            f"<tr><td>{name}</td><td>{len(rows)}</td><td>{seqs}</td>"
            f"<td>{worst.passed}/{worst.sequences}</td><td>{worst.minimum:.4f}</td>"
            f"<td>{low_u:.4g}</td><td>{len(flagged)}</td>"
            f"<td>{html.escape(', '.join(r.kind or name for r in flagged[:6]))}</td></tr>"
        )
    v = run.verdict
    return (
        f"<h3>{html.escape(run.source)}: {run.sequences} sequences of {run.bits:,} bits, "
        f"{run.seconds:.0f} s, {'PASS' if v.ok else 'FAIL'}</h3>"
        f"<p>{v.flagged} P-value kinds flagged of {len(run.rows)} (an ideal generator flags "
        f"{v.expected:.2f} on average, at most {v.allowed} with 99% probability).</p>"
        "<table border=1><tr><th>test</th><th>P-value kinds</th><th>sequences</th>"
        "<th>lowest pass count</th><th>proportion bound</th><th>lowest uniformity P</th>"
        f"<th>kinds flagged</th><th>which</th></tr>{''.join(body)}</table>"
    )


def report_html(d: Dossier) -> str:
    """The whole dossier as one HTML document."""
    parts = [
        "<!doctype html><meta charset=utf-8><title>RNG dossier</title>",
        "<h1>RNG dossier</h1>",
        f"<p>Verdict: <b>{'PASS' if d.ok else 'FAIL'}</b>. Machine: "
        f"{html.escape(platform.processor() or platform.machine())}, Python "
        f"{platform.python_version()}. A test fails below p = {ALPHA} (99%).</p>",
        f"<h2>Game-level tests: {d.decks:,} decks from the cabinet's generator</h2>",
        f"<p>Fisher-Yates with rejection sampling over the OS generator, the cabinet's own "
        f"code (engine.rng.shuffled_deck); {d.game_seconds:.1f} s.</p>",
        _game_table(d.game),
        _biased_table(d),
    ]
    if d.nist:
        parts.append(
            "<h2>NIST SP 800-22 rev. 1a</h2><p>Proportion of passing sequences "
            "within p &plusmn; 3 sqrt(p(1-p)/s) and uniformity P-value &ge; 0.0001 "
            "for every P-value kind (engine/rng_tests/sp800_22.py).</p>"
        )
        parts += [_nist_section(run) for run in d.nist]
    for tool in d.tools:
        parts.append(
            f"<h2>{html.escape(tool.name)}: {'PASS' if tool.ok else 'FAIL'}</h2>"
            f"<p>{html.escape(tool.summary)} ({tool.seconds:.0f} s)</p>"
            f"<pre>$ {html.escape(tool.command)}\n{html.escape(tool.output)}</pre>"
        )
    parts.append("<h2>Plots</h2>" + plots(d))
    parts.append("<h2>Commands</h2><pre>" + html.escape("\n".join(d.commands)) + "</pre>\n")
    return "".join(parts)
