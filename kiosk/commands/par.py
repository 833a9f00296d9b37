"""``uth par PAYTABLE``: the exact PAR analysis of a paytable under a strategy."""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import sys
import time

from engine.cards import CardParseError, parse_cards
from engine.maths.par import main_analysis, par
from engine.maths.par_report import ParReport, cell_values, format_report
from engine.maths.par_sheet import Moments, cell_moments, interval_figures
from engine.maths.par_sheet_html import SheetColumn, sheet_html
from engine.maths.par_sheet_progressive import progressive_section
from engine.maths.par_tables import FULL_DECK
from engine.maths.progressive import ProgressiveFigures, format_figures
from engine.maths.strategies import STRATEGIES
from engine.uth.paytable import Paytable, PaytableError, load_paytable
from kiosk.integrity.digest import program_digest
from kiosk.integrity.manifest import software_version


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


#: The strategies of a sheet unless ``--strategies`` says otherwise.
SHEET_STRATEGIES = "optimal,simple,cautious"


def deck_option(deck: tuple[int, ...]) -> str:
    """The ``--deck`` option that gives ``deck`` ("" for the full deck)."""
    if deck == FULL_DECK:
        return ""
    return ' --deck "' + " ".join("23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in deck) + '"'


def report_moments(
    table: Paytable, report: ParReport, args: argparse.Namespace, deck: tuple[int, ...]
) -> Moments:
    """The exact moments of a report's analysis (read from the cache it was built from)."""
    analysis = main_analysis(
        table,
        report.strategy,
        deck=deck,
        workers=args.workers,
        cache=args.cache_dir,
        use_cache=not args.no_cache,
    )
    return cell_moments(analysis.game_counts(), cell_values(table))


def strategy_column(
    table: Paytable, report: ParReport, args: argparse.Namespace, deck: tuple[int, ...]
) -> SheetColumn:
    """A strategy's column of the sheet: its report and the exact moments of its
    analysis."""
    moments = report_moments(table, report, args, deck)
    return SheetColumn(report.strategy, f"{report.strategy} play", report, moments)


def identification(table: Paytable, approval: str | None, today: dt.date) -> str:
    """The sheet's identification block: the date, the program (version and the SHA-256
    of its own files, as ``uth verify manifest`` and the Machine page give it), the
    paytable's SHA-256, and the approval identity (``--approval``, else a blank field
    to fill in by hand)."""
    rows = [
        ("Date", today.isoformat()),
        ("Program", f"uth-cabinet {software_version()}"),
        ("Program SHA-256", program_digest(b"", runtime=False)),
        ("Paytable", f"{table.name} {table.version}"),
        ("Paytable SHA-256", table.sha256),
    ]
    body = "".join(
        f"<tr><th class=l>{k}</th><td class=l><code data-id='{k}'>{html.escape(v)}</code></td></tr>"
        for k, v in rows
    )
    filled = html.escape(approval) if approval else ""
    body += (
        "<tr><th class=l>Approval (laboratory, certificate, signature)</th>"
        f"<td class='l field' data-id='approval'>{filled}</td></tr>"
    )
    return f"<table class=id>{body}</table>"


def write_sheet(
    table: Paytable, reports: list[ParReport], args: argparse.Namespace, deck: tuple[int, ...]
) -> None:
    """``--sheet FILE``: the PAR sheet of ``reports`` (one per strategy), as HTML."""
    columns = [strategy_column(table, r, args, deck) for r in reports]
    deals = reports[0].extra.get("deals")
    path, dk = args.paytable, deck_option(deck)
    how = (
        "1,326 player hands x 19,600 flops x 1,081 turn-river pairs x 990 dealer hands"
        if deck == FULL_DECK
        else f"a reduced deck of {len(deck)} cards, for verification"
    )
    preface = identification(table, args.approval, dt.datetime.now(dt.UTC).date()) + (
        f"<p>Exact analysis of every deal ({deals or 0:,} deals per strategy: {how}) "
        f"by uth-cabinet {software_version()}.</p>"
    )
    commands = [
        f"uth par {path}{dk} --strategy {r.strategy} --json   # the {r.strategy} column"
        for r in reports
    ]
    commands += [
        f"uth par {path}{dk} --sheet {args.sheet} --strategies "
        + ",".join(r.strategy for r in reports)
        + "   # this sheet",
        f"uth simulate {path}{dk} --rounds 100000000 --strategy simple --seed 1 --workers 2 "
        "--sheet simulation.html   # a simulation's sheet, held to the intervals above",
    ]
    extra = ""
    if table.progressive is not None:
        extra = progressive_section(ProgressiveFigures.of(table.progressive))
    text = sheet_html(
        table,
        columns,
        title=f"PAR sheet: Ultimate Texas Hold'em, {table.name} {table.version}",
        preface=preface,
        commands=commands,
        extra=extra,
    )
    with open(args.sheet, "w", encoding="utf-8") as out:
        out.write(text)


def run(args: argparse.Namespace) -> int:
    try:
        table = load_paytable(args.paytable)
        deck = parse_deck(args.deck)
        chosen = args.strategies or (SHEET_STRATEGIES if args.sheet else args.strategy)
        strategies = [s.strip() for s in chosen.split(",")]
        unknown = [s for s in strategies if s not in STRATEGIES]
        if unknown:
            raise ValueError(
                f"unknown strategy {unknown[0]!r}; choose from " + ", ".join(sorted(STRATEGIES))
            )
    except (PaytableError, CardParseError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.sheet:
        reports = [
            par(
                table,
                s,
                deck=deck,
                workers=args.workers,
                cache=args.cache_dir,
                use_cache=not args.no_cache,
                progress=progress_for_terminal(f"par {s}"),
            )
            for s in strategies
        ]
        try:
            write_sheet(table, reports, args, deck)
        except OSError as exc:
            print(f"error: cannot write the sheet: {exc}", file=sys.stderr)
            return 2
        print(f"wrote {args.sheet}")
        return 0
    report = par(
        table,
        args.strategy,
        deck=deck,
        workers=args.workers,
        cache=args.cache_dir,
        use_cache=not args.no_cache,
        progress=progress_for_terminal(f"par {args.strategy}"),
    )
    figures = None if table.progressive is None else ProgressiveFigures.of(table.progressive)
    if args.json:
        data = report.to_dict()
        data.update(interval_figures(report, report_moments(table, report, args, deck)))
        if figures is not None:
            data["progressive"] = figures.to_dict(args.wagers_per_hour)
        print(json.dumps(data, indent=2))
    else:
        print(format_report(report))
        if figures is not None:
            print()
            print(format_figures(figures, args.wagers_per_hour))
    return 0


def wagers_per_hour(text: str) -> tuple[int, ...]:
    """``--wagers-per-hour``: positive whole numbers separated by commas."""
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not whole numbers separated by commas"
        ) from None
    if not values or min(values) <= 0:
        raise argparse.ArgumentTypeError("wagers per hour must be positive")
    return values


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
    p.add_argument(
        "--sheet",
        default=None,
        metavar="FILE",
        help="write the PAR sheet a lab files (HTML), for --strategies",
    )
    p.add_argument(
        "--approval",
        default=None,
        metavar="TEXT",
        help="the sheet's approval identity (default: a blank field to fill in)",
    )
    p.add_argument(
        "--strategies",
        default=None,
        metavar="S,S",
        help="the sheet's strategies (default: optimal,simple,cautious)",
    )
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
    p.add_argument(
        "--wagers-per-hour",
        type=wagers_per_hour,
        default=(60, 420, 1680),
        metavar="N,N",
        help="the progressive's hours between top awards at these wagers an hour, all "
        "stations on the meter together (default: 60,420,1680)",
    )
    p.set_defaults(func=run)
