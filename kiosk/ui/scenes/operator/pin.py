"""The operator menu's PIN pad: one PIN for a login, or two for lifting the PIN locks.

The operator menu (:mod:`kiosk.ui.scenes.operator.scene`) types PINs here and draws the
pad; what a typed PIN does (a login, a lift) the menu asks of its operator port.

While the PIN pad is locked by wrong PINs, the main door open lets a manager or
technician and then a second person type their PINs to lift every lock (LIFT THE LOCK).
Geometry is in design units (1280 x 720).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pygame

from kiosk.pins import PIN_MAX
from kiosk.ui import theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.layout import Layout
from kiosk.ui.scenes.keypad import keypad_buttons
from kiosk.ui.scenes.operator.intents import Intent
from kiosk.ui.widgets import Button, Painter

#: Lifting the PIN locks at the open main door: the button, its two PINs, the result.
LIFT_BUTTON = N_("LIFT THE LOCK")
LIFT_FIRST = N_("To lift the lock (main door open): a manager's or technician's PIN")
LIFT_SECOND = N_("Now a second person's PIN")
LIFTED = N_("{name} lifted the PIN locks.")


@dataclass(frozen=True)
class Login:
    """ENTER with a PIN typed: log its person in."""

    pin: str


@dataclass(frozen=True)
class Lift:
    """ENTER with a lift's second PIN typed: lift every lock (``pin``: the manager's or
    technician's, ``witness_pin``: the second person's)."""

    pin: str
    witness_pin: str


class PinPad:
    """The PIN being typed (``entry``) and, while lifting the locks, the PINs typed so
    far (``lift``)."""

    def __init__(self) -> None:
        self.entry = ""
        self.lift: list[str] | None = None

    def reset(self) -> None:
        self.entry, self.lift = "", None

    def begin_lift(self) -> None:
        """LIFT THE LOCK: the next two PINs lift the locks."""
        self.entry, self.lift = "", []

    def digit(self, digit: object) -> None:
        if len(self.entry) < PIN_MAX:
            self.entry += str(digit)

    def clear(self) -> None:
        self.entry = ""

    def enter(self) -> Login | Lift | None:
        """ENTER: a login, a lift with its second PIN, or nothing yet (a lift's first PIN
        kept)."""
        typed, self.entry = self.entry, ""
        if self.lift is None:
            return Login(typed)
        self.lift.append(typed)
        if len(self.lift) < 2:
            return None
        first, second = self.lift
        self.lift = None
        return Lift(first, second)

    def look(self) -> tuple[str, tuple[str, ...] | None]:
        return self.entry, None if self.lift is None else tuple(self.lift)

    def buttons(self, door_open: bool, ready: bool = True) -> list[Button]:
        """LIFT THE LOCK (with the main door open, not while lifting) and the keypad;
        ENTER only when ``ready`` (no request in flight)."""
        out = []
        if door_open and self.lift is None:
            out.append(
                Button(
                    "lift", (40, 200, 360, 90), _(LIFT_BUTTON), Intent.LIFT, style="fold", size=24
                )
            )
        keys = keypad_buttons((448, 200), (132, 100), (120, 90), _("ENTER"), "primary", 24)
        return out + [
            k if k.id != "key_enter" or ready else replace(k, enabled=False) for k in keys
        ]

    def draw(self, ui: Painter, layout: Layout, surface: pygame.Surface) -> None:
        """The prompt (a login's, a lift's first or second PIN) and the PIN as dots."""
        lift = self.lift
        prompt = _("Enter your PIN") if lift is None else _(LIFT_SECOND if lift else LIFT_FIRST)
        ui.fitted(surface, prompt, 30, theme.CREAM, 1000, center=(640, 126))
        box = layout.rect(448, 146, 384, 46)
        pygame.draw.rect(surface, (0, 0, 0), box, border_radius=layout.px(8))
        ui.label(surface, "●" * len(self.entry), 28, theme.WHITE, center=(640, 169))
