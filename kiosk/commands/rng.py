"""``uth rng dump|test``: the generator's raw output as the shuffle consumes it, and the RNG
dossier (engine.rng_tests): game-level tests on dealt decks, the same tests on biased
shuffles, NIST SP 800-22 on the raw draws and on a weak generator, ent and dieharder,
in one HTML report with a progress bar while it runs.

``--quick`` is the CI-sized dossier (well under 2 minutes); ``--full`` deals 10^7 decks
and runs NIST on 100 sequences of 10^6 bits and ``dieharder -a`` (``bench/rng.py``)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from engine.rng import RandomSource, SystemRandomSource, shuffled_deck
from engine.rng_tests import GameTally, ModuloBiasedSource, cut_card_decks, decks, game_results
from engine.rng_tests.fastdump import dump_stream
from engine.rng_tests.sources import lcg_bytes
from engine.rng_tests.sp800_22_assess import assess, battery_verdict, run_battery
from kiosk.commands.par import progress_for_terminal
from kiosk.rng_report import CABINET, BatteryRun, Dossier, ToolRun, report_html

#: Decks dealt per job (each job is an independent stream; pairs across jobs are not formed).
JOB_DECKS = 50_000
#: Dieharder's quick tests (birthdays, STS monobit, runs and serial) and their p-samples.
QUICK_DIEHARDER = ("0", "100", "101", "102")
WEAK_SOURCE = "weak generator, LCG low byte: rand() & 0xff (must fail)"


@dataclass(frozen=True)
class Sizes:
    """How big a dossier is: decks dealt (and by how many processes), decks per biased
    source, NIST sequences and their length in bits, dieharder ("quick", "all" or None)
    and the size of its input file in bytes."""

    decks: int
    workers: int
    biased_decks: int
    sequences: int
    bits: int
    dieharder: str | None
    dieharder_bytes: int


QUICK = Sizes(20_000, 1, 20_000, 20, 100_000, "quick", 16_000_000)
FULL = Sizes(10_000_000, os.cpu_count() or 1, 100_000, 100, 1_000_000, "all", 2**31)

ByteSource = Callable[[int], bytes]


def _deal_job(count: int) -> GameTally:
    tally = GameTally()
    source = SystemRandomSource()
    step = 10_000
    for start in range(0, count, step):
        n = min(step, count - start)
        tally.add(np.array([shuffled_deck(source) for _ in range(n)], dtype=np.int8))
    return tally


def deal_tally(count: int, workers: int, source: RandomSource | None = None,
               progress: Callable[[int, int], None] | None = None) -> GameTally:
    """Deal ``count`` decks with the cabinet's shuffle and count them.  With ``source``
    (a seeded one, for tests) one stream in this process; else the OS generator in
    jobs of :data:`JOB_DECKS` decks over ``workers`` processes."""
    total = GameTally()
    if source is not None:
        for start in range(0, count, JOB_DECKS):
            n = min(JOB_DECKS, count - start)
            total.add(decks(source, n))
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


def _sequences(data: bytes, count: int, bits: int) -> list[np.ndarray]:
    array = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    return [array[i * bits:(i + 1) * bits] for i in range(count)]


def nist_run(name: str, data: bytes, sizes: Sizes, label: str) -> BatteryRun:
    """NIST SP 800-22 over ``sizes.sequences`` sequences cut from ``data``."""
    show = progress_for_terminal(label)
    start = time.perf_counter()
    p_values = run_battery(_sequences(data, sizes.sequences, sizes.bits),
                           (lambda done: show(done, sizes.sequences)) if show else None)
    rows = assess(p_values)
    return BatteryRun(name, sizes.sequences, sizes.bits, rows, battery_verdict(rows),
                      time.perf_counter() - start)


def run_ent(path: Path) -> ToolRun | None:
    """ent on the dump: entropy per byte, chi-square, serial correlation."""
    if shutil.which("ent") is None:
        return None
    start = time.perf_counter()
    text = subprocess.run(["ent", str(path)], capture_output=True, text=True).stdout
    entropy = re.search(r"Entropy = ([0-9.]+)", text)
    percent = re.search(r"exceed this value ([0-9.<>]+) percent", text)
    ok = bool(entropy and float(entropy.group(1)) > 7.99)
    if percent:
        share = float(percent.group(1).strip("<>"))
        ok &= 1.0 <= share <= 99.0
    return ToolRun("ent", f"ent {path.name}", text, ok,
                   "entropy above 7.99 bits per byte and the chi-square between 1% and 99%",
                   time.perf_counter() - start)


def run_dieharder(path: Path, mode: str, weak: bool = False) -> ToolRun | None:
    """``dieharder -a`` (``mode`` "all") or its quick tests on the dump file: the
    cabinet's passes with no FAILED line; a ``weak`` source's must show one."""
    if shutil.which("dieharder") is None:
        return None
    start = time.perf_counter()
    if mode == "all":
        commands = [["dieharder", "-a", "-g", "201", "-f", str(path)]]
    else:
        commands = [["dieharder", "-d", d, "-p", "10", "-g", "201", "-f", str(path)]
                    for d in QUICK_DIEHARDER]
    output = "".join(subprocess.run(c, capture_output=True, text=True).stdout for c in commands)
    counts = {w: len(re.findall(rf"\|\s*{w}\s*$", output, re.M))
              for w in ("PASSED", "WEAK", "FAILED")}
    rewound = sum(int(n) for n in re.findall(r"rewound (\d+) times", output))
    summary = (f"{counts['PASSED']} PASSED, {counts['WEAK']} WEAK, {counts['FAILED']} FAILED; "
               f"input {path.stat().st_size:,} bytes, rewound {rewound} times in all")
    shown = " ; ".join(" ".join(c[:-1]) + " " + path.name for c in commands)
    ok = counts["FAILED"] > 0 if weak else counts["FAILED"] == 0 and counts["PASSED"] > 0
    name = f"dieharder, {WEAK_SOURCE}" if weak else "dieharder"
    return ToolRun(name, shown, output, ok, summary, time.perf_counter() - start)


def _write_dump(path: Path, count: int, urandom: ByteSource) -> None:
    with open(path, "wb") as out:
        for chunk in dump_stream(count, urandom):
            out.write(chunk)


def run_dossier(sizes: Sizes, command: str, *, source: RandomSource | None = None,
                urandom: ByteSource = os.urandom) -> Dossier:
    """The whole dossier at ``sizes``.  ``source`` and ``urandom`` replace the OS
    generator (seeded, for tests)."""
    show = progress_for_terminal("rng decks")
    start = time.perf_counter()
    tally = deal_tally(sizes.decks, sizes.workers, source, show)
    dossier = Dossier(sizes.decks, game_results(tally), tally.positions,
                      time.perf_counter() - start, biased_decks=sizes.biased_decks)
    dossier.biased = {
        "modulo-biased draws": game_results(_tally(decks(ModuloBiasedSource(1),
                                                         sizes.biased_decks))),
        "cut-card shuffle": game_results(_tally(cut_card_decks(1, sizes.biased_decks))),
    }
    nist_bytes = sizes.sequences * sizes.bits // 8
    dump = b"".join(dump_stream(nist_bytes, urandom))
    dossier.nist.append(nist_run(CABINET, dump, sizes, "SP 800-22"))
    dossier.nist.append(nist_run(WEAK_SOURCE, lcg_bytes(nist_bytes), sizes, "SP 800-22 weak"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dump.bin"
        path.write_bytes(dump)
        ent = run_ent(path)
        if sizes.dieharder:
            _write_dump(path, sizes.dieharder_bytes, urandom)
            harder = run_dieharder(path, sizes.dieharder)
            path.write_bytes(lcg_bytes(QUICK.dieharder_bytes))
            weak = run_dieharder(path, "quick", weak=True)
        else:
            harder = weak = None
    dossier.tools = [t for t in (ent, harder, weak) if t is not None]
    dossier.commands = [
        command,
        f"uth rng dump --bytes {nist_bytes} --out dump.bin   # NIST and ent input",
        "ent dump.bin",
        f"uth rng dump --bytes {sizes.dieharder_bytes} --out big.bin",
        "dieharder -a -g 201 -f big.bin",
        ".venv/bin/python -m bench.rng   # the full run: 10^7 decks, 100 x 10^6 bits, dieharder -a",
    ]
    return dossier


def _tally(d: np.ndarray) -> GameTally:
    tally = GameTally()
    tally.add(d)
    return tally


def run_dump(args: argparse.Namespace) -> int:
    if args.bytes <= 0:
        print("error: --bytes must be positive", file=sys.stderr)
        return 2
    out = sys.stdout.buffer if args.out in (None, "-") else open(args.out, "wb")
    try:
        for chunk in dump_stream(args.bytes):
            out.write(chunk)
        out.flush()
    except BrokenPipeError:  # the reader (dieharder -g 200) had enough
        return 0
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    return 0


def run_test(args: argparse.Namespace) -> int:
    sizes = FULL if args.full else QUICK
    if args.decks:
        sizes = Sizes(args.decks, sizes.workers, sizes.biased_decks, sizes.sequences,
                      sizes.bits, sizes.dieharder, sizes.dieharder_bytes)
    command = "uth rng test " + ("--full" if args.full else "--quick") + (
        f" --decks {args.decks}" if args.decks else "") + (
        f" --report {args.report}" if args.report else "")
    dossier = run_dossier(sizes, command)
    for t in dossier.game:
        print(f"{'PASS' if t.passed else 'FAIL'}  {t.name}: statistic {t.statistic:.2f}"
              f" df {t.df} p {t.p_value:.4g} {t.detail}")
    for run in dossier.nist:
        v = run.verdict
        print(f"{'PASS' if v.ok else 'FAIL'}  NIST SP 800-22, {run.source}: {v.flagged} of "
              f"{len(run.rows)} kinds flagged (at most {v.allowed})")
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
    dump = verbs.add_parser("dump", help="raw generator bits as the shuffle draws them")
    dump.add_argument("--bytes", type=int, required=True, help="how many bytes")
    dump.add_argument("--out", default=None, help="file (default: standard output)")
    dump.set_defaults(func=run_dump)
    test = verbs.add_parser("test", help="the dossier: game tests, SP 800-22, ent, dieharder "
                            "(exit 1 on a failure)")
    size = test.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true",
                      help=f"{QUICK.decks:,} decks, {QUICK.sequences} x {QUICK.bits:,} bits "
                      "(default)")
    size.add_argument("--full", action="store_true",
                      help=f"{FULL.decks:,} decks, {FULL.sequences} x {FULL.bits:,} bits, "
                      "dieharder -a")
    test.add_argument("--decks", type=int, default=None, help="another number of decks")
    test.add_argument("--report", default=None, help="write the HTML report here")
    test.set_defaults(func=run_test)
