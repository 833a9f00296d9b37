"""NIST SP 800-22 rev. 1a: the fifteen statistical tests on one bit sequence, in numpy.

Each test takes a sequence ``bits`` (uint8 0/1) and returns its P-values (one, or one per
template or state), or ``None`` where SP 800-22 calls the test not applicable (the
random excursions tests with fewer than max(0.005 sqrt(n), 500) cycles).  Parameters are
those of NIST's reference code (``assess``) for sequences of 10^6 bits: block frequency
M = 128, non-overlapping templates m = 9 (all 148 aperiodic ones), overlapping template
m = 9, linear complexity M = 500, serial m = 16, approximate entropy m = 10; the
longest-run and universal tests take their block sizes from ``n`` as the standard says.
Section numbers below are SP 800-22's.  :mod:`engine.rng_tests.sp800_22_assess` runs the
battery over many sequences and judges the proportions and uniformity.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from engine.rng_tests.stats import igamc, normal_cdf

PValues = list[float] | None


def _erfc(x: float) -> float:
    return math.erfc(x)


def frequency(bits: np.ndarray) -> PValues:
    """2.1 Frequency (monobit)."""
    n = len(bits)
    s = 2 * int(bits.sum()) - n
    return [_erfc(abs(s) / math.sqrt(2 * n))]


def block_frequency(bits: np.ndarray, m: int = 128) -> PValues:
    """2.2 Frequency within a block of ``m`` bits."""
    blocks = len(bits) // m
    pi = bits[: blocks * m].reshape(blocks, m).mean(axis=1)
    chi2 = 4.0 * m * float(((pi - 0.5) ** 2).sum())
    return [igamc(blocks / 2.0, chi2 / 2.0)]


def runs(bits: np.ndarray) -> PValues:
    """2.3 Runs (0 when the frequency prerequisite fails)."""
    n = len(bits)
    pi = float(bits.mean())
    if abs(pi - 0.5) >= 2.0 / math.sqrt(n):
        return [0.0]
    v = 1 + int((bits[1:] != bits[:-1]).sum())
    q = pi * (1 - pi)
    return [_erfc(abs(v - 2 * n * q) / (2 * math.sqrt(2 * n) * q))]


#: 2.4: block size, the classes' bounds (at most, ..., at least) and their probabilities.
_LONGEST_RUN = (
    (8, (1, 4), (0.2148, 0.3672, 0.2305, 0.1875)),
    (128, (4, 9), (0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124)),
    (10_000, (10, 16), (0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727)),
)


def longest_run_of_ones(bits: np.ndarray) -> PValues:
    """2.4 Longest run of ones in a block (M = 8, 128 or 10^4 by ``n``)."""
    n = len(bits)
    m, (low, high), pis = _LONGEST_RUN[0 if n < 6272 else 1 if n < 750_000 else 2]
    blocks = n // m
    padded = np.zeros((blocks, m + 2), np.uint8)
    padded[:, 1:-1] = bits[: blocks * m].reshape(blocks, m)
    zeros = np.flatnonzero(padded.ravel() == 0)
    row = zeros // (m + 2)
    same = row[1:] == row[:-1]
    longest = np.zeros(blocks, np.int64)
    np.maximum.at(longest, row[1:][same], (np.diff(zeros) - 1)[same])
    v = np.bincount(np.clip(longest, low, high) - low, minlength=high - low + 1)
    expected = blocks * np.array(pis)
    chi2 = float(((v - expected) ** 2 / expected).sum())
    return [igamc((len(pis) - 1) / 2.0, chi2 / 2.0)]


def _rank_probability(r: int, m: int, q: int) -> float:
    prod = 1.0
    for i in range(r):
        prod *= (1 - 2.0 ** (i - q)) * (1 - 2.0 ** (i - m)) / (1 - 2.0 ** (i - r))
    return 2.0 ** (r * (q + m - r) - m * q) * prod


def gf2_ranks(rows: np.ndarray, width: int) -> np.ndarray:
    """Ranks over GF(2) of matrices given as rows of ``width``-bit integers ((N, R) uint64)."""
    rows = rows.astype(np.uint64).copy()
    count, height = rows.shape
    rank = np.zeros(count, np.int64)
    every = np.arange(count)
    for col in range(width - 1, -1, -1):
        bit = np.uint64(1) << np.uint64(col)
        has = (rows & bit) != 0
        has &= np.arange(height)[None, :] >= rank[:, None]
        found = has.any(axis=1)
        pivot = np.argmax(has, axis=1)
        m = every[found]
        p, r = pivot[found], rank[found]
        swap = rows[m, p].copy()
        rows[m, p] = rows[m, r]
        rows[m, r] = swap
        clear = ((rows[m] & bit) != 0) & (np.arange(height)[None, :] != r[:, None])
        rows[m] ^= np.where(clear, swap[:, None], np.uint64(0))
        rank[found] += 1
    return rank


def binary_matrix_rank(bits: np.ndarray, m: int = 32, q: int = 32) -> PValues:
    """2.5 Binary matrix rank of disjoint ``m`` x ``q`` matrices, filled row by row."""
    count = len(bits) // (m * q)
    weights = (np.uint64(1) << np.arange(q - 1, -1, -1, dtype=np.uint64))
    rows = (bits[: count * m * q].reshape(count, m, q).astype(np.uint64) * weights).sum(axis=2)
    ranks = gf2_ranks(rows, q)
    full = min(m, q)
    p_full, p_next = _rank_probability(full, m, q), _rank_probability(full - 1, m, q)
    observed = ((ranks == full).sum(), (ranks == full - 1).sum(), (ranks < full - 1).sum())
    probs = (p_full, p_next, 1.0 - p_full - p_next)
    chi2 = sum((o - count * p) ** 2 / (count * p) for o, p in zip(observed, probs, strict=True))
    return [math.exp(-chi2 / 2.0)]


def dft(bits: np.ndarray) -> PValues:
    """2.6 Discrete Fourier transform (spectral)."""
    n = len(bits)
    x = 2.0 * bits - 1.0
    modulus = np.abs(np.fft.fft(x)[: n // 2])
    threshold = math.sqrt(math.log(1 / 0.05) * n)
    n0 = 0.95 * n / 2.0
    n1 = int((modulus < threshold).sum())
    d = (n1 - n0) / math.sqrt(n * 0.95 * 0.05 / 4.0)
    return [_erfc(abs(d) / math.sqrt(2))]


def aperiodic_templates(m: int) -> list[int]:
    """The ``m``-bit templates that overlap no shifted copy of themselves (no proper
    prefix equal to a suffix), as integers in increasing order: 148 for m = 9."""
    out = []
    for t in range(1 << m):
        text = format(t, f"0{m}b")
        if not any(text[:k] == text[m - k:] for k in range(1, m)):
            out.append(t)
    return out


def _windows(bits: np.ndarray, m: int) -> np.ndarray:
    """The value of every ``m``-bit window of ``bits`` (overlapping, no wrap)."""
    count = len(bits) - m + 1
    out = np.zeros(count, np.int64)
    for j in range(m):
        out = (out << 1) | bits[j : j + count]
    return out


def non_overlapping_template(bits: np.ndarray, m: int = 9, blocks: int = 8,
                             templates: list[int] | None = None) -> PValues:
    """2.7 Non-overlapping template matching: one P-value per aperiodic template.

    An aperiodic template's occurrences cannot overlap, so the standard's scan (skip
    ``m`` bits after a match) counts every occurrence in the block."""
    big_m = len(bits) // blocks
    templates = aperiodic_templates(m) if templates is None else templates
    counts = np.stack([np.bincount(_windows(bits[j * big_m:(j + 1) * big_m], m),
                                   minlength=1 << m) for j in range(blocks)])
    mu = (big_m - m + 1) / 2.0**m
    var = big_m * (1 / 2.0**m - (2 * m - 1) / 2.0 ** (2 * m))
    chi2 = ((counts[:, templates] - mu) ** 2).sum(axis=0) / var
    return [igamc(blocks / 2.0, float(c) / 2.0) for c in chi2]


#: 2.8: the class probabilities NIST's reference code uses for m = 9, M = 1032.
OVERLAPPING_PI = (0.364091, 0.185659, 0.139381, 0.100571, 0.0704323, 0.139865)


def overlapping_template(bits: np.ndarray, m: int = 9, block: int = 1032) -> PValues:
    """2.8 Overlapping template matching of ``m`` ones, blocks of 1032 bits."""
    count = len(bits) // block
    shaped = bits[: count * block].reshape(count, block).astype(np.int64)
    sums = np.cumsum(np.pad(shaped, ((0, 0), (1, 0))), axis=1)
    hits = ((sums[:, m:] - sums[:, :-m]) == m).sum(axis=1)
    v = np.bincount(np.minimum(hits, 5), minlength=6)
    expected = count * np.array(OVERLAPPING_PI)
    chi2 = float(((v - expected) ** 2 / expected).sum())
    return [igamc(5 / 2.0, chi2 / 2.0)]


#: 2.9: (minimum n, L, expected value, variance) of Maurer's universal test.
_UNIVERSAL = (
    (904_960, 7, 6.1962507, 3.125), (387_840, 6, 5.2177052, 2.954),
    (171_040, 5, 4.2534266, 2.705), (75_600, 4, 3.3112247, 2.358),
)


def universal(bits: np.ndarray, block: int | None = None, init: int | None = None) -> PValues:
    """2.9 Maurer's universal statistical test (L from ``n``, Q = 10 * 2^L); ``block`` and
    ``init`` (L and Q) only with their expected value in :data:`UNIVERSAL_TABLE`."""
    n = len(bits)
    if block is None:
        row = next((r for r in _UNIVERSAL if n >= r[0]), None)
        if row is None:
            return None
        _, block, expected, variance = row
    else:
        expected, variance = UNIVERSAL_TABLE[block]
    init = 10 * 2**block if init is None else init
    total = n // block
    k = total - init
    values = _windows(bits[: total * block], block)[::block]
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    previous = np.zeros(total, np.int64)  # 1-based index of the last same block, or 0
    same = sorted_values[1:] == sorted_values[:-1]
    previous[order[1:][same]] = order[:-1][same] + 1
    index = np.arange(1, total + 1)
    fn = float(np.log2(index[init:] - previous[init:]).sum()) / k
    c = 0.7 - 0.8 / block + (4 + 32 / block) * k ** (-3 / block) / 15
    sigma = c * math.sqrt(variance / k)
    return [_erfc(abs(fn - expected) / (math.sqrt(2) * sigma))]


#: Maurer's expected value and variance by L (SP 800-22 section 2.9.4).
UNIVERSAL_TABLE = {1: (0.7326495, 0.690), 2: (1.5374383, 1.338), 3: (2.4016068, 1.901),
                   4: (3.3112247, 2.358), 5: (4.2534266, 2.705), 6: (5.2177052, 2.954),
                   7: (6.1962507, 3.125), 8: (7.1836656, 3.238)}


def linear_complexities(blocks: np.ndarray) -> np.ndarray:
    """The linear complexity of each row of ``blocks`` (0/1) by Berlekamp-Massey over
    GF(2), all rows at once.  ``shifted`` holds the last connection polynomial B already
    multiplied by x^(steps since it was set)."""
    s = np.ascontiguousarray(blocks, dtype=np.uint8)
    count, m = s.shape
    reverse = np.ascontiguousarray(s[:, ::-1])
    c = np.zeros((count, m + 1), np.uint8)
    shifted = np.zeros((count, m + 1), np.uint8)
    c[:, 0] = 1
    shifted[:, 1] = 1
    length = np.zeros(count, np.int64)
    for step in range(m):
        # discrepancy: s[step] + sum_{i=1..step} c[i] s[step - i]
        window = reverse[:, m - 1 - step:]  # s[step], s[step - 1], ..., s[0]
        d = np.bitwise_xor.reduce(c[:, : step + 1] & window, axis=1)
        rows = np.flatnonzero(d)
        if rows.size:
            old = c[rows]
            c[rows] = old ^ shifted[rows]
            grow = 2 * length[rows] <= step
            g = rows[grow]
            length[g] = step + 1 - length[g]
            shifted[g] = old[grow]
        shifted[:, 1:] = shifted[:, :-1].copy()
        shifted[:, 0] = 0
    return length


#: 2.10: the class probabilities as NIST's reference code has them (its pi_0 = 0.01047, where
#: 1/96 = 0.010417 is exact; the standard's worked example is computed with 0.01047).
LINEAR_COMPLEXITY_PI = (0.01047, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833)


def linear_complexity(bits: np.ndarray, m: int = 500) -> PValues:
    """2.10 Linear complexity of blocks of ``m`` bits."""
    count = len(bits) // m
    lengths = linear_complexities(bits[: count * m].reshape(count, m))
    mu = m / 2 + (9 + (-1) ** (m + 1)) / 36 - (m / 3 + 2 / 9) / 2.0**m
    t = (-1) ** m * (lengths - mu) + 2 / 9
    edges = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])
    v = np.bincount(np.searchsorted(edges, t, side="left"), minlength=7)
    expected = count * np.array(LINEAR_COMPLEXITY_PI)
    chi2 = float(((v - expected) ** 2 / expected).sum())
    return [igamc(3.0, chi2 / 2.0)]


def _psi2(bits: np.ndarray, m: int) -> float:
    if m <= 0:
        return 0.0
    n = len(bits)
    extended = np.concatenate([bits, bits[: m - 1]])
    counts = np.bincount(_windows(extended, m), minlength=1 << m).astype(np.float64)
    return float((counts**2).sum() * 2.0**m / n - n)


def serial(bits: np.ndarray, m: int = 16) -> PValues:
    """2.11 Serial: two P-values (first and second differences of psi^2)."""
    p0, p1, p2 = _psi2(bits, m), _psi2(bits, m - 1), _psi2(bits, m - 2)
    d1, d2 = p0 - p1, p0 - 2 * p1 + p2
    return [igamc(2.0 ** (m - 2), d1 / 2.0), igamc(2.0 ** (m - 3), d2 / 2.0)]


def _phi(bits: np.ndarray, m: int) -> float:
    n = len(bits)
    extended = np.concatenate([bits, bits[: m - 1]])
    counts = np.bincount(_windows(extended, m), minlength=1 << m)
    pi = counts[counts > 0] / n
    return float((pi * np.log(pi)).sum())


def approximate_entropy(bits: np.ndarray, m: int = 10) -> PValues:
    """2.12 Approximate entropy."""
    n = len(bits)
    apen = _phi(bits, m) - _phi(bits, m + 1)
    chi2 = 2.0 * n * (math.log(2) - apen)
    return [igamc(2.0 ** (m - 1), chi2 / 2.0)]


def _cusum_p(n: int, z: int) -> float:
    root = math.sqrt(n)

    def tdiv(a: int, b: int) -> int:  # C's integer division, towards zero
        return int(a / b)

    first = sum(normal_cdf((4 * k + 1) * z / root) - normal_cdf((4 * k - 1) * z / root)
                for k in range(tdiv(tdiv(-n, z) + 1, 4), tdiv(tdiv(n, z) - 1, 4) + 1))
    second = sum(normal_cdf((4 * k + 3) * z / root) - normal_cdf((4 * k + 1) * z / root)
                 for k in range(tdiv(tdiv(-n, z) - 3, 4), tdiv(tdiv(n, z) - 1, 4) + 1))
    return 1.0 - first + second


def cumulative_sums(bits: np.ndarray) -> PValues:
    """2.13 Cumulative sums: forward and backward P-values."""
    x = 2 * bits.astype(np.int64) - 1
    forward = int(np.abs(np.cumsum(x)).max())
    backward = int(np.abs(np.cumsum(x[::-1])).max())
    return [_cusum_p(len(bits), forward), _cusum_p(len(bits), backward)]


def _walk(bits: np.ndarray) -> tuple[np.ndarray, int]:
    """The random walk S'(0, S_1 .. S_n, 0) and its number of cycles J (the zeros of
    S_1 .. S_n, and one more when S_n is not 0)."""
    walk = np.concatenate([[0], np.cumsum(2 * bits.astype(np.int64) - 1), [0]])
    return walk, int((walk[1:-1] == 0).sum()) + int(walk[-2] != 0)


def _applicable(n: int, cycles: int) -> bool:
    return cycles >= max(0.005 * math.sqrt(n), 500)


EXCURSION_STATES = (-4, -3, -2, -1, 1, 2, 3, 4)
VARIANT_STATES = tuple(x for x in range(-9, 10) if x)


def excursion_probabilities(x: int) -> list[float]:
    """pi_k(x) for k = 0..4 visits and 5 or more (2.14.4)."""
    a = 1 - 1 / (2 * abs(x))
    return [a, *(a ** (k - 1) / (4 * x * x) for k in range(1, 5)), a**4 / (2 * abs(x))]


def random_excursions(bits: np.ndarray, force: bool = False) -> PValues:
    """2.14 Random excursions: eight P-values (states -4..-1, 1..4), or None when there
    are too few cycles (``force``: compute anyway, for the standard's small example)."""
    walk, cycles = _walk(bits)
    if not force and not _applicable(len(bits), cycles):
        return None
    cycle = np.cumsum(walk == 0)[:-1] - 1  # cycle of each position before the last 0
    inner = walk[:-1]
    out = []
    for x in EXCURSION_STATES:
        visits = np.bincount(cycle[inner == x], minlength=cycles)[:cycles]
        v = np.bincount(np.minimum(visits, 5), minlength=6)
        expected = cycles * np.array(excursion_probabilities(x))
        chi2 = float(((v - expected) ** 2 / expected).sum())
        out.append(igamc(5 / 2.0, chi2 / 2.0))
    return out


def random_excursions_variant(bits: np.ndarray, force: bool = False) -> PValues:
    """2.15 Random excursions variant: eighteen P-values (states -9..-1, 1..9)."""
    walk, cycles = _walk(bits)
    if not force and not _applicable(len(bits), cycles):
        return None
    inner = walk[1:-1]
    visits = np.bincount(inner[np.abs(inner) <= 9] + 9, minlength=19)
    return [_erfc(abs(int(visits[x + 9]) - cycles) / math.sqrt(2 * cycles * (4 * abs(x) - 2)))
            for x in VARIANT_STATES]


#: The battery in SP 800-22's order: (name, test, names of its P-values).
BATTERY: tuple[tuple[str, Callable[[np.ndarray], PValues], tuple[str, ...]], ...] = (
    ("Frequency", frequency, ("",)),
    ("BlockFrequency", block_frequency, ("",)),
    ("CumulativeSums", cumulative_sums, ("forward", "backward")),
    ("Runs", runs, ("",)),
    ("LongestRun", longest_run_of_ones, ("",)),
    ("Rank", binary_matrix_rank, ("",)),
    ("FFT", dft, ("",)),
    ("NonOverlappingTemplate", non_overlapping_template,
     tuple(format(t, "09b") for t in aperiodic_templates(9))),
    ("OverlappingTemplate", overlapping_template, ("",)),
    ("Universal", universal, ("",)),
    ("ApproximateEntropy", approximate_entropy, ("",)),
    ("RandomExcursions", random_excursions, tuple(f"x={x:+d}" for x in EXCURSION_STATES)),
    ("RandomExcursionsVariant", random_excursions_variant,
     tuple(f"x={x:+d}" for x in VARIANT_STATES)),
    ("Serial", serial, ("1", "2")),
    ("LinearComplexity", linear_complexity, ("",)),
)
