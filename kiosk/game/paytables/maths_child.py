"""The exact maths run in a child process, so the cabinet's own heap stays small.

A whole-deck analysis (the decision values' first pre-flop of a paytable, the editor's
COMPUTE RTP) builds working arrays of a hundred megabytes and more; in the kiosk's
process they would raise its peak resident memory for the rest of its life (CPython
and the allocator keep what they once took).  :func:`run_in_child` runs one of the
computations of :data:`CALLS` in a fresh interpreter (:data:`CHILD_COMMAND`: nothing of
the screens or the ledger is inherited), relays its progress ``(done, total)`` to the
caller's callback on the calling thread, and returns its result or raises
:class:`ChildMathsError` with the child's reason.  The child's own workers, if the
computation starts any, are its children.

The child runs isolated (``python -I``): its working folder (a cabinet's data folder)
is never on its ``sys.path``, and no ``PYTHON*`` variable changes what it imports.

Both ways the bytes are typed messages, never pickles: the parent writes one
:class:`MathsCall` (JSON) on the child's standard input; the child answers JSON lines on
its standard output, each one of a closed set of :data:`Answer` kinds (``progress``,
``report``, ``cached``, ``error``), validated by strict models where they enter.  An
answer that is not such a message (a pickle, a line too long, a field of the wrong
type) is refused with :class:`ChildMathsError` and nothing of it is run or kept.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import IO, Annotated, Any, Literal, TypeVar, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    NonNegativeInt,
    TypeAdapter,
    ValidationError,
)

from engine.maths.par_report import ParReport
from engine.uth.paytable import Paytable

T = TypeVar("T")
Progress = Callable[[int, int], None]

#: The child's command line: this module in an isolated interpreter.
CHILD_COMMAND: tuple[str, ...] = (sys.executable, "-I", "-m", "kiosk.game.paytables.maths_child")
#: The longest line of an answer, bytes (a whole-deck report is about 100 kB).
MAX_LINE = 16 * 1024 * 1024
#: The longest call, bytes (a paytable is about 1 kB).
MAX_CALL = 1024 * 1024
#: The longest reason of an ``error`` answer, characters.
MAX_REASON = 4000


class ChildMathsError(RuntimeError):
    """The computation failed in its process, the process ended without an answer, or it
    answered something that is not a valid message."""


class _Message(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class MathsCall(_Message):
    """The call, parent to child: which computation, on which paytable."""

    call: Literal["exact_report", "cache_analysis"]
    paytable: Paytable


class ProgressAnswer(_Message):
    """Work done so far, ``done`` of ``total`` steps."""

    kind: Literal["progress"]
    done: NonNegativeInt
    total: NonNegativeInt


class ReportAnswer(_Message):
    """The answer to ``exact_report``: the report as :meth:`ParReport.to_dict` gives it."""

    kind: Literal["report"]
    report: dict[str, JsonValue]


class CachedAnswer(_Message):
    """The answer to ``cache_analysis``: the analysis is in the PAR cache."""

    kind: Literal["cached"]


class ErrorAnswer(_Message):
    """The computation raised: its exception's type and message."""

    kind: Literal["error"]
    error: Annotated[str, Field(max_length=MAX_REASON)]


#: Every message the child may write.
Answer = Annotated[
    ProgressAnswer | ReportAnswer | CachedAnswer | ErrorAnswer, Field(discriminator="kind")
]


_ANSWER: TypeAdapter[ProgressAnswer | ReportAnswer | CachedAnswer | ErrorAnswer] = TypeAdapter(
    Answer
)


