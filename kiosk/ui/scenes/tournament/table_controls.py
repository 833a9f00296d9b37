"""The buttons around the cabinet's own tournament table (the top bar, the menu and the
abandon confirmation), made afresh from the session each frame, each asking for a
:class:`~kiosk.ui.scenes.tournament.table_intents.Chrome`."""

from __future__ import annotations

from kiosk.tournament.session import TournamentSession
from kiosk.ui import i18n
from kiosk.ui.i18n import _
from kiosk.ui.scenes.tournament.common import SPEED_NAMES
from kiosk.ui.scenes.tournament.table_intents import Chrome
from kiosk.ui.widgets import Button

#: Design units of the top bar's text left of its buttons.
TOP_TEXT_W = 690
#: The speaker button: the sound on or off (its picture is drawn over it).
SPEAKER = (722, 4, 86, 86)


def top_buttons() -> list[Button]:
    """The speaker, History, Hand rankings and Menu, on the top bar."""
    items = [(Chrome.HISTORY, _("History"), "H"), (Chrome.RANKINGS, _("Hand rankings"), "Y"),
             (Chrome.MENU, _("Menu"), "M")]
    out = [Button("top_sound", SPEAKER, "", Chrome.SOUND, style="dark")]
    x = 1276 - 3 * 150 - 2 * 6
    for cmd, label, hint in items:
        out.append(Button(f"top_{cmd.value}", (x, 4, 150, 86), label, cmd, style="dark", size=22, hint=hint))
        x += 156
    return out


def menu_buttons(s: TournamentSession, sound: bool) -> list[Button]:
    """The menu: back to the game; AI speed, equity assist, deck; language, sound, how to
    play; save and leave, abandon."""
    x, w, h, gap = MENU_X, MENU_W, 86, 12
    y = MENU_Y
    on_off = lambda on: _("On") if on else _("Off")  # noqa: E731
    full = 3 * w + 2 * gap
    out = [Button("menu_resume", (x, y, full, h), _("BACK TO THE GAME"), Chrome.CLOSE, style="primary",
                  hint="Esc", size=26)]
    y += h + gap
    deck = _("4 colours") if s.four_colour else _("2 colours")
    row = [("menu_speed", _("AI speed"), Chrome.SPEED, _(SPEED_NAMES[s.ai_speed]), ""),
           ("menu_equity", _("Equity assist"), Chrome.EQUITY, on_off(s.equity_assist), ""),
           ("menu_deck", _("Deck"), Chrome.DECK, deck, "")]
    row2 = [("menu_language", _("Language"), Chrome.LANGUAGE, i18n.native_name(i18n.language()), "L"),
            ("menu_sound", _("Sound"), Chrome.SOUND, on_off(sound), ""),
            ("menu_guide", _("How to play"), Chrome.GUIDE, "", "")]
    for items in (row, row2):
        for i, (bid, label, cmd, sub, hint) in enumerate(items):
            out.append(Button(bid, (x + i * (w + gap), y, w, h), label, cmd, style="dark", size=24, sublabel=sub,
                              hint=hint))
        y += h + gap
    half = (full - gap) / 2
    out.append(Button("menu_leave", (x, y, half, h), _("SAVE AND LEAVE"), Chrome.SAVE_AND_LEAVE, style="plain", size=24))
    out.append(Button("menu_abandon", (x + half + gap, y, half, h), _("ABANDON THIS GAME"), Chrome.ABANDON,
                      style="fold", size=24))
    return out


MENU_X, MENU_Y, MENU_W = 268, 200, 240


def abandon_buttons() -> list[Button]:
    """The abandon confirmation's: Abandon, Cancel."""
    return [Button("confirm_abandon", (350, 420, 280, 96), _("ABANDON"), Chrome.CONFIRM_ABANDON, style="fold",
                   size=28),
            Button("cancel", (650, 420, 280, 96), _("CANCEL"), Chrome.CLOSE, style="plain", hint="Esc", size=28)]
