"""What the tournament screens share: words and numbers, the top bar.

The tournament (free play, chips are points) lives beside the casino game: its screens
never read or change the credit meter.  The host's ``tournament``
(:class:`kiosk.friends.context.TournamentContext`) holds the store, the session being
played and the setup screen's choices.  Everything shown is translated when drawn (names of actions, places, tables) from the
session's structured records, so the language can change in the middle of a game.
"""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.tournament.session import TournamentSession
from kiosk.tournament.settings import DEFAULT_NAME
from kiosk.ui import i18n, theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, P_, _, pgettext, tr
from kiosk.ui.scenes.intents import Nav, TopBar
from kiosk.ui.widgets import Button

TOP_H = 94
#: Seconds without a touch before a tournament screen gives way to the attract screen
#: (the game is saved: the Tournament button continues it).
IDLE_TABLE = 300.0
IDLE_OTHER = 90.0

STRENGTH_NAMES = {"easy": P_("strength", "Easy"), "normal": P_("strength", "Normal"),
                  "hard": P_("strength", "Hard")}
SPEED_NAMES = {"slow": N_("Slow"), "normal": N_("Normal"), "fast": N_("Fast")}
TABLE_NAMES = {
    "seed003": N_("Texas Hold'em"),
    "classic": N_("Classic"),
    "turbo": N_("Turbo"),
    "deep": N_("Deep Stack"),
    "steady": N_("Steady Blinds"),
    "heads_up": N_("Heads-Up"),
    "custom": N_("Custom"),
}
PLACES = (P_("place", "1st"), P_("place", "2nd"), P_("place", "3rd"), P_("place", "4th"),
          P_("place", "5th"), P_("place", "6th"))
STREET_NAMES = {1: N_("Flop"), 2: N_("Turn"), 3: N_("River")}


# -- words and numbers -----------------------------------------------------------------------------
def chips(n: int) -> str:
    """Chips as the player reads them: ``1,500`` (French ``1 500``)."""
    sep = pgettext("number format", "thousands separator")
    return f"{int(n):,}".replace(",", "\x00").replace("\x00", sep)


def percent(x: float) -> str:
    # Translators: a percentage; keep {n}.
    return pgettext("percent", "{n}%").format(n=round(100 * x))


def place_name(place: int) -> str:
    return tr(PLACES[place - 1]) if 1 <= place <= len(PLACES) else str(place)


def seat_name(session: TournamentSession, seat: int) -> str:
    """The local player is "You" in every language; computer players keep their names,
    friends show the name they chose."""
    if seat == session.human_seat:
        return _("You")
    return session.remote.display_name(seat)


def player_name(name: str) -> str:
    """A local player's name as shown: "You" (translated) until they type one."""
    return _("You") if name == DEFAULT_NAME else name


def deck_four(app: SceneHost) -> bool:
    """The deck the tournament's player chose (the game's, else the setup's): 4 colours?"""
    s = app.tournament.session
    return s.four_colour if s is not None else app.tournament.settings.four_colour


def table_name(key: str) -> str:
    return _(TABLE_NAMES.get(key, TABLE_NAMES["custom"]))


def strength_name(key: str) -> str:
    return tr(STRENGTH_NAMES[key]) if key in STRENGTH_NAMES else key


