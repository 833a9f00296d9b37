"""The settlement, shown as a dealer would: losing stakes swept to the dealer, winnings
paid from the dealer onto the spots, then the win counted up on the meters (with a tick
per step), and a celebration scaled to the hand when the Blind pays on a straight or
better or Trips on a full house or better.

:class:`SettlementShow` schedules all of it on the table's animation clock when the
result is revealed; the scene asks it what to draw at a given time.  Durations are
seconds at normal speed times the player's animation speed; at the ``fast`` speed the
show is off (the result appears settled at once).  Amounts are cents.

With the operator's strategy coach on, once the show is over one discreet line under the
result names the round's costliest decision that was not optimal (:func:`coach_line`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.hands.categories import HandCategory
from engine.uth.round import SeatResult
from kiosk.game.snapshot import MachineSnapshot
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.scenes.recall import ACTIONS, antes
from kiosk.ui.scenes.table.geometry import DEALER_TRAY, NAME_W, NAME_X, PLAYER_Y, SPOTS
from kiosk.ui.widgets import DamageSurface

#: Stake spots and what they return, as named on a :class:`SeatResult`.
STAKES = ("ante", "blind", "trips", "play")
SWEEP = 0.45  # losing stakes to the dealer
PAY_START, PAY = 0.3, 0.5  # winnings from the dealer
TICK = 0.09  # seconds between two count-up ticks
#: Celebration level -> (seconds, particles).
CELEBRATIONS = {1: (1.8, 28), 2: (2.8, 56), 3: (3.8, 90)}
GRAVITY = 900.0  # design units per second squared
#: Where the winnings land, beside the stake (design units from the spot's centre).
WIN_OFFSET = (26, 10)
STAKE_OFFSET = (-18, 6)


def celebration_level(seat: SeatResult) -> int:
    """0 for none; 1 for a Blind paid on a straight or a flush; 2 for a full house or
    four of a kind paying the Blind or Trips; 3 for a straight flush or royal flush."""
    cat = seat.category
    blind_pays = seat.blind_return > seat.blind and cat >= HandCategory.STRAIGHT
    trips_pays = seat.trips > 0 and seat.trips_return > 0 and cat >= HandCategory.FULL_HOUSE
    if not (blind_pays or trips_pays):
        return 0
    if cat >= HandCategory.STRAIGHT_FLUSH:
        return 3
    return 2 if cat >= HandCategory.FULL_HOUSE else 1


def count_seconds(paid: int, ante: int) -> float:
    """How long the win counts up at normal speed: longer for a bigger win."""
    units = paid / max(1, ante)
    return min(2.4, 0.6 + 0.3 * math.log2(1 + units))


@dataclass(frozen=True)
class Flight:
    """``amount`` cents of chips moving from ``start`` to ``end`` (design points)
    between ``t0`` and ``t1`` on the animation clock."""

    amount: int
    start: tuple[float, float]
    end: tuple[float, float]
    t0: float
    t1: float


@dataclass(frozen=True)
class Particle:
    """A coin of the celebration: launched at ``t0`` from ``start`` with velocity
    ``v`` (design units per second), ``size`` its diameter."""

    start: tuple[float, float]
    v: tuple[float, float]
    size: int
    t0: float


class SettlementShow:
    """The show of one settled round; ``scale`` gives the animation speed multiplier,
    ``enabled`` whether the show runs at all (not at the fast speed)."""

    def __init__(self, scale: Callable[[], float], enabled: Callable[[], bool]) -> None:
        self.scale = scale
        self.enabled = enabled
        self.reset()

    def reset(self) -> None:
        self.seat: SeatResult | None = None
        self.t0 = 0.0
        self.flights: list[Flight] = []
        self.count_from = self.count_to = 0.0
        self.level = 0
        self.celebrate_until = 0.0
        self.particles: list[Particle] = []
        self._ticks = 0
        self._sounds: set[str] = set()
        self.on = False

    def start(self, seat: SeatResult, clock: float, seed: int = 0) -> None:
        """Schedule the show of ``seat`` from ``clock``."""
        self.reset()
        self.seat, self.t0 = seat, clock
        self.level = celebration_level(seat)
        self.on = self.enabled()
        if not self.on:
            return
        s = self.scale()
        for spot in STAKES:
            stake, back = getattr(seat, spot), getattr(seat, f"{spot}_return")
            x, y, _r = SPOTS[spot]
            here = (x + STAKE_OFFSET[0], y + STAKE_OFFSET[1])
            if stake and back == 0:
                self.flights.append(Flight(stake, here, DEALER_TRAY, clock, clock + SWEEP * s))
            elif back > stake:
                there = (x + WIN_OFFSET[0], y + WIN_OFFSET[1])
                t = clock + PAY_START * s
                self.flights.append(Flight(back - stake, DEALER_TRAY, there, t, t + PAY * s))
        end = max((f.t1 for f in self.flights), default=clock)
        self.count_from = end
        self.count_to = end + (count_seconds(seat.returned, seat.ante) * s if seat.returned else 0.0)
        if self.level:
            seconds, n = CELEBRATIONS[self.level]
            self.celebrate_until = clock + seconds * s
            rng = random.Random(seed)
            for _ in range(n):
                a = rng.uniform(-math.pi * 0.95, -math.pi * 0.05)
                speed = rng.uniform(380, 820)
                self.particles.append(Particle((640 + rng.uniform(-120, 120), 330), (math.cos(a) * speed,
                                               math.sin(a) * speed), rng.choice((18, 24, 30)),
                                               clock + rng.uniform(0, seconds * 0.45) * s))

    # -- what shows at ``clock`` ---------------------------------------------------------------
    def end(self) -> float:
        if not self.on:
            return self.t0
        return max(self.count_to, self.celebrate_until, *(f.t1 for f in self.flights), self.t0)

    def busy(self, clock: float) -> bool:
        return self.seat is not None and clock < self.end()

    def stage(self, clock: float) -> int:
        """0: nothing moved yet (or no show), 1: chips moving, 2: counting, 3: settled.
        The table repaints its base when this changes."""
        if self.seat is None or not self.on:
            return 3 if self.seat is not None else 0
        if any(f.t0 <= clock < f.t1 for f in self.flights) or clock < self.count_from:
            return 1
        return 2 if clock < self.count_to else 3

    def counting(self, clock: float) -> bool:
        return self.stage(clock) == 2

    def counted(self, clock: float) -> int:
        """Cents of the win counted so far (all of it once the count is over)."""
        seat = self.seat
        if seat is None:
            return 0
        if not self.on or clock >= self.count_to:
            return seat.returned
        if clock <= self.count_from:
            return 0
        k = (clock - self.count_from) / max(1e-6, self.count_to - self.count_from)
        return int(seat.returned * (1 - (1 - k) ** 2))

    def moving(self, clock: float) -> list[tuple[int, tuple[float, float]]]:
        """(cents, design point) of each stack in flight now."""
        out = []
        for f in self.flights:
            if f.t0 <= clock < f.t1:
                k = (clock - f.t0) / (f.t1 - f.t0)
                k = 1 - (1 - k) ** 3
                out.append((f.amount, (f.start[0] + (f.end[0] - f.start[0]) * k,
                                       f.start[1] + (f.end[1] - f.start[1]) * k)))
        return out

    def on_spot(self, spot: str, clock: float) -> tuple[int, int]:
        """(stake, winnings) cents shown on ``spot`` now: a lost stake leaves when it is
        swept; winnings appear when they land."""
        seat = self.seat
        if seat is None:
            return 0, 0
        stake, back = getattr(seat, spot), getattr(seat, f"{spot}_return")
        if not self.on:
            return (stake if back else 0), max(0, back - stake)
        if back == 0:
            return (stake if clock < self.t0 else 0), 0
        won = max(0, back - stake)
        landed = won and clock >= self.t0 + (PAY_START + PAY) * self.scale()
        return stake, won if landed else 0

    def coins(self, clock: float) -> list[tuple[int, tuple[float, float]]]:
        """(diameter, design point) of each celebration coin in the air now."""
        if not self.on or clock >= self.celebrate_until:
            return []
        out = []
        for p in self.particles:
            t = (clock - p.t0) / max(1e-6, self.scale())
            if t < 0:
                continue
            x = p.start[0] + p.v[0] * t
            y = p.start[1] + p.v[1] * t + 0.5 * GRAVITY * t * t
            if -40 < x < 1320 and y < 760:
                out.append((p.size, (x, y)))
        return out

    def celebrating(self, clock: float) -> bool:
        return self.on and self.level > 0 and clock < self.celebrate_until

    def sounds(self, clock: float) -> list[str]:
        """Sounds due by ``clock`` and not played yet: ``chip`` as stacks move, ``tick``
        as the win counts up."""
        out: list[str] = []
        if not self.on or self.seat is None:
            return out
        for i, f in enumerate(self.flights):
            key = f"chip{i}"
            if clock >= f.t0 and key not in self._sounds:
                self._sounds.add(key)
                out.append("chip")
        if self.count_from <= clock < self.count_to:
            due = int((clock - self.count_from) / (TICK * self.scale())) + 1
            if due > self._ticks:
                self._ticks = due
                out.append("tick")
        return out

    def skip(self, clock: float) -> None:
        """Finish the show now (a touch, the next bet)."""
        if self.seat is None or not self.on:
            return
        delta = self.end() - clock
        if delta <= 0:
            return
        self.t0 -= delta
        self.flights = [Flight(f.amount, f.start, f.end, f.t0 - delta, f.t1 - delta) for f in self.flights]
        self.count_from -= delta
        self.count_to -= delta
        self.celebrate_until -= delta
        self.particles = [Particle(p.start, p.v, p.size, p.t0 - delta) for p in self.particles]
        self._sounds = {f"chip{i}" for i in range(len(self.flights))}
        self._ticks = 1 << 30


def coach_line(snap: MachineSnapshot) -> str | None:
    """The strategy coach's line on the round shown ("Tip: Play 4× was worth 0.42 Ante
    more than Check"); None when the coach is off, every decision was optimal or the
    values are not known."""
    tip = snap.coach_tip
    if not snap.coach or tip is None or tip.round_id != snap.round_id:
        return None
    return _("Tip: {best} was worth {amount} Ante more than {action}").format(
        best=_(ACTIONS.get(tip.best.value, tip.best.value)), amount=antes(tip.loss),
        action=_(ACTIONS.get(tip.action.value, tip.action.value)))


def draw_coach(host: SceneHost, surface: DamageSurface, snap: MachineSnapshot, show: SettlementShow,
               clock: float) -> None:
    """The coach's line under the player's result, once the settlement show is over."""
    text = coach_line(snap)
    if text is None or show.seat is None or show.stage(clock) != 3:
        return
    host.painter.fitted(surface, text, 17, theme.MUTED, NAME_W, max_h=40, topleft=(NAME_X, PLAYER_Y + 112))
