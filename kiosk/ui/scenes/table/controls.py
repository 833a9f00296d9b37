"""The table's buttons, made afresh from the snapshot each frame.

Each button carries the request it stands for (:mod:`.intents`); the decisions and the
Play each one wagers come from the round and the controller's offers
(:func:`.credit.decisions`), never from a copy of the rules here.  Keyboard hints are
drawn on the buttons in demo mode only (``hints``): a cabinet has no keyboard.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.uth.round import Action
from kiosk.game.snapshot import MachinePhase, MachineSnapshot
from kiosk.ui import i18n, theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.table.credit import Decision, deal_refusal
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


def decision_buttons(decisions: Sequence[Decision], money: Money, hints: bool = True) -> list[Button]:
    """One button per decision of the round, its Play wager under the label (none for a
    check or a fold), centred on the rail; a decision the credits do not cover is shown
    disabled, with the reason under it."""
    out = []
    widths = [250] * max(1, len(decisions))
    total = sum(widths) + 18 * (len(widths) - 1)
    x = 640 - total / 2 + 110
    for d in decisions:
        a = d.action
        sub = money(d.play) if d.play else ""
        if not d.affordable:
            sub = _("{amount} · too few credits").format(amount=money(d.play))
        out.append(Button(f"act_{a.value}", (x, ROW_Y, 250, ROW_H), _(ACTION_LABELS[a]), Choose((a,)),
                          style=ACTION_STYLES.get(a, "play"), sublabel=sub, enabled=d.affordable,
                          hint=ACTION_HINTS.get(a, "P") if hints else "", size=32))
        x += 268
    return out


def betting_buttons(snap: MachineSnapshot, chips: Sequence[int], chip_index: int, betting: bool,
                    money: Money, hints: bool = True) -> list[Button]:
    """The chip rail and CLEAR, REPEAT, DEAL (REBET & DEAL after a round) and CASH OUT.

    DEAL is lit only when the controller would deal the bets (limits and credits,
    :func:`.credit.deal_refusal`); unlit it still answers a touch with the reason."""
    out = []
    y, h = ROW_Y, ROW_H
    x = 16
    for i, c in enumerate(chips):
        style = "selected" if i == chip_index else "plain"
        out.append(Button(f"chip_{c}", (x, y, 90, h), money(c, compact=True), PickChip(i),
                          style=style, round=True, enabled=betting, colour=theme.chip_colour(c, i)))
        x += 98
    has_bet = snap.bet_ante > 0 or snap.bet_trips > 0 or snap.bet_progressive > 0
    rebet = snap.phase is MachinePhase.RESULT and not has_bet
    out.append(Button("clear", (626, y, 124, h), _("CLEAR"), ClearChips(), style="plain",
                      enabled=betting and has_bet, hint="C" if hints else "", size=26))
    repeatable = betting and not has_bet and snap.ante > 0 and snap.credits > 0  # a previous bet, credits
    out.append(Button("repeat", (758, y, 134, h), _("REPEAT"), RepeatChips(), style="plain",
                      enabled=repeatable, hint="R" if hints else "", size=26))
    deal_label = _("REBET & DEAL") if rebet else _("DEAL")
    can_deal = betting and (snap.bet_ante > 0 or rebet)
    lit = can_deal and deal_refusal(snap) is None
    out.append(Button("deal", (900, y, 206, h), deal_label, DealRound(), style="primary" if lit else "unlit",
                      enabled=can_deal, hint="Space" if hints else "", size=34))
    out.append(Button("cashout", (1114, y, 150, h), _("CASH OUT"), AskCashOut(), style="dark",
                      enabled=betting and snap.credits > 0, hint="O" if hints else "", size=24))
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
