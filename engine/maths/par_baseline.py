"""What the exact optimal analysis shares between every paytable of one dealer qualifier.

The Blind pays the same whatever the Play multiple, so its pays cancel between the
options of every decision, except where the player would fold a straight or better
(the Blind then is lost).  That happens only at the river spots of
:func:`engine.maths.par_flop.pay_dependent`: a straight or better with ``X <= 0`` and
``W > 0`` (on the full deck: a board of four of a kind, the player's kicker beating
some dealer hands).  A flop without such a spot has the same optimal decisions and
the same counts for every paytable with the same qualifier (the Ante and Play pay even
money and the Trips do not enter the main game).

So a :class:`ParBaseline` holds, for the full deck and one qualifier, the summed counts
and the flop decisions of every flop class without such a spot (1,612 of the 1,755
for the qualifier "pair"), and for each of the others (143) its split
(:mod:`engine.maths.par_split`): what does not depend on the pays there too.  The
analysis of any paytable then evaluates the few pay-dependent boards of those flops
and adds the baseline: the same integers as a whole run (:mod:`engine.maths.par_main`).

The baseline of the qualifier "pair" ships in ``engine/maths/data/``; another
qualifier's is built by its first analysis and cached (:mod:`engine.maths.cache`).
``python -m engine.maths.build_baseline`` rebuilds the shipped file.  Each flop's counts
also have a digest (:func:`flop_digest`), so a test can rebuild a sample of flops and
compare.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.maths.par_split import SplitFlop

#: the file name of a baseline; bump the version whenever the analysis changes
BASELINE_VERSION = 2
DATA_DIR = Path(__file__).with_name("data")


def baseline_name(qualify: int) -> str:
    """The file name of the baseline of the dealer qualifier ``qualify`` (a strength floor)."""
    return f"par-baseline-q{qualify}-v{BASELINE_VERSION}.npz"


_DIGEST_WEIGHTS: dict[int, np.ndarray] = {}


def flop_digest(counts: np.ndarray) -> int:
    """A check sum of one flop's weighted counts (``(classes * 3, 60)`` int64)."""
    size = counts.size
    if size not in _DIGEST_WEIGHTS:
        _DIGEST_WEIGHTS[size] = (np.arange(size, dtype=np.int64) * 7919) % 1009 + 1
    return int((counts.ravel() * _DIGEST_WEIGHTS[size]).sum())


@dataclass(frozen=True)
class ParBaseline:
    """The pay-independent part of the full-deck optimal analysis of one qualifier.

    Flops are the canonical flops of :func:`engine.maths.par_tables.deck_symmetry` (full
    deck), by index.  ``dependent``: the ascending indices of the flops with a
    pay-dependent river spot.  Over every other flop, weighted by its class size:
    ``check_counts`` (``(classes * 3, 60)``: rows ``class * 3 + multiple``, columns
    ``category * 6 + outcome``, as :class:`engine.maths.par_main.MainAnalysis` before
    reshaping) and ``category_counts`` (each seven-card hand 35 times).
    ``flop_decisions[j]``: the packed 2x decisions of flop ``j``'s hands (zero for the
    dependent flops); ``digests[j]``: :func:`flop_digest` of flop ``j``'s counts (0 for
    the dependent flops).  ``splits``: the split of each dependent flop, in the order of
    ``dependent``; ``check_counts`` includes their ``fixed_counts``, ``category_counts``
    their category counts.
    """

    qualify: int
    dependent: np.ndarray
    check_counts: np.ndarray
    category_counts: np.ndarray
    flop_decisions: np.ndarray
    digests: np.ndarray
    splits: tuple[SplitFlop, ...]

    def arrays(self) -> dict[str, np.ndarray]:
        """The fields as named arrays (for a file)."""
        sp = self.splits
        return {
            "qualify": np.array(self.qualify, np.int64),
            "dependent": self.dependent,
            "check_counts": self.check_counts,
            "category_counts": self.category_counts,
            "flop_decisions": self.flop_decisions,
            "digests": self.digests,
            "split_row_ends": np.cumsum([len(x.rows) for x in sp], dtype=np.int64),
            "split_rows": _cat([x.rows for x in sp]),
            "split_weights": _cat([x.weights for x in sp]),
            "split_fixed_bet": np.array([np.packbits(x.fixed_bet) for x in sp], np.uint8),
            "split_variable_ends": np.cumsum([len(x.variable) for x in sp], dtype=np.int64),
            "split_variable": _cat([x.variable for x in sp]),
            "split_delta": _cat([x.delta for x in sp]),
            "split_cells": _cat([x.cells.reshape(-1) for x in sp]),
        }

    @classmethod
    def from_arrays(cls, z: dict[str, np.ndarray] | np.lib.npyio.NpzFile) -> ParBaseline:
        """The baseline of :meth:`arrays`' output (raises ``ValueError``/``KeyError`` if bad)."""
        dependent = np.asarray(z["dependent"], np.int64)
        n_pairs = 1176
        rows = np.split(np.asarray(z["split_rows"], np.intp), z["split_row_ends"][:-1])
        weights = np.split(np.asarray(z["split_weights"], np.int64), z["split_row_ends"][:-1])
        ends = np.asarray(z["split_variable_ends"], np.int64)
        variable = np.split(np.asarray(z["split_variable"], np.int64), ends[:-1])
        delta = np.split(np.asarray(z["split_delta"], np.int64), ends[:-1])
        cells = np.split(np.asarray(z["split_cells"], np.int64), 120 * ends[:-1])
        fixed_bet = np.unpackbits(np.asarray(z["split_fixed_bet"], np.uint8), axis=1)
        splits = tuple(
            SplitFlop(
                rows=rows[k],
                weights=weights[k],
                fixed_bet=fixed_bet[k, :n_pairs].astype(bool),
                variable=variable[k],
                delta=delta[k],
                cells=cells[k].reshape(-1, 2, 60),
                fixed_counts=np.zeros((0, 60), np.int64),
            )
            for k in range(len(dependent))
        )
        if len(splits) != len(dependent) or len(ends) != len(dependent):
            raise ValueError("a baseline whose splits do not match its dependent flops")
        return cls(
            qualify=int(z["qualify"]),
            dependent=dependent,
            check_counts=np.asarray(z["check_counts"], np.int64),
            category_counts=np.asarray(z["category_counts"], np.int64),
            flop_decisions=np.asarray(z["flop_decisions"], np.uint8),
            digests=np.asarray(z["digests"], np.int64),
            splits=splits,
        )


def _cat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)
