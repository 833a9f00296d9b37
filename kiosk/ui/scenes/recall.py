"""Game recall: the last ten rounds from the controller, card by card.

Cards are stepped through in the order they were dealt (yours, the dealer's face down,
yours, the dealer's, the flop, the turn, the river, then the dealer's reveal), with each
decision shown once its moment is reached.  Hand names are built in the current
language from the cards, never read from the stored English text.

A controller with ``recall_async`` (a player station: the rounds come from the table
host) is asked without blocking a frame: the scene says it is reading the history, then
shows the rounds when they arrive, or says the history could not be read.
"""

from __future__ import annotations

from collections.abc import Hashable
from concurrent.futures import Future
from enum import Enum
from fractions import Fraction
from typing import Any

import pygame

from engine.hands.categories import HandCategory
from engine.hands.evaluator import best_five, evaluate
from kiosk.game.errors import MachineError
from kiosk.ledger.records import DecisionRecord, RoundRecord
from kiosk.ui import theme
from kiosk.ui.i18n import N_, _, category_name, hand_name, pgettext
from kiosk.ui.round_words import OUTCOME_WORDS, RESULT_WORDS, net_text, paid_text, why
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import draw_top_bar, fmt, top_buttons, top_intent
from kiosk.ui.scenes.intents import TOP_COMMANDS, Nav, TopBar
from kiosk.ui.widgets import Button

CARD_W = 72


class Step(Enum):
    """Stepping through the shown round's cards."""

    CARD = "step"  # one card more
    CARD_BACK = "step_back"  # one card fewer
    ALL = "all"  # every card


RecallIntent = Step | Nav | TopBar
#: Shortcut command name -> request: Esc and G go back, ← / → step a card.
COMMANDS: dict[str, RecallIntent] = {
    **TOP_COMMANDS,
    "back": Nav.BACK,
    "recall": Nav.BACK,
    "chip_next": Step.CARD,
    "chip_prev": Step.CARD_BACK,
}
#: Keys this screen reads itself: ↑ the newer round, ↓ the older.
KEYS: dict[str, Nav] = {"up": Nav.NEWER, "down": Nav.OLDER}
ORDER = ("p0", "d0", "p1", "d1", "b0", "b1", "b2", "b3", "b4", "reveal")
#: After how many dealt cards each decision phase is reached.
PHASE_STEP = {"preflop": 4, "flop": 7, "river": 9}
#: A stored outcome in an attendant's words (shared with History and the dealer display).
OUTCOMES = OUTCOME_WORDS
ACTIONS = {
    "play_4x": N_("Play 4×"), "play_3x": N_("Play 3×"), "play_2x": N_("Play 2×"),
    "play_1x": N_("Play 1×"), "check": N_("Check"), "fold": N_("Fold"),
}
PHASES = {"preflop": N_("Before the flop"), "flop": N_("After the flop"), "river": N_("After the river")}
SPOT_NAMES = {"ante": N_("Ante"), "blind": N_("Blind"), "play": N_("Play"), "trips": N_("Trips"),
              "progressive": N_("Progressive")}


def round_reason(r: Any) -> str:
    """Why a stored round went as it did when the hand names do not say it (a kicker, a
    dealer who did not qualify), from its cards; "" otherwise."""
    if len(r.board) != 5 or len(r.player_hole) != 2 or len(r.dealer_hole) != 2:
        return ""
    mine, theirs = (*r.player_hole, *r.board), (*r.dealer_hole, *r.board)
    return why(evaluate(mine), evaluate(theirs), best_five(mine), best_five(theirs), r.dealer_qualifies,
               r.outcome == "fold", r.blind_return > r.blind)


def antes(value: Fraction) -> str:
    """A value in Antes with two decimals, in the current language's decimal point."""
    return f"{float(value):.2f}".replace(".", pgettext("number format", "decimal point"))


def value_line(d: DecisionRecord) -> str | None:
    """A decision against its best alternative, in the current language: "Play 1×: 0.21
    Ante better than Fold" when it was optimal, "Check: 0.35 Ante worse than Play 4×
    (optimal)" when not; None for a decision stored without its exact values."""
    ev = d.ev
    if ev is None or d.best is None or d.best_ev is None or len(d.values) < 2:
        return None
    action = _(ACTIONS.get(d.action.value, d.action.value))
    if d.action == d.best:
        other = max((a for a in d.values if a != d.action), key=d.values.__getitem__)
        margin = ev - d.values[other]
        name = _(ACTIONS.get(other.value, other.value))
        if not margin:
            return _("{action}: as good as {other}").format(action=action, other=name)
        return _("{action}: {amount} Ante better than {other}").format(action=action, amount=antes(margin),
                                                                       other=name)
    best = _(ACTIONS.get(d.best.value, d.best.value))
    return _("{action}: {amount} Ante worse than {best} (optimal)").format(action=action, amount=antes(d.best_ev - ev),
                                                                          best=best)


