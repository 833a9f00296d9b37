"""The turn timer of the friends' seats: a friend who is connected has :attr:`FriendsTimers.turn_s`
seconds (about 30) for a move; then the computer plays that one move for them and the
seat stays theirs.  After :attr:`FriendsTimers.expiries_away` such moves in a row the
seat is away (the computer plays it until they open the link again); a move of their
own resets the count.  The clock runs whether or not the friend is connected (a
reconnect never starts it again), and stands still only while the whole game waits for
the host cabinet.  Seconds are monotonic clock seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: A decision point: (hand number, length of the hand's history, seat to act).
TurnKey = tuple[int, int, int]


@dataclass
class TurnClock:
    """The clock of the decision point on the table (``key``, started at ``started``)
    and each seat's expiries in a row."""

    turn_s: float
    expiries_away: int
    key: TurnKey | None = None
    started: float = 0.0
    expiries: dict[int, int] = field(default_factory=dict)
    last: tuple[TurnKey, float] | None = None  # the latest decision point and its start
    #: the decision whose clock ran out: the computer's move for it is delivered and is
    #: played at the session's next step; until then the seat's clock shows 0 (never no
    #: clock, never a fresh one) and it does not run out twice
    spent: TurnKey | None = None

    def watch(self, key: TurnKey | None, now: float) -> None:
        """The decision point on the table now (``None``: no friend to act); a new one
        starts the clock.  Coming back to the same decision point (the seat was away for
        a while) keeps its first start: a decision's clock never starts twice."""
        if key == self.key:
            return
        self.key = key
        if key is None:
            return
        if self.last is not None and self.last[0] == key:
            self.started = self.last[1]
        else:
            self.started = now
            self.last = (key, now)

    def stood_still(self, seconds: float) -> None:
        """The game stood still for ``seconds`` (it waited for the host cabinet, and no
        friend could move): the decision on the table does not lose them."""
        self.started += seconds
        if self.last is not None:
            self.last = (self.last[0], self.last[1] + seconds)

    def seconds_left(self, now: float) -> float | None:
        """Seconds left for the move on the table (``None``: no friend's turn)."""
        if self.key is None:
            return None
        if self.key == self.spent:
            return 0.0
        return max(0.0, self.turn_s - (now - self.started))

    def expired(self, now: float) -> bool:
        """Whether the clock of the decision on the table ran out now (once per decision)."""
        return self.key is not None and self.key != self.spent and now - self.started >= self.turn_s

    def expire(self, seat: int) -> bool:
        """Count an expiry of ``seat`` (the computer's move for the decision on the table
        is on its way); True when the seat is now away."""
        self.spent = self.key
        self.last = None  # the computer's move ends this decision
        n = self.expiries.get(seat, 0) + 1
        self.expiries[seat] = n
        return n >= self.expiries_away

    def moved(self, seat: int) -> None:
        """``seat``'s player moved: their count starts again."""
        self.expiries.pop(seat, None)
