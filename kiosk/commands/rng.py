"""``uth rng dump|test``: the generator's raw output as the shuffle consumes it, and the RNG
dossier (engine.rng_tests): game-level tests on dealt decks, the same tests on biased
shuffles, NIST SP 800-22 on the raw draws and on a weak generator, ent and dieharder,
in one HTML report with a progress bar while it runs.

``--quick`` is the CI-sized dossier (well under 2 minutes); ``--full`` deals 10^7 decks
and runs NIST on 100 sequences of 10^6 bits and ``dieharder -a`` (``bench/rng.py``)."""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from engine.rng import RandomSource, SystemRandomSource
from engine.rng_tests import GameTally, ModuloBiasedSource, cut_card_decks, decks, game_results
from engine.rng_tests.fastdump import dump_stream
from engine.rng_tests.outcomes import (
    OutcomeFileError,
    decode_outcomes,
    read_outcomes,
    write_outcomes,
)
from engine.rng_tests.sources import dump_bytes, lcg_bytes, lcg_stream, tapped_dump
from engine.rng_tests.sp800_22_assess import assess, battery_verdict, run_battery
from engine.uth.paytable import PAYTABLE_DIR, PaytableError, load_paytable
from engine.uth.round import MAX_SEATS
from kiosk.commands.par import progress_for_terminal
from kiosk.rng_report import CABINET, BatteryRun, Dossier, report_html
from kiosk.rng_tools import run_dieharder, run_ent

#: Decks dealt per job (each job is an independent stream; pairs across jobs are not formed).
JOB_DECKS = 50_000
#: Dieharder's quick tests (birthdays, STS monobit, runs and serial), each at dieharder's
#: default 100 p-samples: at 10, the final Kolmogorov-Smirnov p-value of birthdays and
#: sts_serial came out above 0.9999 (WEAK, even FAILED) in about one run in eight on the
#: OS generator.
QUICK_DIEHARDER = (("0", "100"), ("100", "100"), ("101", "100"), ("102", "100"))
DEFAULT_PAYTABLE = PAYTABLE_DIR / "standard.toml"
WEAK_SOURCE = "weak generator, LCG low byte: rand() & 0xff (must fail)"
#: The endless dump dieharder reads on its standard input.
DUMP_ENDLESS = "uth rng dump --fast --bytes 0"


@dataclass(frozen=True)
class Sizes:
    """How big a dossier is: decks dealt (and by how many processes), decks per biased
    source, NIST sequences and their length in bits, and dieharder ("quick", "all" or
    None; streamed, so it reads as many bytes as its tests need)."""

    decks: int
    workers: int
    biased_decks: int
    sequences: int
    bits: int
    dieharder: str | None


QUICK = Sizes(20_000, 1, 20_000, 20, 100_000, "quick")
FULL = Sizes(10_000_000, os.cpu_count() or 1, 100_000, 100, 1_000_000, "all")

ByteSource = Callable[[int], bytes]


def dealt_decks(count: int, source: RandomSource) -> np.ndarray:
    """``count`` decks dealt as the game service deals them (:func:`deal_round` at seven
    seats, through the outcome file's layout, :mod:`engine.rng_tests.outcomes`)."""
    buffer = io.BytesIO()
    write_outcomes(buffer, source, load_paytable(DEFAULT_PAYTABLE), count, MAX_SEATS)
    return decode_outcomes(buffer.getvalue()).decks.astype(np.int8)


def _deal_job(count: int) -> GameTally:
    tally = GameTally()
    source = SystemRandomSource()
    step = 10_000
    for start in range(0, count, step):
        tally.add(dealt_decks(min(step, count - start), source))
    return tally


