"""Hand rankings: which hand beats which, best first, each with an example."""

from __future__ import annotations

from collections.abc import Hashable
from enum import Enum

import pygame

from engine.cards import parse_cards
from engine.hands.categories import HandCategory
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _, category_name
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.tournament.common import (
    IDLE_OTHER,
    back_button,
    deck_four,
    idle_for,
    title_bar,
)
from kiosk.ui.widgets import Button

CARD_W = 50
RANKINGS: tuple[tuple[HandCategory, str, str], ...] = (
    (HandCategory.ROYAL_FLUSH, "As Ks Qs Js Ts", N_("Ace, king, queen, jack and ten of one suit")),
    (HandCategory.STRAIGHT_FLUSH, "9h 8h 7h 6h 5h", N_("Five in a row, all of one suit")),
    (HandCategory.FOUR_OF_A_KIND, "Qc Qd Qh Qs 7d", N_("Four cards of the same rank")),
    (HandCategory.FULL_HOUSE, "Kd Kc Ks 4h 4d", N_("Three of a kind and a pair")),
    (HandCategory.FLUSH, "Ad Jd 9d 6d 2d", N_("Five of one suit")),
    (HandCategory.STRAIGHT, "Tc 9d 8h 7s 6c", N_("Five in a row; the ace can be high or low")),
    (HandCategory.THREE_OF_A_KIND, "8s 8h 8d Kc 3s", N_("Three cards of the same rank")),
    (HandCategory.TWO_PAIR, "Jh Jc 5s 5d Ac", N_("Two different pairs")),
    (HandCategory.PAIR, "Th Ts Ad 7c 4h", N_("Two cards of the same rank")),
    (HandCategory.HIGH_CARD, "Ah Qd 9s 6c 3h", N_("None of these: the highest card plays")),
)


class Rules(Enum):
    """Read the guide's full rules."""

    GUIDE = "guide"


#: Keys: Esc, Y (this page's key), Space and Enter back.
KEYS: dict[str, Nav] = {"escape": Nav.BACK, "y": Nav.BACK, "space": Nav.BACK, "return": Nav.BACK}


class TournamentRankingsScene(Scene):
    name = "tournament_rankings"

    def buttons(self) -> list[Button]:
        return [Button("guide", (16, 626, 330, 86), _("READ THE FULL RULES"), Rules.GUIDE, style="plain", size=24),
                back_button(_("BACK TO THE GAME"), 934, 626, 330)]

    def on_key(self, key: Key) -> bool:
        intent = KEYS.get(key.name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Rules.GUIDE:
                self.app.go("tournament_guide")
            case Nav.BACK:
                self.app.go("tournament" if getattr(self.app, "tournament", None) is not None
                            and self.app.tournament.session is not None else "tournament_setup")
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
        title_bar(self.app, surface, _("Hand rankings"), _("Best first. The best five of your seven cards count."),
                  slim=True)
        w = lay.px(CARD_W)
        four = deck_four(self.app)
        for i, (cat, example, text) in enumerate(RANKINGS):
            col, row = divmod(i, 5)
            x = 20 + col * 630
            y = 74 + row * 108
            box = lay.rect(x, y, 610, 100)
            ui.box(surface, box, (0, 0, 0), 120, radius=12)
            ui.label(surface, str(i + 1), 26, theme.GOLD, bold=True, midleft=(x + 12, y + 50))
            for j, c in enumerate(parse_cards(example)):
                surface.blit(self.app.cards.face(c, w, four), lay.pos(x + 44 + j * (CARD_W + 4), y + 15))
            tx = x + 44 + 5 * (CARD_W + 4) + 10
            ui.fitted(surface, category_name(cat), 24, theme.WHITE, 610 - (tx - x) - 10, bold=True,
                      topleft=(tx, y + 12))
            ui.paragraph(surface, _(text), 17, theme.CREAM, tx, y + 46, 610 - (tx - x) - 12, line_gap=1.15)
        ui.paragraph(surface, _("Between two hands of the same kind, the higher cards win, then the next highest "
                                "(the kicker). Suits never break a tie; equal hands share the pot."),
                     16, theme.MUTED, 360, 628, 560, line_gap=1.15)
        self.draw_buttons(surface)
