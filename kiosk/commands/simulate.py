"""``uth simulate PAYTABLE``: deal and settle rounds with the cabinet's own code, and report."""

from __future__ import annotations

import argparse
import json
import sys

from engine.cards import CardParseError, parse_cards
from engine.maths.optimal import OptimalStrategy
from engine.maths.par import main_analysis, par
from engine.maths.par_report import ParReport, cell_values, format_report
from engine.maths.par_sheet import LEVELS, RETURNS, cell_moments, interval, lookup
from engine.maths.par_sheet_html import RETURN_LABELS, SheetColumn, pct, sheet_html
from engine.maths.par_tables import FULL_DECK
from engine.maths.progressive import ProgressiveFigures
from engine.maths.progressive_sim import format_simulation, simulate_meter
from engine.maths.simulate import simulate
from engine.maths.strategies import STRATEGIES, get_strategy
from engine.uth.paytable import Paytable, PaytableError, load_paytable
from engine.uth.progressive import Progressive
from kiosk.commands.par import deck_option, parse_deck, progress_for_terminal
from kiosk.integrity.manifest import software_version


def check_section(sim: SheetColumn, exact: SheetColumn | None) -> str:
    """The simulation against the exact figures: each estimate with its confidence
    intervals, the exact return, whether the exact return lies in the 99% interval and
    whether the estimate lies where the exact analysis says N rounds must fall."""
    rounds = sim.report.rounds or 0
    data = sim.report.to_dict()
    rows = [
        "<h2>The simulation against the exact figures</h2><table><tr><th class=l>return"
        "</th><th>simulated</th><th>95% interval</th><th>99% interval</th><th>exact</th>"
        "<th>exact inside the 99% interval</th><th>estimate inside the exact 99% range "
        f"for {rounds:,} rounds</th></tr>"
    ]
    for name, path in RETURNS:
        if name not in data.get("ci99", {}):
            continue
        est = float(lookup(data, path))
        cis = "".join(
            f"<td class=ci data-key='{sim.key}:{key}.{name}' data-low='{lo!r}' "
            f"data-high='{hi!r}'>{pct(lo)} .. {pct(hi)}</td>"
            for key in ("ci95", "ci99")
            for lo, hi in [data[key][name]]
        )
        cells = "<td>-</td><td>-</td><td>-</td>"
        if exact is not None and exact.moments is not None:
            value = float(lookup(exact.report.to_dict(), path))
            lo, hi = data["ci99"][name]
            var = exact.moments.return_variance[name]
            low, high = interval(value, var, rounds, dict(LEVELS)["99%"])
            cells = (
                f"<td class=fig data-key='{exact.key}:{path}' data-value='{value!r}'>"
                f"{pct(value)}</td><td>{'yes' if lo <= value <= hi else 'NO'}</td>"
                f"<td>{'yes' if low <= est <= high else 'NO'}</td>"
            )
        rows.append(
            f"<tr><td class=l>{RETURN_LABELS[name]}</td><td class=fig data-key="
            f"'{sim.key}:{path}' data-value='{est!r}'>{pct(est)}</td>{cis}{cells}</tr>"
        )
    return "".join(rows) + "</table>"


def write_sheet(
    table: Paytable,
    report: ParReport,
    args: argparse.Namespace,
    deck: tuple[int, ...],
    exact: ParReport | None,
) -> None:
    """``--sheet FILE``: the simulation's sheet, in the form of the PAR sheet."""
    sim = SheetColumn("simulated", f"simulated ({report.rounds:,} rounds)", report)
    columns = [sim]
    exact_column = None
    if exact is not None:
        analysis = main_analysis(
            table, exact.strategy, deck=deck, workers=args.workers, cache=args.cache_dir
        )
        exact_column = SheetColumn(
            "exact",
            f"exact ({exact.strategy} play)",
            exact,
            cell_moments(analysis.game_counts(), cell_values(table)),
        )
        columns.append(exact_column)
    dk = deck_option(deck)
    command = (
        f"uth simulate {args.paytable}{dk} --rounds {args.rounds} --strategy "
        f"{args.strategy} --seed {args.seed} --workers {args.workers} --batch "
        f"{args.batch}"
    )
    preface = (
        f"<p>{report.rounds:,} rounds dealt, decided by the {report.strategy} strategy "
        f"and settled by the cabinet's settlement code (uth-cabinet "
        f"{software_version()}), seed {report.seed}, {report.workers} workers, "
        f"{report.seconds:.1f} s. The same seed and worker count give the same "
        "figures.</p>"
    )
    commands = [
        f"{command} --json   # the simulated column (ci95, ci99: its intervals)",
        f"{command} --sheet {args.sheet}   # this sheet",
    ]
    if exact is not None:
        commands.append(
            f"uth par {args.paytable}{dk} --strategy {exact.strategy} --json   # the exact column"
        )
    text = sheet_html(
        table,
        columns,
        title=f"Simulation sheet: Ultimate Texas Hold'em, {table.name} {table.version}",
        preface=preface,
        commands=commands,
        extra=check_section(sim, exact_column),
        rounds=(report.rounds or 1,),
    )
    with open(args.sheet, "w", encoding="utf-8") as out:
        out.write(text)


def run_progressive(table: Progressive, args: argparse.Namespace) -> int:
    """``--progressive``: the meter over ``--rounds`` rounds at each of ``--tables``
    tables of ``--stations`` seats, against the exact figures."""
    if not 1 <= args.stations <= 7 or args.tables < 1:
        print("error: --stations takes 1 to 7 and --tables at least 1", file=sys.stderr)
        return 2
    run = simulate_meter(
        table,
        args.rounds,
        stations=args.stations,
        tables=args.tables,
        seed=args.seed,
        batch=args.batch,
    )
    data = run.to_dict(ProgressiveFigures.of(table))
    print(json.dumps(data, indent=2) if args.json else format_simulation(data))
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        table = load_paytable(args.paytable)
        deck = parse_deck(args.deck)
        fixed = tuple(parse_cards(args.fixed)) if args.fixed else ()
    except (PaytableError, CardParseError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.rounds <= 0 or args.workers <= 0 or args.batch <= 0:
        print("error: --rounds, --workers and --batch must be positive", file=sys.stderr)
        return 2
    if args.progressive:
        if table.progressive is None:
            print(f"error: {args.paytable} has no [progressive] table", file=sys.stderr)
            return 2
        return run_progressive(table.progressive, args)
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
    if args.sheet:
        exact = None
        if not fixed:
            exact = par(
                table,
                args.strategy,
                deck=deck,
                workers=args.workers,
                cache=args.cache_dir,
                progress=progress_for_terminal("exact figures"),
            )
        try:
            write_sheet(table, report, args, deck, exact)
        except OSError as exc:
            print(f"error: cannot write the sheet: {exc}", file=sys.stderr)
            return 2
        print(f"wrote {args.sheet}", file=sys.stderr)
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
    p.add_argument(
        "--sheet",
        default=None,
        metavar="FILE",
        help="also write the simulation's sheet (HTML), checked against the exact "
        "figures (computed, or read from the cache)",
    )
    p.add_argument(
        "--progressive",
        action="store_true",
        help="simulate the progressive's meter instead (--rounds at each of --tables tables "
        "of --stations seats on one meter) and check it against the exact figures",
    )
    p.add_argument("--stations", type=int, default=7, help="--progressive: seats a table, 1-7")
    p.add_argument("--tables", type=int, default=1, help="--progressive: tables on the meter")
    p.set_defaults(func=run)
