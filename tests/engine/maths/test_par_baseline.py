"""The shipped baseline of the optimal analysis: a sample of its flops rebuilt, for two tables.

The whole baseline is rebuilt and compared in the slow set (``test_par.py``); here a
sample of flops is run through the kernel again, for the standard table and for one whose
Blind pays differ, and compared with the shipped file: the same pay-dependent flops and
splits, the same 2x decisions, the same counts (by digest).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.maths.cache import load_par_baseline
from engine.maths.par_baseline import DATA_DIR, baseline_name
from engine.maths.par_flop import main_params
from engine.maths.par_main import analyse_flops
from engine.maths.par_tables import FULL_DECK, deck_symmetry
from engine.uth.paytable import PAYTABLE_DIR, load_paytable, parse_paytable

STANDARD = load_paytable(PAYTABLE_DIR / "standard.toml")
GENEROUS = parse_paytable(
    (PAYTABLE_DIR / "standard.toml")
    .read_text()
    .replace('straight = "1:1"', 'straight = "50:1"')
    .replace('four_of_a_kind = "10:1"', 'four_of_a_kind = "20:1"'),
    "generous",
)


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    qualify = main_params(STANDARD).qualify
    assert (DATA_DIR / baseline_name(qualify)).exists()
    base = load_par_baseline(qualify, cache=tmp_path_factory.mktemp("empty"))
    assert base is not None
    return base


def test_shipped_baseline_is_complete(shipped):
    sym = deck_symmetry(FULL_DECK)
    assert len(shipped.flop_decisions) == len(sym.flops) == 1755
    dependent = set(shipped.dependent.tolist())
    assert 0 < len(dependent) < len(sym.flops) // 4
    # every other flop has counts; a flop class with a pay-dependent spot holds a pair
    assert all((shipped.digests[j] != 0) == (j not in dependent) for j in range(len(sym.flops)))
    for j in dependent:
        ranks = sym.flops[j] >> 2
        assert len(set(ranks.tolist())) < 3
    assert shipped.check_counts.sum() > 0 and shipped.category_counts.sum() > 0


@pytest.mark.parametrize("table", [STANDARD, GENEROUS], ids=["standard", "generous"])
def test_a_sample_of_flops_rebuilt_equals_the_baseline(shipped, table):
    rng = np.random.default_rng(4)
    dependent = shipped.dependent.tolist()
    free = [j for j in range(len(shipped.digests)) if j not in set(dependent)]
    sample = sorted(rng.choice(free, 5, replace=False).tolist() + dependent[:2])
    # split=True also checks each split, evaluated for this table, against the whole flop
    sums = analyse_flops(FULL_DECK, main_params(table), None, sample, 1, None, split=True)
    assert sums.dependent == set(dependent[:2])
    for j in sample:
        if j in sums.dependent:
            mine, theirs = sums.splits[j], shipped.splits[dependent.index(j)]
            for name in ("rows", "weights", "fixed_bet", "variable", "delta", "cells"):
                assert np.array_equal(getattr(mine, name), getattr(theirs, name)), (j, name)
            continue
        assert sums.digests[j] == shipped.digests[j], j
        assert np.array_equal(sums.decisions[j], shipped.flop_decisions[j]), j
