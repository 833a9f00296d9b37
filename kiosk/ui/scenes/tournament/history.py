"""Hand history: every hand of the game so far, one at a time, newest first -- the
blinds and the button, your cards, the board, every move (the computer players' too),
the cards shown at the showdown and who won what.  Built from the session's structured
records in the current language, so it is translated too."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pygame

from engine.hands.categories import hand_class
from kiosk.tournament.records import HandLog, shown_cards
from kiosk.tournament.session import TournamentSession
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, category_name
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.tournament.common import (
    IDLE_OTHER,
    STREET_NAMES,
    back_button,
    blinds_text,
    deck_four,
    idle_for,
    record_text,
    seat_name,
    title_bar,
)
from kiosk.ui.widgets import Button

CARD_W = 60
SHOWN_W = 46
LINE_H = 30
LINES_Y = 262
COLUMN_LINES = 11
COLUMNS = ((30, 600), (650, 600))
#: Keys: ← older, → newer, ↑ ↓ scroll; Esc, H, G and Space back to the game.
KEYS: dict[str, Nav] = {
    "left": Nav.OLDER,
    "right": Nav.NEWER,
    "up": Nav.UP,
    "down": Nav.DOWN,
    "escape": Nav.BACK,
    "h": Nav.BACK,
    "g": Nav.BACK,
    "space": Nav.BACK,
}


class TournamentHistoryScene(Scene):
    name = "tournament_history"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.index = 0  # 0 = the newest hand
        self.scroll = 0  # lines scrolled

    @property
    def session(self) -> TournamentSession | None:
        return self.app.tournament.session

    def hands(self) -> list[HandLog]:
        s = self.session
        return list(reversed(s.history())) if s is not None else []

    def enter(self, **kwargs: Any) -> None:
        self.index = 0
        self.scroll = 0

    def lines(self, s: TournamentSession, hand: HandLog) -> list[tuple[str, tuple[int, int, int], bool]]:
        """(text, colour, heading) for every line of the hand."""
        out: list[tuple[str, tuple[int, int, int], bool]] = [(_("Before the flop"), theme.GOLD, True)]
        for r in hand.records:
            kind = r.get("type")
            if kind == "BoardDealt":
                out.append((_(STREET_NAMES.get(int(r["street"]), "")), theme.GOLD, True))
                continue
            if kind == "HandShown" and not any(x[0] == _("Showdown") for x in out):
                out.append((_("Showdown"), theme.GOLD, True))
            text = record_text(s, r)
            if not text:
                continue
            colour = theme.WIN if kind == "PotAwarded" else theme.CREAM
            for part in text.split("\n"):
                out.append((part, colour, False))
        return out

    def buttons(self) -> list[Button]:
        n = len(self.hands())
        y, h = 626, 86
        s = self.session
        more = False
        if s is not None and n:
            more = len(self.lines(s, self.hands()[self.index])) > self.scroll + 2 * COLUMN_LINES
        return [
            back_button(_("BACK TO THE GAME"), 16, y, 330),
            Button("older", (530, y, 200, h), _("OLDER"), Nav.OLDER, enabled=self.index < n - 1, hint="←", size=26),
            Button("newer", (740, y, 200, h), _("NEWER"), Nav.NEWER, enabled=self.index > 0, hint="→", size=26),
            Button("up", (1000, y, 126, h), "▲", Nav.UP, enabled=self.scroll > 0, hint="↑", size=30),
            Button("down", (1138, y, 126, h), "▼", Nav.DOWN, enabled=more, hint="↓", size=30),
        ]

    def on_key(self, key: Key) -> bool:
        intent = KEYS.get(key.name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        n = len(self.hands())
        match intent:
            case Nav.BACK:
                self.app.go("tournament")
            case Nav.OLDER:
                self.index, self.scroll = min(max(0, n - 1), self.index + 1), 0
            case Nav.NEWER:
                self.index, self.scroll = max(0, self.index - 1), 0
            case Nav.UP:
                self.scroll = max(0, self.scroll - COLUMN_LINES)
            case Nav.DOWN:
                s = self.session
                if s is not None and n and len(self.lines(s, self.hands()[self.index])) > self.scroll + 2 * COLUMN_LINES:
                    self.scroll += COLUMN_LINES
            case _:
                return False
        return True

    def update(self, dt: float) -> None:
        self.app.tournament.pump_friends(dt)
        if idle_for(self.app) > IDLE_OTHER:
            self.app.tournament.leave_friends()
            self.app.go("attract")

    def look(self) -> Hashable:
        # a hosted friends game in play (pumped each frame) may change what it reads
        return None if self.app.tournament.hosted() is not None else ()

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        s = self.session
        hands = self.hands()
        title_bar(self.app, surface, _("Hand history"), _("Every move of this game, newest hand first."),
                  slim=True)
        box = lay.rect(12, 72, 1256, 546)
        ui.box(surface, box, (0, 0, 0), 140, radius=18, border=theme.GOLD_DARK)
        if s is None or not hands:
            ui.fitted(surface, _("No hands played yet."), 30, theme.CREAM, 1000, center=(640, 340))
            self.draw_buttons(surface)
            return
        self.index = min(self.index, len(hands) - 1)
        hand = hands[self.index]
        head = _("Hand {n}").format(n=hand.number) + "  ·  " + blinds_text(*hand.blinds) + "  ·  " + \
            _("Button: {name}").format(name=seat_name(s, hand.button))
        if hand.in_progress:
            head += "  ·  " + _("in progress")
        ui.fitted(surface, head, 24, theme.GOLD, 1000, bold=True, topleft=(30, 82))
        ui.fitted(surface, _("{n} of {total}").format(n=self.index + 1, total=len(hands)), 19, theme.MUTED, 200,
                  topright=(1250, 86))
        self._draw_cards(surface, s, hand)
        lines = self.lines(s, hand)
        visible = lines[self.scroll:self.scroll + 2 * COLUMN_LINES]
        for i, (text, colour, heading) in enumerate(visible):
            (cx, cw) = COLUMNS[i // COLUMN_LINES]
            y = LINES_Y + (i % COLUMN_LINES) * LINE_H
            ui.fitted(surface, text, 21 if heading else 20, colour, cw, bold=heading,
                      topleft=(cx + (0 if heading else 14), y))
        self.draw_buttons(surface)

    def _draw_cards(self, surface: pygame.Surface, s: TournamentSession, hand: HandLog) -> None:
        ui, lay = self.ui, self.layout
        cards = self.app.cards
        four = deck_four(self.app)
        w = lay.px(CARD_W)
        y = 148
        ui.fitted(surface, _("Your cards"), 19, theme.MUTED, 150, topleft=(30, 118))
        for i, c in enumerate(hand.my_cards or ()):
            surface.blit(cards.face(c, w, four), lay.pos(30 + i * (CARD_W + 6), y))
        if not hand.my_cards:
            ui.fitted(surface, "—", 24, theme.MUTED, 100, topleft=(40, y + 20))
        ui.fitted(surface, _("Board"), 19, theme.MUTED, 200, topleft=(190, 118))
        board = [c for r in hand.records if r.get("type") == "BoardDealt" for c in r["cards"]]
        for i in range(5):
            pos = lay.pos(190 + i * (CARD_W + 6), y)
            if i < len(board):
                surface.blit(cards.face(board[i], w, four), pos)
            else:
                r = pygame.Rect(pos, (w, cards.height(w)))
                pygame.draw.rect(surface, (60, 80, 70), r, max(1, lay.px(2)), border_radius=lay.px(6))
        shown = shown_cards(hand.records)
        strengths = {int(r["seat"]): int(r["strength"]) for r in hand.records if r.get("type") == "HandShown"}
        x = 560
        sw = lay.px(SHOWN_W)
        for seat, pair in list(shown.items())[:5]:
            ui.fitted(surface, seat_name(s, seat), 18, theme.WHITE, 130, bold=True, topleft=(x, 116))
            for i, c in enumerate(pair):
                surface.blit(cards.face(c, sw, four), lay.pos(x + i * (SHOWN_W + 4), 142))
            ui.fitted(surface, category_name(hand_class(strengths[seat])[0]), 18, theme.CREAM, 132,
                      topleft=(x, 208))
            x += 140
