"""The tilts page (what stops play, each with CLEAR) and the devices page (the door, the
devices' faults and their last events)."""

from __future__ import annotations

import pygame

from kiosk.game.commands import ClearTilt, SetDoor
from kiosk.ledger.kinds import EventKind
from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.scenes.chrome import tilt_text
from kiosk.ui.scenes.operator.intents import Act, ClearTiltAt
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Page, rows
from kiosk.ui.widgets import Button

#: Tilts shown (and clearable) at once.
SHOWN = 4


class TiltsPage(Page):
    id = "tilts"

    def buttons(self) -> list[Button]:
        return [Button(f"clear_{t.code}", (1000, TOP + 50 + i * 100, 240, 90), _("CLEAR"), ClearTiltAt(t.code),
                       style="primary", enabled=t.code != "ledger")
                for i, t in enumerate(self.desk.snap.tilts[:SHOWN])]

    def on_intent(self, intent: object) -> bool:
        if not (isinstance(intent, ClearTiltAt) and intent.station is None):
            return False
        desk = self.desk
        ok = desk.send(ClearTilt(intent.code))
        desk.report(_("Tilt cleared.") if ok else desk.refusal(), bool(ok))
        return True

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui, snap = desk.ui, desk.snap
        if not snap.tilts:
            ui.label(surface, _("No tilt stands."), 26, theme.WIN, topleft=(LEFT, TOP + 10))
        if snap.door_open:
            ui.fitted(surface, _("The main door is open."), 22, theme.LOSE, WIDTH, topleft=(LEFT, TOP + 10 + 40))
        for i, t in enumerate(snap.tilts[:SHOWN]):
            y = TOP + 50 + i * 100
            ui.fitted(surface, tilt_text(t.code), 24, theme.WHITE, 920, bold=True, topleft=(LEFT, y + 8))
            ui.fitted(surface, f"{t.code}: {t.message}", 20, theme.MUTED, 920, topleft=(LEFT, y + 50))
        c = snap.cashout
        if c is not None:
            ui.fitted(surface, _("Payout pending: {amount}. See Hand pays.").format(amount=desk.money(c.amount)),
                      22, theme.WIN, WIDTH, topleft=(LEFT, 550))


class DevicesPage(Page):
    id = "devices"

    def buttons(self) -> list[Button]:
        desk = self.desk
        return [Button("door", (240, ROW_Y, 300, ROW_H), _("CLOSE DOOR") if desk.snap.door_open else _("OPEN DOOR"),
                       Act.DOOR, style="plain", enabled=desk.app.demo_mode)]

    def on_intent(self, intent: object) -> bool:
        if intent is not Act.DOOR:
            return False
        if self.desk.app.demo_mode:  # the door switch, simulated
            self.desk.send(SetDoor(not self.desk.snap.door_open))
        return True

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        snap = desk.snap
        lines = [(_("Door"), _("open") if snap.door_open else _("closed"))]
        dev_tilts = [t for t in snap.tilts if t.code.startswith("device:")]
        lines += [(tilt_text(t.code), t.message) for t in dev_tilts]
        if not dev_tilts:
            lines.append((_("Device faults"), _("none")))
        if desk.app.demo is not None:
            lines.append((_("Bill validator"), _("simulated (demo)")))
            lines.append((_("Ticket printer"), _("simulated (demo)")))
        for ev in desk.cached(("devices",), lambda: desk.operations.ledger_events((EventKind.DEVICE,), last=7)):
            lines.append((f"{ev.at[:19].replace('T', ' ')}  {ev.detail.get('device', '')}",
                          str(ev.detail.get("kind", ""))))
        rows(desk, surface, lines[:13], size=22, gap=1.6, label_share=0.55)
