"""The machine's side of a SAS progressive link: the controller's level broadcasts heard
on the poll thread and handed to the game service, and the silence that stops play.

SAS 6.02's progressive messages as this machine follows them (the long polls and
exceptions of :mod:`devices.sas.progressive`):

* **Level broadcasts**: long poll 80 (one level) and 86 (several) of the machine's
  group, sent to address 0 (every machine on the line, no answer) or to the machine's
  own address (answered ACK; a malformed one NACK).  Another group's broadcast is
  ignored.  A malformed broadcast (bad length, BCD, group 00, a level outside 1..32 or
  given twice) is refused with its reason, logged and counted, never half applied; a bad
  CRC is not answered, as any long poll's.
* **The levels to the game**: the levels heard are handed to the game service
  (:meth:`~kiosk.sas.port.GamePort.progressive_levels`, on the updater thread) when
  they change, and again after a loss.  The game decides what it shows
  (:mod:`kiosk.service.progressive_link`).
* **Silence**: :data:`~devices.sas.progressive.BROADCAST_TIMEOUT_S` seconds without a
  broadcast of the group (counted from the power-up before the first) is one loss
  (:class:`~devices.sas.progressive.BroadcastWatch`): the game is told once
  (:meth:`~kiosk.sas.port.GamePort.progressive_lost`), records the tilt
  ``sas:progressive_link`` at its stations, and the link raises exception 53 ("no
  progressive information has been received for 5 seconds", SAS 6.02 Appendix A) from
  that tilt's ledger event, once per loss and across power cuts like every exception.

Threads: :meth:`ProgressiveListener.heard` runs on the poll thread (no I/O), the rest on
the updater thread; the listener's own lock guards its state.  Times are
``time.monotonic()`` seconds.
"""

from __future__ import annotations

import logging
import threading

from devices.sas.progressive import (
    BROADCAST_TIMEOUT_S,
    BroadcastWatch,
    ProgressiveMessageError,
    parse_broadcast,
)
from kiosk.sas.port import LinkedProgressive

log = logging.getLogger(__name__)

#: The name the link records its progressive requests with.
BY = "sas-progressive"

#: The levels handed to the game: ((level, cents), ...), in level order.
Levels = tuple[tuple[int, int], ...]


class ProgressiveListener:
    """What the machine of ``link`` heard from its progressive controller (see the
    module).  ``started``: the power-up, monotonic seconds."""

    def __init__(
        self, link: LinkedProgressive, started: float, timeout_s: float = BROADCAST_TIMEOUT_S
    ) -> None:
        self.link = link
        self.lock = threading.Lock()
        self.watch = BroadcastWatch(link.group, started, timeout_s)
        self._told: Levels | None = None  # the levels last handed to the game
        self._lost = False  # a loss the game was told of, not yet over
        self.heard_count = 0
        self.refused = 0
        self.last_refusal = ""

    def heard(self, raw: bytes, now: float) -> Levels | None:
        """Take the broadcast ``raw`` (a whole 80 or 86, address to CRC) heard at ``now``:
        the levels to hand to the game (they changed, or the broadcasts came back), or
        None (nothing new, another group's).  Raises
        :class:`~devices.sas.progressive.ProgressiveMessageError` for a malformed one
        (counted and logged here)."""
        try:
            _, broadcast = parse_broadcast(raw)
        except ProgressiveMessageError as exc:
            with self.lock:
                self.refused += 1
                self.last_refusal = str(exc)
            log.warning("progressive broadcast refused: %s", exc)
            raise
        with self.lock:
            if not self.watch.heard(broadcast, now):
                return None
            self.heard_count += 1
            levels = tuple(sorted(self.watch.levels.items()))
            if levels == self._told and not self._lost:
                return None
            self._told, self._lost = levels, False
            return levels

    def check(self, now: float) -> bool:
        """True once per loss of the broadcasts: tell the game now."""
        with self.lock:
            if self.watch.check(now):
                self._lost = True
                return True
            return False

    def lost(self, now: float) -> bool:
        """Whether the controller is silent now (or not heard yet)."""
        with self.lock:
            return self.watch.lost(now)
