"""A confirmation dialog over an operator page: what will change (each line its old and
its new value) and two buttons, CONFIRM and CANCEL.  While it is open its buttons are
the only touch targets and Esc cancels."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from kiosk.game.snapshot import MachinePhase
from kiosk.ui import theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.operator.intents import Dialog
from kiosk.ui.scenes.operator.page import Desk
from kiosk.ui.widgets import Button

BOX = (120, 104, 1040, 560)

#: Why a configuration change cannot be made now, as the snapshot shows it (the
#: controller checks again when the change is sent).
NEEDS_DOOR = N_("Open the main door first: changes here need it.")
NEEDS_ZERO_CREDITS = N_("Cash out or hand pay the credits first: a change needs zero credits (now {amount}).")
NEEDS_NO_ROUND = N_("Wait for the round in play to end.")
NEEDS_NO_PAYOUT = N_("Wait for the payout in progress to end.")


def blocker(desk: Desk) -> str | None:
    """Why the paytable or the limits cannot change now (door, credits, round, payout),
    in the operator's words; None when nothing in the snapshot stands in the way, so a
    confirmation is offered only for a change that can be made."""
    snap = desk.snap
    if not snap.door_open:
        return _(NEEDS_DOOR)
    if snap.phase is MachinePhase.CASHOUT or snap.cashout is not None:
        return _(NEEDS_NO_PAYOUT)
    if snap.phase is MachinePhase.IN_ROUND:
        return _(NEEDS_NO_ROUND)
    if snap.credits > 0:
        return _(NEEDS_ZERO_CREDITS).format(amount=desk.money(snap.credits))
    return None


@dataclass(frozen=True)
class Change:
    """One line of a confirmation: ``label``, the value in force and the value asked for
    (all already translated and formatted)."""

    label: str
    old: str
    new: str


@dataclass(frozen=True)
class Confirmation:
    """What the dialog asks (``question``), the ``changes`` and a ``note`` under them;
    the CONFIRM button (id ``confirm_id``) carries ``confirm``, CANCEL (``cancel_id``)
    ``cancel``."""

    question: str
    changes: tuple[Change, ...]
    confirm_id: str
    cancel_id: str
    note: str = ""
    confirm: object = Dialog.CONFIRM
    cancel: object = Dialog.CANCEL


def buttons(c: Confirmation, confirm_label: str | None = None, cancel_label: str | None = None) -> list[Button]:
    """CANCEL and CONFIRM CHANGE (or the labels given)."""
    x, y, w, h = BOX
    return [Button(c.cancel_id, (x + 40, y + h - 110, 340, 90), cancel_label or _("CANCEL"), c.cancel,
                   style="plain", hint="Esc"),
            Button(c.confirm_id, (x + w - 420, y + h - 110, 380, 90), confirm_label or _("CONFIRM CHANGE"),
                   c.confirm, style="primary")]


def draw(desk: Desk, surface: pygame.Surface, c: Confirmation) -> None:
    ui, lay = desk.ui, desk.layout
    ui.shade(surface, 170)
    x, y, w, h = BOX
    box = lay.rect(*BOX)
    ui.box(surface, box, (24, 30, 38), 250, radius=18, border=theme.GOLD, border_w=3)
    ui.fitted(surface, c.question, 28, theme.GOLD, w - 60, bold=True, topleft=(x + 30, y + 24))
    cy = y + 78
    col = (w - 60) / 3
    if c.changes:
        ui.fitted(surface, _("In force"), 20, theme.MUTED, col - 10, topleft=(x + 30 + col, cy))
        ui.fitted(surface, _("New"), 20, theme.MUTED, col - 10, topleft=(x + 30 + 2 * col, cy))
        cy += 32
    for ch in c.changes:
        same = ch.old == ch.new
        ui.fitted(surface, ch.label, 22, theme.CREAM, col - 10, topleft=(x + 30, cy))
        ui.fitted(surface, ch.old, 22, theme.CREAM, col - 10, topleft=(x + 30 + col, cy))
        ui.fitted(surface, ch.new, 22, theme.CREAM if same else theme.WIN, col - 10, bold=not same,
                  topleft=(x + 30 + 2 * col, cy))
        cy += 31
    if c.note:
        ui.paragraph(surface, c.note, 20, theme.MUTED, x + 30, cy + 10, w - 60)