class _ReportBody(BaseModel):
    """The fields of a :class:`ParReport` a reader relies on; the others ride along."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)
    strategy: str
    paytable_sha256: str
    paytable_name: str
    exact: bool
    main: dict[str, JsonValue]
    trips: dict[str, JsonValue]
    preflop: dict[str, JsonValue]
    seconds: float


def _reason(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(message)"
    return f"{where}: {first['msg']}"


def parse_answer(line: bytes) -> ProgressAnswer | ReportAnswer | CachedAnswer | ErrorAnswer:
    """One line of the child's output as its message; :class:`ChildMathsError` when it is
    not a valid one (whatever its bytes, nothing of them is run)."""
    try:
        return _ANSWER.validate_json(line)
    except ValidationError as exc:
        raise ChildMathsError(
            f"the computation's process answered something that is not a message "
            f"({line[:40]!r}...): {_reason(exc)}"
        ) from None


def converse(
    call: MathsCall | bytes,
    progress: Progress | None = None,
    command: tuple[str, ...] = CHILD_COMMAND,
) -> ReportAnswer | CachedAnswer:
    """Send ``call`` to a child started with ``command`` and read its answers: progress is
    relayed to ``progress``, an ``error`` answer, an invalid message or an end without an
    answer raises :class:`ChildMathsError`, the first result is returned.  (``call`` as
    bytes is sent as it is: the child refuses what is not a :class:`MathsCall`.)"""
    request = call if isinstance(call, bytes) else call.model_dump_json().encode()
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    try:
        try:
            child.stdin.write(request)
            child.stdin.close()
        except BrokenPipeError:
            pass  # the child ended early: what it answered, if anything, is read below
        return _read_answers(child, child.stdout, progress)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stdout.close()


def _read_answers(
    child: subprocess.Popen[bytes], stdout: IO[bytes], progress: Progress | None
) -> ReportAnswer | CachedAnswer:
    while True:
        line = stdout.readline(MAX_LINE + 1)
        if not line:
            child.wait()
            raise ChildMathsError(
                f"the computation's process ended with code {child.returncode} and no answer"
            )
        if len(line) > MAX_LINE:
            raise ChildMathsError(
                f"the computation's process answered a line over {MAX_LINE} bytes"
            )
        answer = parse_answer(line.rstrip(b"\n"))
        if isinstance(answer, ProgressAnswer):
            if progress is not None:
                progress(answer.done, answer.total)
        elif isinstance(answer, ErrorAnswer):
            raise ChildMathsError(answer.error)
        else:
            return answer


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


#: The computations the child runs: the function, and its name in a :class:`MathsCall`.
CALLS: dict[Callable[..., Any], Literal["exact_report", "cache_analysis"]] = {
    exact_report_afresh: "exact_report",
    cache_optimal_analysis: "cache_analysis",
}


def run_in_child(target: Callable[..., T], *args: object, progress: Progress | None = None) -> T:
    """``target(table, progress=...)`` in a child process; its result.  ``target`` is one
    of :data:`CALLS` and ``args`` is its one :class:`Paytable` (anything else raises
    ``TypeError`` before a process starts).  The report of :func:`exact_report_afresh`
    comes back checked: of this table, exact, under optimal play."""
    name = CALLS.get(target)
    if name is None:
        raise TypeError(
            f"{getattr(target, '__qualname__', target)!r} is not a computation of the maths child"
        )
    if len(args) != 1 or not isinstance(args[0], Paytable):
        raise TypeError(f"{target.__qualname__} takes one Paytable, not {args!r:.80}")
    table = args[0]
    answer = converse(MathsCall(call=name, paytable=table), progress, CHILD_COMMAND)
    if name == "cache_analysis":
        if not isinstance(answer, CachedAnswer):
            raise ChildMathsError(f"the computation's process answered {answer.kind} to {name}")
        return cast(T, True)
    if not isinstance(answer, ReportAnswer):
        raise ChildMathsError(f"the computation's process answered {answer.kind} to {name}")
    return cast(T, _checked_report(answer, table))


def _checked_report(answer: ReportAnswer, table: Paytable) -> ParReport:
    try:
        body = _ReportBody.model_validate(answer.report)
    except ValidationError as exc:
        raise ChildMathsError(f"the computation's report is not a report: {_reason(exc)}") from None
    if body.paytable_sha256 != table.sha256 or not body.exact or body.strategy != "optimal":
        raise ChildMathsError(
            f"the computation's report is of another table or strategy ({body.paytable_name}, "
            f"{body.strategy}, exact={body.exact})"
        )
    return ParReport.from_dict(dict(answer.report))


class _ParentGone(BaseException):
    """Nobody reads the answers any more (the parent exited or closed its end): the
    computation stops (a ``BaseException``, so no ``except Exception`` on its way holds it
    back) and the child ends quietly."""


def _serve(stdin: IO[bytes], channel: IO[bytes]) -> int:
    """The child's side: read the call from ``stdin``, answer on ``channel``."""

    def send(answer: ProgressAnswer | ReportAnswer | CachedAnswer | ErrorAnswer) -> None:
        try:
            channel.write(answer.model_dump_json().encode() + b"\n")
            channel.flush()
        except BrokenPipeError:
            raise _ParentGone from None

    def relay(done: int, total: int) -> None:
        send(ProgressAnswer(kind="progress", done=int(done), total=int(total)))

    try:
        call = MathsCall.model_validate_json(stdin.read(MAX_CALL + 1)[: MAX_CALL + 1])
    except (ValidationError, ValueError) as exc:
        send(
            ErrorAnswer(kind="error", error=f"the call is not a valid message: {exc}"[:MAX_REASON])
        )
        return 2
    try:
        if call.call == "exact_report":
            report = exact_report_afresh(call.paytable, progress=relay)
            send(ReportAnswer(kind="report", report=_json_ready(report)))
        else:
            cache_optimal_analysis(call.paytable, progress=relay)
            send(CachedAnswer(kind="cached"))
    except Exception as exc:  # noqa: BLE001 - every failure goes back to the parent
        send(ErrorAnswer(kind="error", error=f"{type(exc).__name__}: {exc}"[:MAX_REASON]))
    return 0


def _json_ready(report: ParReport) -> dict[str, JsonValue]:
    import json

    return cast(dict[str, JsonValue], json.loads(report.to_json()))


def main() -> int:
    """The child's entry: answers go to a copy of the stdout it was given; its own
    prints (and its workers') go to stderr.  When its parent is gone it ends at its next
    answer, quietly, with code 0 (what is left unwritten goes to the null device)."""
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    try:
        return _serve(sys.stdin.buffer, channel)
    except _ParentGone:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, channel.fileno())
        os.close(null)
        return 0


if __name__ == "__main__":
    sys.exit(main())
