"""The hand pay page: the payout waiting for an attendant, the ticket it voided, and the
last hand pays made.

A ticket cash-out that could not be printed becomes a hand pay and its ticket is void
(never redeemable).  The voided ticket's validation number is shown as the controller
gives it: masked to its last four digits unless a manager is logged in.  Amounts are
cents.
"""

from __future__ import annotations

import pygame

from kiosk.game.commands import HandpayReset
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import EventRecord
from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.scenes.operator.event_text import METHODS, sentence
from kiosk.ui.scenes.operator.intents import HandpayPaidAt
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Page, heading, rows
from kiosk.ui.widgets import Button

#: Events that tell a payout's story.
PAYOUT_KINDS = (EventKind.CASHOUT, EventKind.CASHOUT_HANDPAY, EventKind.TICKET_VOID, EventKind.HANDPAY)
RECENT = 5


class HandpayPage(Page):
    id = "handpay"

    def buttons(self) -> list[Button]:
        c = self.desk.snap.cashout
        return [Button("handpay", (240, ROW_Y, 340, ROW_H), _("HAND PAY PAID"), HandpayPaidAt(), style="primary",
                       enabled=c is not None and c.method == "handpay")]

    def on_intent(self, intent: object) -> bool:
        if not (isinstance(intent, HandpayPaidAt) and intent.station is None):
            return False
        desk = self.desk
        ok = desk.send(HandpayReset())
        desk.report(_("Hand pay recorded.") if ok else desk.refusal(), bool(ok))
        return True

    def payout_events(self) -> list[EventRecord]:
        """The recent payout events, oldest first (numbers masked below manager)."""
        desk = self.desk
        return desk.cached(("payouts", desk.role), lambda: desk.operations.ledger_events(PAYOUT_KINDS, last=60))

    def voided_ticket(self) -> str | None:
        """The validation number of the ticket the pending payout voided, if any."""
        c = self.desk.snap.cashout
        if c is None:
            return None
        for ev in reversed(self.payout_events()):
            if ev.txn == c.transaction_id and ev.kind in (EventKind.CASHOUT_HANDPAY, EventKind.TICKET_VOID):
                number = ev.detail.get("validation")
                if number:
                    return str(number)
        return None

    def pending_reason(self) -> str | None:
        c = self.desk.snap.cashout
        for ev in reversed(self.payout_events()):
            if c is not None and ev.txn == c.transaction_id and ev.kind == EventKind.CASHOUT_HANDPAY:
                return str(ev.detail.get("reason") or "") or None
        return None

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui = desk.ui
        c = desk.snap.cashout
        y = heading(desk, surface, _("Payout waiting"), LEFT, TOP, WIDTH)
        if c is None:
            ui.fitted(surface, _("No payout is waiting."), 24, theme.WIN, WIDTH, topleft=(LEFT, y + 4))
            y += 44
        else:
            method = _(METHODS[c.method]) if c.method in METHODS else c.method
            lines = [(_("Amount to pay"), desk.money(c.amount)), (_("Method"), method),
                     (_("Started"), c.started_at.replace("T", " ")[:19])]
            number = self.voided_ticket()
            if number is not None:
                lines.append((_("Voided ticket"), number))
            y = rows(desk, surface, lines, y=y + 4, size=24, label_share=0.4)
            reason = self.pending_reason()
            if number is not None:
                ui.fitted(surface, _("This ticket is void: do not redeem it; pay the amount by hand."), 22,
                          theme.LOSE, WIDTH, bold=True, topleft=(LEFT, y))
                y += 34
            if reason:
                ui.fitted(surface, reason, 20, theme.MUTED, WIDTH, topleft=(LEFT, y))
                y += 32
        y = heading(desk, surface, _("Last hand pays"), LEFT, y + 10, WIDTH)
        paid = [ev for ev in self.payout_events() if ev.kind == EventKind.HANDPAY][-RECENT:]
        if not paid:
            ui.fitted(surface, _("None yet"), 22, theme.MUTED, WIDTH, topleft=(LEFT, y + 4))
        for ev in reversed(paid):
            ui.fitted(surface, ev.at.replace("T", " ")[:19], 20, theme.MUTED, 230, topleft=(LEFT, y + 4))
            ui.fitted(surface, sentence(ev, desk.money), 22, theme.CREAM, WIDTH - 240, topleft=(LEFT + 240, y + 3))
            y += 36
