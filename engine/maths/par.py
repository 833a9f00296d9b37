"""Exact PAR analysis of Ultimate Texas Hold'em: every deal, every decision, exact fractions.

``par(table, strategy)`` enumerates the 1,326 player hands x 19,600 flops x 1,081
turn-river pairs x 990 dealer hands (2.8e13 deals) and returns a :class:`ParReport`.
How it stays fast:

* **flop by flop, up to suit symmetry** - the 22,100 flops fall into 1,755 classes under
  the 24 suit permutations; one flop per class is analysed and weighted by its class
  size.  Starting hands are grouped in the 169 classes the same way (a class's figures
  are summed over its hands, so no hand is privileged);
* **one evaluation per four cards** - on a flop, every player hand and every board is a
  pair of the 49 remaining cards, so 211,876 seven-card evaluations give all the
  1,081 x 1,176 (board, hand) strengths (:mod:`engine.maths.par_flop`);
* **counting, not comparing** - the dealer hands a hand beats on a board are counted by
  ranking strengths within the board and removing the dealer hands that share a card
  with the player (inclusion-exclusion), not by 990 comparisons;
* **the flop's own symmetries** - a flop such as 9h 7h 2c is unchanged by swapping
  diamonds and spades, so only one turn-river pair per orbit of those swaps is analysed
  (62% of them over all flops), weighted by the orbit's size.

Per flop the kernel returns, for each hand, the count of (board, dealer hand) deals in
each cell (river decision, final category, outcome), and the flop decision.  Optimal
play is decided inside the kernel from exact integer expected values; a rule strategy
(simple, cautious) decides with its own vectorised rules.  The pre-flop decision is
taken last, per starting hand, from the totals: 4x (or 3x) uses every deal of the hand,
check uses the flop and river decisions.

Trips needs no strategy: its RTP comes from the seven-card category counts.

Results are cached on disk (``$UTH_PAR_CACHE``, default ``~/.cache/uth/par``): the heavy
main-game analysis keyed by what the main bets depend on (Blind lines, qualifier, deck,
strategy), the report keyed by the paytable's sha256 and the strategy.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from engine.maths.par_flop import N_CATEGORIES, N_OUTCOMES, MainParams, analyse_flop, main_params
from engine.maths.par_report import (
    DECISION_NAMES,
    MULTIPLES,
    N_MULTIPLES,
    ParReport,
    cell_values,
    main_figures,
    trips_figures,
)
from engine.maths.par_tables import (
    FULL_DECK,
    colex_subsets,
    deck_symmetry,
    flop_index,
    flop_index52,
    pair_index52,
)
from engine.uth.paytable import Paytable

Progress = Callable[[int, int], None]
N_FLOPS52 = 22100
# bump ANALYSIS_VERSION whenever the maths changes (older cached analyses are then ignored),
# REPORT_VERSION when the report's layout changes (reports are rebuilt from the analyses)
ANALYSIS_VERSION = 2
REPORT_VERSION = 3


# -- cache -------------------------------------------------------------------------------------


def cache_dir(path: str | Path | None = None) -> Path:
    """Where results are cached: ``path``, else ``$UTH_PAR_CACHE``, else ``~/.cache/uth/par``."""
    if path is not None:
        return Path(path)
    env = os.environ.get("UTH_PAR_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "uth" / "par"


def _deck_tag(deck: Sequence[int]) -> str:
    deck = tuple(sorted(deck))
    if deck == FULL_DECK:
        return "52"
    return f"{len(deck)}-" + hashlib.sha256(bytes(deck)).hexdigest()[:12]


def _main_key(params: MainParams, strategy: str, deck: Sequence[int]) -> str:
    digest = hashlib.sha256(
        f"v{ANALYSIS_VERSION}|{params.key}|{strategy}|{_deck_tag(deck)}".encode()
    ).hexdigest()
    return f"main-{strategy}-{_deck_tag(deck)}-{digest[:16]}"


def _report_path(table: Paytable, strategy: str, deck: Sequence[int], directory: Path) -> Path:
    return directory / f"par-{table.sha256}-{strategy}-{_deck_tag(deck)}-v{REPORT_VERSION}.json"


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
    path = _report_path(table, strategy, deck, directory)
    try:
        return ParReport.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        pass
    main_path = directory / f"{_main_key(main_params(table), strategy, deck)}.npz"
    cats = _read_categories(deck, directory)
    if cats is None or not main_path.exists():
        return None
    try:
        analysis = MainAnalysis.load(main_path)
    except (OSError, ValueError, KeyError):
        return None
    rep = _build_report(table, strategy, analysis, deck, cats, analysis.seconds)
    _store_report(rep, path)
    return rep


def cached_rtp(table: Paytable, *, cache: str | Path | None = None) -> dict[str, float] | None:
    """RTP of each bet under optimal play (fractions of 1) if cached, else None.

    Keys: ``main_total`` (return per total main wager), ``main_initial`` (per Ante),
    ``ante``, ``blind``, ``play``, ``trips``.  Trips needs no cache but is only
    returned with the rest.
    """
    rep = cached_par(table, "optimal", cache=cache)
    return rep.rtps() if rep is not None else None


# -- Trips: seven-card categories ----------------------------------------------------------------


_CATEGORY_MEMO: dict[tuple[int, ...], np.ndarray] = {}


def seven_card_category_counts(
    deck: Sequence[int] = FULL_DECK, *, cache: str | Path | None = None, fresh: bool = False
) -> np.ndarray:
    """How many seven-card hands of ``deck`` fall in each category (int64, by category).

    Enumerates every hand (133,784,560 for the full deck, ~10 s); cached in memory
    and on disk (``fresh``: enumerate anyway).
    """
    from engine.hands.evaluator import category_batch, evaluate_batch

    deck = tuple(sorted(deck))
    path = cache_dir(cache) / f"categories7-{_deck_tag(deck)}.json"
    known = None if fresh else _read_categories(deck, cache_dir(cache))
    if known is not None:
        _CATEGORY_MEMO[deck] = known
        return known.copy()
    d = np.array(deck, dtype=np.uint8)
    n = len(d)
    fives = colex_subsets(n, 5)  # the 5-subsets of range(k) are a prefix (colex order)
    counts = np.zeros(N_CATEGORIES, np.int64)
    step = 1 << 18
    for a in range(n):
        for b in range(a + 1, n):
            above = d[b + 1 :]  # the hand's other five cards lie above its two lowest
            k = comb(len(above), 5)
            for start in range(0, k, step):
                rows = fives[start : min(k, start + step)]
                cards = np.empty((len(rows), 7), np.uint8)
                cards[:, 0] = d[a]
                cards[:, 1] = d[b]
                cards[:, 2:] = above[rows]
                counts += np.bincount(category_batch(evaluate_batch(cards)), minlength=N_CATEGORIES)
    _CATEGORY_MEMO[deck] = counts
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(counts.tolist()))
    except OSError:
        pass
    return counts.copy()


def _read_categories(deck: tuple[int, ...], directory: Path) -> np.ndarray | None:
    if deck in _CATEGORY_MEMO:
        return _CATEGORY_MEMO[deck].copy()
    try:
        counts = np.array(
            json.loads((directory / f"categories7-{_deck_tag(deck)}.json").read_text()), np.int64
        )
    except (OSError, ValueError):
        return None
    if counts.shape == (N_CATEGORIES,) and int(counts.sum()) == comb(len(deck), 7):
        return counts
    return None


def trips_rtp(table: Paytable, deck: Sequence[int] = FULL_DECK) -> Fraction:
    """Exact Trips RTP (return per unit staked) of ``table``."""
    counts = seven_card_category_counts(deck)
    total = int(counts.sum())
    return sum(
        (Fraction(int(counts[k]), total) * (1 + p.ratio) for k, p in table.trips.lines().items()),
        Fraction(0),
    )


# -- the main-game analysis ------------------------------------------------------------------------


@dataclass
class MainAnalysis:
    """The main game's exact counts for one strategy, per starting-hand class.

    ``check_counts[c, j, k, o]``: over every deal of the hands of class ``c`` played
    *without* a pre-flop raise, the number ending in Play multiple ``j`` (0 fold, 1, 2),
    final category ``k`` and outcome ``o``.  The same deals with a pre-flop raise end in
    ``check_counts[c].sum(axis=0)`` (the outcome does not depend on the decisions).
    ``preflop[c]``: the strategy's pre-flop multiple (4, 3 or 0).  ``flop_bits``: the
    flop decision of every (hand, flop), packed (index ``pair_index52 * 22100 +
    flop_index52``), for strategies whose flop play comes from the analysis.
    """

    strategy: str
    params_key: str
    deck: tuple[int, ...]
    class_names: tuple[str, ...]
    class_sizes: np.ndarray
    class_reps: np.ndarray
    hand_class: np.ndarray
    check_counts: np.ndarray
    preflop: np.ndarray
    category_counts: np.ndarray
    seconds: float
    flop_bits: np.ndarray | None = None

    @property
    def deals_per_hand(self) -> int:
        """Deals per player hand: flops x turn-river pairs x dealer hands."""
        n = len(self.deck)
        return comb(n - 2, 3) * comb(n - 5, 2) * comb(n - 7, 2)

    @property
    def raise_counts(self) -> np.ndarray:
        return self.check_counts.sum(axis=1)

    def option_ev(self, values: dict[str, Any]) -> list[dict[str, Fraction]]:
        """Per class: exact net EV (Antes per hand) of 4x, 3x and check."""
        out = []
        for c in range(len(self.class_names)):
            denom = int(self.class_sizes[c]) * self.deals_per_hand
            evs = {}
            for label, cells in (
                ("4x", {4: self.raise_counts[c]}),
                ("3x", {3: self.raise_counts[c]}),
                ("check", {j: self.check_counts[c, j] for j in range(3)}),
            ):
                total = Fraction(0)
                for m, cnt in cells.items():
                    total += _net_sum(cnt, values, m)
                evs[label] = total / denom
            out.append(evs)
        return out

    def game_counts(self) -> np.ndarray:
        """Cell counts ``(5, 10, 6)`` of the whole game (every hand, every deal)."""
        out = np.zeros((N_MULTIPLES, N_CATEGORIES, N_OUTCOMES), np.int64)
        for c in range(len(self.class_names)):
            m = int(self.preflop[c])
            if m:
                out[MULTIPLES.index(m)] += self.raise_counts[c]
            else:
                out[:3] += self.check_counts[c]
        return out

    def preflop_multiples(self, holes: np.ndarray) -> np.ndarray:
        holes = np.asarray(holes, dtype=np.intp).reshape(-1, 2)
        cls = self.hand_class[pair_index52(holes[:, 0], holes[:, 1])]
        if (cls < 0).any():
            raise ValueError("a hand outside the analysed deck")
        return self.preflop[cls].astype(np.int8)

    def flop_bets(self, holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
        if self.flop_bits is None:
            raise ValueError(f"the {self.strategy} analysis has no flop table")
        holes = np.asarray(holes, dtype=np.intp).reshape(-1, 2)
        idx = pair_index52(holes[:, 0], holes[:, 1]) * N_FLOPS52 + flop_index52(
            np.asarray(flops).reshape(-1, 3)
        )
        return ((self.flop_bits[idx >> 3] >> (7 - (idx & 7))) & 1).astype(bool)

    # persistence
    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        arrays = {
            "class_sizes": self.class_sizes,
            "class_reps": self.class_reps,
            "hand_class": self.hand_class,
            "check_counts": self.check_counts,
            "preflop": self.preflop,
            "category_counts": self.category_counts,
            "deck": np.array(self.deck, np.int64),
        }
        if self.flop_bits is not None:
            arrays["flop_bits"] = self.flop_bits
        meta = json.dumps(
            {
                "strategy": self.strategy,
                "params_key": self.params_key,
                "class_names": list(self.class_names),
                "seconds": self.seconds,
            }
        )
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, meta=np.array(meta), **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> MainAnalysis:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
            return cls(
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


def _net_sum(cnt: np.ndarray, values: dict[str, Any], m: int) -> Fraction:
    """Sum of the main bets' net return over counts ``cnt[k, o]`` played with multiple ``m``."""
    j = MULTIPLES.index(m)
    total = Fraction(0)
    for k in range(N_CATEGORIES):
        for o in range(N_OUTCOMES):
            n = int(cnt[k, o])
            if n:
                ret = values["ante"][j][k][o] + values["blind"][j][k][o] + values["play"][j][k][o]
                total += n * (ret - 2 - values["stake_play"][j][k][o])
    return total


