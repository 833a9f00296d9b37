"""The table's timing: cards fly from the shoe and turn over a moment after the
controller has dealt them, and the result waits for the last card.

:class:`DealAnimation` owns the animation clock and one :class:`Sprite` per card slot;
:meth:`DealAnimation.sync` schedules whatever the snapshot shows that is not on the table
yet, and :meth:`DealAnimation.advance` moves the clock.  Durations are seconds at normal
speed times ``scale()`` (the player's animation speed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.uth.round import RoundSettled
from kiosk.game.snapshot import MachinePhase, MachineSnapshot
from kiosk.ui.scenes.table.geometry import DEAL_GAP, DEALER_GAP, FLIP, FLY, REVEAL_PAUSE


def ease(t: float) -> float:
    """Ease-out cubic over ``0..1`` (clamped)."""
    t = max(0.0, min(1.0, t))
    return 1 - (1 - t) ** 3


def shown_result(snap: MachineSnapshot) -> RoundSettled | None:
    """The settlement the table shows: the last round's, while the machine is in RESULT."""
    if snap.phase is not MachinePhase.RESULT or snap.last_result is None:
        return None
    return snap.last_result


@dataclass
class Sprite:
    """One card on its way: dealt at ``t_deal``, in its slot at ``t_land``, turning face
    up from ``t_flip`` (``None``: stays face down).  Times on the animation clock."""

    slot: str
    card: int | None  # None: face unknown (dealer's hole card before the reveal)
    t_deal: float
    t_land: float
    t_flip: float | None
    dealt_sound: bool = False
    flip_sound: bool = False

    @property
    def end(self) -> float:
        return self.t_land if self.t_flip is None else max(self.t_land, self.t_flip + FLIP)


class DealAnimation:
    """The cards of the round on show and when each moves; ``clock`` in seconds."""

    def __init__(self, scale: Callable[[], float]) -> None:
        self.scale = scale
        self.clock = 0.0
        self.reset()

    def reset(self) -> None:
        """Nothing on the table (a new round, or none)."""
        self.round_key: Any = None
        self.sprites: dict[str, Sprite] = {}
        self.cursor = 0.0
        self.reveal_at: float | None = None
        self.revealed = False
        self.reveal_sound = False

    def _schedule(self, slot: str, card: int | None, flip: bool) -> None:
        start = max(self.clock, self.cursor)
        land = start + FLY * self.scale()
        self.sprites[slot] = Sprite(slot, card, start, land, land if flip and card is not None else None)
        self.cursor = start + DEAL_GAP * self.scale()

    def end(self) -> float:
        """When the last scheduled movement (or the reveal) is over."""
        ends = [s.end for s in self.sprites.values()]
        if self.reveal_at is not None:
            ends.append(self.reveal_at)
        return max(ends, default=0.0)

    @property
    def busy(self) -> bool:
        return self.clock < self.end() or (self.reveal_at is not None and not self.revealed)

    @property
    def revealing(self) -> bool:
        """The result is scheduled but not shown yet."""
        return self.busy and self.reveal_at is not None and not self.revealed

    def settled(self, sp: Sprite) -> bool:
        return self.clock >= sp.end

    def face_up(self, sp: Sprite) -> bool:
        """``sp`` has finished turning face up."""
        return sp.t_flip is not None and self.clock >= sp.t_flip + FLIP * self.scale()

    def skip(self) -> None:
        """Finish every animation now."""
        delta = self.end() - self.clock
        if delta <= 0:
            return
        for s in self.sprites.values():
            s.t_deal -= delta
            s.t_land -= delta
            if s.t_flip is not None:
                s.t_flip -= delta
            s.dealt_sound = s.flip_sound = True
        self.cursor -= delta
        if self.reveal_at is not None:
            self.reveal_at -= delta

    def sync(self, snap: MachineSnapshot) -> None:
        """Schedule animations for whatever ``snap`` shows that is not on the table yet."""
        scale = self.scale()
        if not snap.hole:
            if self.sprites or self.round_key is not None:
                self.reset()
            return
        key = (snap.round_id, tuple(snap.hole))
        if key != self.round_key:
            self.reset()
            self.round_key = key
            self.cursor = self.clock
            self._schedule("p0", snap.hole[0], True)
            self._schedule("d0", None, False)
            self._schedule("p1", snap.hole[1], True)
            self._schedule("d1", None, False)
            self.cursor += DEAL_GAP * scale
        for i, card in enumerate(snap.board):
            if f"b{i}" not in self.sprites:
                if i == 3 or (i == 0 and self.cursor > self.clock):
                    self.cursor = max(self.cursor, self.clock) + 0.25 * scale
                self._schedule(f"b{i}", card, True)
        if snap.dealer and self.sprites.get("d0") and self.sprites["d0"].card is None:
            start = max(self.end(), self.clock) + REVEAL_PAUSE * scale
            for j, slot in enumerate(("d0", "d1")):
                sp = self.sprites[slot]
                sp.card = snap.dealer[j]
                sp.t_flip = max(sp.t_land, start + j * DEALER_GAP * scale)  # one at a time
            self.cursor = max(self.cursor, start)
        if shown_result(snap) is not None and self.reveal_at is None:
            self.reveal_at = max(self.end(), self.clock) + 0.15 * scale

    def advance(self, dt: float, snap: MachineSnapshot) -> list[str]:
        """Move the clock on ``dt`` seconds and :meth:`sync` with ``snap``; returns what
        happened now, in order: ``deal`` (a card left the shoe), ``flip`` (a card turns
        over), ``reveal`` (the result shows)."""
        self.clock += dt
        self.sync(snap)
        out: list[str] = []
        for sp in self.sprites.values():
            if not sp.dealt_sound and self.clock >= sp.t_deal:
                sp.dealt_sound = True
                out.append("deal")
            if sp.t_flip is not None and not sp.flip_sound and self.clock >= sp.t_flip:
                sp.flip_sound = True
                out.append("flip")
        if self.reveal_at is not None and not self.revealed and self.clock >= self.reveal_at:
            self.revealed = True
            if not self.reveal_sound:
                self.reveal_sound = True
                out.append("reveal")
        return out
