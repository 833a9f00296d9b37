"""The operator's paytable editing session: copy a table, adjust its Blind and Trips
lines and its limits within the jurisdiction's bounds, compute its exact RTP on the
cabinet, then sign, write and put it in force.

Who and when: a manager logged in, the main door open, zero credits, no round and no
payout in progress (:meth:`PaytableEditor.require_allowed`, checked when a session
starts and again when the table is put in force).

The exact RTP (:func:`engine.maths.par.par`, optimal play) is computed in a worker
thread from the paytable and the package's data in a scratch folder, so nothing in the
PAR cache is trusted; the machine lock is never held while it runs, and
:attr:`PaytableEditor.job` reports its progress.  A table is put in force
(:meth:`PaytableEditor.apply`) only when every line and limit is inside the bounds
(:func:`~kiosk.game.paytables.draft.line_refusals`) and every bet's computed RTP too
(:func:`~kiosk.game.paytables.draft.rtp_refusals`): its report is signed with the
cabinet key (:func:`~kiosk.game.paytables.par_proof.sign_proof`), its canonical TOML written
into the paytables folder (a ``[progressive]`` section kept unchanged from the copied
table), and the change made by the ordinary
:class:`~kiosk.game.commands.SetPaytable` command, so the ledger's change event
carries the operator's name.  A refused change keeps the session's edits.

A draft copied from a table with a progressive keeps its ``[progressive]`` section as it
is; :func:`return_curve` gives the screen that bet's exact return at the reset, at the
break-even meter and at the ceiling (:class:`engine.maths.progressive.ProgressiveFigures`).

Amounts are cents; pays are ``"N:D"`` texts; RTPs are fractions of 1 unless named
``_pct``.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Protocol

from engine.maths.par_report import ParReport
from engine.maths.progressive import ProgressiveFigures
from engine.uth.paytable import Paytable, PaytableError, load_paytable
from engine.uth.progressive import Progressive
from kiosk.config import CabinetConfig, role_at_least
from kiosk.game.commands import SetPaytable
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import ConfigurationError, NotAuthorised, WrongState
from kiosk.game.paytables.draft import (
    PAY_SECTIONS,
    BoundRefusal,
    EditError,
    derive,
    line_refusals,
    paytable_toml,
    rtp_refusals,
)
from kiosk.game.paytables.maths_child import exact_report_afresh, run_in_child
from kiosk.game.paytables.par_proof import sign_proof
from kiosk.game.paytables.rtp_record import known_rtp
from kiosk.game.snapshot import MachinePhase, MachineSnapshot
from kiosk.ledger.ledger import Ledger

#: ``(done, total)`` steps of the exact analysis.
Progress = Callable[[int, int], None]
#: Computes the exact optimal-play report of a table, reporting progress.
Analyse = Callable[[Paytable, Progress], ParReport]

#: The pay values offered for a line the bounds leave free, in increasing order.
PAY_LADDER = (
    "1:1", "3:2", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1", "10:1", "12:1",
    "15:1", "20:1", "25:1", "30:1", "40:1", "50:1", "60:1", "75:1", "100:1", "150:1",
    "200:1", "250:1", "300:1", "400:1", "500:1", "1000:1",
)
#: The limits a session may set (cents).
EDITABLE_LIMITS = ("ante_min", "ante_max", "trips_min", "trips_max")
#: The lowest amount of a limit the bounds leave free, cents.
LIMIT_FLOOR = 100


def paytables_folder(config: CabinetConfig) -> Path:
    """The paytables folder: the one holding the configured paytable (by default the
    package's ``paytables/``).  New tables are written there."""
    return Path(config.paytable).parent


def exact_report(table: Paytable, progress: Progress) -> ParReport:
    """The exact full-deck report of ``table`` under optimal play, computed afresh in a
    scratch folder (no file of the PAR cache is read), in a child process (the
    cabinet's heap never holds the analysis's working arrays)."""
    return run_in_child(exact_report_afresh, table, progress=progress)


@dataclass(frozen=True)
class Listing:
    """One file of the paytables folder: the table, or ``error`` saying why it cannot be
    read; ``rtps`` its exact RTP per bet (fractions of 1) from its proven record
    (:func:`kiosk.game.paytables.rtp_record.known_rtp`), ``proven`` True when it has one."""

    path: Path
    table: Paytable | None
    error: str = ""
    rtps: Mapping[str, float] | None = None
    proven: bool = False


class Keeper(Protocol):
    """What :func:`list_paytables` reads: a cabinet's or a table host's configuration and
    ledger (its key proves the RTPs)."""

    config: CabinetConfig

    @property
    def ledger(self) -> Ledger | None: ...


def list_paytables(machine: Keeper, folder: Path | None = None) -> list[Listing]:
    """Every ``*.toml`` of ``folder`` (default :func:`paytables_folder`), by file name."""
    folder = folder or paytables_folder(machine.config)
    ledger = machine.ledger
    key = ledger.key if ledger is not None else None
    out = []
    for path in sorted(folder.glob("*.toml")):
        try:
            table = load_paytable(path)
        except PaytableError as exc:
            out.append(Listing(path, None, str(exc)))
            continue
        record = known_rtp(table, key)
        rtps = dict(record.figures) if record is not None else None
        out.append(Listing(path, table, rtps=rtps, proven=record is not None))
    return out


@dataclass(frozen=True)
class ReturnCurve:
    """A progressive bet's exact return (a share of the wager, 1 = everything back) as its
    meter rises: at the ``reset``, at the ``break_even`` meter (the lowest whole cent from
    which it returns at least the wager, the reset if it does from there; None when only
    a meter above the ceiling would) and at the ``ceiling``.  Meters in cents."""

    reset: int
    at_reset: Fraction
    break_even: int | None
    at_break_even: Fraction | None
    ceiling: int
    at_ceiling: Fraction


def return_curve(progressive: Progressive) -> ReturnCurve:
    """The :class:`ReturnCurve` of ``progressive``, from the engine's exact figures."""
    figures = ProgressiveFigures.of(progressive)
    lowest = max(progressive.reset, math.ceil(figures.break_even))
    even = lowest if lowest <= progressive.ceiling else None
    return ReturnCurve(
        reset=progressive.reset,
        at_reset=figures.return_at(progressive.reset),
        break_even=even,
        at_break_even=None if even is None else figures.return_at(even),
        ceiling=progressive.ceiling,
        at_ceiling=figures.return_at(progressive.ceiling),
    )


class Job:
    """One exact computation in a worker thread: ``done`` of ``total`` steps, then
    ``report`` or ``error``.  Its attributes are read by the screens while it runs."""

    def __init__(self, table: Paytable, analyse: Analyse) -> None:
        self.table = table
        self.done, self.total = 0, 1
        self.report: ParReport | None = None
        self.error = ""
        self._thread = threading.Thread(
            target=self._run, args=(analyse,), name="paytable-par", daemon=True
        )
        self._thread.start()

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = done, max(1, total)

    def _run(self, analyse: Analyse) -> None:
        try:
            self.report = analyse(self.table, self._progress)
        except Exception as exc:  # noqa: BLE001 - shown to the operator, not raised
            self.error = str(exc) or type(exc).__name__
        self.done = self.total

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    @property
    def fraction(self) -> float:
        """How much is done, 0..1."""
        return min(1.0, self.done / self.total)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the computation ends (``timeout`` seconds at most); True if it did."""
        self._thread.join(timeout)
        return not self.running


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "paytable"


def _ratio(pay: str) -> Fraction:
    num, _, den = pay.partition(":")
    return Fraction(int(num), int(den))


class EditorHost(Protocol):
    """What an editing session uses of the cabinet: its configuration and ledger, what
    its screens show, and the command that puts a paytable in force."""

    config: CabinetConfig

    @property
    def ledger(self) -> Ledger | None: ...

    def snapshot(self) -> MachineSnapshot: ...

    def execute(self, command: SetPaytable) -> object: ...


class PaytableEditor:
    """An editing session over ``machine``: :meth:`start` from a table, :meth:`set`
    lines and limits, :meth:`compute` the exact RTP, :meth:`apply` the result.

    ``folder``: where new tables are written (default :func:`paytables_folder`);
    ``cache``: the PAR cache the proof is kept in (default the cabinet's);
    ``analyse``: the exact computation (default :func:`exact_report`)."""

    def __init__(
        self,
        machine: EditorHost,
        folder: Path | None = None,
        *,
        cache: str | Path | None = None,
        analyse: Analyse | None = None,
    ) -> None:
        self.machine = machine
        self.folder = folder or paytables_folder(machine.config)
        self.cache = cache
        self._analyse = analyse
        self.base: Paytable | None = None
        self.edits: dict[str, str] = {}
        self.table: Paytable | None = None
        self.job: Job | None = None
        self._reports: dict[str, ParReport] = {}

    # -- who and when ---------------------------------------------------------------------
    def require_allowed(self) -> None:
        """Raise the machine's refusal unless a manager is logged in, the main door is
        open, the credit meter is zero and no round or payout is in progress."""
        snap = self.machine.snapshot()
        if snap.operator is None:
            raise NotAuthorised("an operator must log in first", code=ErrorCode.OPERATOR_REQUIRED)
        if not role_at_least(snap.operator, "manager"):
            raise NotAuthorised(
                f"this needs a manager (logged in: {snap.operator})",
                code=ErrorCode.ROLE_REQUIRED,
                params={"role": "manager"},
            )
        if not snap.door_open:
            raise NotAuthorised(
                "a paytable change needs the main door open",
                code=ErrorCode.DOOR_CLOSED,
                params={"what": "a paytable change"},
            )
        if snap.phase is MachinePhase.IN_ROUND:
            raise WrongState("a paytable change only between rounds", code=ErrorCode.ROUND_IN_PROGRESS)
        if snap.cashout is not None:
            raise WrongState(
                "a paytable change not while a payout is pending", code=ErrorCode.PAYOUT_IN_PROGRESS
            )
        if snap.credits:
            raise WrongState(
                "a paytable change only with zero credits",
                code=ErrorCode.CREDITS_ON_METER,
                params={"credits": snap.credits},
            )

    # -- the draft ------------------------------------------------------------------------
    def start(self, base: Path | Paytable, name: str | None = None) -> Paytable:
        """Begin a copy of ``base`` (a file or a table) named ``name`` (default the base's
        name with " custom"); returns the draft.  A base with a progressive keeps it as it
        is (its section written back, put in force by the same paytable change)."""
        self.require_allowed()
        table = load_paytable(base) if isinstance(base, Path) else base
        self.base, self.job = table, None
        self.edits = {"name": name or f"{table.name} custom"}
        self.table = derive(table, self.edits.items(), source="<draft>")
        return self.table

    def _draft(self) -> tuple[Paytable, Paytable]:
        if self.base is None or self.table is None:
            raise WrongState("no paytable is being edited", code=ErrorCode.NO_DRAFT)
        return self.base, self.table

    def set(self, field: str, value: str) -> Paytable:
        """Set ``field`` (``blind.flush``, ``trips.full_house``, ``limits.ante_max``,
        ``name``) to ``value``; returns the new draft.  Raises :class:`EditError` or
        :class:`PaytableError` (the draft unchanged) for an edit the rules refuse, and
        :class:`EditError` for a pay or limit outside :meth:`choices` / :meth:`limit_range`."""
        base, _table = self._draft()
        section, _, name = field.partition(".")
        if section in PAY_SECTIONS:
            allowed = self.config.paytable_bounds.allowed_pays(field)
            if allowed is not None and _ratio(value) not in {_ratio(a) for a in allowed}:
                raise EditError(field, f"{value} is not allowed here: {' / '.join(allowed)}")
        elif section == "limits" and name in EDITABLE_LIMITS:
            lo, hi = self.limit_range(name)
            if not value.isdigit() or not lo <= int(value) <= hi:
                raise EditError(field, f"{value} is outside {lo}..{hi} cents")
        edits = {**self.edits, field: value}
        self.table = derive(base, edits.items(), source="<draft>")
        self.edits = edits
        return self.table

    @property
    def config(self) -> CabinetConfig:
        return self.machine.config

    def choices(self, field: str) -> tuple[str, ...]:
        """The pay values a Blind or Trips line may take, increasing: the bounds' list,
        else :data:`PAY_LADDER`; the draft's current value is always among them."""
        _base, table = self._draft()
        section, _, name = field.partition(".")
        current = str(getattr(getattr(table, section), name))
        allowed = self.config.paytable_bounds.allowed_pays(field) or PAY_LADDER
        values = {_ratio(v): v for v in allowed}
        values.setdefault(_ratio(current), current)
        return tuple(values[k] for k in sorted(values))

    def limit_range(self, name: str) -> tuple[int, int]:
        """``(lowest, highest)`` cents limit ``name`` may take: the bounds', else
        :data:`LIMIT_FLOOR` to the credit limit."""
        bounds = self.config.paytable_bounds.limits.get(name)
        if bounds is not None:
            return bounds[0], bounds[1]
        return LIMIT_FLOOR, self.config.credit_limit_cents

    def line_refusals(self) -> list[BoundRefusal]:
        """The draft's lines and limits outside the bounds."""
        return line_refusals(self._draft()[1], self.config)

    # -- the exact RTP --------------------------------------------------------------------
    def compute(self) -> Job:
        """Start computing the draft's exact RTP in a worker thread (or return the job
        already running for it).  The controller stays free meanwhile."""
        _base, table = self._draft()
        if self.job is not None and self.job.table.sha256 == table.sha256:
            return self.job
        self.job = Job(table, self._analyse or exact_report)
        return self.job

    def report(self) -> ParReport | None:
        """The exact report of the draft as it is now, once computed."""
        table = self._draft()[1]
        job = self.job
        if table.sha256 not in self._reports and job is not None and not job.running:
            if job.report is not None and job.table.sha256 == job.report.paytable_sha256:
                self._reports[job.table.sha256] = job.report
        return self._reports.get(table.sha256)

    def rtps(self) -> dict[str, float] | None:
        """The draft's exact RTP per bet (fractions of 1), once computed."""
        rep = self.report()
        return None if rep is None else {k: float(v) for k, v in rep.rtps().items()}

    def refusals(self) -> list[BoundRefusal]:
        """Everything outside the bounds: lines and limits, and each bet's RTP once known."""
        rtps = self.rtps()
        return self.line_refusals() + (rtp_refusals(rtps, self.config) if rtps else [])

    def can_apply(self) -> bool:
        """True when the draft's RTP is computed and nothing is outside the bounds."""
        return self.table is not None and self.rtps() is not None and not self.refusals()

    # -- putting it in force --------------------------------------------------------------
    def file_for(self, table: Paytable) -> Path:
        """Where ``table`` is written: ``<name>-<first 8 of its SHA-256>.toml``."""
        return self.folder / f"{_slug(table.name)}-{table.sha256[:8]}.toml"

    def apply(self) -> Path:
        """Sign the draft's exact report, write its TOML into the paytables folder and put
        it in force with :class:`SetPaytable`; returns the file.  Raises the machine's
        refusal (the draft and its edits kept): not allowed now, RTP not computed, a
        line, a limit or an RTP outside the bounds."""
        self.require_allowed()
        _base, table = self._draft()
        report = self.report()
        if report is None:
            raise ConfigurationError(
                f"the exact RTP of {table.name} is not computed yet", code=ErrorCode.RTP_UNKNOWN
            )
        refused = self.refusals()
        if refused:
            raise ConfigurationError(
                "outside the bounds: " + "; ".join(str(r) for r in refused),
                code=ErrorCode.OUT_OF_BOUNDS,
                params={"fields": [r.field for r in refused]},
            )
        ledger = self.machine.ledger
        if ledger is None or ledger.key is None:
            raise ConfigurationError("no ledger key to sign the RTP with", code=ErrorCode.RTP_UNPROVEN)
        path = self.file_for(table)
        created = not path.exists()
        text = paytable_toml(table)
        if created:
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        written = load_paytable(path)
        if written.sha256 != table.sha256:
            raise ConfigurationError(f"{path.name} holds another paytable", code=ErrorCode.FILE_EXISTS)
        sign_proof(ledger.key, written, report, cache=self.cache)
        try:
            self.machine.execute(SetPaytable(str(path)))
        except Exception:
            if created:
                path.unlink(missing_ok=True)
            raise
        return path


__all__ = [
    "EDITABLE_LIMITS",
    "PAY_LADDER",
    "Job",
    "Listing",
    "PaytableEditor",
    "ReturnCurve",
    "exact_report",
    "list_paytables",
    "paytables_folder",
    "return_curve",
]
