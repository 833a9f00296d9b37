"""Whether a station's decision may land: the host-side check against late, repeated and
replayed decisions.

When the host opens a decision for a seat (a new phase of a round) it notes the ``seq`` of
the message that shows the seat that phase (``opened_at``).  A decision is accepted only
if it names that round and that phase, and says it was made after seeing that message
(``msg.last_seen >= opened_at``) and not after a message the host never sent
(``msg.last_seen <= sent``).  :class:`DecisionGuard` also remembers which phases are
decided, so the same decision sent twice (or replayed later) lands once.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.uth.round import Phase
from kiosk.link.messages import Decide


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    WRONG_ROUND = "wrong-round"  # another round (late from an earlier one, or a replay)
    WRONG_PHASE = "wrong-phase"  # another phase of this round
    STALE = "stale"  # made before the seat saw the current phase
    FROM_THE_FUTURE = "from-the-future"  # claims a host message never sent
    ALREADY_DECIDED = "already-decided"  # this phase has its decision
    NOT_OPEN = "not-open"  # no decision is open for the seat


def accept_decision(
    expected_round: int,
    expected_phase: Phase,
    last_seen: int,
    msg: Decide,
    sent: int | None = None,
) -> Verdict:
    """The verdict on ``msg`` for a seat whose open decision is ``expected_phase`` of
    ``expected_round``, shown to it in host message ``last_seen`` (the seat must have seen
    at least that one).  ``sent``, when given, is the last ``seq`` the host sent to the
    station.  Pure: no state is read or changed."""
    if msg.round_id != expected_round:
        return Verdict.WRONG_ROUND
    if msg.phase != expected_phase:
        return Verdict.WRONG_PHASE
    if msg.last_seen < last_seen:
        return Verdict.STALE
    if sent is not None and msg.last_seen > sent:
        return Verdict.FROM_THE_FUTURE
    return Verdict.ACCEPTED


@dataclass
class _Open:
    round_id: int
    phase: Phase
    opened_at: int


class DecisionGuard:
    """Per-seat decision state on the host: which phase is open, since which host message,
    and which phases are decided.  One instance per seat; not thread-safe (the host calls
    it under its own lock)."""

    def __init__(self) -> None:
        self._open: _Open | None = None
        self._decided: set[tuple[int, Phase]] = set()
        self._round: int | None = None

    def open(self, round_id: int, phase: Phase, opened_at: int) -> None:
        """The seat may now decide ``phase`` of ``round_id``; the phase is shown to it in
        host message ``opened_at``."""
        if round_id != self._round:
            self._decided.clear()
            self._round = round_id
        self._open = _Open(round_id, phase, opened_at)

    def close(self) -> None:
        """No decision is open (e.g. the phase timed out and the default applied)."""
        if self._open is not None:
            self._decided.add((self._open.round_id, self._open.phase))
        self._open = None

    def check(self, msg: Decide, sent: int | None = None) -> Verdict:
        """The verdict on ``msg``; an accepted decision closes the phase (a repeat of it
        is then ``ALREADY_DECIDED``)."""
        if (msg.round_id, msg.phase) in self._decided:
            return Verdict.ALREADY_DECIDED
        if self._open is None:
            return Verdict.NOT_OPEN
        verdict = accept_decision(
            self._open.round_id, self._open.phase, self._open.opened_at, msg, sent
        )
        if verdict is Verdict.ACCEPTED:
            self.close()
        return verdict
