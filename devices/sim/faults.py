"""Fault injection shared by the simulators: counted damage, chaos and scripted answers.

A simulator subclasses :class:`FaultInjectingDevice` and names, in priority order, the
damage its counters apply to its answers (``"partial"``, ``"garbage"``...).  Before each
answer it asks :meth:`FaultInjectingDevice._next_damage`: the first counter still pending
wins and is decremented; with none pending, chaos picks a random damage with the chaos
probability.  Other counters (ignored ACKs, error answers) are taken one at a time with
:meth:`FaultInjectingDevice._take`.  Scripted answers replace the state machine's answers
to status requests, in order, until used up.

Every call is made with the simulator's ``lock`` held (the scenario methods take it).
"""

from __future__ import annotations

import random
from collections import deque

from devices.sim.pty import PtyDevice


class FaultCounters:
    """Named counts of faults still to inject, a chaos probability and the random source.

    ``damage_order`` lists the counters that damage answers, first served first;
    ``chaos_damage`` the damages chaos chooses from.  ``injected`` counts answers damaged
    so far.  Not thread-safe by itself.
    """

    def __init__(
        self, damage_order: tuple[str, ...], chaos_damage: tuple[str, ...], seed: int | None
    ) -> None:
        self.rng = random.Random(seed)
        self.chaos = 0.0
        self.injected = 0
        self._order = damage_order
        self._chaos_damage = chaos_damage
        self._pending: dict[str, int] = {}

    def add(self, name: str, count: int = 1) -> None:
        """Inject ``count`` more faults of kind ``name``."""
        self._pending[name] = self._pending.get(name, 0) + count

    def take(self, name: str) -> bool:
        """Use up one pending fault of kind ``name``; False if none is pending."""
        left = self._pending.get(name, 0)
        if left <= 0:
            return False
        self._pending[name] = left - 1
        return True

    def set_chaos(self, probability: float, seed: int | None = None) -> None:
        """Damage each answer with ``probability`` (0 turns chaos off); reseed if ``seed``."""
        self.chaos = probability
        if seed is not None:
            self.rng.seed(seed)

    def next_damage(self) -> str | None:
        """The damage to apply to the next answer, None to send it intact."""
        for name in self._order:
            if self.take(name):
                break
        else:
            if not (self.chaos and self.rng.random() < self.chaos):
                return None
            name = self.rng.choice(self._chaos_damage)
        self.injected += 1
        return name


class FaultInjectingDevice(PtyDevice):
    """A pty simulator whose answers can be damaged, withheld or scripted.

    Subclasses call :meth:`_next_damage` before each answer, :meth:`_take` for their other
    counted faults, :meth:`_inject` from their own scenario methods and
    :meth:`_scripted` before answering a status request.
    """

    def __init__(
        self, damage_order: tuple[str, ...], chaos_damage: tuple[str, ...], seed: int | None
    ) -> None:
        super().__init__()
        self._counters = FaultCounters(damage_order, chaos_damage, seed)
        self._script: deque[bytes] = deque()

    # ------------------------------------------------------------------ scenario API

    def send_garbage(self, count: int = 1) -> None:
        """Replace the next ``count`` answers by random bytes that are no valid answer."""
        self._inject("garbage", count)

    def send_partial(self, count: int = 1) -> None:
        """Send only the first half of the next ``count`` answers."""
        self._inject("partial", count)

    def set_chaos(self, probability: float, seed: int | None = None) -> None:
        """Damage each answer with ``probability`` (the damages the simulator's docstring
        lists); 0 turns it off.  ``seed`` reseeds the simulator's random source."""
        with self.lock:
            self._counters.set_chaos(probability, seed)

    def script(self, responses: list[bytes]) -> None:
        """Answer the next status requests with these raw bytes, in order, instead of the
        state machine (which does not move meanwhile)."""
        with self.lock:
            self._script.extend(responses)

    @property
    def script_pending(self) -> int:
        """Scripted answers not yet sent."""
        return len(self._script)

    @property
    def injected(self) -> int:
        """Answers deliberately damaged or withheld so far."""
        return self._counters.injected

    @property
    def rng(self) -> random.Random:
        """The simulator's random source (seeded by ``seed``, reseeded by :meth:`set_chaos`)."""
        return self._counters.rng

    # ------------------------------------------------------------------ for subclasses

    def _inject(self, name: str, count: int) -> None:
        with self.lock:
            self._counters.add(name, count)

    def _take(self, name: str) -> bool:
        return self._counters.take(name)

    def _next_damage(self) -> str | None:
        return self._counters.next_damage()

    def _scripted(self) -> bytes | None:
        return self._script.popleft() if self._script else None
