"""The table's clock and timers: the betting window between rounds and the decision
timer of each phase, and what a seat does when its timer runs out.

Time comes from an injected clock (a function returning an aware ``datetime``), so tests
advance it instead of sleeping; :class:`ManualClock` is such a clock.  Timers are held
as deadlines in memory only: after a restart every running timer starts again at its
full length, so a seat never loses decision time to the time the host was down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from engine.uth.round import Action, Phase

#: A clock: now, as an aware datetime.
Clock = Callable[[], datetime]


@dataclass(frozen=True)
class TableTiming:
    """The table's timers, seconds: the betting window between rounds (a table of more
    than one station) and the decision timer of each phase (``None``: none, as on a lone
    cabinet, whose player takes the time they need).  Both are positive."""

    betting_seconds: float = 20.0
    decision_seconds: float | None = 20.0

    def __post_init__(self) -> None:
        if self.betting_seconds <= 0 or (
            self.decision_seconds is not None and self.decision_seconds <= 0
        ):
            raise ValueError(f"the table's timers are positive seconds, not {self}")


#: The lone cabinet's timing: no decision timer.
CABINET_TIMING = TableTiming(decision_seconds=None)


def timeout_action(phase: Phase) -> Action:
    """What a seat does when its decision timer runs out: check before the flop and on
    the flop, fold on the river (as casino electronic tables do)."""
    if phase is Phase.RIVER:
        return Action.FOLD
    if phase in (Phase.PREFLOP, Phase.FLOP):
        return Action.CHECK
    raise ValueError(f"no decision is taken in the {phase} phase")


def seconds_left(deadline: datetime | None, now: datetime) -> float | None:
    """Seconds until ``deadline`` (0 once passed; None when no timer runs)."""
    if deadline is None:
        return None
    return max(0.0, (deadline - now).total_seconds())


def deadline_after(now: datetime, seconds: float) -> datetime:
    return now + timedelta(seconds=seconds)


class ManualClock:
    """A clock that moves only when told (tests, benchmarks): ``clock()`` is now."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2025, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
