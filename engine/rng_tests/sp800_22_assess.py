"""SP 800-22's second level: the battery over many sequences, judged by the proportion of
sequences that pass and the uniformity of the P-values (section 4.2).

Every P-value kind (a test's, or one per template or state) is judged on its own:

* **proportion**: of ``s`` sequences (those where the test applies) the share with
  ``P >= ALPHA`` must lie within ``p +- 3 sqrt(p (1 - p) / s)``, ``p = 1 - ALPHA`` (for
  100 sequences: at least 97 pass);
* **uniformity**: the P-values' counts in ten equal bins give a chi-square (9 df) whose
  P-value must be at least :data:`UNIFORMITY_MIN` (0.0001).

With 188 kinds an ideal generator still flags a few by chance (each kind's proportion
about 1.8% of the time at 100 sequences), so the battery as a whole is judged by the
number of flagged kinds against its exact expectation: it fails when more are flagged
than an ideal generator flags with 99% probability (:func:`battery_verdict`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from engine.rng_tests.sp800_22 import BATTERY
from engine.rng_tests.stats import igamc

#: A P-value below it fails its sequence.
ALPHA = 0.01
#: The uniformity P-value below which a kind is flagged.
UNIFORMITY_MIN = 0.0001
#: The ideal generator's chance of more flagged kinds than the battery allows.
BATTERY_RISK = 0.01


@dataclass(frozen=True)
class KindResult:
    """One P-value kind over the sequences: ``passed`` of ``sequences`` (where it
    applied), the proportion's lower bound, the uniformity P-value and the verdicts."""

    test: str
    kind: str
    sequences: int
    passed: int
    minimum: float
    uniformity: float
    proportion_ok: bool
    uniformity_ok: bool
    p_values: tuple[float, ...]

    @property
    def ok(self) -> bool:
        return self.proportion_ok and self.uniformity_ok

    @property
    def chance_of_flag(self) -> float:
        """The chance an ideal generator flags this kind (proportion or uniformity)."""
        s = self.sequences
        if s == 0:
            return 0.0
        allowed = s - math.ceil(self.minimum * s - 1e-12)  # failures allowed
        inside = sum(math.comb(s, k) * ALPHA**k * (1 - ALPHA) ** (s - k)
                     for k in range(allowed + 1))
        return 1.0 - inside * (1 - UNIFORMITY_MIN)


def proportion_minimum(sequences: int) -> float:
    """The lowest passing proportion for ``sequences`` sequences (section 4.2.1)."""
    p = 1 - ALPHA
    return p - 3 * math.sqrt(p * ALPHA / sequences)


def uniformity(p_values: Iterable[float]) -> float:
    """The P-value of the P-values' uniformity over ten bins (section 4.2.2)."""
    values = np.asarray(list(p_values), dtype=np.float64)
    s = len(values)
    if s == 0:
        return 1.0
    counts = np.bincount(np.minimum((values * 10).astype(np.int64), 9), minlength=10)
    chi2 = float(((counts - s / 10) ** 2 / (s / 10)).sum())
    return igamc(9 / 2, chi2 / 2)


def run_battery(sequences: Iterable[np.ndarray],
                progress: Callable[[int], None] | None = None
                ) -> dict[tuple[str, str], list[float]]:
    """Every test on every sequence: the P-values of each (test, kind), over the
    sequences where the test applied.  ``progress(done)`` after each sequence."""
    out: dict[tuple[str, str], list[float]] = {
        (name, kind): [] for name, _, kinds in BATTERY for kind in kinds}
    for done, bits in enumerate(sequences, 1):
        for name, test, kinds in BATTERY:
            values = test(bits)
            if values is None:
                continue
            for kind, p in zip(kinds, values, strict=True):
                out[(name, kind)].append(float(p))
        if progress is not None:
            progress(done)
    return out


def assess(p_values: dict[tuple[str, str], list[float]]) -> list[KindResult]:
    """The proportion and uniformity of every kind."""
    rows = []
    for (test, kind), values in p_values.items():
        s = len(values)
        passed = sum(p >= ALPHA for p in values)
        minimum = proportion_minimum(s) if s else 0.0
        maximum = 2 - ALPHA - minimum
        u = uniformity(values)
        rows.append(KindResult(test, kind, s, passed, minimum, u,
                               s == 0 or minimum <= passed / s <= maximum,
                               u >= UNIFORMITY_MIN, tuple(values)))
    return rows


@dataclass(frozen=True)
class BatteryVerdict:
    """The battery's judgement: kinds flagged, the ideal generator's expectation and the
    most it flags with probability 1 - :data:`BATTERY_RISK`."""

    flagged: int
    expected: float
    allowed: int

    @property
    def ok(self) -> bool:
        return self.flagged <= self.allowed


def battery_verdict(rows: list[KindResult]) -> BatteryVerdict:
    """Judge the whole battery: the flagged kinds against the Poisson-binomial law of an
    ideal generator's flags (computed exactly over the kinds)."""
    law = np.array([1.0])
    for row in rows:
        q = row.chance_of_flag
        law = np.append(law * (1 - q), 0.0) + np.append(0.0, law * q)
    allowed = int(np.searchsorted(np.cumsum(law), 1 - BATTERY_RISK))
    flagged = sum(not row.ok for row in rows)
    return BatteryVerdict(flagged, float(sum(r.chance_of_flag for r in rows)), allowed)
