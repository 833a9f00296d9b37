"""The outside batteries of the RNG dossier, Debian's ``ent`` and ``dieharder``, run on
the generator's bits and read back into typed results.

dieharder reads its input either from a file (``-g 201 -f FILE``), which it rewinds when
a test needs more than the file holds (it says so on standard error: "The file
file_input_raw was rewound N times"), or as raw bytes on standard input (``-g 200``),
which never rewinds: :func:`run_dieharder` streams the generator into dieharder's
standard input (what ``uth rng dump --bytes 0 | dieharder -g 200 ...`` does) or reads a
file, and in both cases reads both of dieharder's outputs: its result lines from standard
output and its rewinds and warnings from standard error.  A test that comes out WEAK is
re-run with more p-samples (``-Y 1``, dieharder's "resolve ambiguity" mode: blocks
of 100 p-samples until the result is not weak); the last block of each test is its
verdict.  dieharder's help pairs ``-Y 1`` with ``-k 2`` (its exact Kolmogorov-Smirnov
test), but in 3.31.1 that gave p-values of 0.9999 to 1.0 (WEAK, even FAILED) on
``/dev/urandom`` at 10 p-samples, so the default ``-k`` is kept.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: dieharder's result line: name | ntup | tsamples | psamples | p-value | assessment.
_RESULT = re.compile(
    r"^\s*(\S+)\|\s*(\d+)\|\s*(\d+)\|\s*(\d+)\|\s*([0-9.eE+-]+)\|\s*(PASSED|WEAK|FAILED)\s*$",
    re.M,
)
_REWOUND = re.compile(r"rewound (\d+) times")


@dataclass(frozen=True)
class ToolRun:
    """An outside battery (ent, dieharder): its command, output, verdict and time (``ok``:
    the outcome expected, a pass on the cabinet's generator, a failure on a weak one).
    ``rewinds`` is how often dieharder rewound its input file (None: not dieharder)."""

    name: str
    command: str
    output: str
    ok: bool
    summary: str
    seconds: float
    rewinds: int | None = None


@dataclass(frozen=True)
class DieharderResult:
    """One final line of a dieharder test: its p-value and assessment ("PASSED", "WEAK"
    or "FAILED"), after ``reruns`` earlier runs of the same test (re-runs of a WEAK
    result with more p-samples)."""

    test: str
    ntup: int
    tsamples: int
    psamples: int
    p_value: float
    assessment: str
    reruns: int = 0


def parse_dieharder(stdout: str) -> list[DieharderResult]:
    """The final results in dieharder's standard output, in the order the tests first
    appear.  A test prints one block of lines (one per statistic and ntup); in "resolve
    ambiguity" mode a test with a WEAK line is run again with more p-samples and prints a
    new block: each test's last block holds its final results."""
    blocks: dict[str, list[list[re.Match[str]]]] = {}
    last: re.Match[str] | None = None
    for m in _RESULT.finditer(stdout):
        name = m.group(1)
        runs = blocks.setdefault(name, [])
        if last is None or last.group(1) != name or last.group(4) != m.group(4):
            runs.append([])
        runs[-1].append(m)
        last = m
    return [
        DieharderResult(
            m.group(1),
            int(m.group(2)),
            int(m.group(3)),
            int(m.group(4)),
            float(m.group(5)),
            m.group(6),
            len(runs) - 1,
        )
        for runs in blocks.values()
        for m in runs[-1]
    ]


def dieharder_rewinds(stderr: str) -> int:
    """How many times dieharder rewound its input file, from its standard error."""
    return sum(int(n) for n in _REWOUND.findall(stderr))


def _feed(proc: subprocess.Popen[bytes], chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` to ``proc``'s standard input until it stops reading."""
    assert proc.stdin is not None
    try:
        for chunk in chunks:
            if proc.poll() is not None:
                break
            proc.stdin.write(chunk)
    except BrokenPipeError:  # dieharder has read all it needs and exited
        pass
    finally:
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass


def dieharder_once(args: Sequence[str], source: Path | Iterable[bytes]) -> tuple[str, str]:
    """Run ``dieharder ARGS`` on a file (``-g 201 -f FILE``) or on a stream of bytes fed
    to its standard input (``-g 200``); returns its standard output and standard error."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        if isinstance(source, Path):
            subprocess.run(
                ["dieharder", *args, "-g", "201", "-f", str(source)],
                stdout=out,
                stderr=err,
                check=False,
            )
        else:
            proc = subprocess.Popen(
                ["dieharder", *args, "-g", "200"], stdin=subprocess.PIPE, stdout=out, stderr=err
            )
            _feed(proc, source)
            proc.wait()
        out.seek(0)
        err.seek(0)
        return out.read().decode(errors="replace"), err.read().decode(errors="replace")


def run_dieharder(
    name: str,
    tests: Sequence[Sequence[str]],
    source: Path | Iterable[bytes],
    weak: bool = False,
    shown: str = "",
) -> ToolRun | None:
    """dieharder's ``tests`` (each an argument list such as ``["-d", "0", "-p", "10"]``,
    or ``["-a"]``) on ``source`` (a file, or a stream of bytes fed to its standard input,
    one endless iterator shared by the tests), each WEAK re-run with more p-samples.
    The cabinet's generator passes with no FAILED final result; a ``weak`` source's must
    show one.  ``shown`` names the source in the command (default the file's name).
    None when dieharder is not installed."""
    if shutil.which("dieharder") is None:
        return None
    start = time.perf_counter()
    outputs, errors = [], []
    for test in tests:
        stdout, stderr = dieharder_once([*test, "-Y", "1"], source)
        outputs.append(stdout)
        errors.append(stderr)
    output = "".join(outputs)
    stderr = "".join(errors)
    results = parse_dieharder(output)
    counts = {w: sum(r.assessment == w for r in results) for w in ("PASSED", "WEAK", "FAILED")}
    rewinds = dieharder_rewinds(stderr)
    reran = len({r.test for r in results if r.reruns > 0})
    if isinstance(source, Path):
        where = f"input {source.name}, {source.stat().st_size:,} bytes"
        shown = shown or source.name
        commands = [f"dieharder {' '.join(t)} -Y 1 -g 201 -f {shown}" for t in tests]
    else:
        where = "input streamed to standard input"
        commands = [f"{shown} | dieharder {' '.join(t)} -Y 1 -g 200" for t in tests]
    summary = (
        f"{counts['PASSED']} PASSED, {counts['WEAK']} WEAK, {counts['FAILED']} FAILED "
        f"(final verdicts; {reran} tests re-run with more p-samples after a WEAK); {where}, "
        f"rewound {rewinds} times in all"
    )
    ok = counts["FAILED"] > 0 if weak else counts["FAILED"] == 0 and counts["PASSED"] > 0
    text = output + ("\nstandard error:\n" + stderr if stderr.strip() else "")
    return ToolRun(
        name, " ; ".join(commands), text, ok, summary, time.perf_counter() - start, rewinds
    )


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
    return ToolRun(
        "ent",
        f"ent {path.name}",
        text,
        ok,
        "entropy above 7.99 bits per byte and the chi-square between 1% and 99%",
        time.perf_counter() - start,
    )
