"""The table's buttons, made afresh from the snapshot each frame.

Each button carries the request it stands for (:mod:`.intents`); the decisions and the
Play each one wagers come from the controller's offers (``snapshot.offers``), never from
a copy of the rules here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.uth.round import Action
from kiosk.machine.snapshot import ActionOffer, MachinePhase, MachineSnapshot
from kiosk.ui import i18n, theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.table.intents import (
    AskCashOut,
    Choose,
    ChooseLanguage,
    ClearChips,
    ClosePopup,
    ConfirmCashOut,
    DealRound,
    PickChip,
    RepeatChips,
)
from kiosk.ui.widgets import Button

ACTION_LABELS = {
    Action.PLAY_4X: N_("PLAY 4×"),
    Action.PLAY_3X: N_("PLAY 3×"),
    Action.PLAY_2X: N_("PLAY 2×"),
    Action.PLAY_1X: N_("PLAY 1×"),
    Action.CHECK: N_("CHECK"),
    Action.FOLD: N_("FOLD"),
}
ACTION_STYLES = {Action.CHECK: "check", Action.FOLD: "fold"}
ACTION_HINTS = {Action.CHECK: "K", Action.FOLD: "F", Action.PLAY_3X: "M"}
ROW_Y, ROW_H = 622, 90

#: Cents -> the amount as shown (the cabinet's currency).
Money = Callable[..., str]


def decision_buttons(offers: Sequence[ActionOffer], money: Money) -> list[Button]:
    """One button per offered decision, its Play wager under the label (none for a check
    or a fold), centred on the rail."""
    out = []
    widths = [250] * max(1, len(offers))
    total = sum(widths) + 18 * (len(widths) - 1)
    x = 640 - total / 2 + 110
    for offer in offers:
        a = offer.action
        sub = money(offer.play) if offer.play else ""
        out.append(Button(f"act_{a.value}", (x, ROW_Y, 250, ROW_H), _(ACTION_LABELS[a]), Choose((a,)),
                          style=ACTION_STYLES.get(a, "play"), sublabel=sub, hint=ACTION_HINTS.get(a, "P"),
                          size=32))
        x += 268
    return out


def betting_buttons(snap: MachineSnapshot, chips: Sequence[int], chip_index: int, betting: bool,
                    money: Money) -> list[Button]:
    """The chip rail and CLEAR, REPEAT, DEAL (REBET & DEAL after a round) and CASH OUT."""
    out = []
    y, h = ROW_Y, ROW_H
    x = 16
    for i, c in enumerate(chips):
        style = "selected" if i == chip_index else "plain"
        out.append(Button(f"chip_{c}", (x, y, 90, h), money(c, compact=True), PickChip(i),
                          style=style, round=True, enabled=betting, colour=theme.chip_colour(c, i)))
        x += 98
    has_bet = snap.bet_ante > 0 or snap.bet_trips > 0
    rebet = snap.phase is MachinePhase.RESULT and not has_bet
    out.append(Button("clear", (626, y, 124, h), _("CLEAR"), ClearChips(), style="plain",
                      enabled=betting and has_bet, hint="C", size=26))
    out.append(Button("repeat", (758, y, 134, h), _("REPEAT"), RepeatChips(), style="plain",
                      enabled=betting and not has_bet, hint="R", size=26))
    deal_label = _("REBET & DEAL") if rebet else _("DEAL")
    out.append(Button("deal", (900, y, 206, h), deal_label, DealRound(), style="primary",
                      enabled=betting and (snap.bet_ante > 0 or rebet), hint="Space", size=34))
    out.append(Button("cashout", (1114, y, 150, h), _("CASH OUT"), AskCashOut(), style="dark",
                      enabled=betting and snap.credits > 0, hint="O", size=24))
    return out


def language_buttons() -> list[Button]:
    """The language picker: one button per language, and CLOSE."""
    out = []
    for i, lang in enumerate(i18n.LANGUAGES):
        x = 370 + (i % 2) * 280
        y = 230 + (i // 2) * 120
        style = "selected" if lang == i18n.language() else "dark"
        out.append(Button(f"lang_{lang}", (x, y, 260, 100), i18n.native_name(lang), ChooseLanguage(lang),
                          style=style, size=34))
    out.append(Button("close_popup", (520, 480, 240, 88), _("CLOSE"), ClosePopup(), style="plain"))
    return out


def cashout_buttons() -> list[Button]:
    """The cash-out confirmation: CASH OUT and CANCEL."""
    return [
        Button("confirm_cashout", (380, 430, 250, 96), _("CASH OUT"), ConfirmCashOut(), style="primary"),
        Button("close_popup", (650, 430, 250, 96), _("CANCEL"), ClosePopup(), style="plain"),
    ]
