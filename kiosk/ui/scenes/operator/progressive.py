"""The Progressive page: the table's progressive meter, its hidden reserve and its
lifetime meters, and a manager's adjustment of the meter.

The figures come through the operator port (:class:`~kiosk.station.operator_port.
ProgressiveMeters`), asked for again whenever the screen's snapshot changes.  The
adjustment (a manager, the main door open, a standalone progressive, between rounds:
the service refuses it otherwise, with its reason) is two steps on the keypad: the new
meter amount (cents, shown as money while typed), then a second operator's PIN (another
person: the countersignature the RAM clear also needs); REASON chooses why, recorded
with it.
"""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from kiosk.game.commands import AdjustReason
from kiosk.pins import PIN_MAX
from kiosk.station.operator_port import Lifetime, ProgressiveMeters
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.keypad import keypad_buttons
from kiosk.ui.scenes.operator.intents import PAD_KEYS, Act, Dialog, Digit, Intent
from kiosk.ui.scenes.operator.page import (
    LEFT,
    ROW_H,
    ROW_Y,
    TOP,
    Desk,
    Page,
    escape,
    heading,
    rows,
)
from kiosk.ui.scenes.operator.status import waiting
from kiosk.ui.widgets import Button

NO_PROGRESSIVE = N_("The paytable in force has no progressive meter.")
LINKED = N_("Linked: the casino's progressive controller keeps this meter.")
NOT_HEARD = N_("not heard yet")
AMOUNT_STEP = N_("Step 1 of 2: type the new meter amount on the keypad.")
WITNESS_STEP = N_("Step 2 of 2: a second operator types their PIN on the keypad.")
NEW_METER = N_("New meter: {amount}")
METER_SET = N_("Progressive meter set to {amount}.")
REASONS = {
    AdjustReason.CORRECTION: N_("Correction"),
    AdjustReason.TRANSFER: N_("Transfer"),
    AdjustReason.PROMOTION: N_("Promotion"),
}
#: The longest amount typed, in digits of cents.
AMOUNT_DIGITS = 11
COL_W = 560
TEXT_W = 740


