"""The exact decision values of the round on the table, computed beside it.

At the deal every seat's cards and the board are fixed by the committed deck, so every
decision a seat can face is known: one worker thread, shared by every round of the
program, computes each seat's values of the pre-flop, flop and river decisions in that order
(:class:`engine.maths.decision_values.DecisionValuer`; the flop's take about 0.1 s, the first pre-flop of a paytable loads or computes its
optimal analysis) while the player looks at the cards.  A decision takes the values of
its phase when they are ready and waits at most ``wait`` seconds otherwise; values not
ready then are not recorded (the decision never depends on them).  The seats of a round
queued behind a newer round are skipped (their values are recorded as not ready); the
seats of one round are all computed.  The wait happens outside the game's lock.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Sequence

from engine.maths.decision_values import DecisionValuer, DecisionValues
from engine.uth.paytable import Paytable
from engine.uth.round import Phase
from kiosk.game.paytables.maths_child import ChildMathsError, cache_optimal_analysis, run_in_child

log = logging.getLogger("kiosk.game.round_values")

PHASES = (Phase.PREFLOP, Phase.FLOP, Phase.RIVER)
#: How long a decision waits for its exact values when they are not ready, seconds.
VALUE_WAIT_S = 1.0
_valuers: dict[str, DecisionValuer] = {}
_valuers_lock = threading.Lock()


def valuer_for(table: Paytable) -> DecisionValuer:
    """The valuer of ``table`` with its optimal analysis, kept for the life of the
    program.  The analysis is read from the PAR cache; when it is not there it is
    computed once into the cache by a child process (the cabinet's heap never holds the
    computation's working arrays), then read; only a cache that cannot be written makes
    this process compute it itself."""
    from engine.maths.cache import load_analysis
    from engine.maths.par import main_analysis
    from engine.maths.par_flop import main_params
    from engine.maths.par_tables import FULL_DECK

    with _valuers_lock:
        found = _valuers.get(table.sha256)
        if found is None:
            analysis = load_analysis(main_params(table).key, "optimal", FULL_DECK)
            if analysis is None:
                try:
                    run_in_child(cache_optimal_analysis, table)
                except ChildMathsError as exc:
                    log.warning("the optimal analysis was not computed apart: %s", exc)
                analysis = main_analysis(table, "optimal", workers=1)
            found = DecisionValuer(table, analysis)
            _valuers[table.sha256] = found
        return found


class SeatValues:
    """The values of one seat's decisions in one round, computed by the shared worker."""

    def __init__(
        self, round_id: int, table: Paytable, hole: Sequence[int], board: Sequence[int],
        seat: int = 1,
    ):
        self.round_id = round_id
        self.seat = seat
        self._table = table
        self._hole = tuple(hole)
        self._board = tuple(board)
        self._values: dict[Phase, DecisionValues | None] = {}
        self._ready = {phase: threading.Event() for phase in PHASES}
        _WORKER.submit(self)

    def skip(self) -> None:
        """Record no values for this round (a newer one is waiting)."""
        for phase in PHASES:
            self._values.setdefault(phase, None)
            self._ready[phase].set()

    def compute(self) -> None:
        """Compute every phase's values in order (on the worker)."""
        try:
            valuer = valuer_for(self._table)
        except Exception:  # an analysis that cannot be had: no values this round
            log.exception("no decision values for paytable %s", self._table.sha256[:12])
            valuer = None
        for phase in PHASES:
            value = None
            if valuer is not None:
                try:
                    value = valuer.at(phase, self._hole, self._board)
                except Exception:
                    log.exception("no %s decision value", phase.value)
            self._values[phase] = value
            self._ready[phase].set()

    def get(self, phase: Phase, wait: float) -> DecisionValues | None:
        """The values of the decision of ``phase``, waiting at most ``wait`` seconds."""
        event = self._ready.get(phase)
        if event is None or not event.wait(wait):
            return None
        return self._values.get(phase)


class _Worker:
    """One daemon thread computing the queued seats' values in order; the seats of an
    older round still waiting when a newer round's arrive are skipped."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[SeatValues] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, job: SeatValues) -> None:
        self._jobs.put(job)
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="uth-values", daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        while True:
            waiting = [self._jobs.get()]
            while True:
                try:
                    waiting.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            newest = max(job.round_id for job in waiting)
            for job in waiting:  # only the newest round's seats are worth computing
                if job.round_id < newest:
                    job.skip()
            for job in waiting:
                if job.round_id == newest:
                    job.compute()


_WORKER = _Worker()
