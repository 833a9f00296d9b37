"""NIST SP 800-22: each test against the standard's worked examples, the battery's
second-level judgement, and a weak generator caught where the cabinet's draws pass."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest

from engine.rng_tests import sp800_22 as sp
from engine.rng_tests.fastdump import dump_stream
from engine.rng_tests.sources import lcg_bytes
from engine.rng_tests.sp800_22_assess import (
    assess,
    battery_verdict,
    proportion_minimum,
    run_battery,
    uniformity,
)
from engine.rng_tests.stats import igamc


def bits(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), np.uint8) - 48


# The standard's small examples (sections 2.x.8): sequence, test, its arguments, P-values.
EXAMPLES = [
    ("1011010101", sp.frequency, {}, [0.527089]),
    ("0110011010", sp.block_frequency, {"m": 3}, [0.801252]),
    ("1001101011", sp.runs, {}, [0.147232]),
    ("1011010111", sp.cumulative_sums, {}, [0.4116588, 0.4116588]),
    ("0100110101", sp.approximate_entropy, {"m": 3}, [0.261961]),
    ("0011011101", sp.serial, {"m": 3}, [0.808792, 0.670320]),
    ("10100100101110010110", sp.non_overlapping_template,
     {"m": 3, "blocks": 2, "templates": [0b001]}, [0.344154]),
]


@pytest.mark.parametrize("text, test, kwargs, want", EXAMPLES, ids=lambda v: getattr(v, "__name__", None))
def test_the_standards_small_examples(text, test, kwargs, want):
    assert test(bits(text), **kwargs) == pytest.approx(want, abs=2e-6)


def test_the_random_excursions_variant_example():
    # 2.15.8: 0110110101, J = 3, state +1 visited 4 times
    assert sp.random_excursions_variant(bits("0110110101"), force=True)[9] == pytest.approx(
        0.683091, abs=1e-6)
    assert sp.random_excursions_variant(bits("0110110101")) is None  # too few cycles


def test_aperiodic_templates_and_the_rank_probabilities():
    assert len(sp.aperiodic_templates(9)) == 148
    assert sp.aperiodic_templates(3) == [0b001, 0b011, 0b100, 0b110]
    assert sp._rank_probability(32, 32, 32) == pytest.approx(0.2888, abs=1e-4)
    assert sp._rank_probability(31, 32, 32) == pytest.approx(0.5776, abs=1e-4)


def scalar_berlekamp_massey(s: list[int]) -> int:
    n = len(s)
    c, b, length, m = [1] + [0] * n, [1] + [0] * n, 0, 1
    for step in range(n):
        d = s[step]
        for i in range(1, length + 1):
            d ^= c[i] & s[step - i]
        if d == 0:
            m += 1
            continue
        new = [c[i] ^ (b[i - m] if i >= m else 0) for i in range(n + 1)]
        if 2 * length <= step:
            length, b, m = step + 1 - length, c, 1
        else:
            m += 1
        c = new
    return length


def test_linear_complexity_is_berlekamp_massey():
    rng = np.random.default_rng(1)
    blocks = rng.integers(0, 2, (60, 48), dtype=np.uint8)
    assert list(sp.linear_complexities(blocks)) == [scalar_berlekamp_massey(list(r)) for r in blocks]
    assert sp.linear_complexities(bits("1101011110001")[None, :])[0] == 4  # 2.10.8


def test_gf2_rank_against_a_plain_elimination():
    rng = np.random.default_rng(2)
    rows = rng.integers(0, 2**6, (200, 6), dtype=np.uint64)
    rows[:20, 3] = rows[:20, 0] ^ rows[:20, 1]  # some rank-deficient matrices

    def rank(values: list[int]) -> int:
        r = 0
        values = list(values)
        for bit in reversed(range(6)):
            pivot = next((i for i in range(r, 6) if values[i] >> bit & 1), None)
            if pivot is None:
                continue
            values[r], values[pivot] = values[pivot], values[r]
            values = [v ^ values[r] if i != r and v >> bit & 1 else v for i, v in enumerate(values)]
            r += 1
        return r

    assert list(sp.gf2_ranks(rows, 6)) == [rank([int(v) for v in row]) for row in rows]


def test_igamc_and_the_second_level_bounds():
    assert igamc(1.0, 1.0) == pytest.approx(math.exp(-1.0), rel=1e-12)
    assert igamc(0.5, 2.0) == pytest.approx(math.erfc(math.sqrt(2.0)), rel=1e-10)
    assert proportion_minimum(100) == pytest.approx(0.9601504, abs=1e-7)  # 4.2.1: 97 of 100 pass
    assert proportion_minimum(1000) == pytest.approx(0.9805608, abs=1e-7)
    assert uniformity([(i + 0.5) / 100 for i in range(100)]) == pytest.approx(1.0)
    assert uniformity([0.995] * 100) < 1e-4


#: The first 10^6 binary digits of e (10.1011011111...), the standard's test data, packed
#: most significant bit first; made by summing 2^(n - 2) / k! over k in integers.
E_FILE = Path(__file__).resolve().parents[1] / "data" / "e-binary-1e6.bin"


def e_bits(n: int) -> np.ndarray:
    """The first ``n`` binary digits of e, computed (slow for large ``n``)."""
    extra = 64
    total, term, k = 0, 1 << (n - 2 + extra), 0
    while term:
        total += term
        k += 1
        term //= k
    text = bin(total >> extra)[2:]
    assert len(text) == n
    return np.frombuffer(text.encode(), np.uint8) - 48


def test_the_digits_of_e_on_file_are_e():
    on_file = np.unpackbits(np.frombuffer(E_FILE.read_bytes(), np.uint8))
    assert len(on_file) == 1_000_000
    assert (on_file[:20_000] == e_bits(20_000)).all()


# The standard's examples on the first 10^6 binary digits of e (sections 2.x.8).
E_EXAMPLES = [
    (sp.frequency, {}, [0.953749]),
    (sp.block_frequency, {}, [0.211072]),
    (sp.cumulative_sums, {}, [0.669887, 0.724266]),
    (sp.runs, {}, [0.561917]),
    (sp.longest_run_of_ones, {}, [0.718945]),
    (sp.binary_matrix_rank, {}, [0.306156]),
    (sp.dft, {}, [0.847187]),
    (sp.non_overlapping_template, {"templates": [0b000000001]}, [0.078790]),
    (sp.universal, {}, [0.282568]),
    (sp.approximate_entropy, {}, [0.700073]),
    (sp.linear_complexity, {"m": 1000}, [0.845406]),
    (sp.serial, {"m": 2}, [0.843764, 0.561915]),
]


@pytest.fixture(scope="module")
def e():
    return np.unpackbits(np.frombuffer(E_FILE.read_bytes(), np.uint8))


def test_the_standards_examples_on_the_digits_of_e(e):
    for test, kwargs, want in E_EXAMPLES:
        assert test(e, **kwargs) == pytest.approx(want, abs=2e-6), test.__name__
    # 2.14.8 and 2.15.8: state +1 of the excursions, state -1 of the variant
    assert sp.random_excursions(e)[4] == pytest.approx(0.786868, abs=1e-6)
    assert sp.random_excursions_variant(e)[8] == pytest.approx(0.826009, abs=1e-6)
    # 2.8.8's counts (its P-value, 0.110434, is the one of the older class probabilities)
    assert sp.overlapping_template(e) == pytest.approx([igamc(2.5, chi2(e) / 2)])


def chi2(e: np.ndarray) -> float:
    v = np.array([329, 164, 150, 111, 78, 136])
    expected = 968 * np.array(sp.OVERLAPPING_PI)
    return float(((v - expected) ** 2 / expected).sum())


@pytest.mark.heavy
def test_the_battery_passes_the_shuffles_draws_and_catches_a_weak_generator():
    r = random.Random(11)
    sequences, n = 12, 100_000
    good = b"".join(dump_stream(sequences * n // 8, r.randbytes))
    results = {}
    for name, data in (("cabinet", good), ("weak", lcg_bytes(sequences * n // 8))):
        array = np.unpackbits(np.frombuffer(data, np.uint8))
        rows = assess(run_battery(array[i * n:(i + 1) * n] for i in range(sequences)))
        results[name] = battery_verdict(rows)
        assert len(rows) == 188
    assert results["cabinet"].ok, results["cabinet"]
    assert not results["weak"].ok and results["weak"].flagged > 100
