"""The RAM clear page (manager, main door open), three steps on the keypad: a second
operator types their PIN (the witness), the manager requests the clear, then types the
six-digit confirmation code back."""

from __future__ import annotations

import pygame

from kiosk.game.commands import RamClear, RamClearRequest, RamClearWitness
from kiosk.pins import PIN_MAX
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.keypad import keypad_buttons
from kiosk.ui.scenes.operator.intents import PAD_KEYS, Act, Dialog, Digit, Intent
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, Desk, Page
from kiosk.ui.widgets import Button

#: The three steps, in order.
WITNESS_STEP = N_("Step 1 of 3: a second operator types their PIN on the keypad.")
REQUEST_STEP = N_("Step 2 of 3: request a confirmation code.")
CODE_STEP = N_("Step 3 of 3: type this code to confirm: {code}")
WITNESSED = N_("Countersigned by {name}.")
TEXT_W = 740


class RamClearPage(Page):
    id = "ramclear"

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.entry = ""  # digits typed on the keypad
        self.code: str | None = None  # the confirmation code the controller gave
        self.witness: str | None = None  # the second operator's name

    def open(self) -> None:
        self.code, self.entry, self.witness = None, "", None

    @property
    def typing(self) -> bool:
        """The keypad is up: the witness's PIN, or the confirmation code."""
        return bool(self.code or not self.witness)

    def buttons(self) -> list[Button]:
        request = Button("ram_request", (240, ROW_Y, 400, ROW_H), _("REQUEST RAM CLEAR"), Act.REQUEST_RAM_CLEAR,
                         style="fold", enabled=bool(self.witness))
        if not self.typing:
            return [request]
        out = [] if self.code else [request]
        out += keypad_buttons((820, 130), (140, 98), (128, 88), _("CONFIRM"), "fold", 22)
        out.append(Button("ram_cancel", (660 if not self.code else 240, ROW_Y, 300, ROW_H), _("CANCEL"),
                          Dialog.CANCEL, style="plain"))
        return out

    def on_key(self, key: Key) -> bool:
        if not self.typing:
            return False
        if key.text.isdigit():
            return self.on_intent(Digit(key.text))
        pad = PAD_KEYS.get(key.name)
        return pad is not None and self.on_intent(pad)

    def on_intent(self, intent: object) -> bool:
        desk = self.desk
        match intent:
            case Digit(digit=digit) if self.typing:
                if len(self.entry) < PIN_MAX:
                    self.entry += digit
            case Intent.CLEAR:
                self.entry = ""
            case Intent.ENTER if self.code:
                ok = desk.send(RamClear(self.entry))
                self.entry, self.code = "", None
                if ok:
                    self.witness = None
                desk.report(_("RAM clear done.") if ok else desk.refusal(), bool(ok))
            case Intent.ENTER if not self.witness:
                who = desk.send(RamClearWitness(self.entry))
                self.entry = ""
                self.witness = str(who) if who else None
                desk.report(_(WITNESSED).format(name=who) if who else desk.refusal(), bool(who))
            case Act.REQUEST_RAM_CLEAR:
                code = desk.send(RamClearRequest())
                if code:
                    self.code, self.entry = str(code), ""
                else:
                    desk.report(desk.refusal(), False)
            case Dialog.CANCEL:
                self.code, self.entry = None, ""
            case _:
                return False
        return True

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui = desk.ui
        y = ui.paragraph(surface, _("A RAM clear voids a round in progress (stakes refunded), cancels a pending "
                                    "payout, removes the credits and clears every tilt. The history and the "
                                    "lifetime meters stay."), 22, theme.CREAM, LEFT, TOP + 8, TEXT_W)
        ui.fitted(surface, _("Credits now: {amount}").format(amount=desk.money(desk.snap.credits)), 26, theme.WIN,
                  TEXT_W, bold=True, topleft=(LEFT, y + 12))
        if self.typing:
            text = _(CODE_STEP).format(code=self.code) if self.code else _(WITNESS_STEP)
            ui.fitted(surface, text, 24, theme.LOSE, TEXT_W, bold=True, topleft=(LEFT, 360))
            box = desk.layout.rect(LEFT, 410, 380, 56)
            pygame.draw.rect(surface, (0, 0, 0), box, border_radius=desk.layout.px(8))
            shown = self.entry if self.code else "●" * len(self.entry)
            ui.label(surface, shown, 30, theme.WHITE, bold=True, midleft=(LEFT + 16, 438))
        else:
            ui.fitted(surface, _(REQUEST_STEP), 24, theme.CREAM, TEXT_W, topleft=(LEFT, 360))
