"""The "Next hand" vote (seed 000): after each hand the next one is dealt when every
person still in has tapped Next hand, or by itself after a few seconds."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class NextHandVote:
    """The vote after hand ``hand``: ``voters`` are the seats whose tap counts (people
    still in and present), ``voted`` those who tapped; ``opened_at`` monotonic seconds."""

    hand: int
    opened_at: float
    voters: frozenset[int]
    voted: set[int] = field(default_factory=set)

    def cast(self, seat: int) -> bool:
        """Count ``seat``'s tap; False when its tap does not count."""
        if seat not in self.voters:
            return False
        self.voted.add(seat)
        return True

    def waiting(self) -> list[int]:
        """Seats still to tap, in seat order."""
        return sorted(self.voters - self.voted)

    def decided(self, now: float, timeout_s: float) -> bool:
        """Everyone counted has tapped, or ``timeout_s`` has passed since it opened."""
        if self.voters and self.voters <= self.voted:
            return True
        return now - self.opened_at >= timeout_s

    def seconds_left(self, now: float, timeout_s: float) -> float:
        return max(0.0, timeout_s - (now - self.opened_at))
