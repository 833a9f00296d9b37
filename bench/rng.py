"""The RNG dossier's full run: the game-level tests on 10^7 decks from the cabinet's
shuffle (every core), the same tests on the biased shuffles, NIST SP 800-22 on 100
sequences of 10^6 bits of the shuffle's raw draws and of a weak generator, ent, and
``dieharder -a`` on the dump streamed to its standard input (never rewound; a WEAK
result re-run with more p-samples), in one HTML report.

    .venv/bin/python -m bench.rng [--decks N] [--workers K] [--skip-dieharder] [--report FILE]

Prints each verdict, each part's time and the machine.  Takes an hour or more.
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import sys
import time
from pathlib import Path

from kiosk.commands.rng import FULL, run_dossier
from kiosk.rng_report import report_html


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decks", type=int, default=FULL.decks)
    ap.add_argument("--workers", type=int, default=FULL.workers)
    ap.add_argument("--sequences", type=int, default=FULL.sequences)
    ap.add_argument("--skip-dieharder", action="store_true")
    ap.add_argument("--report", default="rng-dossier.html")
    args = ap.parse_args()
    sizes = dataclasses.replace(
        FULL,
        decks=args.decks,
        workers=args.workers,
        sequences=args.sequences,
        dieharder=None if args.skip_dieharder else FULL.dieharder,
    )
    print(
        f"machine: {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, {args.workers} workers",
        flush=True,
    )
    start = time.perf_counter()
    dossier = run_dossier(sizes, ".venv/bin/python -m bench.rng " + " ".join(sys.argv[1:]))
    for t in dossier.game:
        print(f"{'PASS' if t.passed else 'FAIL'} {t.name}: p {t.p_value:.4g} {t.detail}")
    print(f"game-level tests, {args.decks:,} decks: {dossier.game_seconds:.1f} s")
    print(f"each test caught by a biased shuffle: {dossier.caught_by_bias()}")
    for run in dossier.nist:
        v = run.verdict
        print(
            f"{'PASS' if v.ok else 'FAIL'} NIST SP 800-22, {run.source}: {v.flagged} of "
            f"{len(run.rows)} P-value kinds flagged (ideal: {v.expected:.2f} on average, "
            f"at most {v.allowed}), {run.seconds:.1f} s"
        )
    for tool in dossier.tools:
        print(f"{'PASS' if tool.ok else 'FAIL'} {tool.name}: {tool.summary}, {tool.seconds:.1f} s")
    print(f"dossier {'PASS' if dossier.ok else 'FAIL'}, {time.perf_counter() - start:.0f} s in all")
    Path(args.report).write_text(report_html(dossier), encoding="utf-8")
    print(f"report: {args.report}")


if __name__ == "__main__":
    main()
