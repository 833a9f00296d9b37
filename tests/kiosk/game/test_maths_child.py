"""The exact maths in a child process: the same figures as in the process, its
progress relayed, its failures raised here with the child's reason, and nothing but
typed messages between the two (a pickle or any other bytes are refused, never run)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from engine.maths.par import par
from engine.uth.paytable import load_paytable
from kiosk.game.paytables import maths_child
from kiosk.game.paytables.maths_child import (
    ChildMathsError,
    MathsCall,
    cache_optimal_analysis,
    converse,
    exact_report_afresh,
    parse_answer,
    run_in_child,
)

STANDARD = Path(__file__).resolve().parents[3] / "paytables" / "standard.toml"


def _fake_child(script: str) -> tuple[str, ...]:
    """A real process that answers with ``script``'s bytes in place of the maths child."""
    return (sys.executable, "-I", "-c", textwrap.dedent(script))


#: A child whose answer is a pickle that runs ``touch parent-ran`` where it is loaded.
PICKLING_CHILD = """
    import os, pickle, sys
    class Payload:
        def __reduce__(self):
            return (os.system, ("touch parent-ran",))
    sys.stdout.buffer.write(pickle.dumps(("ok", Payload())))
    sys.stdout.flush()
"""


@pytest.mark.heavy
def test_the_child_computes_the_same_exact_report_and_relays_its_progress():
    table = load_paytable(STANDARD)
    seen: list[tuple[int, int]] = []
    report = run_in_child(exact_report_afresh, table, progress=lambda d, n: seen.append((d, n)))
    with tempfile.TemporaryDirectory() as scratch:
        here = par(table, "optimal", cache=scratch)
    assert report.rtps() == here.rtps()  # exact fractions, not approximations
    assert report.paytable_sha256 == table.sha256
    assert seen and all(0 <= d <= n for d, n in seen)
    assert [d for d, _n in seen if _n == seen[-1][1]] == sorted(
        d for d, _n in seen if _n == seen[-1][1]
    )


def test_only_a_computation_of_the_child_on_a_paytable_is_sent():
    table = load_paytable(STANDARD)
    with pytest.raises(TypeError, match="takes one Paytable"):
        run_in_child(exact_report_afresh, "not a paytable")
    with pytest.raises(TypeError, match="not a computation of the maths child"):
        run_in_child(print, table)


def test_the_child_refuses_a_call_that_is_not_a_message_with_its_reason():
    for request in (b"not json", b'{"call": "exact_report"}', pickle.dumps(("os", "system"))):
        with pytest.raises(ChildMathsError, match="the call is not a valid message"):
            converse(request)


def test_an_answer_that_is_a_pickle_is_refused_and_nothing_of_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    table = load_paytable(STANDARD)
    call = MathsCall(call="cache_analysis", paytable=table)
    with pytest.raises(ChildMathsError, match="not a message"):
        converse(call, command=_fake_child(PICKLING_CHILD))
    assert not (tmp_path / "parent-ran").exists()


@pytest.mark.parametrize(
    "line",
    [
        b'{"kind": "ok", "result": 1}',  # a kind outside the closed set
        b'{"kind": "progress", "done": "1", "total": 2}',  # a string for a number
        b'{"kind": "progress", "done": -1, "total": 2}',
        b'{"kind": "cached", "also": "this"}',  # a field the kind does not have
        b"\x80\x04K\x01.",  # a pickle
    ],
)
def test_each_malformed_answer_is_refused_by_its_reason(line: bytes):
    with pytest.raises(ChildMathsError, match="not a message"):
        parse_answer(line)


def test_progress_is_relayed_and_the_childs_error_raised_with_its_reason():
    script = """
        import sys
        out = sys.stdout
        out.write('{"kind": "progress", "done": 1, "total": 2}\\n')
        out.write('{"kind": "progress", "done": 2, "total": 2}\\n')
        out.write('{"kind": "error", "error": "ValueError: no such table"}\\n')
    """
    seen: list[tuple[int, int]] = []
    with pytest.raises(ChildMathsError, match="ValueError: no such table"):
        converse(b"", lambda d, n: seen.append((d, n)), _fake_child(script))
    assert seen == [(1, 2), (2, 2)]


def test_a_child_that_ends_without_an_answer_is_an_error():
    with pytest.raises(ChildMathsError, match="ended with code 3 and no answer"):
        converse(b"", command=_fake_child("raise SystemExit(3)"))


def test_the_answer_must_fit_the_call(monkeypatch: pytest.MonkeyPatch):
    table = load_paytable(STANDARD)
    monkeypatch.setattr(maths_child, "CHILD_COMMAND", _fake_child('print(\'{"kind": "cached"}\')'))
    assert run_in_child(cache_optimal_analysis, table) is True
    with pytest.raises(ChildMathsError, match="answered cached to exact_report"):
        run_in_child(exact_report_afresh, table)
    other = '{"kind": "report", "report": {"strategy": "optimal", "paytable_sha256": "00", "paytable_name": "x", "exact": true, "main": {}, "trips": {}, "preflop": {}, "seconds": 1.0}}'
    monkeypatch.setattr(maths_child, "CHILD_COMMAND", _fake_child(f"print({other!r})"))
    with pytest.raises(ChildMathsError, match="another table"):
        run_in_child(exact_report_afresh, table)


def _child_with_its_parent_gone(call: bytes) -> subprocess.CompletedProcess[bytes]:
    """The real child, given ``call``, its answers' pipe closed before it writes one (the
    kiosk exited): its exit code and what it printed on stderr."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            maths_child.CHILD_COMMAND, input=call, stdout=write, stderr=subprocess.PIPE,
            timeout=300, check=False,
        )  # fmt: skip
    finally:
        os.close(write)


@pytest.mark.parametrize("answer", ["error", "progress"])
def test_the_child_ends_quietly_when_its_parent_is_gone(answer: str):
    table = load_paytable(STANDARD)
    call = b"not a call" if answer == "error" else MathsCall(call="exact_report", paytable=table)
    done = _child_with_its_parent_gone(
        call if isinstance(call, bytes) else call.model_dump_json().encode()
    )
    assert b"Traceback" not in done.stderr and b"BrokenPipeError" not in done.stderr, (
        done.stderr.decode()
    )
    assert done.returncode == 0
