"""The project's SP 800-22 held to an outside implementation, nistrng (1.2.3), on the same
sequences, for the tests both implement with the same parameters: the frequency, runs,
binary matrix rank, DFT and cumulative sums tests agree to 1e-9 (the rank test 1e-6).

nistrng is fed a fresh copy of each sequence (its rank test writes into its input) and,
for the cumulative sums, 64-bit integers (on its own int8 format the partial sums
overflow).  Its other tests use other parameters (block frequency, longest run,
universal, serial, approximate entropy), draw one random template (non-overlapping
template) or are too slow at 10^6 bits (linear complexity in pure Python, about 200 s),
so they are not compared.  nistrng has had no release since 2021: it is in the test
extra only (an outside implementation to hold ours to), never a dependency of the cabinet."""

from __future__ import annotations

import random

# an outside implementation (in the test extra; no release since 2021, but its statistics
# are the reference's): the cross-check is the point, so it is imported, never skipped
import nistrng
import numpy as np
import pytest

from engine.rng_tests import sp800_22 as ours

#: This project's test -> nistrng's, where both compute the same statistic.
SAME = {
    "frequency": "monobit",
    "runs": "runs",
    "binary_matrix_rank": "binary_matrix_rank",
    "dft": "dft",
    "cumulative_sums": "cumulative sums",
}
#: Absolute agreement of the P-values: 1e-9, but 1e-6 for the rank test, where nistrng
#: uses the standard's class probabilities rounded to four digits (0.2888, 0.5776, 0.1336)
#: and this project the exact ones.
TOLERANCE = {"binary_matrix_rank": 1e-6}


def sequences() -> list[np.ndarray]:
    out = [
        np.unpackbits(np.frombuffer(random.Random(seed).randbytes(25_000), np.uint8))
        for seed in (1, 2, 3)
    ]
    from engine.rng_tests import dump_bytes

    out.append(np.unpackbits(np.frombuffer(dump_bytes(25_000), np.uint8)))  # the tap
    return out


@pytest.mark.parametrize("name", sorted(SAME))
def test_the_p_values_equal_nistrng_s(name):
    test = nistrng.SP800_22R1A_BATTERY[SAME[name]]
    for bits in sequences():
        mine = getattr(ours, name)(bits.copy())
        theirs = bits.astype(np.int64 if name == "cumulative_sums" else np.int8)
        assert test.is_eligible(theirs.copy())
        result, _ = test.run(theirs.copy())
        theirs_p = np.atleast_1d(result._score_list).astype(float).tolist()
        assert mine == pytest.approx(theirs_p, abs=TOLERANCE.get(name, 1e-9)), name
        assert all(0.0001 < p for p in mine)  # a normal P-value on a random sequence


def test_the_readme_s_account_of_nistrng_is_the_measured_one():
    from pathlib import Path

    text = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split())
    assert "fresh copy of each sequence" in text
    assert "tests return P = 0" not in text  # the usage artefact, withdrawn
