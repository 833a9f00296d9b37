"""The tournament table's buttons, made afresh from the session each frame."""

from __future__ import annotations

from kiosk.tournament.session import TournamentSession
from kiosk.ui import i18n
from kiosk.ui.i18n import _
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.tournament.common import SPEED_NAMES, chips
from kiosk.ui.scenes.tournament.raise_panel import raise_buttons
from kiosk.ui.scenes.tournament.table_layout import RIGHT_X, ROW2, ROW_H
from kiosk.ui.widgets import Button

#: Design units of the top bar's text left of its buttons.
TOP_TEXT_W = 690
#: The speaker button: the sound on or off (its picture is drawn over it).
SPEAKER = (722, 4, 86, 86)


def top_buttons() -> list[Button]:
    """The speaker, History, Hand rankings and Menu, on the top bar."""
    items = [("history", _("History"), "H"), ("rankings", _("Hand rankings"), "Y"), ("menu", _("Menu"), "M")]
    out = [Button("top_sound", SPEAKER, "", "sound", style="dark")]
    x = 1276 - 3 * 150 - 2 * 6
    for cmd, label, hint in items:
        out.append(Button(f"top_{cmd}", (x, 4, 150, 86), label, cmd, style="dark", size=22, hint=hint))
        x += 156
    return out


def table_buttons(s: TournamentSession, popup: str | None, panel: bool, amount: int, sound: bool) -> list[Button]:
    """The buttons now: the pop-up's (``popup``), else the top bar's and the rail's --
    Next hand, the results, or your decisions (the raise panel's when ``panel`` is open,
    ``amount`` the chips chosen)."""
    if popup == "menu":
        return menu_buttons(s, sound)
    if popup == "abandon":
        return [Button("confirm_abandon", (350, 420, 280, 96), _("ABANDON"), "confirm_abandon", style="fold",
                       size=28),
                Button("cancel", (650, 420, 280, 96), _("CANCEL"), "back", style="plain", hint="Esc", size=28)]
    out = top_buttons()
    if s.is_over or s.playing_out:
        if s.is_over:
            out.append(Button("results", (910, ROW2, 354, ROW_H), _("SEE THE RESULTS"), "results",
                              style="primary", hint="Space", size=28))
        return out
    if s.hand_over:
        label = _("SEE THE RESULTS") if s.human_out else _("NEXT HAND")
        out.append(Button("next", (910, ROW2, 354, ROW_H), label, "next", style="primary", hint="Space",
                          size=30))
        return out
    if not s.my_turn:
        return out
    la = s.legal()
    assert la is not None
    rr = RaiseRange.offered(s.legal())
    if panel and rr is not None:
        return out + raise_buttons(rr, amount)
    w = 262
    x = RIGHT_X + 12
    out.append(Button("fold", (x, ROW2, w, ROW_H), _("FOLD"), "fold", style="fold", hint="F", size=30,
                      enabled=la.can_fold))
    if la.can_check:
        out.append(Button("call", (x + w + 10, ROW2, w, ROW_H), _("CHECK"), "call", style="check", hint="C",
                          size=30))
    else:
        all_in = la.call_amount >= la.stack
        out.append(Button("call", (x + w + 10, ROW2, w, ROW_H), _("CALL"), "call", style="check", hint="C",
                          size=30, sublabel=_("All in") if all_in else chips(la.call_amount)))
    label = _("BET") if la.can_bet else _("RAISE")
    out.append(Button("raise", (x + 2 * (w + 10), ROW2, w, ROW_H), label, "raise", style="play", hint="R",
                      size=30, enabled=rr is not None))
    return out


def menu_buttons(s: TournamentSession, sound: bool) -> list[Button]:
    """The menu: back to the game; AI speed, equity assist, deck; language, sound, how to
    play; save and leave, abandon."""
    x, w, h, gap = MENU_X, MENU_W, 86, 12
    y = MENU_Y
    on_off = lambda on: _("On") if on else _("Off")  # noqa: E731
    full = 3 * w + 2 * gap
    out = [Button("menu_resume", (x, y, full, h), _("BACK TO THE GAME"), "resume", style="primary", hint="Esc",
                  size=26)]
    y += h + gap
    deck = _("4 colours") if s.four_colour else _("2 colours")
    row = [("menu_speed", _("AI speed"), "speed", _(SPEED_NAMES[s.ai_speed]), ""),
           ("menu_equity", _("Equity assist"), "equity", on_off(s.equity_assist), ""),
           ("menu_deck", _("Deck"), "deck", deck, "")]
    row2 = [("menu_language", _("Language"), "language", i18n.native_name(i18n.language()), "L"),
            ("menu_sound", _("Sound"), "sound", on_off(sound), ""),
            ("menu_guide", _("How to play"), "guide", "", "")]
    for items in (row, row2):
        for i, (bid, label, cmd, sub, hint) in enumerate(items):
            out.append(Button(bid, (x + i * (w + gap), y, w, h), label, cmd, style="dark", size=24, sublabel=sub,
                              hint=hint))
        y += h + gap
    half = (full - gap) / 2
    out.append(Button("menu_leave", (x, y, half, h), _("SAVE AND LEAVE"), "leave", style="plain", size=24))
    out.append(Button("menu_abandon", (x + half + gap, y, half, h), _("ABANDON THIS GAME"), "abandon",
                      style="fold", size=24))
    return out


MENU_X, MENU_Y, MENU_W = 268, 200, 240