# worker state (set in the parent before forking, or by the initializer)
_W: dict[str, Any] = {}


def _init_worker(deck: tuple[int, ...], params: MainParams, strategy: Any) -> None:
    _W.update(deck=deck, params=params, strategy=strategy, sym=deck_symmetry(deck))


def _run_flops(
    indices: Sequence[int],
) -> tuple[np.ndarray, list[tuple[int, np.ndarray]], np.ndarray]:
    deck, params, strategy, sym = _W["deck"], _W["params"], _W["strategy"], _W["sym"]
    n_classes = len(sym.class_names)
    acc = np.zeros((n_classes * 3, N_CATEGORIES * N_OUTCOMES), np.int64)
    cats = np.zeros(N_CATEGORIES, np.int64)
    decisions = []
    for j in indices:
        f0, f1, f2 = (int(c) for c in sym.flops[j])
        flop = (f0, f1, f2)
        w = int(sym.flop_weights[j])
        res = analyse_flop(flop, deck, params, strategy, sym.card_maps)
        cls = sym.hand_class[pair_index52(res.holes[:, 0], res.holes[:, 1])]
        mp = np.where(res.flop_bet[:, None], 2, np.array([[0, 1]]))
        rows = (cls[:, None] * 3 + mp).ravel()
        np.add.at(acc, rows, res.cells.reshape(len(rows), -1) * w)
        cats += res.category_counts * w
        decisions.append((j, np.packbits(res.flop_bet)))
    return acc, decisions, cats


