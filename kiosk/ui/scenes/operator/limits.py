"""The limits page: the table limits in force, narrowed within the paytable's, a step at
a time on a 1-2-5 ladder of round amounts, confirmed before they change.

Amounts are cents.  − and + move a limit to the next lower or higher amount of the
ladder ($1, $2, $5, $10, $20, $50, $100 ...), within the paytable's own limits (which
are steps too) and never past the other end of the same range; an Ante limit stays a
multiple of the paytable's Ante step.  APPLY shows the change for confirmation; a change
the service refuses keeps the draft on screen with the reason.  The limits in force,
the paytable's and the change go through the operator port (at a station, the table
host's limits: a change needs this station's door open and every station at zero).
"""

from __future__ import annotations

import pygame

from kiosk.station.operator_port import TableLimits, TableStatus
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.operator import confirm
from kiosk.ui.scenes.operator.confirm import Change, Confirmation
from kiosk.ui.scenes.operator.intents import Dialog, Step
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, Desk, Page, escape
from kiosk.ui.widgets import Button

FIELDS = ("ante_min", "ante_max", "trips_min", "trips_max")
NAMES = {"ante_min": N_("Ante minimum"), "ante_max": N_("Ante maximum"),
         "trips_min": N_("Trips minimum"), "trips_max": N_("Trips maximum")}
#: When the controller accepts a configuration change (shown in the confirmation).
CONDITIONS = N_("A change needs the main door open, no credits on the meter and no round or payout in progress.")
#: The mantissas of the ladder, per power of ten.
MANTISSAS = (1, 2, 5)


def ladder(lo: int, hi: int, multiple: int = 1) -> list[int]:
    """The amounts (cents) a limit may take in ``[lo, hi]``: ``lo``, ``hi`` and every
    1-2-5 amount between them that is a multiple of ``multiple``; increasing."""
    values = {lo, hi}
    power = 1
    while power <= hi:
        for m in MANTISSAS:
            v = m * power
            if lo <= v <= hi and v % multiple == 0:
                values.add(v)
        power *= 10
    return sorted(values)


def step(value: int, sign: int, lo: int, hi: int, multiple: int = 1) -> int:
    """The next amount of :func:`ladder` above (``sign`` > 0) or below ``value``; the
    nearest end when ``value`` is outside ``[lo, hi]``; ``value`` when there is none."""
    values = ladder(lo, hi, multiple)
    if sign > 0:
        return next((v for v in values if v > value), min(max(value, lo), hi))
    return next((v for v in reversed(values) if v < value), max(min(value, hi), lo))


class LimitsPage(Page):
    id = "limits"

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.draft: dict[str, int] = {}
        self.confirming = False

    def open(self) -> None:
        self.draft = self.in_force()
        self.confirming = False

    def in_force(self) -> dict[str, int]:
        """The table's limits in force (cents), as the port last heard them."""
        lim = self.desk.port.limits()
        return lim.as_dict() if lim is not None else {}

    def paytable_limits(self) -> dict[str, int]:
        """The paytable's approved limits (cents; empty before the port knows them)."""
        approved = self.desk.port.limit_bounds()
        return approved[0].as_dict() if approved is not None else {}

    def bounds(self, field: str) -> tuple[int, int, int]:
        """``(lo, hi, multiple)`` for ``field``: the paytable's range, cut at the draft's
        other end of the same range."""
        approved = self.desk.port.limit_bounds()
        if approved is None:
            value = self.draft.get(field, 0)
            return value, value, 1
        base, ante_step = approved
        kind, end = field.split("_")
        lo, hi = getattr(base, f"{kind}_min"), getattr(base, f"{kind}_max")
        if end == "min":
            hi = min(hi, self.draft.get(f"{kind}_max", hi))
        else:
            lo = max(lo, self.draft.get(f"{kind}_min", lo))
        return lo, hi, ante_step if kind == "ante" else 1

    def modal(self) -> bool:
        return self.confirming

    def confirmation(self) -> Confirmation:
        old, money = self.in_force(), self.desk.money
        return Confirmation(_("Change the table limits?"),
                            tuple(Change(_(NAMES[f]), money(old.get(f, 0), True), money(self.draft.get(f, 0), True))
                                  for f in FIELDS),
                            "confirm_limits", "cancel_limits", _(CONDITIONS))

    def buttons(self) -> list[Button]:
        if self.confirming:
            return confirm.buttons(self.confirmation())
        out = []
        for i, f in enumerate(FIELDS):
            y = TOP + 50 + i * 100
            value = self.draft.get(f, 0)
            lo, hi, mult = self.bounds(f)
            out.append(Button(f"{f}_minus", (700, y, 110, 90), "−", Step(f, -1), style="plain", size=40,
                              enabled=step(value, -1, lo, hi, mult) != value))
            out.append(Button(f"{f}_plus", (1000, y, 110, 90), "+", Step(f, 1), style="plain", size=40,
                              enabled=step(value, 1, lo, hi, mult) != value))
        changed = bool(self.draft) and self.draft != self.in_force()
        out.append(Button("apply_limits", (240, ROW_Y, 300, ROW_H), _("APPLY"), Dialog.REVIEW, style="primary",
                          enabled=changed))
        out.append(Button("reset_limits", (560, ROW_Y, 300, ROW_H), _("UNDO CHANGES"), Dialog.UNDO,
                          style="plain", enabled=changed))
        return out

    def on_key(self, key: Key) -> bool:
        if self.confirming and escape(key):
            self.confirming = False
            return True
        return self.confirming

    def on_intent(self, intent: object) -> bool:
        desk = self.desk
        match intent:
            case Step(field=field, sign=sign):
                if field not in self.draft:
                    return True  # the limits not heard yet
                lo, hi, mult = self.bounds(field)
                self.draft[field] = step(self.draft[field], sign, lo, hi, mult)
            case Dialog.REVIEW:
                why = confirm.blocker(desk)
                self.confirming = why is None
                if why is not None:
                    desk.report(why, False)
            case Dialog.CANCEL:
                self.confirming = False
            case Dialog.UNDO:
                self.open()
            case Dialog.CONFIRM:
                self.confirming = False
                asked = TableLimits.of(self.draft)
                desk.request(lambda done: desk.port.set_limits(asked, done), self.changed, _("Limits changed."))
            case _:
                return False
        return True

    def update(self, dt: float) -> None:
        if not self.draft:  # the port had not heard the limits when the page opened
            self.draft = self.in_force()

    def changed(self, _status: TableStatus) -> None:
        """The service put the draft in force."""

    def look(self) -> tuple[tuple[str, int], ...]:
        return tuple(sorted(self.in_force().items()))

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui = desk.ui
        base = self.paytable_limits()
        old = self.in_force()
        for i, f in enumerate(FIELDS):
            y = TOP + 50 + i * 100
            ui.fitted(surface, _(NAMES[f]), 24, theme.CREAM, 380, midleft=(LEFT, y + 45))
            if f in base:
                ui.fitted(surface, _("paytable: {amount}").format(amount=desk.money(base[f], True)), 20,
                          theme.MUTED, 260, midleft=(430, y + 45))
            value = self.draft.get(f, 0)
            ui.fitted(surface, desk.money(value, True), 30, theme.WIN if value != old.get(f) else theme.WHITE, 170,
                      bold=True, center=(905, y + 45))
        if self.confirming:
            confirm.draw(desk, surface, self.confirmation())
