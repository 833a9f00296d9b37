"""Benchmark: the exact optimal analysis of a paytable from a cold cache (target < 10 s, < 1 GB).

    .venv/bin/python -m bench.par [--workers K] [--strategy NAME] [--paytable FILE]

Runs :func:`engine.maths.par.par` with an empty cache (the shipped baseline of
:mod:`engine.maths.par_baseline` is still read) and prints the machine, the wall time, the
CPU time of all processes, the peak resident memory (the parent and the largest worker,
from ``resource.getrusage``) and the three figures of seed 002 next to the published
ones.  ``--whole`` analyses every flop instead (the baseline's own build).
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time

from bench.simulate import cpu_seconds, machine
from engine.maths.par import par
from engine.maths.par_main import analyse_with_baseline, build_report
from engine.maths.par_tables import FULL_DECK
from engine.uth.paytable import PAYTABLE_DIR, load_paytable

PUBLISHED = {"rtp_total_main_bet": 99.47, "rtp_initial_main_bet": 97.82, "trips": 96.50}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--strategy", default="optimal")
    ap.add_argument("--paytable", default=str(PAYTABLE_DIR / "standard.toml"))
    ap.add_argument("--whole", action="store_true", help="analyse every flop (no baseline)")
    args = ap.parse_args()
    table = load_paytable(args.paytable)
    print(f"machine: {machine()}")
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    if args.whole:
        analysis, _ = analyse_with_baseline(table, workers=args.workers)
        cats = analysis.category_counts
        rep = build_report(table, "optimal", analysis, FULL_DECK, cats, analysis.seconds)
    else:
        with tempfile.TemporaryDirectory() as tmp:  # a cold start: nothing cached
            rep = par(table, args.strategy, workers=args.workers, cache=tmp)
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kid = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"par {args.strategy} {table.name}{' (every flop)' if args.whole else ''}: {wall:.1f} s wall, {cpu:.1f} s CPU, {args.workers} workers; "
        f"peak RSS {own:.0f} MB (parent), {kid:.0f} MB (largest worker)"
    )
    m = rep.main
    got = {
        "rtp_total_main_bet": m["rtp_total_main_bet"],
        "rtp_initial_main_bet": m["rtp_initial_main_bet"],
        "trips": rep.trips["rtp"],
    }
    for key, value in got.items():
        note = f"   (seed 002: {PUBLISHED[key]:.2f}%)" if args.strategy == "optimal" else ""
        print(f"  {key:22s} {100 * value:9.4f}%{note}")
    print(
        f"  house edge per Ante    {100 * m['house_edge_per_ante']:9.4f}%   element of risk "
        f"{100 * m['element_of_risk']:.4f}%   sd {m['sd_antes']:.4f} Antes"
    )


if __name__ == "__main__":
    main()