def main_analysis(
    table: Paytable,
    strategy: str = "optimal",
    *,
    deck: Sequence[int] = FULL_DECK,
    workers: int | None = None,
    cache: str | Path | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> MainAnalysis:
    """The main game's exact analysis for ``table`` under ``strategy`` (cached on disk).

    ``deck`` restricts the cards (a verification aid: small decks can be checked by
    brute force).  ``workers`` processes (default: all cores).
    """
    from engine.maths.strategy import get_strategy

    deck = tuple(sorted(set(int(c) for c in deck)))
    params = main_params(table)
    key = _main_key(params, strategy, deck)
    path = cache_dir(cache) / f"{key}.npz"
    if use_cache and path.exists():
        try:
            return MainAnalysis.load(path)
        except (OSError, ValueError, KeyError):
            pass
    t0 = time.perf_counter()
    strat = None if strategy == "optimal" else get_strategy(strategy)
    sym = deck_symmetry(deck)
    flop_index(len(deck) - 3)  # build before forking: the workers share it
    n_flops = len(sym.flops)
    workers = max(1, min(workers or os.cpu_count() or 1, n_flops))
    chunk = max(1, min(24, n_flops // (workers * 8) or 1))
    chunks = [list(range(i, min(n_flops, i + chunk))) for i in range(0, n_flops, chunk)]
    n_classes = len(sym.class_names)
    acc = np.zeros((n_classes * 3, N_CATEGORIES * N_OUTCOMES), np.int64)
    cats = np.zeros(N_CATEGORIES, np.int64)
    flop_dec: dict[int, np.ndarray] = {}
    done = 0

    def absorb(
        result: tuple[np.ndarray, list[tuple[int, np.ndarray]], np.ndarray], size: int
    ) -> None:
        nonlocal done, acc, cats
        a, decs, c = result
        acc += a
        cats += c
        flop_dec.update(decs)
        done += size
        if progress:
            progress(done, n_flops)

    if workers == 1:
        _init_worker(deck, params, strat)
        for ch in chunks:
            absorb(_run_flops(ch), len(ch))
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
        with ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=_init_worker, initargs=(deck, params, strat)
        ) as pool:
            futures = {pool.submit(_run_flops, ch): len(ch) for ch in chunks}
            for fut in as_completed(futures):
                absorb(fut.result(), futures[fut])

    check_counts = acc.reshape(n_classes, 3, N_CATEGORIES, N_OUTCOMES)
    # each seven-card hand was seen once per flop inside it: C(7, 3) = 35 times
    category_counts = cats // 35
    analysis = MainAnalysis(
        strategy=strategy,
        params_key=params.key,
        deck=deck,
        class_names=sym.class_names,
        class_sizes=sym.class_sizes.copy(),
        class_reps=sym.class_reps.copy(),
        hand_class=sym.hand_class.copy(),
        check_counts=check_counts,
        preflop=np.zeros(n_classes, np.int8),
        category_counts=category_counts,
        seconds=0.0,
    )
    values = cell_values(table)
    if strat is None:
        evs = analysis.option_ev(values)
        pre = []
        for ev in evs:
            best = 0
            if ev["3x"] > ev["check"]:
                best = 3
            if ev["4x"] > max(ev["3x"], ev["check"]):
                best = 4
            pre.append(best)
        analysis.preflop = np.array(pre, np.int8)
        analysis.flop_bits = _flop_table(sym, deck, flop_dec)
    else:
        analysis.preflop = np.asarray(strat.preflop_batch(sym.class_reps), np.int8)
    analysis.seconds = time.perf_counter() - t0
    if use_cache:
        try:
            analysis.save(path)
        except OSError as exc:
            print(f"warning: could not cache the analysis in {path}: {exc}", file=sys.stderr)
    return analysis


def _flop_table(sym: Any, deck: tuple[int, ...], flop_dec: dict[int, np.ndarray]) -> np.ndarray:
    """Expand the flop decisions of the canonical flops to every (hand, flop), packed bits."""
    table = np.zeros(1326 * N_FLOPS52, bool)
    m = len(deck) - 3
    pairs = flop_index(m).pairs
    in_deck = np.zeros(52, bool)
    in_deck[list(deck)] = True
    for j, bits in flop_dec.items():
        flop = sym.flops[j]
        mask = in_deck.copy()
        mask[flop] = False
        rem = np.flatnonzero(mask)
        holes = rem[pairs]
        dec = np.unpackbits(bits)[: len(pairs)].astype(bool)
        cm = sym.card_maps  # (S, 52)
        ph = pair_index52(cm[:, holes[:, 0]], cm[:, holes[:, 1]])  # (S, P)
        fl = flop_index52(cm[:, flop])  # (S,)
        table[(ph * N_FLOPS52 + fl[:, None]).ravel()] = np.broadcast_to(dec, ph.shape).ravel()
    return np.packbits(table)


# -- the report --------------------------------------------------------------------------------


def par(
    table: Paytable,
    strategy: str = "optimal",
    *,
    deck: Sequence[int] = FULL_DECK,
    workers: int | None = None,
    cache: str | Path | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> ParReport:
    """The exact report of ``table`` under ``strategy`` (read from the cache when present)."""
    deck = tuple(sorted(set(int(c) for c in deck)))
    directory = cache_dir(cache)
    if use_cache:
        hit = cached_par(table, strategy, deck=deck, cache=directory)
        if hit is not None:
            return hit
    t0 = time.perf_counter()
    analysis = main_analysis(
        table,
        strategy,
        deck=deck,
        workers=workers,
        cache=directory,
        use_cache=use_cache,
        progress=progress,
    )
    cats = seven_card_category_counts(deck, cache=directory)
    rep = _build_report(table, strategy, analysis, deck, cats, time.perf_counter() - t0)
    if use_cache:
        _store_report(rep, _report_path(table, strategy, deck, directory))
    return rep


def _build_report(
    table: Paytable,
    strategy: str,
    analysis: MainAnalysis,
    deck: tuple[int, ...],
    cats: np.ndarray,
    seconds: float,
) -> ParReport:
    values = cell_values(table)
    counts = analysis.game_counts()
    main = main_figures(counts, values, table, exact=True)
    trips = trips_figures(cats, table, exact=True)
    evs = analysis.option_ev(values)
    preflop = {
        name: {
            "decision": DECISION_NAMES[int(analysis.preflop[c])]
            if analysis.preflop[c]
            else "check",
            "ev": {k: float(v) for k, v in evs[c].items()},
            "ev_exact": {k: f"{v.numerator}/{v.denominator}" for k, v in evs[c].items()},
        }
        for c, name in enumerate(analysis.class_names)
    }
    return ParReport(
        strategy=strategy,
        paytable_sha256=table.sha256,
        paytable_name=f"{table.name} {table.version}",
        exact=True,
        main=main,
        trips=trips,
        preflop=preflop,
        seconds=round(max(seconds, analysis.seconds), 3),
        deck_size=len(deck),
        extra={"deals": int(counts.sum()), "analysis_seconds": round(analysis.seconds, 3)},
    )


def _store_report(rep: ParReport, path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(rep.to_json())
        os.replace(tmp, path)
    except OSError as exc:
        print(f"warning: could not cache the report in {path}: {exc}", file=sys.stderr)


__all__ = [
    "MainAnalysis",
    "ParReport",
    "cache_dir",
    "cached_par",
    "cached_rtp",
    "main_analysis",
    "par",
    "seven_card_category_counts",
    "trips_rtp",
]
