"""The rules, page by page (from the game's published rules, seeds 002 and 004), the hand
rankings with example cards, and the keyboard shortcuts."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pygame

from engine.cards import parse_cards
from engine.hands.categories import HandCategory
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _, category_name
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import draw_top_bar, top_buttons, top_intent
from kiosk.ui.scenes.intents import TOP_COMMANDS, Nav, TopBar
from kiosk.ui.widgets import Button

PAGES: list[tuple[str, list[str]]] = [
    (N_("The aim of the game"), [
        N_("Ultimate Texas Hold'em is played against the dealer with one standard 52-card deck, "
           "shuffled before every round. Your aim is a better five-card hand than the dealer's, "
           "made from your two cards and the five community cards."),
        N_("Choose a chip and touch the ANTE spot. A Blind bet of the same amount is placed for you "
           "automatically. You may also bet on Trips. Then touch DEAL."),
        N_("You receive two cards face up and the dealer two cards face down. The five community cards "
           "are shown in two steps: three cards (the flop), then the last two (the turn and the river)."),
    ]),
    (N_("Your decisions"), [
        N_("You may raise once in a round by placing a PLAY bet. The earlier you play, the more you may bet:"),
        N_("• Before the flop: PLAY 4× or 3× your Ante, or CHECK."),
        N_("• After the flop: PLAY 2× your Ante, or CHECK."),
        N_("• After the river: PLAY 1× your Ante, or FOLD. Folding loses the Ante and the Blind."),
        N_("Once you have played there are no more decisions: the remaining cards are shown and the dealer "
           "turns over his cards."),
    ]),
    (N_("How the bets are paid"), [
        N_("Your best five-card hand is compared with the dealer's. The dealer needs a pair or better to qualify."),
        N_("• You win: Play pays 1 to 1. The Ante pays 1 to 1 if the dealer qualifies and is returned if not. "
           "The Blind pays by its table on a straight or better and is returned on a smaller hand."),
        N_("• The dealer wins: the Blind and Play bets lose; the Ante loses too if the dealer qualifies."),
        N_("• A tie: the Ante, Blind and Play bets are returned."),
        N_("Winnings go to the credit meter. Malfunction voids all pays and play."),
    ]),
    (N_("Trips"), [
        N_("Trips is an optional side bet placed before the deal."),
        N_("It pays on your final five-card hand of three of a kind or better, whatever the dealer holds, "
           "and even if you check or fold."),
        N_("Touch PAYS to see the Trips and Blind tables of this machine."),
    ]),
]

EXAMPLES: list[tuple[HandCategory, str]] = [
    (HandCategory.ROYAL_FLUSH, "As Ks Qs Js Ts"),
    (HandCategory.STRAIGHT_FLUSH, "9h 8h 7h 6h 5h"),
    (HandCategory.FOUR_OF_A_KIND, "Ac Ad Ah As Kd"),
    (HandCategory.FULL_HOUSE, "Kc Kd Kh 6s 6d"),
    (HandCategory.FLUSH, "Ac Jc 8c 6c 3c"),
    (HandCategory.STRAIGHT, "9d 8c 7h 6s 5d"),
    (HandCategory.THREE_OF_A_KIND, "Qc Qd Qh 7s 3d"),
    (HandCategory.TWO_PAIR, "Ac Ad Kh Ks 4c"),
    (HandCategory.PAIR, "Kc Kh 9d 6s 3c"),
    (HandCategory.HIGH_CARD, "Ad Jc 8h 6s 3d"),
]

#: (keys as shown, what they do) on the shortcuts page.
SHORTCUT_LINES: list[tuple[str, str]] = [
    (N_("Space or Enter"), N_("Deal (rebet and deal after a round)")),
    ("A / S", N_("Put the chosen chip on Ante / Trips")),
    ("← / →", N_("Choose a chip")),
    (N_("C or Backspace"), N_("Clear the bets")),
    ("R", N_("Repeat the last bets")),
    ("P / M", N_("Play the most allowed (4×, 2×, 1×) / Play 3×")),
    ("K / F", N_("Check / Fold")),
    ("O", N_("Cash out")),
    ("H, F1 / Y / G", N_("Rules / Pays / History")),
    ("L", N_("Change the language")),
    ("E", N_("Settings")),
    ("D / U / V", N_("Deck colours / Animation speed / Sound")),
    ("Esc", N_("Back")),
]
#: Keys that exist only on the demo cabinet (shown only in demo mode).
DEMO_SHORTCUT_LINES: list[tuple[str, str]] = [
    ("1 – 6, T", N_("Demo: insert a bill ($1 to $100), insert the last ticket")),
    ("F9", N_("Demo: open or close the door")),
    ("F12", N_("Attendant key")),
]
#: Key labels that are words, so translated.
WORD_KEYS = {N_("Space or Enter"), N_("C or Backspace")}

#: Shortcut command name -> request: Esc and H go back, ← / → turn the page.
COMMANDS: dict[str, Nav | TopBar] = {
    **TOP_COMMANDS,
    "back": Nav.BACK,
    "help": Nav.BACK,
    "chip_next": Nav.NEXT,
    "chip_prev": Nav.PREV,
}


class HelpScene(Scene):
    name = "help"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.page = 0

    @property
    def pages(self) -> int:
        return len(PAGES) + 2

    def enter(self, **kwargs: Any) -> None:
        self.page = int(kwargs.get("page", 0))

    def buttons(self) -> list[Button]:
        return top_buttons("help") + [
            Button("prev", (40, 622, 220, 90), _("PREVIOUS"), Nav.PREV, style="plain", enabled=self.page > 0, hint="←"),
            Button("back", (490, 622, 300, 90), _("BACK TO TABLE"), Nav.BACK, style="primary", hint="Esc"),
            Button("next", (1020, 622, 220, 90), _("NEXT"), Nav.NEXT, style="plain",
                   enabled=self.page < self.pages - 1, hint="→"),
        ]

    def on_command(self, name: str, arg: object = None) -> bool:
        intent = COMMANDS.get(name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Nav.BACK | TopBar.HELP:
                self.app.go("table")
            case Nav.NEXT:
                self.page = min(self.pages - 1, self.page + 1)
            case Nav.PREV:
                self.page = max(0, self.page - 1)
            case TopBar():
                return top_intent(self.app, intent)
            case _:
                return False
        return True

    def look(self) -> Hashable:
        return self.page

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        draw_top_bar(self.app, surface, "help")
        box = lay.rect(40, 108, 1200, 500)
        ui.box(surface, box, (0, 0, 0), 130, radius=18, border=theme.GOLD_DARK)
        ui.label(surface, f"{self.page + 1} / {self.pages}", 20, theme.MUTED, topright=(1220, 120))
        if self.page < len(PAGES):
            title, paras = PAGES[self.page]
            ui.fitted(surface, _(title), 36, theme.GOLD, 1000, bold=True, topleft=(70, 122))
            y = 184.0
            for p in paras:
                y = ui.paragraph(surface, _(p), 25, theme.CREAM, 70, y, 1140) + 10
        elif self.page == len(PAGES):
            self._draw_rankings(surface)
        else:
            self._draw_shortcuts(surface)
        self.draw_buttons(surface)

    def _draw_rankings(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        ui.fitted(surface, _("Winning hands, best first"), 36, theme.GOLD, 1000, bold=True, topleft=(70, 122))
        w = lay.px(42)
        for i, (cat, cards) in enumerate(EXAMPLES):
            col, row = divmod(i, 5)
            x, y = 70 + col * 590, 180 + row * 84
            ui.fitted(surface, f"{i + 1}. " + category_name(cat), 24, theme.CREAM, 300, midleft=(x, y + 30))
            for j, c in enumerate(parse_cards(cards)):
                img = self.app.cards.face(c, w, self.app.prefs.four_colour)
                surface.blit(img, lay.pos(x + 310 + j * 47, y))

    def shortcut_lines(self) -> list[tuple[str, str]]:
        """The keys the page lists: the player's, and the demo's stand-ins for bills,
        tickets, the door and the key switch only where those keys work (the demo keys
        on: a cabinet's ``--no-demo`` or production screens list none of them)."""
        return SHORTCUT_LINES + (DEMO_SHORTCUT_LINES if self.app.demo_mode else [])

    def _draw_shortcuts(self, surface: pygame.Surface) -> None:
        ui = self.ui
        ui.fitted(surface, _("Keyboard shortcuts"), 36, theme.GOLD, 1000, bold=True, topleft=(70, 122))
        for i, (keys, what) in enumerate(self.shortcut_lines()):
            col, row = divmod(i, 8)
            x, y = 70 + col * 590, 180 + row * 52
            ui.fitted(surface, _(keys) if keys in WORD_KEYS else keys, 22, theme.WIN, 170,
                      bold=True, topleft=(x, y))
            ui.paragraph(surface, _(what), 20, theme.CREAM, x + 180, y + 2, 390, line_gap=1.15)