class ProgressivePage(Page):
    id = "progressive"

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.figures: ProgressiveMeters | None = None
        self.step: str | None = None  # None (the figures) | "amount" | "witness"
        self.entry = ""  # digits typed on the keypad
        self.amount = 0  # the new meter, cents (typed in the first step)
        self.reason = AdjustReason.CORRECTION
        self._version = -1  # the snapshot's version the figures were asked for at
        #: The adjustment confirmed while the port was busy: (cents, witness PIN, reason).
        self._pending: tuple[int, str, AdjustReason] | None = None

    # -- the figures ------------------------------------------------------------------------
    def keep(self, figures: ProgressiveMeters) -> None:
        self.figures = figures

    def ask(self) -> None:
        desk = self.desk
        port = desk.port
        if not port.busy:
            self._version = desk.app.model.version
            desk.request(port.progressive, self.keep)

    def open(self) -> None:
        self.figures, self.step, self.entry, self._pending = None, None, "", None
        self.reason = AdjustReason.CORRECTION
        self.ask()

    def update(self, dt: float) -> None:
        if self._pending is not None:
            self._send()  # once the port is free
        elif self.step is None and self._version != self.desk.app.model.version:
            self.ask()

    @property
    def may_adjust(self) -> bool:
        """ADJUST METER is offered: a manager, the door open, the table's own meter."""
        desk, figures = self.desk, self.figures
        return (
            figures is not None
            and figures.adjustable
            and desk.role == "manager"
            and desk.snap.door_open
        )

    # -- input --------------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        if self.step is None:
            return [
                Button("adjust_meter", (240, ROW_Y, 400, ROW_H), _("ADJUST METER"),
                       Act.ADJUST_METER, style="fold", enabled=self.may_adjust)
            ]  # fmt: skip
        reason = _("REASON: {reason}").format(reason=_(REASONS[self.reason]))
        out = keypad_buttons((820, 130), (140, 98), (128, 88), _("CONFIRM"), "fold", 22)
        out.append(Button("adjust_cancel", (240, ROW_Y, 260, ROW_H), _("CANCEL"), Dialog.CANCEL,
                          style="plain"))  # fmt: skip
        out.append(Button("adjust_reason", (520, ROW_Y, 480, ROW_H), reason, Act.ADJUST_REASON,
                          style="plain"))  # fmt: skip
        return out

    def on_key(self, key: Key) -> bool:
        if self.step is None:
            return False
        if escape(key):
            return self.on_intent(Dialog.CANCEL)
        if key.text.isdigit():
            return self.on_intent(Digit(key.text))
        pad = PAD_KEYS.get(key.name)
        return pad is not None and self.on_intent(pad)

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Act.ADJUST_METER if self.may_adjust:
                self.step, self.entry = "amount", ""
            case Digit(digit=digit) if self.step is not None:
                limit = AMOUNT_DIGITS if self.step == "amount" else PIN_MAX
                if len(self.entry) < limit:
                    self.entry += digit
            case Intent.CLEAR if self.step is not None:
                self.entry = ""
            case Intent.ENTER if self.step == "amount" and self.entry:
                self.amount, self.entry, self.step = int(self.entry), "", "witness"
            case Intent.ENTER if self.step == "witness" and self.entry:
                self._pending = (self.amount, self.entry, self.reason)
                self.step, self.entry = None, ""
                self._send()
            case Act.ADJUST_REASON if self.step is not None:
                order = list(REASONS)
                self.reason = order[(order.index(self.reason) + 1) % len(order)]
            case Dialog.CANCEL if self.step is not None:
                self.step, self.entry = None, ""
            case _:
                return False
        return True

    def _send(self) -> None:
        """The adjustment confirmed, asked of the port (kept until the port is free)."""
        desk, pending = self.desk, self._pending
        port = desk.port
        if pending is None or port.busy:
            return
        cents, witness_pin, reason = pending
        done_text = _(METER_SET).format(amount=desk.money(cents))
        sent = desk.request(
            lambda done: port.adjust_progressive(cents, witness_pin, reason, done),
            self.keep,
            done_text,
            acts=True,
        )
        if sent:
            self._pending = None

    # -- drawing ------------------------------------------------------------------------------
    def look(self) -> Hashable:
        masked = len(self.entry) if self.step == "witness" else self.entry
        sending = self._pending is not None
        return self.figures, self.step, masked, self.amount, self.reason, self.may_adjust, sending

    def value(self, line: Lifetime) -> str:
        return f"{self.desk.money(line.cents)}  ({line.count:,})"

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        f = self.figures
        if f is None:
            waiting(self, surface)
            return
        if not f.offered:
            desk.ui.paragraph(surface, _(NO_PROGRESSIVE), 24, theme.CREAM, LEFT, TOP + 8, TEXT_W)
            return
        meter = desk.money(f.meter) if f.meter is not None else _(NOT_HEARD)
        y = heading(desk, surface, _("Meter and reserve"), LEFT, float(TOP), COL_W, size=22)
        now = [
            (_("Meter"), meter),
            (_("Reserve (hidden)"), desk.money(f.reserve)),
            (_("Reset"), desk.money(f.reset)),
            (_("Ceiling"), desk.money(f.ceiling)),
        ]
        y = rows(desk, surface, now, x=LEFT, y=y, width=COL_W, size=22, gap=1.4)
        if f.linked:
            desk.ui.paragraph(surface, _(LINKED), 22, theme.LOSE, LEFT, y + 8, COL_W)
        if self.step is not None:
            self._draw_step(surface, y + 16)
            return
        x = LEFT + COL_W + 80
        y = heading(desk, surface, _("Lifetime"), x, float(TOP), COL_W, size=22)
        lifetime = [
            (_("Wagers"), self.value(f.wagers)),
            (_("Contributions to the meter"), desk.money(f.contributed)),
            (_("Contributions to the reserve"), desk.money(f.reserved)),
            (_("Drawn from the reserve"), desk.money(f.reserve_drawn)),
            (_("Resets"), self.value(f.resets)),
            (_("Awards on the meter"), self.value(f.hits)),
            (_("Awards won"), self.value(f.awards)),
            (_("Jackpots hand-paid"), self.value(f.jackpots)),
            (_("Adjustments"), f"{f.adjustments:,}"),
            (_("Adjusted up"), desk.money(f.adjusted_up)),
            (_("Adjusted down"), desk.money(f.adjusted_down)),
        ]
        rows(desk, surface, lifetime, x=x, y=y, width=COL_W, size=22, gap=1.4, label_share=0.6)

    def _draw_step(self, surface: pygame.Surface, y: float) -> None:
        desk = self.desk
        ui = desk.ui
        text = _(AMOUNT_STEP) if self.step == "amount" else _(WITNESS_STEP)
        y = ui.paragraph(surface, text, 24, theme.LOSE, LEFT, y, TEXT_W)
        if self.step == "witness":
            shown = _(NEW_METER).format(amount=desk.money(self.amount))
            ui.fitted(surface, shown, 24, theme.WIN, TEXT_W, bold=True, topleft=(LEFT, y + 6))
            y += 40
        box = desk.layout.rect(LEFT, y + 10, 380, 56)
        pygame.draw.rect(surface, (0, 0, 0), box, border_radius=desk.layout.px(8))
        typed = (
            desk.money(int(self.entry or "0")) if self.step == "amount" else "●" * len(self.entry)
        )
        ui.label(surface, typed, 30, theme.WHITE, bold=True, midleft=(LEFT + 16, y + 38))
