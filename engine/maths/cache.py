"""The maths' results on disk: every file and environment read or write of the analysis.

The folder is ``$UTH_PAR_CACHE``, else ``$XDG_CACHE_HOME/uth/par``, else
``~/.cache/uth/par`` (:func:`cache_dir`).  It holds:

* the main-game analyses (``main-*.npz``), keyed by what the main bets depend on (Blind
  lines, qualifier, deck, strategy) and :data:`ANALYSIS_VERSION`;
* the seven-card category counts of each deck (``categories7-*.json``), also kept in
  memory for the process;
* the reports (``par-*.json``), keyed by the paytable's sha256, the strategy, the deck
  and :data:`REPORT_VERSION`;
* the baselines of the optimal analysis (``par-baseline-*.npz``, see
  :mod:`engine.maths.par_baseline`; the qualifier "pair"'s ships with the package and
  is read from there first), keyed by the dealer qualifier;
* the river bases of the optimal strategy (``river-*.npz``, see
  :mod:`engine.maths.river_table`; the qualifier "pair"'s ships with the package and is
  read from there first), keyed by the dealer qualifier and :data:`RIVER_VERSION`.

Files are written to a temporary name and renamed, so a reader never sees half a file;
a file that cannot be read is treated as absent, one that cannot be written is skipped
with a warning.  :func:`cached_par` and :func:`cached_rtp` answer without enumerating.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from collections.abc import Sequence
from math import comb
from pathlib import Path

import numpy as np

from engine.maths.par_baseline import DATA_DIR, ParBaseline, baseline_name
from engine.maths.par_flop import N_CATEGORIES, main_params
from engine.maths.par_main import MainAnalysis, build_report
from engine.maths.par_report import ParReport
from engine.maths.par_tables import FULL_DECK, deck_symmetry
from engine.maths.river_table import RiverBase
from engine.uth.paytable import Paytable

# bump ANALYSIS_VERSION whenever the maths changes (older cached analyses are then ignored),
# REPORT_VERSION when the report's layout changes (reports are rebuilt from the analyses)
ANALYSIS_VERSION = 2
REPORT_VERSION = 3
RIVER_VERSION = 1

_CATEGORY_MEMO: dict[tuple[int, ...], np.ndarray] = {}


def cache_dir(path: str | Path | None = None) -> Path:
    """Where results are cached: ``path``, else ``$UTH_PAR_CACHE``, else ``~/.cache/uth/par``."""
    if path is not None:
        return Path(path)
    env = os.environ.get("UTH_PAR_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "uth" / "par"


def deck_tag(deck: Sequence[int]) -> str:
    """A short name of a deck in file names: ``52`` for the full deck."""
    deck = tuple(sorted(deck))
    if deck == FULL_DECK:
        return "52"
    return f"{len(deck)}-" + hashlib.sha256(bytes(deck)).hexdigest()[:12]


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


# -- main-game analyses ----------------------------------------------------------------------


def analysis_path(params_key: str, strategy: str, deck: Sequence[int], directory: Path) -> Path:
    """The file of the main-game analysis of ``strategy`` for the main-bet parameters
    ``params_key`` (:attr:`engine.maths.par_flop.MainParams.key`) and ``deck``."""
    digest = hashlib.sha256(
        f"v{ANALYSIS_VERSION}|{params_key}|{strategy}|{deck_tag(deck)}".encode()
    ).hexdigest()
    return directory / f"main-{strategy}-{deck_tag(deck)}-{digest[:16]}.npz"


def load_analysis(
    params_key: str, strategy: str, deck: Sequence[int], cache: str | Path | None = None
) -> MainAnalysis | None:
    """The cached main-game analysis, or None if absent or unreadable."""
    path = analysis_path(params_key, strategy, deck, cache_dir(cache))
    if not path.exists():
        return None
    try:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
            return MainAnalysis(
                strategy=meta["strategy"],
                params_key=meta["params_key"],
                deck=tuple(int(c) for c in z["deck"]),
                class_names=tuple(meta["class_names"]),
                class_sizes=z["class_sizes"],
                class_reps=z["class_reps"],
                hand_class=z["hand_class"],
                check_counts=z["check_counts"],
                preflop=z["preflop"],
                category_counts=z["category_counts"],
                seconds=float(meta["seconds"]),
                flop_bits=z["flop_bits"] if "flop_bits" in z.files else None,
            )
    except (OSError, ValueError, KeyError):
        return None


def save_analysis(analysis: MainAnalysis, cache: str | Path | None = None) -> None:
    """Cache ``analysis`` (a warning on stderr if the folder cannot be written)."""
    path = analysis_path(analysis.params_key, analysis.strategy, analysis.deck, cache_dir(cache))
    arrays = {
        "class_sizes": analysis.class_sizes,
        "class_reps": analysis.class_reps,
        "hand_class": analysis.hand_class,
        "check_counts": analysis.check_counts,
        "preflop": analysis.preflop,
        "category_counts": analysis.category_counts,
        "deck": np.array(analysis.deck, np.int64),
    }
    if analysis.flop_bits is not None:
        arrays["flop_bits"] = analysis.flop_bits
    meta = json.dumps(
        {
            "strategy": analysis.strategy,
            "params_key": analysis.params_key,
            "class_names": list(analysis.class_names),
            "seconds": analysis.seconds,
        }
    )
    buffer = io.BytesIO()
    np.savez_compressed(buffer, meta=np.array(meta), **arrays)  # type: ignore[arg-type]
    try:
        _write_atomically(path, buffer.getvalue())
    except OSError as exc:
        print(f"warning: could not cache the analysis in {path}: {exc}", file=sys.stderr)


# -- seven-card category counts ----------------------------------------------------------------


def load_categories(deck: tuple[int, ...], cache: str | Path | None = None) -> np.ndarray | None:
    """The seven-card category counts of the sorted ``deck`` from memory or disk (a copy),
    or None if unknown.  Counts on disk are checked to add up to every hand of the deck;
    :func:`remember_categories` keeps them in memory."""
    if deck in _CATEGORY_MEMO:
        return _CATEGORY_MEMO[deck].copy()
    path = cache_dir(cache) / f"categories7-{deck_tag(deck)}.json"
    try:
        counts = np.array(json.loads(path.read_text()), np.int64)
    except (OSError, ValueError):
        return None
    if counts.shape == (N_CATEGORIES,) and int(counts.sum()) == comb(len(deck), 7):
        return counts
    return None


def remember_categories(deck: tuple[int, ...], counts: np.ndarray) -> None:
    """Keep the category counts of ``deck`` in memory for this process."""
    _CATEGORY_MEMO[deck] = counts


def store_categories(
    deck: tuple[int, ...], counts: np.ndarray, cache: str | Path | None = None
) -> None:
    """Keep ``counts`` in memory and on disk (silently in memory only if the disk fails)."""
    remember_categories(deck, counts)
    path = cache_dir(cache) / f"categories7-{deck_tag(deck)}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(counts.tolist()))
    except OSError:
        pass


# -- reports -----------------------------------------------------------------------------------


def report_path(table: Paytable, strategy: str, deck: Sequence[int], directory: Path) -> Path:
    """The file of the report of ``table`` under ``strategy`` with ``deck``."""
    return directory / f"par-{table.sha256}-{strategy}-{deck_tag(deck)}-v{REPORT_VERSION}.json"


def store_report(rep: ParReport, path: Path) -> None:
    """Write ``rep`` to ``path`` (a warning on stderr if it cannot be written)."""
    try:
        _write_atomically(path, rep.to_json().encode())
    except OSError as exc:
        print(f"warning: could not cache the report in {path}: {exc}", file=sys.stderr)


def cached_par(
    table: Paytable,
    strategy: str = "optimal",
    *,
    deck: Sequence[int] = FULL_DECK,
    cache: str | Path | None = None,
) -> ParReport | None:
    """The exact report of ``table`` under ``strategy`` if it can be had without enumerating.

    Read from the report cache, or built in a moment from a cached main-game analysis of
    the same Blind table (another Trips table, say) and cached seven-card counts;
    otherwise None.
    """
    deck = tuple(sorted(set(int(c) for c in deck)))
    directory = cache_dir(cache)
    path = report_path(table, strategy, deck, directory)
    try:
        rep = ParReport.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        pass
    else:  # a report filed under this table's name must name this table
        return rep if rep.paytable_sha256 == table.sha256 else None
    cats = load_categories(deck, directory)
    if cats is None:
        return None
    analysis = load_analysis(main_params(table).key, strategy, deck, directory)
    if analysis is None:
        return None
    rep = build_report(table, strategy, analysis, deck, cats, analysis.seconds)
    store_report(rep, path)
    return rep


def cached_rtp(table: Paytable, *, cache: str | Path | None = None) -> dict[str, float] | None:
    """RTP of each bet under optimal play (fractions of 1) if cached, else None.

    Keys: ``main_total`` (return per total main wager), ``main_initial`` (per Ante),
    ``ante``, ``blind``, ``play``, ``trips``.  Trips needs no cache but is only
    returned with the rest.
    """
    rep = cached_par(table, "optimal", cache=cache)
    return rep.rtps() if rep is not None else None


# -- river bases -------------------------------------------------------------------------------


def river_path(qualify: int, directory: Path) -> Path:
    """The file of the river base of the dealer qualifier ``qualify`` (a strength floor)."""
    return directory / f"river-q{qualify}-v{RIVER_VERSION}.npz"


def load_river_base(qualify: int, cache: str | Path | None = None) -> RiverBase | None:
    """The river base of ``qualify``: the shipped file (qualifier "pair"), else the cached
    one, else None (also if unreadable or partial)."""
    for directory in (DATA_DIR, cache_dir(cache)):
        base = _read_river_base(river_path(qualify, directory), qualify)
        if base is not None:
            return base
    return None


def _read_river_base(path: Path, qualify: int) -> RiverBase | None:
    if not path.exists():
        return None
    try:
        with np.load(path) as z:
            keys = z["keys"]
            play = np.unpackbits(z["play"])[: len(keys) * z["cells"].item()].astype(bool)
            base = RiverBase(
                qualify=int(z["qualify"]),
                keys=keys,
                play=play.reshape(len(keys), -1),
                dep_class=z["dep_class"],
                dep_cell=z["dep_cell"],
                dep_category=z["dep_category"],
                dep_x=z["dep_x"],
                dep_w=z["dep_w"],
            )
    except (OSError, ValueError, KeyError):
        return None
    return base if base.qualify == qualify and base.whole else None


def save_river_base(base: RiverBase, cache: str | Path | None = None) -> None:
    """Cache a whole river base (a warning on stderr if the folder cannot be written)."""
    if not base.whole:
        raise ValueError("only a river base of every board class is cached")
    path = river_path(base.qualify, cache_dir(cache))
    try:
        _write_atomically(path, river_base_bytes(base))
    except OSError as exc:
        print(f"warning: could not cache the river base in {path}: {exc}", file=sys.stderr)


def river_base_bytes(base: RiverBase) -> bytes:
    """The file of a river base, compressed."""
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        qualify=np.array(base.qualify),
        cells=np.array(base.play.shape[1]),
        keys=base.keys,
        play=np.packbits(base.play.ravel()),
        dep_class=base.dep_class,
        dep_cell=base.dep_cell,
        dep_category=base.dep_category,
        dep_x=base.dep_x,
        dep_w=base.dep_w,
    )
    return buffer.getvalue()


# -- baselines of the optimal analysis ---------------------------------------------------------


def load_par_baseline(
    qualify: int, cache: str | Path | None = None, *, cached: bool = True
) -> ParBaseline | None:
    """The baseline of the dealer qualifier ``qualify`` (a strength floor): the shipped
    file, else (if ``cached``) the cached one, else None (also for a file of the wrong
    shape)."""
    sym = deck_symmetry(FULL_DECK)
    paths = [DATA_DIR / baseline_name(qualify)]
    if cached:
        paths.append(cache_dir(cache) / baseline_name(qualify))
    for path in paths:
        if not path.exists():
            continue
        try:
            with np.load(path) as z:
                base = ParBaseline.from_arrays(z)
        except (OSError, ValueError, KeyError):
            continue
        if (
            base.qualify == qualify
            and base.check_counts.shape == (len(sym.class_names) * 3, N_CATEGORIES * 6)
            and len(base.flop_decisions) == len(sym.flops) == len(base.digests)
        ):
            return base
    return None


def save_par_baseline(baseline: ParBaseline, cache: str | Path | None = None) -> None:
    """Cache ``baseline`` (a warning on stderr if the folder cannot be written)."""
    path = cache_dir(cache) / baseline_name(baseline.qualify)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **baseline.arrays())  # type: ignore[arg-type]
    try:
        _write_atomically(path, buffer.getvalue())
    except OSError as exc:
        print(f"warning: could not cache the analysis baseline in {path}: {exc}", file=sys.stderr)