def play_time(seconds: float) -> str:
    if seconds < 60:
        return _("Under a minute")
    m = int(seconds // 60)
    h, m = divmod(m, 60)
    if h:
        return _("{h} h {m} min").format(h=h, m=m)
    return _("{m} min").format(m=m)


def blinds_text(small: int, big: int) -> str:
    return _("Blinds {small}/{big}").format(small=chips(small), big=chips(big))


def record_text(session: TournamentSession, r: dict[str, Any]) -> str | None:
    """One line of the hand history for a record (``record_to_dict`` form), or ``None``:
    "Max: Raise to 120", "You: Call 40, all in", "Ike: Wins 300"."""
    kind = r.get("type")
    seat = r.get("seat")
    all_in = bool(r.get("all_in"))
    what: str | None = None
    if kind == "BlindPosted":
        what = (_("Small blind {amount}") if r["blind"] == "small" else _("Big blind {amount}")).format(
            amount=chips(r["amount"]))
    elif kind == "Folded":
        what = _("Fold")
    elif kind == "Checked":
        what = _("Check")
    elif kind == "Called":
        what = _("Call {amount}").format(amount=chips(r["amount"]))
    elif kind == "BetMade":
        what = _("Bet {amount}").format(amount=chips(r["total"]))
    elif kind == "Raised":
        what = _("Raise to {amount}").format(amount=chips(r["total"]))
    elif kind == "UncalledReturned":
        what = _("{amount} not called, returned").format(amount=chips(r["amount"]))
    elif kind == "HandShown":
        from kiosk.ui.i18n import hand_name

        what = _("Shows {hand}").format(hand=hand_name(int(r["strength"])))
    elif kind == "PotAwarded":
        lines = []
        for w, share in zip(r["winners"], r["shares"], strict=False):
            text = (_("Wins {amount}") if r["index"] == 0 else _("Wins {amount} from side pot {n}")).format(
                amount=chips(share), n=r["index"])
            lines.append(_("{name}: {action}").format(name=seat_name(session, int(w)), action=text))
        return "\n".join(lines)
    if what is None or seat is None:
        return None
    if all_in and kind in ("BlindPosted", "Called", "BetMade", "Raised"):
        what = _("{action}, all in").format(action=what)
    # Translators: a line of the hand history, "Max: Raise to 120".
    return _("{name}: {action}").format(name=seat_name(session, int(seat)), action=what)


# -- drawing ------------------------------------------------------------------------------------------
def top_background(app: SceneHost, surface: pygame.Surface, h: float = TOP_H) -> None:
    ui, lay = app.painter, app.layout
    bar = pygame.Rect(0, 0, lay.size[0], lay.rect(0, 0, 1280, h).bottom)
    ui.box(surface, bar, theme.RAIL, 235, radius=0)
    pygame.draw.line(surface, theme.GOLD_DARK, (0, bar.bottom - 1), (lay.size[0], bar.bottom - 1),
                     max(1, lay.px(2)))


def title_bar(app: SceneHost, surface: pygame.Surface, title: str, subtitle: str = "", *, slim: bool = False,
              width: float = 860) -> None:
    """The bar of the tournament's secondary screens: a title and a line under it (beside
    it when ``slim``: a 64-unit bar with no buttons)."""
    top_background(app, surface, 64 if slim else TOP_H)
    ui = app.painter
    if slim:
        ui.fitted(surface, title, 30, theme.GOLD, 420, bold=True, midleft=(22, 32))
        if subtitle:
            ui.fitted(surface, subtitle, 19, theme.MUTED, 800, midright=(1258, 33))
        return
    ui.fitted(surface, title, 34, theme.GOLD, width, bold=True, topleft=(22, 10))
    if subtitle:
        ui.fitted(surface, subtitle, 19, theme.MUTED, width, topleft=(24, 58))


def points_only(app: SceneHost, surface: pygame.Surface, y: float = 700) -> None:
    app.painter.fitted(surface, _("Chips are points only: no money."), 16, theme.MUTED, 600, bold=False,
                       midbottom=(640, y))


def back_button(label: str | None = None, x: float = 1046, y: float = 4, w: float = 228) -> Button:
    return Button("back", (x, y, w, 86), label or _("BACK"), Nav.BACK, style="dark", hint="Esc", size=26)


def idle_for(app: SceneHost) -> float:
    return app.now - app.last_input


def language_button(x: float, y: float = 4, w: float = 150) -> Button:
    return Button("language", (x, y, w, 86), i18n.native_name(i18n.language()), TopBar.LANGUAGE, style="dark",
                  size=22, hint="L")
