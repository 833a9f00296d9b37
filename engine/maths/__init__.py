"""The maths of Ultimate Texas Hold'em: strategies, the exact PAR analysis, the
simulator, and the cache of their results.

Modules: :mod:`~engine.maths.strategy` (the Strategy base and the rule strategies),
:mod:`~engine.maths.optimal` (the optimal strategy, the only user of the analysis),
:mod:`~engine.maths.strategies` (every strategy by name), :mod:`~engine.maths.par` (the
exact report, cached), :mod:`~engine.maths.par_main` / :mod:`~engine.maths.par_flop` /
:mod:`~engine.maths.par_trips` / :mod:`~engine.maths.par_tables` /
:mod:`~engine.maths.par_eval` (the analysis itself), :mod:`~engine.maths.par_baseline`
(the part of the optimal analysis shared by every paytable of a qualifier),
:mod:`~engine.maths.river_table` (every optimal river decision as one look-up),
:mod:`~engine.maths.par_report` (figures and their text), :mod:`~engine.maths.simulate`
(rounds in numpy batches) and :mod:`~engine.maths.cache` (every file and environment
access of the maths).

The functions ``engine.maths.par.par`` and ``engine.maths.simulate.simulate`` are not
re-exported here: the names ``par`` and ``simulate`` of this package are their modules.
"""

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.maths.cache import cache_dir, cached_par, cached_rtp
    from engine.maths.optimal import OptimalStrategy
    from engine.maths.par import main_analysis, seven_card_category_counts, trips_rtp
    from engine.maths.par_main import MainAnalysis
    from engine.maths.par_report import ParReport, format_report
    from engine.maths.simulate import SimTally
    from engine.maths.strategies import STRATEGIES, get_strategy
    from engine.maths.strategy import RULE_STRATEGIES, CautiousStrategy, SimpleStrategy, Strategy

#: Each name this package offers, by the module that defines it: imported on first use,
#: so a program that needs one module does not load every other.
_WHERE = {
    "cache_dir": "engine.maths.cache",
    "cached_par": "engine.maths.cache",
    "cached_rtp": "engine.maths.cache",
    "OptimalStrategy": "engine.maths.optimal",
    "main_analysis": "engine.maths.par",
    "seven_card_category_counts": "engine.maths.par",
    "trips_rtp": "engine.maths.par",
    "MainAnalysis": "engine.maths.par_main",
    "ParReport": "engine.maths.par_report",
    "format_report": "engine.maths.par_report",
    "SimTally": "engine.maths.simulate",
    "STRATEGIES": "engine.maths.strategies",
    "get_strategy": "engine.maths.strategies",
    "RULE_STRATEGIES": "engine.maths.strategy",
    "CautiousStrategy": "engine.maths.strategy",
    "SimpleStrategy": "engine.maths.strategy",
    "Strategy": "engine.maths.strategy",
}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = [
    "RULE_STRATEGIES",
    "STRATEGIES",
    "CautiousStrategy",
    "MainAnalysis",
    "OptimalStrategy",
    "ParReport",
    "SimTally",
    "SimpleStrategy",
    "Strategy",
    "cache_dir",
    "cached_par",
    "cached_rtp",
    "format_report",
    "get_strategy",
    "main_analysis",
    "seven_card_category_counts",
    "trips_rtp",
]
