"""``uth rng dump|test``: the generator's raw output as the shuffle consumes it, and the
game-level tests of the RNG dossier (engine.rng_tests) with an HTML report."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from engine.rng import SystemRandomSource, shuffled_deck
from engine.rng_tests import dump_bytes, run_game_tests
from kiosk.commands.par import progress_for_terminal
from kiosk.rng_report import report_html

#: Decks dealt by ``--quick`` and ``--full``.
QUICK_DECKS, FULL_DECKS = 20_000, 10_000_000


def run_dump(args: argparse.Namespace) -> int:
    if args.bytes <= 0:
        print("error: --bytes must be positive", file=sys.stderr)
        return 2
    data = dump_bytes(args.bytes)
    if args.out in (None, "-"):
        sys.stdout.buffer.write(data)
    else:
        Path(args.out).write_bytes(data)
    return 0


def run_test(args: argparse.Namespace) -> int:
    count = args.decks or (FULL_DECKS if args.full else QUICK_DECKS)
    source = SystemRandomSource()
    show = progress_for_terminal("rng decks")
    out = np.empty((count, 52), dtype=np.int8)
    start = time.perf_counter()
    step = max(1, count // 200)
    for i in range(count):
        out[i] = shuffled_deck(source)
        if show is not None and (i + 1) % step == 0:
            show(i + 1, count)
    results = run_game_tests(out)
    seconds = time.perf_counter() - start
    for t in results:
        print(f"{'PASS' if t.passed else 'FAIL'}  {t.name}: statistic {t.statistic:.2f}"
              f" df {t.df} p {t.p_value:.4g} {t.detail}")
    if args.report:
        command = f"uth rng test --decks {count} --report {args.report}"
        Path(args.report).write_text(report_html(out, results, seconds, command), encoding="utf-8")
    return 0 if all(t.passed for t in results) else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rng", help="the RNG dossier: raw dump for outside batteries, game tests")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    dump = verbs.add_parser("dump", help="raw generator bits as the shuffle draws them")
    dump.add_argument("--bytes", type=int, required=True, help="how many bytes")
    dump.add_argument("--out", default=None, help="file (default: standard output)")
    dump.set_defaults(func=run_dump)
    test = verbs.add_parser("test", help="game-level tests on dealt decks (exit 1 on a failure)")
    size = test.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help=f"{QUICK_DECKS:,} decks (default)")
    size.add_argument("--full", action="store_true", help=f"{FULL_DECKS:,} decks")
    test.add_argument("--decks", type=int, default=None, help="another number of decks")
    test.add_argument("--report", default=None, help="write an HTML report here")
    test.set_defaults(func=run_test)
