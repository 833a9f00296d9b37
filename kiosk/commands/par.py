"""``uth par PAYTABLE``: the exact PAR analysis of a paytable under a strategy."""

from __future__ import annotations

import argparse
import sys
import time

from engine.cards import CardParseError, parse_cards
from engine.maths.par import par
from engine.maths.par_report import format_report
from engine.maths.par_tables import FULL_DECK
from engine.maths.strategies import STRATEGIES
from engine.uth.paytable import PaytableError, load_paytable


def parse_deck(text: str | None) -> tuple[int, ...]:
    """``--deck``: the cards to play with (a verification aid), default the full deck."""
    if not text:
        return FULL_DECK
    cards = parse_cards(text)
    if len(cards) < 9:
        raise CardParseError(text, "a deck needs at least 9 cards")
    return tuple(sorted(cards))


def progress_for_terminal(label: str, stream=None):
    """A progress callback drawing on ``stream`` (stderr) when it is a terminal, else None."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None
    start = time.perf_counter()

    def show(done: int, total: int) -> None:
        frac = done / total if total else 1.0
        bar = "#" * int(40 * frac)
        elapsed = time.perf_counter() - start
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        stream.write(
            f"\r{label} [{bar:<40s}] {100 * frac:5.1f}%  {elapsed:5.0f}s  eta {eta:4.0f}s "
        )
        if done >= total:
            stream.write("\n")
        stream.flush()

    return show


def run(args: argparse.Namespace) -> int:
    try:
        table = load_paytable(args.paytable)
        deck = parse_deck(args.deck)
    except (PaytableError, CardParseError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = par(
        table,
        args.strategy,
        deck=deck,
        workers=args.workers,
        cache=args.cache_dir,
        use_cache=not args.no_cache,
        progress=progress_for_terminal(f"par {args.strategy}"),
    )
    print(report.to_json() if args.json else format_report(report))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "par",
        help="exact PAR analysis: RTP, house edge, frequencies, pay lines, pre-flop table",
        description="Enumerate every deal of the paytable's game under a strategy and report exact figures. "
        "Results are cached (see --cache-dir). Optimal play takes seconds (a shipped baseline serves every "
        "paytable whose dealer qualifies with a pair; another qualifier takes a minute the first time).",
    )
    p.add_argument("paytable", help="paytable TOML file")
    p.add_argument(
        "--strategy", default="optimal", choices=sorted(STRATEGIES), help="default: optimal"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument(
        "--cache-dir",
        default=None,
        help="result cache (default $UTH_PAR_CACHE or ~/.cache/uth/par)",
    )
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument(
        "--deck", default=None, help="play with these cards only (verification on a reduced deck)"
    )
    p.set_defaults(func=run)
