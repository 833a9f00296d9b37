"""The RNG dossier's HTML report: the results table, the card-by-position heat map and the
histogram of the per-position p-values (matplotlib, Agg backend, the ``lab`` extra; without
it the report has the table only and says so)."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence

import numpy as np

from engine.rng_tests import ALPHA, GameTest, position_matrix


def _png(fig: object) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")  # type: ignore[attr-defined]
    return "<img alt='plot' src='data:image/png;base64," + base64.b64encode(buf.getvalue()).decode() + "'>"


def plots(decks: np.ndarray, results: Sequence[GameTest]) -> str:
    """The plots as inline PNG images, or a note when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "<p>(plots need matplotlib: pip install 'uth-cabinet[lab]')</p>"
    counts = position_matrix(decks)
    fig, ax = plt.subplots(figsize=(6, 5))
    image = ax.imshow(counts / (decks.shape[0] / 52.0), cmap="coolwarm", vmin=0.9, vmax=1.1)
    ax.set_xlabel("position")
    ax.set_ylabel("card")
    ax.set_title("card x position, observed / expected")
    fig.colorbar(image)
    out = _png(fig)
    plt.close(fig)
    per = [p for t in results for p in t.p_values]
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.hist(per, bins=20, range=(0, 1))
    ax.set_xlabel("p-value")
    ax.set_title("per-position and per-seat p-values (uniform on a good shuffle)")
    out += _png(fig)
    plt.close(fig)
    return out


def report_html(decks: np.ndarray, results: Sequence[GameTest], seconds: float,
                command: str) -> str:
    """The whole report as one HTML document."""
    rows = "".join(
        f"<tr><td>{html.escape(t.name)}</td><td>{t.statistic:.2f}</td><td>{t.df}</td>"
        f"<td>{t.p_value:.4g}</td><td>{'pass' if t.passed else 'FAIL'}</td>"
        f"<td>{html.escape(t.detail)}</td></tr>" for t in results)
    return (
        "<!doctype html><meta charset=utf-8><title>RNG game-level tests</title>"
        f"<h1>RNG game-level tests</h1><p>{decks.shape[0]:,} decks from the cabinet's generator "
        f"(Fisher-Yates with rejection sampling), {seconds:.1f} s; a test fails below "
        f"p = {ALPHA}.</p><table border=1><tr><th>test</th><th>statistic</th><th>df</th>"
        f"<th>p</th><th>result</th><th>detail</th></tr>{rows}</table>"
        f"{plots(decks, results)}<h2>Commands</h2><pre>{html.escape(command)}\n"
        "uth rng dump --bytes 100000000 --out dump.bin\n"
        "dieharder -a -g 201 -f dump.bin\nent dump.bin</pre>\n")
