"""Player preferences: deck colours, animation speed, sound.  Kept for the session
(a cabinet has no player accounts); the attract screen puts them back to the defaults."""

from __future__ import annotations

from dataclasses import dataclass

#: Animation speed name -> multiplier of every animation's duration.
SPEEDS: dict[str, float] = {"slow": 1.6, "normal": 1.0, "fast": 0.45}
SPEED_ORDER = ("slow", "normal", "fast")


@dataclass
class Preferences:
    four_colour: bool = False
    speed: str = "normal"
    sound: bool = True

    @property
    def time_scale(self) -> float:
        return SPEEDS.get(self.speed, 1.0)

    def next_speed(self) -> None:
        self.speed = SPEED_ORDER[(SPEED_ORDER.index(self.speed) + 1) % len(SPEED_ORDER)]

    def reset(self) -> None:
        self.four_colour, self.speed, self.sound = False, "normal", True
