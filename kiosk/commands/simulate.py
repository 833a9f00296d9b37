"""``uth simulate PAYTABLE``: deal and settle rounds with the cabinet's own code, and report."""

from __future__ import annotations

import argparse
import sys

from engine.cards import CardParseError, parse_cards
from engine.maths.optimal import OptimalStrategy
from engine.maths.par import main_analysis
from engine.maths.par_report import format_report
from engine.maths.par_tables import FULL_DECK
from engine.maths.simulate import simulate
from engine.maths.strategies import STRATEGIES, get_strategy
from engine.uth.paytable import PaytableError, load_paytable
from kiosk.commands.par import parse_deck, progress_for_terminal


def run(args: argparse.Namespace) -> int:
    try:
        table = load_paytable(args.paytable)
        deck = parse_deck(args.deck)
        fixed = tuple(parse_cards(args.fixed)) if args.fixed else ()
    except (PaytableError, CardParseError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.rounds <= 0 or args.workers <= 0:
        print("error: --rounds and --workers must be positive", file=sys.stderr)
        return 2
    if len(fixed) not in (0, 2, 5, 7) or not set(fixed) <= set(deck):
        print(
            "error: --fixed takes the player's 2 cards, optionally then the flop, then turn and river",
            file=sys.stderr,
        )
        return 2
    strategy = get_strategy(args.strategy, table, deck)
    if isinstance(strategy, OptimalStrategy):
        if sys.stderr.isatty():
            print(
                "loading the optimal strategy for this paytable (computed once, then cached)...",
                file=sys.stderr,
            )
        strategy.analysis = main_analysis(
            table,
            "optimal",
            deck=deck,
            workers=args.workers,
            cache=args.cache_dir,
            progress=progress_for_terminal("optimal strategy"),
        )
        if deck == FULL_DECK and len(fixed) < 5:
            strategy.get_river_table(
                workers=args.workers,
                cache=args.cache_dir,
                progress=progress_for_terminal("river table"),
            )
    report = simulate(
        table,
        args.rounds,
        strategy,
        seed=args.seed,
        workers=args.workers,
        batch=args.batch,
        deck=deck,
        fixed=fixed,
        progress=progress_for_terminal(f"simulate {args.strategy}"),
    )
    print(report.to_json() if args.json else format_report(report))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="simulate rounds with the cabinet's deck, strategy and settlement code",
        description="Deal, decide and settle rounds in numpy batches across worker processes; reports the "
        "figures of 'uth par' with a 95%% confidence interval on each RTP. Reproducible for a seed and a "
        "worker count.",
    )
    p.add_argument("paytable", help="paytable TOML file")
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument(
        "--strategy", default="simple", choices=sorted(STRATEGIES), help="default: simple"
    )
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--batch", type=int, default=1 << 14, help="rounds per numpy batch")
    p.add_argument("--deck", default=None, help="play with these cards only (verification)")
    p.add_argument(
        "--fixed",
        default=None,
        help="fixed cards: the player's two, then optionally the flop, then turn and river",
    )
    p.add_argument("--cache-dir", default=None, help="PAR cache, for the optimal strategy")
    p.set_defaults(func=run)
