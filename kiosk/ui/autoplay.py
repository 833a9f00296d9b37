"""A scripted player at the cabinet's own screens: a burn-in and a smoke run of the kiosk.

It plays as a patron would, through the same input events a finger or the keyboard
sends (:mod:`kiosk.ui.events`): from the attract screen it opens the table, inserts a
$20 note into the simulated validator when the credits are short (the demo's bill
command, through the real ID-003 handshake), places the smallest Ante by the keyboard
shortcut, deals, and answers each decision with a random legal one.  The App asks it for
one input per frame (:meth:`ScriptedPlayer.next_input`) and stops once it has seen
``rounds`` rounds settled.

Only in demo mode (simulated devices): the bill command is a demo key.
"""

from __future__ import annotations

import random

from engine.uth.round import Action
from kiosk.game.snapshot import MachinePhase, MachineSnapshot
from kiosk.ui.events import Command, InputEvent, Key

#: The note it inserts when the credits cannot cover the smallest round, in cents.
NOTE_CENTS = 2000
#: Frames it waits between two inputs (the screens animate the deal meanwhile).
PACE_FRAMES = 6

_DECISION_KEYS: dict[Action, str] = {
    Action.CHECK: "k",
    Action.FOLD: "f",
}


class ScriptedPlayer:
    """Plays ``rounds`` rounds by random legal decisions (``seed`` fixes them)."""

    def __init__(self, rounds: int, seed: int | None = None) -> None:
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1, not {rounds}")
        self.rounds = rounds
        self.settled = 0
        self._rng = random.Random(seed)
        self._wait = 0
        self._last_round: int | None = None
        self._note_pending = False

    @property
    def done(self) -> bool:
        """Whether it has seen its ``rounds`` rounds settled."""
        return self.settled >= self.rounds

    def next_input(self, scene: str, snap: MachineSnapshot) -> InputEvent | None:
        """The input to send on this frame (None: none now), from the current scene's
        name and the controller's snapshot."""
        if snap.phase is MachinePhase.RESULT and snap.round_id is not None:
            if snap.round_id != self._last_round:
                self._last_round = snap.round_id
                self.settled += 1
        if self.done or snap.tilts or snap.door_open or snap.cashout is not None:
            return None
        if self._wait > 0:
            self._wait -= 1
            return None
        self._wait = PACE_FRAMES
        if scene == "attract":
            return Key("space")
        if scene != "table":
            return Key("escape")
        if snap.phase is MachinePhase.IN_ROUND:
            return self._decision(snap)
        smallest = 2 * snap.limits.ante_min + snap.limits.ante_min  # Ante, Blind, 1x Play
        if snap.bet_ante == 0:
            if snap.available < smallest:
                if self._note_pending and snap.credits == 0:
                    return None  # the note is still on its way through the validator
                self._note_pending = True
                return Command("bill", NOTE_CENTS)
            self._note_pending = False
            return Key("a")
        return Key("space")

    def _decision(self, snap: MachineSnapshot) -> InputEvent | None:
        if not snap.offers:
            return None
        offer = self._rng.choice(snap.offers)
        key = _DECISION_KEYS.get(offer.action)
        if key is not None:
            return Key(key)
        return Command("decide", offer.action)
