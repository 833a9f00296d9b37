"""The progressive meter as the screens show it: a short count-up when it grows.

The meter comes from the snapshot (cents; None while a linked meter is not known yet);
:class:`MeterTicker` turns each new amount into what is shown at a moment: a higher
amount is counted up to over :data:`COUNT_S` seconds, a lower one (a hit, a reset) or the
first one shows at once.
"""

from __future__ import annotations

#: Seconds a rise of the meter takes to count up.
COUNT_S = 0.8


class MeterTicker:
    """The shown reading of one meter (cents), counting up to each higher amount."""

    def __init__(self) -> None:
        self._from: int | None = None
        self._to: int | None = None
        self._t0 = 0.0

    def reading(self, meter: int | None, now: float) -> tuple[int | None, bool]:
        """``(amount shown, counting)`` at ``now`` (seconds) for the meter's ``meter``."""
        if meter != self._to:
            shown = self._shown(now)
            rising = shown is not None and meter is not None and meter > shown
            self._from = shown if rising else meter
            self._to, self._t0 = meter, now
        return self._shown(now), self.counting(now)

    def counting(self, now: float) -> bool:
        """The meter is counting up at ``now``."""
        return self._to is not None and self._from != self._to and now - self._t0 < COUNT_S

    def _shown(self, now: float) -> int | None:
        if self._to is None or self._from is None:
            return self._to
        part = min(1.0, max(0.0, (now - self._t0) / COUNT_S))
        return self._from + round((self._to - self._from) * (1 - (1 - part) ** 2))
