"""Rebuild the shipped baseline of the optimal analysis (the qualifier "pair").

    .venv/bin/python -m engine.maths.build_baseline

Runs the flop kernel on every flop class of the standard table (about a minute on two
cores) and writes ``engine/maths/data/par-baseline-q*-v*.npz``
(see :mod:`engine.maths.par_baseline`).
"""

from __future__ import annotations

import time

import numpy as np

from engine.maths.par_baseline import DATA_DIR, baseline_name
from engine.maths.par_main import analyse_with_baseline
from engine.uth.paytable import PAYTABLE_DIR, load_paytable


def main() -> None:
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    t0 = time.perf_counter()
    _, baseline = analyse_with_baseline(table)
    path = DATA_DIR / baseline_name(baseline.qualify)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **baseline.arrays())  # type: ignore[arg-type]
    print(f"{path}: {path.stat().st_size:,} bytes, {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
