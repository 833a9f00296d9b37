"""The raise panel's maths: which amounts the local player may bet or raise to, and
what the slider, the presets and the − / + buttons choose.

Amounts are tournament chips (points), totals for the betting round ("raise *to*").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.holdem.actions import Action
from engine.holdem.views import LegalActions


def round_to(amount: int, step: int) -> int:
    """``amount`` to the nearest multiple of ``step`` (halves go up)."""
    if step <= 1:
        return int(amount)
    return int((amount + step // 2) // step * step)


class PresetKey(StrEnum):
    """The raise panel's presets."""

    MIN = "min"
    HALF = "half"  # ½ pot
    THREE_QUARTERS = "three_quarters"  # ¾ pot
    POT = "pot"
    ALL_IN = "all_in"


#: The presets that are a fraction of the pot.
POT_FRACTIONS: dict[PresetKey, float] = {PresetKey.HALF: 0.5, PresetKey.THREE_QUARTERS: 0.75, PresetKey.POT: 1.0}


@dataclass(frozen=True)
class RaiseRange:
    """The amounts the local player may bet or raise to (totals for the round, "to").

    In between the minimum and all in, amounts are rounded to the small blind (seed 000);
    the minimum itself and all in are always allowed as they are."""

    min_to: int
    max_to: int
    small_blind: int
    big_blind: int
    legal: LegalActions

    @classmethod
    def of(cls, legal: LegalActions) -> RaiseRange:
        return cls(legal.min_to, legal.max_to, legal.small_blind, legal.big_blind, legal)

    @classmethod
    def offered(cls, legal: LegalActions | None) -> RaiseRange | None:
        """The range when the player may bet or raise now (``legal`` their options), else ``None``."""
        return cls.of(legal) if legal is not None and legal.can_bet_or_raise else None

    def clamp(self, amount: float) -> int:
        if amount >= self.max_to:
            return self.max_to
        if amount <= self.min_to:
            return self.min_to
        return max(self.min_to, min(self.max_to, round_to(int(round(amount)), self.small_blind)))

    def nudge(self, amount: int, steps: int) -> int:
        """One big blind up or down per step (the − and + buttons, the arrow keys)."""
        if steps < 0 and amount >= self.max_to and self.max_to - self.big_blind < self.min_to:
            return self.min_to
        return self.clamp(amount + steps * self.big_blind)

    def preset(self, key: PresetKey | str) -> int:
        """``min``, ``half`` (½ pot), ``three_quarters``, ``pot`` or ``all_in``
        (:class:`PresetKey`): pot sizes count the call first (seed 000), rounded to the
        small blind."""
        key = PresetKey(key)
        if key is PresetKey.MIN:
            return self.min_to
        if key is PresetKey.ALL_IN:
            return self.max_to
        return self.clamp(self.legal.pot_fraction_to(POT_FRACTIONS[key]))

    def at(self, fraction: float) -> int:
        """The slider: 0 is the minimum, 1 all in."""
        f = max(0.0, min(1.0, fraction))
        return self.clamp(self.min_to + f * (self.max_to - self.min_to))

    def fraction(self, amount: int) -> float:
        span = self.max_to - self.min_to
        return 1.0 if span <= 0 else max(0.0, min(1.0, (amount - self.min_to) / span))

    def action(self, amount: int) -> Action:
        """The action for a chosen amount: all in when it reaches the stack."""
        to = self.clamp(amount)
        if to >= self.max_to:
            return Action.all_in()
        return Action.bet(to) if self.legal.can_bet else Action.raise_to(to)