def deal_tally(
    count: int,
    workers: int,
    source: RandomSource | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameTally:
    """Deal ``count`` rounds as the game service does (:func:`dealt_decks`) and count their
    decks.  With ``source`` (a seeded one, for tests) one stream in this process; else
    the OS generator in jobs of :data:`JOB_DECKS` decks over ``workers`` processes."""
    total = GameTally()
    if source is not None:
        for start in range(0, count, JOB_DECKS):
            n = min(JOB_DECKS, count - start)
            total.add(dealt_decks(n, source))
            if progress is not None:
                progress(start + n, count)
        return total
    jobs = [min(JOB_DECKS, count - s) for s in range(0, count, JOB_DECKS)]
    done = 0
    if workers <= 1:
        results = map(_deal_job, jobs)
        for tally in results:
            total.merge(tally)
            done += tally.decks
            if progress is not None:
                progress(done, count)
        return total
    with get_context("fork").Pool(workers) as pool:
        for tally in pool.imap_unordered(_deal_job, jobs):
            total.merge(tally)
            done += tally.decks
            if progress is not None:
                progress(done, count)
    return total


def file_tally(path: Path) -> GameTally:
    """The decks of an outcome file (``uth rng deal``, or a lab's in the same layout)."""
    tally = GameTally()
    tally.add(read_outcomes(path).decks.astype(np.int8))
    return tally


def _sequences(data: bytes, count: int, bits: int) -> list[np.ndarray]:
    array = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    return [array[i * bits : (i + 1) * bits] for i in range(count)]


def nist_run(name: str, data: bytes, sizes: Sizes, label: str) -> BatteryRun:
    """NIST SP 800-22 over ``sizes.sequences`` sequences cut from ``data``."""
    show = progress_for_terminal(label)
    start = time.perf_counter()
    p_values = run_battery(
        _sequences(data, sizes.sequences, sizes.bits),
        (lambda done: show(done, sizes.sequences)) if show else None,
    )
    rows = assess(p_values)
    return BatteryRun(
        name, sizes.sequences, sizes.bits, rows, battery_verdict(rows), time.perf_counter() - start
    )


def dieharder_tests(mode: str) -> list[list[str]]:
    """dieharder's arguments for ``mode``: "all" is ``-a``, "quick" the four quick tests
    (:data:`QUICK_DIEHARDER`)."""
    if mode == "all":
        return [["-a"]]
    return [["-d", d, "-p", p] for d, p in QUICK_DIEHARDER]


def run_dossier(
    sizes: Sizes,
    command: str,
    *,
    source: RandomSource | None = None,
    urandom: ByteSource = os.urandom,
    outcomes: Path | None = None,
) -> Dossier:
    """The whole dossier at ``sizes``.  ``source`` and ``urandom`` replace the OS
    generator (seeded, for tests); the game-level tests read the decks of the outcome
    file ``outcomes`` (``uth rng deal``) when given, else deal ``sizes.decks`` rounds."""
    show = progress_for_terminal("rng decks")
    start = time.perf_counter()
    if outcomes is not None:
        tally = file_tally(outcomes)
    else:
        tally = deal_tally(sizes.decks, sizes.workers, source, show)
    dossier = Dossier(
        tally.decks,
        game_results(tally),
        tally.positions,
        time.perf_counter() - start,
        biased_decks=sizes.biased_decks,
    )
    dossier.biased = {
        "modulo-biased draws": game_results(
            _tally(decks(ModuloBiasedSource(1), sizes.biased_decks))
        ),
        "cut-card shuffle": game_results(_tally(cut_card_decks(1, sizes.biased_decks))),
    }
    nist_bytes = sizes.sequences * sizes.bits // 8
    dump = dump_bytes(nist_bytes, urandom)
    dossier.nist.append(nist_run(CABINET, dump, sizes, "SP 800-22"))
    dossier.nist.append(nist_run(WEAK_SOURCE, lcg_bytes(nist_bytes), sizes, "SP 800-22 weak"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dump.bin"
        path.write_bytes(dump)
        ent = run_ent(path)
    if sizes.dieharder:
        harder = run_dieharder(
            "dieharder",
            dieharder_tests(sizes.dieharder),
            dump_stream(None, urandom),
            shown=DUMP_ENDLESS,
        )
        weak = run_dieharder(
            f"dieharder, {WEAK_SOURCE}",
            dieharder_tests("quick"),
            lcg_stream(),
            weak=True,
            shown="(the LCG's low bytes)",
        )
    else:
        harder = weak = None
    dossier.tools = [t for t in (ent, harder, weak) if t is not None]
    dossier.commands = [
        command,
        f"uth rng deal --rounds {tally.decks} --seats 7 --out outcomes.bin   # the decks "
        "the game-level tests read (uth rng test --outcomes outcomes.bin)",
        f"uth rng dump --bytes {nist_bytes} --out dump.bin   # NIST and ent input",
        "ent dump.bin",
        *(
            f"{DUMP_ENDLESS} | dieharder {' '.join(t)} -Y 1 -g 200"
            for t in dieharder_tests(sizes.dieharder or "all")
        ),
        ".venv/bin/python -m bench.rng   # the full run: 10^7 decks, 100 x 10^6 bits, dieharder -a",
    ]
    return dossier


def _tally(d: np.ndarray) -> GameTally:
    tally = GameTally()
    tally.add(d)
    return tally


def run_dump(args: argparse.Namespace) -> int:
    if args.bytes < 0:
        print("error: --bytes must not be negative (0: without end)", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("error: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1 and not args.fast:
        print("error: --workers needs --fast (the tap runs in one process)", file=sys.stderr)
        return 2
    out = sys.stdout.buffer if args.out in (None, "-") else open(args.out, "wb")
    if args.fast:
        stream = dump_stream(args.bytes or None, workers=args.workers)
    else:
        stream = tapped_dump(args.bytes or None)
    try:
        for chunk in stream:
            out.write(chunk)
        out.flush()
    except BrokenPipeError:  # the reader (dieharder -g 200) had enough
        return 0
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    return 0


def run_deal(args: argparse.Namespace) -> int:
    try:
        paytable = load_paytable(args.paytable)
        start = time.perf_counter()
        with open(args.out, "wb") as out:
            write_outcomes(
                out,
                SystemRandomSource(),
                paytable,
                args.rounds,
                args.seats,
                progress_for_terminal("rng deal"),
            )
    except (OutcomeFileError, PaytableError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    print(
        f"{args.rounds:,} rounds of {args.seats} seats in {seconds:.1f} s "
        f"({args.rounds / max(seconds, 1e-9):,.0f} rounds/s): {args.out}",
        file=sys.stderr,
    )
    return 0


def run_test(args: argparse.Namespace) -> int:
    sizes = FULL if args.full else QUICK
    if args.decks:
        sizes = dataclasses.replace(sizes, decks=args.decks)
    command = (
        "uth rng test "
        + ("--full" if args.full else "--quick")
        + (f" --decks {args.decks}" if args.decks else "")
        + (f" --report {args.report}" if args.report else "")
    )
    outcomes = Path(args.outcomes) if args.outcomes else None
    if outcomes is not None:
        command += f" --outcomes {args.outcomes}"
    try:
        dossier = run_dossier(sizes, command, outcomes=outcomes)
    except (OutcomeFileError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for t in dossier.game:
        print(
            f"{'PASS' if t.passed else 'FAIL'}  {t.name}: statistic {t.statistic:.2f}"
            f" df {t.df} p {t.p_value:.4g} {t.detail}"
        )
    for run in dossier.nist:
        v = run.verdict
        print(
            f"{'PASS' if v.ok else 'FAIL'}  NIST SP 800-22, {run.source}: {v.flagged} of "
            f"{len(run.rows)} kinds flagged (at most {v.allowed})"
        )
    for tool in dossier.tools:
        print(f"{'PASS' if tool.ok else 'FAIL'}  {tool.name}: {tool.summary}")
    print(f"dossier: {'PASS' if dossier.ok else 'FAIL'}")
    if args.report:
        Path(args.report).write_text(report_html(dossier), encoding="utf-8")
    return 0 if dossier.ok else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rng", help="the RNG dossier: raw dump for outside batteries, game tests")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    dump = verbs.add_parser(
        "dump", help="the bits the shuffle consumes: a tap on the cabinet's source, running it"
    )
    dump.add_argument(
        "--bytes",
        type=int,
        required=True,
        help="how many bytes (0: without end, for a pipe into dieharder -g 200)",
    )
    dump.add_argument("--out", default=None, help="file (default: standard output)")
    dump.add_argument(
        "--fast",
        action="store_true",
        help="the vectorised twin of the tap (the same draws, about 100 times faster; for dieharder)",
    )
    dump.add_argument(
        "--workers",
        type=int,
        default=1,
        help="with --fast: processes making whole batches, written in order (default 1)",
    )
    dump.set_defaults(func=run_dump)
    deal = verbs.add_parser(
        "deal",
        help="rounds dealt as the game deals them, to a file "
        "(the outcome collection; layout in engine/rng_tests/outcomes.py)",
    )
    deal.add_argument("--rounds", type=int, required=True, help="how many rounds")
    deal.add_argument("--seats", type=int, default=MAX_SEATS, help="seats dealt (1-7)")
    deal.add_argument("--out", required=True, help="the outcome file")
    deal.add_argument("--paytable", default=str(DEFAULT_PAYTABLE))
    deal.set_defaults(func=run_deal)
    test = verbs.add_parser(
        "test", help="the dossier: game tests, SP 800-22, ent, dieharder (exit 1 on a failure)"
    )
    size = test.add_mutually_exclusive_group()
    size.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK.decks:,} decks, {QUICK.sequences} x {QUICK.bits:,} bits (default)",
    )
    size.add_argument(
        "--full",
        action="store_true",
        help=f"{FULL.decks:,} decks, {FULL.sequences} x {FULL.bits:,} bits, dieharder -a",
    )
    test.add_argument("--decks", type=int, default=None, help="another number of decks")
    test.add_argument("--report", default=None, help="write the HTML report here")
    test.add_argument(
        "--outcomes",
        default=None,
        help="the game-level tests read this outcome file (uth rng deal)",
    )
    test.set_defaults(func=run_test)
