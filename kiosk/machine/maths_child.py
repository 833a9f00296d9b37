"""The exact maths run in a child process, so the cabinet's own heap stays small.

A whole-deck analysis (the decision values' first pre-flop of a paytable, the editor's
COMPUTE RTP) builds working arrays of a hundred megabytes and more; in the kiosk's
process they would raise its peak resident memory for the rest of its life (CPython
and the allocator keep what they once took).  :func:`run_in_child` runs a top-level
function in a fresh interpreter (``python -m kiosk.machine.maths_child``: nothing of
the screens or the ledger is inherited; the call and the answers are pickles over its
standard input and output), relays its progress ``(done, total)`` to the caller's callback on the
calling thread, and returns its result (pickled back) or raises
:class:`ChildMathsError` with the child's error.  The child's own workers, if the
function starts any, are its children.
"""

from __future__ import annotations

import importlib
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any, TypeVar

from engine.maths.par_report import ParReport
from engine.uth.paytable import Paytable

T = TypeVar("T")
Progress = Callable[[int, int], None]


class ChildMathsError(RuntimeError):
    """The computation failed in its process, or the process ended without an answer."""


def run_in_child(target: Callable[..., T], *args: Any, progress: Progress | None = None) -> T:
    """``target(*args, progress=...)`` in a child process; its result.  ``target`` is a
    module-level function (the child imports it by its module and name)."""
    child = subprocess.Popen(
        [sys.executable, "-m", __name__],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        pickle.dump((target.__module__, target.__qualname__, args), child.stdin)
        child.stdin.close()
        while True:
            try:
                message = pickle.load(child.stdout)
            except EOFError:
                child.wait()
                raise ChildMathsError(
                    f"the computation's process ended with code {child.returncode} and no answer"
                ) from None
            kind = message[0]
            if kind == "progress":
                if progress is not None:
                    progress(message[1], message[2])
            elif kind == "ok":
                return message[1]  # type: ignore[no-any-return]
            else:
                raise ChildMathsError(str(message[1]))
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stdout.close()


def _serve() -> int:
    """The child's side: read the call from stdin, answer on the stdout it was given
    (the child's own prints go to stderr)."""
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    module, name, args = pickle.load(sys.stdin.buffer)
    target = getattr(importlib.import_module(module), name)

    def progress(done: int, total: int) -> None:
        pickle.dump(("progress", done, total), channel)
        channel.flush()

    try:
        answer: tuple[Any, ...] = ("ok", target(*args, progress=progress))
    except Exception as exc:  # noqa: BLE001 - every failure goes back to the parent
        answer = ("error", f"{type(exc).__name__}: {exc}")
    pickle.dump(answer, channel)
    channel.flush()
    return 0


def exact_report_afresh(table: Paytable, progress: Progress | None = None) -> ParReport:
    """The exact full-deck report of ``table`` under optimal play, computed afresh in a
    scratch folder (no file of the PAR cache is read).  Runs in the child."""
    from engine.maths.par import par

    with tempfile.TemporaryDirectory(prefix="uth-par-") as scratch:
        return par(table, "optimal", cache=scratch, progress=progress)


def cache_optimal_analysis(table: Paytable, progress: Progress | None = None) -> bool:
    """Compute ``table``'s optimal main-game analysis into the PAR cache (one worker);
    True once it is there.  Runs in the child."""
    from engine.maths.par import main_analysis

    main_analysis(table, "optimal", workers=1, progress=progress)
    return True


if __name__ == "__main__":
    sys.exit(_serve())
