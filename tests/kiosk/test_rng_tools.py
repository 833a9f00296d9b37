"""dieharder as the dossier runs it: its rewinds read from its standard error, the
generator streamed to its standard input (never rewound), and a WEAK result re-run with
more p-samples until it is not weak."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.rng_tests.fastdump import dump_stream
from kiosk.rng_tools import parse_dieharder, run_dieharder

pytestmark = pytest.mark.skipif(
    shutil.which("dieharder") is None, reason="Debian's dieharder is not installed"
)


def seeded_stream(seed: int) -> Iterator[bytes]:
    r = random.Random(seed)
    while True:
        yield r.randbytes(1 << 16)


def test_a_file_too_small_for_the_test_is_reported_rewound(tmp_path: Path):
    small = tmp_path / "small.bin"
    small.write_bytes(random.Random(1).randbytes(100_000))
    # the birthdays test reads about 0.55 MB per p-sample: the file wraps about 5 times
    run = run_dieharder("dieharder", [["-d", "0", "-p", "1"]], small)
    assert run is not None
    assert run.rewinds is not None and run.rewinds >= 4
    assert f"rewound {run.rewinds} times" in run.summary
    assert "was rewound" in run.output  # dieharder's standard error is in the report


def test_the_streamed_generator_is_never_rewound():
    run = run_dieharder(
        "dieharder",
        [["-d", "100", "-p", "10"]],
        dump_stream(None, random.Random(2).randbytes),
        shown="uth rng dump --bytes 0",
    )
    assert run is not None and run.ok
    assert run.rewinds == 0 and "rewound 0 times" in run.summary
    assert "streamed" in run.summary
    assert run.command.startswith("uth rng dump --bytes 0 | dieharder -d 100")


def test_a_weak_result_is_re_run_with_more_p_samples_and_its_final_verdict_kept():
    # a weak band of p < 0.3 or p > 0.7 makes a WEAK first result likely; this stream's
    # first result (10 p-samples) is WEAK and its re-run with 100 more PASSED
    run = run_dieharder("dieharder", [["-d", "100", "-p", "10", "-W", "0.3"]], seeded_stream(3))
    assert run is not None
    lines = [line for line in run.output.splitlines() if "sts_monobit" in line]
    assert len(lines) >= 2 and "WEAK" in lines[0]
    (result,) = parse_dieharder(run.output)
    assert result.reruns == len(lines) - 1 and result.assessment == "PASSED"
    assert result.psamples > 10
    assert run.summary.startswith("1 PASSED, 0 WEAK, 0 FAILED")
    assert "1 tests re-run" in run.summary and run.ok


#: dieharder 3.31.1's output for ``-d 102 -p 10 -Y 1 -k 2`` (the same blocks without ``-k 2``) (cut to ntup 1-3): sts_serial
#: prints two lines for most ntups; one WEAK line re-runs the whole test
SERIAL_RERUN = """\
        test_name   |ntup| tsamples |psamples|  p-value |Assessment
          sts_serial|   1|    100000|      10|0.54917229|  PASSED
          sts_serial|   2|    100000|      10|0.99976306|   WEAK
          sts_serial|   3|    100000|      10|0.89184704|  PASSED
          sts_serial|   3|    100000|      10|0.47454876|  PASSED
          sts_serial|   1|    100000|     110|0.10864963|  PASSED
          sts_serial|   2|    100000|     110|0.02790253|  PASSED
          sts_serial|   3|    100000|     110|0.88858541|  PASSED
          sts_serial|   3|    100000|     110|0.20299648|  PASSED
"""


def test_a_test_of_several_statistics_is_re_run_as_a_block():
    results = parse_dieharder(SERIAL_RERUN)
    assert [(r.ntup, r.psamples, r.assessment, r.reruns) for r in results] == [
        (1, 110, "PASSED", 1),
        (2, 110, "PASSED", 1),
        (3, 110, "PASSED", 1),
        (3, 110, "PASSED", 1),
    ]