class RecallScene(Scene):
    name = "recall"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.rounds: list[RoundRecord] = []
        self.index = 0
        self.step = len(ORDER)
        self.asking: Future[list[RoundRecord]] | None = None  # the answer awaited
        self.unreadable = False
        self.from_host = False  # the rounds are a station's copies (no deck: other seats' cards)

    def enter(self, **kwargs: Any) -> None:
        self.index, self.step, self.rounds, self.unreadable = 0, len(ORDER), [], False
        controller = self.app.model.controller
        self.from_host = controller.recall_kept_elsewhere
        self.asking = controller.recall_async(10)
        self.update(0.0)

    def update(self, dt: float) -> None:
        asking = self.asking
        if asking is None or not asking.done():
            return
        self.asking = None
        try:
            self.rounds = list(asking.result())
        except MachineError:
            self.rounds, self.unreadable = [], True
        self.index, self.step = 0, len(ORDER)

    def buttons(self) -> list[Button]:
        n = len(self.rounds)
        y, h = 622, 90
        return top_buttons("recall") + [
            Button("newer", (16, y, 196, h), _("NEWER"), Nav.NEWER, enabled=self.index > 0, hint="↑"),
            Button("older", (220, y, 196, h), _("OLDER"), Nav.OLDER, enabled=self.index < n - 1, hint="↓"),
            Button("step_back", (440, y, 170, h), _("‹ CARD"), Step.CARD_BACK, enabled=n > 0 and self.step > 0,
                   hint="←"),
            Button("step", (618, y, 170, h), _("CARD ›"), Step.CARD, enabled=n > 0 and self.step < len(ORDER),
                   hint="→"),
            Button("all", (796, y, 170, h), _("ALL CARDS"), Step.ALL, enabled=n > 0 and self.step < len(ORDER)),
            Button("back", (990, y, 274, h), _("BACK TO TABLE"), Nav.BACK, style="primary", hint="Esc"),
        ]

    def on_key(self, key: Any) -> bool:
        intent = KEYS.get(key.name)
        return intent is not None and self.on_intent(intent)

    def on_command(self, name: str, arg: object = None) -> bool:
        intent = COMMANDS.get(name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Nav.BACK | TopBar.RECALL:
                self.app.go("table")
            case Nav.NEWER:
                self.index = max(0, self.index - 1)
                self.step = len(ORDER)
            case Nav.OLDER:
                self.index = min(max(0, len(self.rounds) - 1), self.index + 1)
                self.step = len(ORDER)
            case Step.CARD:
                self.step = min(len(ORDER), self.step + 1) if self.step < len(ORDER) else self.step
            case Step.CARD_BACK:
                self.step = max(0, self.step - 1)
            case Step.ALL:
                self.step = len(ORDER)
            case TopBar():
                return top_intent(self.app, intent)
            case _:
                return False
        return True

    def look(self) -> Hashable:
        # the history's answer arriving (a future, polled by update)
        return self.asking is None, self.unreadable, len(self.rounds), self.index, self.step

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        draw_top_bar(self.app, surface, "recall")
        box = lay.rect(16, 104, 1248, 508)
        ui.box(surface, box, (0, 0, 0), 130, radius=18, border=theme.GOLD_DARK)
        if not self.rounds:
            empty = (_("Reading the game history…") if self.asking is not None else
                     _("The game history could not be read.") if self.unreadable else _("No rounds played yet."))
            ui.fitted(surface, empty, 34, theme.CREAM, 1000, center=(640, 340))
            self.draw_buttons(surface)
            return
        r = self.rounds[self.index]
        head = _("Round {id}").format(id=r.id)
        ui.label(surface, head, 32, theme.GOLD, bold=True, topleft=(40, 116))
        ui.fitted(surface, _("{n} of {total}, most recent first").format(n=self.index + 1, total=len(self.rounds)),
                  20, theme.MUTED, 400, topright=(1240, 118))
        stamp = (r.settled_at or r.started_at).replace("T", " ")[:19] + " UTC"
        ui.fitted(surface, f"{stamp}  ·  {r.paytable}", 20, theme.MUTED,
                  700, topleft=(40, 158))
        self._draw_cards(surface, r)
        self._draw_bets(surface, r)
        self.draw_buttons(surface)

    def _money(self, cents: int) -> str:
        return fmt(self.app, cents)

    def _visible(self, slot: str) -> bool:
        return ORDER.index(slot) < self.step

    def _draw_cards(self, surface: pygame.Surface, r: Any) -> None:
        ui, lay = self.ui, self.layout
        cards = self.app.cards
        w = lay.px(CARD_W)
        four = self.app.prefs.four_colour
        reveal = self.step >= len(ORDER)
        rows = (("d", _("DEALER"), r.dealer_hole, 196), ("b", _("BOARD"), r.board, 318),
                ("p", _("YOUR HAND"), r.player_hole, 440))
        for kind, label, row_cards, y in rows:
            ui.fitted(surface, label, 20, theme.GOLD, 150, bold=True, topleft=(40, y + 36))
            for i in range(5 if kind == "b" else 2):
                slot = f"{kind}{i}"
                x = 196 + i * (CARD_W + 10)
                rect = lay.rect(x, y, CARD_W, cards.height(CARD_W) / lay.scale)
                if not self._visible(slot) or i >= len(row_cards):
                    pygame.draw.rect(surface, (40, 110, 70), rect, max(1, lay.px(2)), border_radius=lay.px(6))
                    continue
                img = cards.face(row_cards[i], w, four) if (kind != "d" or reveal) else cards.back(w)
                surface.blit(img, rect)
        # hand names once every card of the hand is shown
        if reveal and len(r.board) == 5:
            if len(r.player_hole) == 2:
                ui.fitted(surface, hand_name(evaluate((*r.player_hole, *r.board))), 24, theme.WHITE, 330,
                          bold=True, topleft=(370, 470))
            if len(r.dealer_hole) == 2:
                ui.fitted(surface, hand_name(evaluate((*r.dealer_hole, *r.board))), 24, theme.WHITE, 330,
                          bold=True, topleft=(370, 214))
                if r.dealer_qualifies is not None:
                    q = _("Dealer qualifies") if r.dealer_qualifies else _("Dealer does not qualify")
                    ui.fitted(surface, q, 19, theme.MUTED, 330, topleft=(370, 250))
        if r.state == "open":
            ui.fitted(surface, _("Round in progress"), 24, theme.WIN, 330, bold=True, topleft=(370, 470))

    def _draw_bets(self, surface: pygame.Surface, r: Any) -> None:
        ui = self.ui
        x, y = 730, 196
        ui.fitted(surface, _("Bets"), 22, theme.GOLD, 200, bold=True, topleft=(x, y))
        settled = r.state != "open" and self.step >= len(ORDER)
        y += 34
        for spot in ("ante", "blind", "play", "trips", "progressive"):
            stake = getattr(r, spot)
            if not stake:
                continue
            back = r.progressive_award if spot == "progressive" else getattr(r, f"{spot}_return")
            ui.fitted(surface, _(SPOT_NAMES[spot]), 21, theme.CREAM, 140, topleft=(x, y))
            ui.label(surface, fmt(self.app, stake), 21, theme.CREAM, topright=(x + 300, y))
            if settled:
                colour = theme.WIN if back > stake else theme.PUSH if back == stake else theme.LOSE
                ui.label(surface, "→ " + fmt(self.app, back), 21, colour, bold=True, topright=(x + 500, y))
            y += 28
        y += 8
        ui.fitted(surface, _("Decisions"), 22, theme.GOLD, 200, bold=True, topleft=(x, y))
        y += 32
        shown = [d for d in r.decisions if self.step >= PHASE_STEP.get(d.phase, 99)]
        for d in shown:
            text = f"{_(PHASES.get(d.phase, d.phase))}: {_(ACTIONS.get(d.action, d.action))}"
            ui.fitted(surface, text, 20, theme.CREAM, 500, topleft=(x, y))
            y += 26
            worth = value_line(d) if settled else None
            if worth is not None:
                optimal = d.action == d.best
                ui.fitted(surface, worth, 18, theme.MUTED if optimal else theme.PUSH, 500, topleft=(x + 16, y))
                y += 24
        if not shown:
            ui.fitted(surface, "—", 20, theme.MUTED, 500, topleft=(x, y))
            y += 28
        if settled and r.outcome:
            y += 8
            ui.fitted(surface, _(RESULT_WORDS[r.result]), 26, theme.WHITE, 500, bold=True,
                      topleft=(x, y))
            y += 36
            money = self._money
            line = _("{paid} · {net}").format(paid=paid_text(r.paid + r.jackpot, money), net=net_text(r.net, money))
            ui.fitted(surface, line, 22, theme.WIN if r.net > 0 else theme.CREAM, 500, topleft=(x, y))
            y += 32
            if r.progressive_award and r.progressive_hand:
                won = _("Progressive: {hand} {amount}").format(
                    hand=category_name(HandCategory[r.progressive_hand.upper()]), amount=money(r.progressive_award))
                ui.fitted(surface, won, 22, theme.WIN, 500, bold=True, topleft=(x, y))
                y += 32
            reason = round_reason(r)
            if reason:
                ui.fitted(surface, reason, 17, theme.CREAM, 500, max_h=42, topleft=(x, y))
                y += 44
            ok = r.commitment_ok()
            kept = not ok and self.from_host
            ui.fitted(surface, _("Shuffle verified against its commitment") if ok else
                      _("Shuffle kept at the table host for audit") if kept else
                      _("Shuffle not verifiable"), 18, theme.MUTED, 500, topleft=(x, y))
