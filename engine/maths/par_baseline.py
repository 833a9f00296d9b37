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
for the qualifier "pair"), and the list of the others (143).  The analysis of any
paytable then runs the flop kernel on those 143 only and adds the baseline: the same
integers as a whole run (:mod:`engine.maths.par_main`).

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

#: the file name of a baseline; bump the version whenever the analysis changes
BASELINE_VERSION = 1
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
    the dependent flops).
    """

    qualify: int
    dependent: np.ndarray
    check_counts: np.ndarray
    category_counts: np.ndarray
    flop_decisions: np.ndarray
    digests: np.ndarray

    def arrays(self) -> dict[str, np.ndarray]:
        """The fields as named arrays (for a file)."""
        return {
            "qualify": np.array(self.qualify, np.int64),
            "dependent": self.dependent,
            "check_counts": self.check_counts,
            "category_counts": self.category_counts,
            "flop_decisions": self.flop_decisions,
            "digests": self.digests,
        }

    @classmethod
    def from_arrays(cls, z: dict[str, np.ndarray] | np.lib.npyio.NpzFile) -> ParBaseline:
        return cls(
            qualify=int(z["qualify"]),
            dependent=np.asarray(z["dependent"], np.int64),
            check_counts=np.asarray(z["check_counts"], np.int64),
            category_counts=np.asarray(z["category_counts"], np.int64),
            flop_decisions=np.asarray(z["flop_decisions"], np.uint8),
            digests=np.asarray(z["digests"], np.int64),
        )
