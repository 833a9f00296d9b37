"""Rebuild the shipped tables of optimal play (the dealer qualifier "pair").

    .venv/bin/python -m engine.maths.build_baseline

Runs the flop kernel on every flop class of the standard table (one to two minutes on
two cores) and writes ``engine/maths/data/par-baseline-q*-v*.npz`` (see
:mod:`engine.maths.par_baseline`); then builds the river base of every board class
(about 15 s on two cores) and writes ``engine/maths/data/river-q*-v*.npz`` (see
:mod:`engine.maths.river_table`).
"""

from __future__ import annotations

import os
import time

import numpy as np

from engine.maths.cache import river_base_bytes, river_path
from engine.maths.par_baseline import DATA_DIR, baseline_name
from engine.maths.par_main import analyse_with_baseline
from engine.maths.river_table import build_river_base
from engine.uth.paytable import PAYTABLE_DIR, load_paytable


def main() -> None:
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    t0 = time.perf_counter()
    _, baseline = analyse_with_baseline(table)
    path = DATA_DIR / baseline_name(baseline.qualify)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **baseline.arrays())  # type: ignore[arg-type]
    print(f"{path}: {path.stat().st_size:,} bytes, {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    river = build_river_base(baseline.qualify, workers=os.cpu_count() or 1)
    path = river_path(river.qualify, DATA_DIR)
    path.write_bytes(river_base_bytes(river))
    print(f"{path}: {path.stat().st_size:,} bytes, {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
