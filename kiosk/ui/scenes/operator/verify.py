"""The audit page: verify the ledger (both hash chains, every dealt deck against its
commitment, the meters added up again), optionally settling every round again."""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.scenes.operator.intents import Verify
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Page, rows
from kiosk.ui.widgets import Button


class VerifyPage(Page):
    id = "audit"
    report: Any = None  # the last :class:`kiosk.ledger.records.VerifyReport`

    def open(self) -> None:
        self.report = None

    def buttons(self) -> list[Button]:
        return [Button("verify", (240, ROW_Y, 300, ROW_H), _("VERIFY"), Verify(False), style="primary"),
                Button("replay", (560, ROW_Y, 400, ROW_H), _("VERIFY AND REPLAY"), Verify(True), style="plain")]

    def on_intent(self, intent: object) -> bool:
        if not isinstance(intent, Verify):
            return False
        desk = self.desk
        report = desk.operations.verify_ledger(intent.replay)
        if report is None:
            desk.report(_("The ledger is not available."), False)
            return True
        self.report = report
        if report.ok:
            desk.report(_("Ledger verified: {rounds} rounds, {events} events.").format(
                rounds=report.rounds, events=report.events), True)
        else:
            desk.report(_("Ledger problem: {problem}").format(problem=report.problem), False)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui = desk.ui
        y = ui.paragraph(surface, _("Verify walks both hash chains, checks every dealt deck against its commitment "
                                    "and adds the meters up again. Replay also settles every round again."), 22,
                         theme.CREAM, LEFT, TOP + 10, WIDTH)
        r = self.report
        if r is None:
            return
        ui.fitted(surface, _("Result") + ": " + (_("OK") if r.ok else _("PROBLEM")), 30,
                  theme.WIN if r.ok else theme.LOSE, WIDTH, bold=True, topleft=(LEFT, y + 20))
        lines = [(_("Rounds checked"), f"{r.rounds:,}"), (_("Events checked"), f"{r.events:,}")]
        if r.problem:
            lines.append((_("Problem"), str(r.problem)))
        rows(desk, surface, lines, y=y + 70, size=24, label_share=0.4)
