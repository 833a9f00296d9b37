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

For optimal play on the full deck most of that work is the same for every paytable of
one dealer qualifier: only the flops with a river spot whose decision depends on the
Blind's pays (143 of the 1,755 classes for the qualifier "pair") are analysed, the rest
is read from a baseline (:mod:`engine.maths.par_baseline`, shipped for "pair", built by
the first analysis of another qualifier): seconds instead of a minute, the same integers.

Trips needs no strategy: its RTP comes from the seven-card category counts.

Results are cached on disk by :mod:`engine.maths.cache` (``$UTH_PAR_CACHE``, default
``~/.cache/uth/par``): the heavy main-game analysis keyed by what the main bets depend on
(Blind lines, qualifier, deck, strategy), the report keyed by the paytable's sha256 and
the strategy.  The analysis itself is :mod:`engine.maths.par_main`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

from engine.maths.cache import (
    cache_dir,
    cached_par,
    cached_rtp,
    load_analysis,
    load_categories,
    load_par_baseline,
    load_river_base,
    remember_categories,
    report_path,
    save_analysis,
    save_par_baseline,
    save_river_base,
    store_categories,
    store_report,
)
from engine.maths.par_flop import main_params
from engine.maths.par_main import (
    MainAnalysis,
    Progress,
    analyse_main,
    analyse_with_baseline,
    build_report,
)
from engine.maths.par_report import ParReport
from engine.maths.par_tables import FULL_DECK
from engine.maths.par_trips import count_seven_card_categories
from engine.maths.river_table import RiverBase, build_river_base
from engine.maths.strategy import rule_strategy
from engine.uth.paytable import Paytable


def seven_card_category_counts(
    deck: Sequence[int] = FULL_DECK, *, cache: str | Path | None = None, fresh: bool = False
) -> np.ndarray:
    """How many seven-card hands of ``deck`` fall in each category (int64, by category).

    Enumerates every hand (133,784,560 for the full deck, ~10 s); cached in memory
    and on disk (``fresh``: enumerate anyway).
    """
    deck = tuple(sorted(deck))
    known = None if fresh else load_categories(deck, cache)
    if known is not None:
        remember_categories(deck, known)
        return known.copy()
    counts = count_seven_card_categories(deck)
    store_categories(deck, counts, cache)
    return counts.copy()


def trips_rtp(table: Paytable, deck: Sequence[int] = FULL_DECK) -> Fraction:
    """Exact Trips RTP (return per unit staked) of ``table``."""
    counts = seven_card_category_counts(deck)
    total = int(counts.sum())
    return sum(
        (Fraction(int(counts[k]), total) * (1 + p.ratio) for k, p in table.trips.lines().items()),
        Fraction(0),
    )


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
    deck = tuple(sorted(set(int(c) for c in deck)))
    if use_cache:
        hit = load_analysis(main_params(table).key, strategy, deck, cache)
        if hit is not None:
            return hit
    rules = None if strategy == "optimal" else rule_strategy(strategy)
    if rules is None and deck == FULL_DECK:
        qualify = main_params(table).qualify
        baseline = load_par_baseline(qualify, cache, cached=use_cache)
        if baseline is None:
            analysis, baseline = analyse_with_baseline(table, workers=workers, progress=progress)
            if use_cache:
                save_par_baseline(baseline, cache)
        else:
            analysis = analyse_main(
                table,
                strategy,
                rules,
                deck=deck,
                workers=workers,
                progress=progress,
                baseline=baseline,
            )
    else:
        analysis = analyse_main(
            table, strategy, rules, deck=deck, workers=workers, progress=progress
        )
    if use_cache:
        save_analysis(analysis, cache)
    return analysis


def river_base(
    qualify: int,
    *,
    workers: int | None = None,
    cache: str | Path | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> RiverBase:
    """The optimal river decisions of every full-deck spot for the dealer qualifier
    ``qualify`` (a strength floor), read from the cache or built (about 30 s of one core,
    shared by ``workers`` processes, default all cores) and cached."""
    if use_cache:
        hit = load_river_base(qualify, cache)
        if hit is not None:
            return hit
    base = build_river_base(qualify, workers=workers or os.cpu_count() or 1, progress=progress)
    if use_cache:
        save_river_base(base, cache)
    return base


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
    cats = load_categories(deck, directory)
    if cats is None:  # the analysis counted every seven-card hand too
        cats = analysis.category_counts.copy()
        store_categories(deck, cats, directory)
    rep = build_report(table, strategy, analysis, deck, cats, time.perf_counter() - t0)
    if use_cache:
        store_report(rep, report_path(table, strategy, deck, directory))
    return rep


__all__ = [
    "MainAnalysis",
    "ParReport",
    "cache_dir",
    "cached_par",
    "cached_rtp",
    "main_analysis",
    "par",
    "river_base",
    "seven_card_category_counts",
    "trips_rtp",
]
