"""The table status page: every station of the table, through the operator port.

Each station's credits, its tilts and devices' faults with their own texts, its door, a
payout pending and its link; CLEAR TILT (a station's first tilt) and HANDPAY PAID per
station, each answered with the table status after it.  The page is asked for again
every :data:`REFRESH_S` seconds while it is shown, and with REFRESH.  At a lone cabinet
it shows its one station.  Geometry is in design units (1280 x 720).
"""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from kiosk.station.operator_port import StationStatus, TableStatus
from kiosk.ui import theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.operator.intents import ClearTiltAt, HandpayPaidAt, Intent
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Desk, Page
from kiosk.ui.widgets import Button

#: Seconds between two refreshes of the page while it is shown.
REFRESH_S = 2.0
WAITING = N_("Waiting for the table host…")
DONE = N_("Done.")
ROW = 66


def waiting(page: Page, surface: pygame.Surface) -> None:
    """What a page shows until the port's first answer."""
    page.desk.ui.label(surface, _(WAITING), 24, theme.MUTED, topleft=(LEFT, TOP + 10))


class StatusPage(Page):
    id = "status"

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.status: TableStatus | None = None
        self._since = 0.0  # seconds since the page was last asked for

    def keep(self, status: TableStatus) -> None:
        self.status = status

    def ask(self) -> None:
        self._since = 0.0
        port = self.desk.port
        self.desk.request(port.table_status, self.keep)

    def open(self) -> None:
        self.ask()

    def update(self, dt: float) -> None:
        self._since += dt
        if self._since >= REFRESH_S and not self.desk.port.busy:
            self.ask()

    def stations(self) -> tuple[StationStatus, ...]:
        return self.status.stations if self.status is not None else ()

    def look(self) -> Hashable:
        return (self.status,)

    def buttons(self) -> list[Button]:
        busy = self.desk.port.busy
        out = [
            Button(
                "refresh",
                (240, ROW_Y, 260, ROW_H),
                _("REFRESH"),
                Intent.REFRESH,
                style="plain",
                enabled=not busy,
            )
        ]
        for i, s in enumerate(self.stations()):
            rect = (1010, TOP + 6 + i * ROW, 230, 56)
            if s.payout_pending:
                out.append(
                    Button(
                        f"handpay_{s.station}",
                        rect,
                        _("HANDPAY PAID"),
                        HandpayPaidAt(s.station),
                        style="primary",
                        size=20,
                        enabled=not busy,
                    )
                )
            elif s.tilts:
                out.append(
                    Button(
                        f"clear_{s.station}",
                        rect,
                        _("CLEAR TILT"),
                        ClearTiltAt(s.tilts[0].code, s.station),
                        style="plain",
                        size=20,
                        enabled=not busy,
                    )
                )
        return out

    def on_intent(self, intent: object) -> bool:
        desk, port = self.desk, self.desk.port
        match intent:
            case Intent.REFRESH:
                self.ask()
            case ClearTiltAt(code=code, station=int(station)):
                desk.request(lambda done: port.clear_tilt(station, code, done), self.keep, _(DONE))
            case HandpayPaidAt(station=int(station)):
                desk.request(lambda done: port.handpay_paid(station, done), self.keep, _(DONE))
            case _:
                return False
        return True

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui = desk.ui
        stations = self.stations()
        if not stations:
            waiting(self, surface)
            return
        for i, s in enumerate(stations):
            y = TOP + 6 + i * ROW
            own = s.station == desk.port.station
            name = _("Station {n}").format(n=s.station)
            colour = theme.GOLD if own else theme.CREAM
            ui.fitted(surface, name, 24, colour, 180, bold=True, midleft=(LEFT, y + 28))
            credits = desk.money(s.credits)
            ui.fitted(surface, credits, 24, theme.WHITE, 170, bold=True, midleft=(230, y + 28))
            text, ok = self.state_text(s)
            colour = theme.MUTED if ok else theme.LOSE
            ui.fitted(surface, text, 20, colour, 590, midleft=(410, y + 28))
            surface.fill(theme.RAIL_EDGE, desk.layout.rect(LEFT, y + 62, WIDTH, 2))

    def state_text(self, s: StationStatus) -> tuple[str, bool]:
        """A station's state in words (its tilts' and faults' own texts); ok when none."""
        parts = []
        if not s.connected:
            parts.append(_("Not connected"))
        for d in s.devices:
            parts.append(f"{d.device}: {d.text}")
        device_codes = {d.code for d in s.devices}
        for t in s.tilts:
            if t.code not in device_codes:
                parts.append(t.text or t.code)
        if s.door_open:
            parts.append(_("Door open"))
        if s.payout_pending:
            amount = self.desk.money(s.payout_pending)
            parts.append(_("Handpay pending: {amount}").format(amount=amount))
        if parts:
            return "  ·  ".join(parts), False
        return (_("In the round") if s.in_round else _("Ready")), True
