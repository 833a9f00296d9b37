"""The tournament table: you at the bottom, the computer players around the felt, the
board and the pots in the middle; your cards, your hand, your equity and your buttons
on the rail.

Everything shown comes from the :class:`kiosk.tournament.session.TournamentSession`;
the scene adds the raise panel (Min, ½ pot, ¾ pot, Pot, All in, a slider and − / + by one
big blind, amounts rounded to the small blind, the button reading All in at the whole
stack), the menu and the notes.  Keys: F fold, C (or K) check or call, R (or B) raise,
↑ ↓ (or ← →) change the amount, Enter raises, Esc goes back, Space deals the next hand;
H the hand history, Y the hand rankings, M the menu.

The frame is drawn again only when something shown changes (the session's version, the
amount, a press, the language...); otherwise the scene reports no damage at all.
"""

from __future__ import annotations

from typing import Any

import pygame

from engine.hands.categories import hand_class
from engine.hands.evaluator import best_five
from engine.holdem.equity import pot_odds
from engine.holdem.records import HandShown
from kiosk.tournament.session import SPEEDS, RaiseRange, TournamentSession
from kiosk.ui import i18n, theme
from kiosk.ui.events import InputEvent, Key, Touch
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, category_name, hand_name
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.tournament.common import (
    IDLE_TABLE,
    SPEED_NAMES,
    blinds_text,
    chips,
    idle_for,
    percent,
    place_name,
    seat_name,
    short_action,
    top_background,
)
from kiosk.ui.widgets import Button

# -- geometry (design units) ------------------------------------------------------------------
OVAL = (60, 118, 1160, 384)
PANEL_W, PANEL_H = 244, 104
MINI_W = 54
#: Opponent slots: panel centre and where their bet sits.
SLOTS: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "A": ((150, 420), (345, 430)),
    "B": ((150, 196), (345, 205)),
    "C": ((640, 152), (640, 226)),
    "D": ((1130, 196), (935, 205)),
    "E": ((1130, 420), (935, 430)),
}
#: Which slots the opponents take, clockwise from the local player's left.
SLOT_ORDER = {1: "C", 2: "BD", 3: "BCD", 4: "ABDE", 5: "ABCDE"}
MY_BET = (640, 462)
BOARD_W = 82
BOARD_Y = 250
RAIL_Y = 512
MY_CARD_W = 92
ROW1, ROW2, ROW_H = 528, 624, 86
RIGHT_X = 446
SLIDER = (548, ROW1, 380, ROW_H)


def _seat_slots(session: TournamentSession) -> dict[int, str]:
    n = session.t.n_seats
    order = SLOT_ORDER[n - 1]
    human = session.human_seat
    return {(human + 1 + i) % n: order[i] for i in range(n - 1)}


class TournamentTableScene(Scene):
    name = "tournament"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.panel = False  # the raise panel is open
        self.amount = 0
        self.popup: str | None = None  # "menu" | "abandon"
        self.note: tuple[str, float] | None = None
        self._sig: tuple | None = None
        self._static: pygame.Surface | None = None
        self._static_key: tuple = ()
        self.dirty: list[pygame.Rect] | None = None
        self._range_key: tuple | None = None

    @property
    def session(self) -> TournamentSession | None:
        return self.app.tournament.session

    # -- life cycle ----------------------------------------------------------------------------
    def enter(self, **kwargs: Any) -> None:
        self.popup = None
        self.panel = False
        self.invalidate()
        s = self.session
        if s is None:
            self.app.go("tournament_setup")
            return
        s.pop_events()

    def invalidate(self) -> None:
        self._sig = None

    def update(self, dt: float) -> None:
        s = self.session
        if s is None:
            return
        if self.popup is None:
            s.update(dt)
        for ev in s.pop_events():
            self._on_event(s, ev)
        if s.is_over and s.recorded and s.state.fast_forward:  # played out: straight to the results
            self.app.go("tournament_results")
            return
        if not s.my_turn:
            self.panel = False
        rr = s.raise_range()
        turn = (s.t.hand_number, len(s.t.hand.history)) if rr is not None and s.t.hand is not None else None
        if rr is not None and turn != self._range_key:  # a new decision: start from the minimum
            self.amount = rr.min_to
        self._range_key = turn
        if self.note is not None and self.app.now > self.note[1]:
            self.note = None
        if idle_for(self.app) > IDLE_TABLE and (s.my_turn or s.hand_over or s.is_over):
            self.app.go("attract")

    def _on_event(self, s: TournamentSession, ev: Any) -> None:
        if ev.kind == "hand":
            self.app.sounds_play("deal")
        elif ev.kind == "board":
            self.app.sounds_play("flip")
        elif ev.kind == "action" and type(ev.data).__name__ in ("Called", "BetMade", "Raised"):
            self.app.sounds_play("chip")
        elif ev.kind == "blinds_up":
            self._note(_("The blinds go up: {small}/{big}").format(small=chips(ev.data.small),
                                                                   big=chips(ev.data.big)))
        elif ev.kind == "out":
            if ev.seat == s.human_seat:
                self._note(_("You are out in {place} place.").format(place=place_name(ev.data)), 6.0)
            else:
                self._note(_("{name} is out in {place} place.").format(name=seat_name(s, ev.seat),
                                                                        place=place_name(ev.data)))
        elif ev.kind == "hand_over":
            res = s.t.last_result
            if res is not None and res.won[s.human_seat] > 0:
                self.app.sounds_play("win")

    def _note(self, text: str, seconds: float = 3.5) -> None:
        self.note = (text, self.app.now + seconds)

    # -- input -----------------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> bool:
        if isinstance(event, Touch) and self.panel and self.popup is None:
            r = self.layout.rect(*SLIDER)
            if r.collidepoint(event.pos):
                s = self.session
                rr = s.raise_range() if s is not None else None
                if rr is not None:
                    inner = r.inflate(-self.layout.px(40), 0)
                    self.amount = rr.at((event.pos[0] - inner.x) / max(1, inner.width))
                return True
        return super().handle(event)

    def on_touch(self, pos: tuple[int, int]) -> bool:
        if self.popup is not None:
            return True
        return False

    def on_key(self, key: Key) -> bool:
        name = key.name
        if self.popup is not None:
            if name == "escape":
                self.popup = None
                return True
            if name in ("m",):
                self.popup = None
                return True
            return name not in ("l", "f12", "f9") and not name.isdigit()
        table = {
            "f": "fold", "c": "call", "k": "call", "r": "raise", "b": "raise",
            "up": "plus", "right": "plus", "down": "minus", "left": "minus",
            "return": "enter", "space": "next", "escape": "back",
            "h": "history", "g": "history", "y": "rankings", "m": "menu",
        }
        cmd = table.get(name)
        if cmd is None:
            return False
        return self.on_command(cmd)

    def on_command(self, name: str, arg: object = None) -> bool:
        s = self.session
        if s is None:
            return False
        if name == "language":
            i18n.set_language(i18n.next_language())
            return True
        if name == "set_language":
            i18n.set_language(str(arg))
            return True
        if self.popup is not None:
            return self._popup_command(s, name, arg)
        if name == "history":
            self.app.go("tournament_history")
        elif name == "rankings":
            self.app.go("tournament_rankings")
        elif name == "menu":
            self.popup = "menu"
            self.panel = False
        elif name == "back":
            if self.panel:
                self.panel = False
            else:
                self.popup = "menu"
        elif name == "next" or (name == "enter" and not self.panel):
            if s.is_over:
                self.app.go("tournament_results")
            elif s.hand_over:
                s.next_hand()
        elif name == "fold":
            self._act(s, "fold")
        elif name == "call":
            self._act(s, "call")
        elif name == "raise":
            if not s.my_turn:
                return True
            rr = s.raise_range()
            if rr is None:
                la = s.legal()
                if la is not None and not la.can_check and la.call_amount >= la.stack:
                    self._act(s, "call")  # calling is all in: nothing more to choose
                return True
            if self.panel:
                self._act(s, "bet", self.amount)
            else:
                self.panel = True
                self.amount = rr.clamp(self.amount or rr.min_to)
        elif name in ("plus", "minus"):
            rr = s.raise_range() if self.panel else None
            if rr is not None:
                self.amount = rr.nudge(self.amount, 1 if name == "plus" else -1)
        elif name == "enter":
            if self.panel:
                self._act(s, "bet", self.amount)
        elif name == "preset":
            rr = s.raise_range()
            if rr is not None:
                self.amount = rr.preset(str(arg))
        elif name == "confirm_raise":
            self._act(s, "bet", self.amount)
        elif name == "results":
            self.app.go("tournament_results")
        else:
            return False
        return True

    def _act(self, s: TournamentSession, what: str, amount: int = 0) -> None:
        if not s.my_turn:
            return
        la = s.legal()
        try:
            if what == "fold":
                if la is None or not la.can_fold:
                    return
                s.fold()
            elif what == "call":
                s.check_or_call()
            else:
                s.bet_to(amount)
        except ValueError:  # IllegalActionError (nothing changed)
            self._note(_("That is not possible right now."))
            return
        self.panel = False

    def _popup_command(self, s: TournamentSession, name: str, arg: object) -> bool:
        if name in ("back", "resume", "menu"):
            self.popup = None
        elif name == "speed":
            s.set_ai_speed(SPEEDS[(SPEEDS.index(s.ai_speed) + 1) % len(SPEEDS)])
        elif name == "equity":
            s.set_equity_assist(not s.equity_assist)
        elif name == "sound":
            self.app.prefs.sound = not self.app.prefs.sound
            self.invalidate()
        elif name == "leave":
            s.save()
            self.popup = None
            self.app.go("attract")
        elif name == "abandon":
            self.popup = "abandon"
        elif name == "confirm_abandon":
            s.abandon()
            self.app.tournament.session = None
            self.popup = None
            self.app.go("attract")
        elif name == "rankings":
            self.popup = None
            self.app.go("tournament_rankings")
        return True

    # -- buttons --------------------------------------------------------------------------------
    def top_buttons(self) -> list[Button]:
        items = [("history", _("History"), "H"), ("rankings", _("Hand rankings"), "Y"), ("menu", _("Menu"), "M")]
        out = []
        x = 1276 - 3 * 150 - 2 * 6
        for cmd, label, hint in items:
            out.append(Button(f"top_{cmd}", (x, 4, 150, 86), label, cmd, style="dark", size=22, hint=hint))
            x += 156
        return out

    def buttons(self) -> list[Button]:
        s = self.session
        if s is None:
            return []
        if self.popup == "menu":
            return self._menu_buttons(s)
        if self.popup == "abandon":
            return [Button("confirm_abandon", (350, 420, 280, 96), _("ABANDON"), "confirm_abandon", style="fold",
                           size=28),
                    Button("cancel", (650, 420, 280, 96), _("CANCEL"), "back", style="plain", hint="Esc", size=28)]
        out = self.top_buttons()
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
        rr = s.raise_range()
        if self.panel and rr is not None:
            return out + self._raise_buttons(rr)
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

    def _raise_buttons(self, rr: RaiseRange) -> list[Button]:
        out = []
        amount = rr.clamp(self.amount)
        presets = [("min", _("MIN")), ("half", _("½ POT")), ("three_quarters", _("¾ POT")), ("pot", _("POT")),
                   ("all_in", _("ALL IN"))]
        x, w = RIGHT_X + 12, 128
        for key, label in presets:
            value = rr.preset(key)
            out.append(Button(f"preset_{key}", (x, ROW2, w, ROW_H), label, "preset", key,
                              style="selected" if value == amount else "dark", size=22, sublabel=chips(value)))
            x += w + 6
        out.append(Button("cancel_raise", (x, ROW2, 1268 - x, ROW_H), _("CANCEL"), "back", style="plain",
                          hint="Esc", size=24))
        out.append(Button("minus", (RIGHT_X + 12, ROW1, 86, ROW_H), "−", "minus", style="dark", size=40,
                          hint="↓", enabled=amount > rr.min_to))
        out.append(Button("plus", (SLIDER[0] + SLIDER[2] + 8, ROW1, 86, ROW_H), "+", "plus", style="dark", size=40,
                          hint="↑", enabled=amount < rr.max_to))
        if amount >= rr.max_to:
            label, sub = _("ALL IN"), chips(amount)
        else:
            label = _("BET") if rr.legal.can_bet else _("RAISE TO")
            sub = chips(amount)
        cx = SLIDER[0] + SLIDER[2] + 8 + 86 + 8
        out.append(Button("confirm_raise", (cx, ROW1, 1268 - cx, ROW_H), label, "confirm_raise", style="primary",
                          hint="Enter", size=28, sublabel=sub))
        return out

    def _menu_buttons(self, s: TournamentSession) -> list[Button]:
        x, w, h, gap = 390, 500, 86, 12
        half = (w - gap) / 2
        y = 192
        on_off = lambda on: _("On") if on else _("Off")  # noqa: E731
        out = [Button("menu_resume", (x, y, w, h), _("BACK TO THE GAME"), "resume", style="primary", hint="Esc",
                      size=26)]
        y += h + gap
        out += [Button("menu_speed", (x, y, half, h), _("AI speed"), "speed", style="dark", size=24,
                       sublabel=_(SPEED_NAMES[s.ai_speed])),
                Button("menu_equity", (x + half + gap, y, half, h), _("Equity assist"), "equity", style="dark",
                       size=24, sublabel=on_off(s.equity_assist))]
        y += h + gap
        out += [Button("menu_language", (x, y, half, h), _("Language"), "language", style="dark", size=24,
                       sublabel=i18n.native_name(i18n.language()), hint="L"),
                Button("menu_sound", (x + half + gap, y, half, h), _("Sound"), "sound", style="dark", size=24,
                       sublabel=on_off(self.app.prefs.sound))]
        y += h + gap
        out.append(Button("menu_leave", (x, y, w, h), _("SAVE AND LEAVE"), "leave", style="plain", size=26))
        y += h + gap
        out.append(Button("menu_abandon", (x, y, w, h), _("ABANDON THIS GAME"), "abandon", style="fold", size=26))
        return out

    # -- drawing -----------------------------------------------------------------------------------
    def _signature(self) -> tuple:
        s = self.session
        eq = s.equity() if s is not None else (None, False)
        note = self.note[0] if self.note else None
        return (s.version if s else None, id(s), i18n.generation(), self.popup, self.panel, self.amount,
                self.app.prefs.sound,
                self.pressed_id(), note, self.layout.size, self.app.prefs.four_colour, eq[1],
                eq[0].equity if eq[0] else None)

    def draw(self, surface: pygame.Surface) -> None:
        sig = self._signature()
        if sig == self._sig:
            self.dirty = []
            return
        self._sig = sig
        self.dirty = None
        s = self.session
        surface.blit(self._static_layer(), (0, 0))
        if s is None:
            return
        self._draw_top(surface, s)
        self._draw_centre(surface, s)
        slots = _seat_slots(s)
        for seat, slot in slots.items():
            self._draw_seat(surface, s, seat, slot)
        self._draw_my_bet(surface, s)
        self._draw_me(surface, s)
        self._draw_right(surface, s)
        if self.popup:
            self._draw_popup(surface, s)
        self.draw_buttons(surface)

    def _static_layer(self) -> pygame.Surface:
        lay = self.layout
        key = (lay.size,)
        if self._static is not None and self._static_key == key:
            return self._static
        surf = self.app.felt.copy()
        ui = self.ui
        oval = lay.rect(*OVAL)
        rail = oval.inflate(lay.px(34), lay.px(34))
        pygame.draw.ellipse(surf, theme.RAIL, rail)
        pygame.draw.ellipse(surf, theme.RAIL_EDGE, rail, max(1, lay.px(3)))
        felt = pygame.Surface(oval.size, pygame.SRCALPHA)
        pygame.draw.ellipse(felt, (*theme.FELT_CENTRE, 255), felt.get_rect())
        inner = felt.get_rect().inflate(-lay.px(60), -lay.px(60))
        pygame.draw.ellipse(felt, (255, 255, 255, 22), inner, max(1, lay.px(2)))
        surf.blit(felt, oval)
        bar = lay.rect(0, RAIL_Y, 1280, 720 - RAIL_Y)
        bar.x, bar.width = 0, lay.size[0]
        bar.height = lay.size[1] - bar.y
        surf.blit(ui.panel(bar.size, theme.RAIL, 240, radius=0), bar)
        pygame.draw.line(surf, theme.GOLD_DARK, (0, bar.y), (lay.size[0], bar.y), max(1, lay.px(2)))
        top_background(self.app, surf)
        self._static = surf.convert() if pygame.display.get_surface() else surf
        self._static_key = key
        return self._static

    def _draw_top(self, surface: pygame.Surface, s: TournamentSession) -> None:
        ui = self.ui
        t = s.t
        number = t.hand_number
        h = t.hand
        small, big = (h.small_blind, h.big_blind) if h is not None else (t.blinds.small, t.blinds.big)
        parts = [_("Hand {n}").format(n=number), blinds_text(small, big)]
        left = t.hands_to_next_level
        if left is not None and not s.hand_over:
            parts.append(_("Blinds go up after this hand") if left == 1 else
                         _("Next level in {n} hands").format(n=left))
        ui.fitted(surface, "  ·  ".join(parts), 28, theme.GOLD, 790, bold=True, topleft=(22, 12))
        if self.note is not None:
            ui.fitted(surface, self.note[0], 21, theme.WIN, 790, bold=True, topleft=(24, 54))
        else:
            ui.fitted(surface, self._status(s), 21, theme.CREAM, 790, topleft=(24, 54))

    def _status(self, s: TournamentSession) -> str:
        if s.store_error:
            return _("This game cannot be saved right now.")
        if s.is_over:
            return _("The tournament is over.")
        if s.playing_out:
            return _("You are out. Finishing the tournament…")
        if s.hand_over:
            return _("Touch NEXT HAND when you are ready.") if not s.human_out else ""
        seat = s.t.to_act
        if seat is None:
            return ""
        if seat == s.human_seat:
            return _("Your turn")
        if s.seat_kind(seat) == "remote" and getattr(s.controller(seat), "connected", False):
            return _("Waiting for {name}…").format(name=seat_name(s, seat))
        return _("{name} is thinking…").format(name=seat_name(s, seat))

    def _draw_centre(self, surface: pygame.Surface, s: TournamentSession) -> None:
        ui, lay = self.ui, self.layout
        h = s.t.hand
        if h is None:
            return
        w = lay.px(BOARD_W)
        ch = self.app.cards.height(w)
        x0 = 640 - (5 * BOARD_W + 4 * 10) / 2
        winners_cards = self._winning_cards(s)
        for i in range(5):
            r = lay.rect(x0 + i * (BOARD_W + 10), BOARD_Y, BOARD_W, ch / lay.scale)
            if i < len(h.board):
                card = h.board[i]
                surface.blit(self.app.cards.shadow(w), (r.x + lay.px(2), r.y + lay.px(4)))
                surface.blit(self.app.cards.face(card, w, self.app.prefs.four_colour), r)
                if winners_cards and card not in winners_cards:
                    surface.blit(ui.panel(r.size, (0, 0, 0), 100, radius=8), r)
            else:
                pygame.draw.rect(surface, (60, 160, 104), r, max(1, lay.px(2)), border_radius=lay.px(8))
        y = BOARD_Y + ch / lay.scale + 14
        if s.hand_over and s.t.last_result is not None:
            res = s.t.last_result
            total = sum(p.amount for p in res.pots)
            ui.fitted(surface, _("Pot {amount}").format(amount=chips(total)), 24, theme.WHITE, 420, bold=True,
                      midtop=(640, y))
            return
        total = h.pot_total
        ui.fitted(surface, _("Pot {amount}").format(amount=chips(total)), 24, theme.WHITE, 420, bold=True,
                  midtop=(640, y))
        pots = h.pots() if any(h.is_all_in(p) for p in h.live) else []  # side pots come from all-ins
        if len(pots) > 1:
            parts = [_("Main {amount}").format(amount=chips(pots[0].amount))]
            parts += [_("Side {amount}").format(amount=chips(p.amount)) for p in pots[1:]]
            ui.fitted(surface, "  ·  ".join(parts), 18, theme.CREAM, 460, midtop=(640, y + 30))

    def _winning_cards(self, s: TournamentSession) -> set[int]:
        """At a showdown: the cards of the winners' best five (the rest are dimmed)."""
        if not s.hand_over or s.t.last_result is None or not s.t.last_result.showdown:
            return set()
        h = s.t.hand
        res = s.t.last_result
        winners = {w for p in res.pots for w in p.winners}
        out: set[int] = set()
        for shown in res.shown:
            if shown.seat in winners:
                out.update(best_five([*shown.cards, *h.board]))  # type: ignore[union-attr]
        return out

    def _last_actions(self, s: TournamentSession) -> dict[int, Any]:
        h = s.t.hand
        out: dict[int, Any] = {}
        if h is None:
            return out
        for r in h.history:
            kind = type(r).__name__
            if kind == "BoardDealt":
                out = {k: v for k, v in out.items() if type(v).__name__ == "Folded" or getattr(v, "all_in", False)}
            elif kind in ("Folded", "Checked", "Called", "BetMade", "Raised"):
                out[r.seat] = r  # type: ignore[union-attr]
        return out

    def _badges(self, s: TournamentSession, seat: int) -> list[str]:
        h = s.t.hand
        if h is None or not h.dealt_in[seat]:
            return []
        out = []
        if h.button == seat:
            out.append("D")
        if h.small_blind_seat == seat:
            out.append(_("SB"))
        if h.big_blind_seat == seat:
            out.append(_("BB"))
        return out

    def _draw_badges(self, surface: pygame.Surface, badges: list[str], x: float, y: float) -> None:
        """Small round markers (D, SB, BB) from design ``(x, y)`` leftwards."""
        ui, lay = self.ui, self.layout
        size = lay.px(34)
        for b in reversed(badges):
            colour = theme.CREAM if b == "D" else theme.BLUE
            face = ui.chip_face((size, size), colour, b)
            surface.blit(face, face.get_rect(center=lay.pos(x, y)))
            x -= 38

    def _result_for(self, s: TournamentSession, seat: int) -> tuple[str, bool] | None:
        if not s.hand_over or s.t.last_result is None:
            return None
        res = s.t.last_result
        won = res.won[seat]
        if won > 0:
            return _("Wins {amount}").format(amount=chips(won)), True
        return None

    def _draw_seat(self, surface: pygame.Surface, s: TournamentSession, seat: int, slot: str) -> None:
        ui, lay = self.ui, self.layout
        (cx, cy), (bx, by) = SLOTS[slot]
        t = s.t
        h = t.hand
        x, y = cx - PANEL_W / 2, cy - PANEL_H / 2
        r = lay.rect(x, y, PANEL_W, PANEL_H)
        out = seat in t.places and t.places[seat] != 1 and (h is None or not h.dealt_in[seat] or s.hand_over)
        folded = h is not None and h.dealt_in[seat] and h.folded[seat]
        acting = t.to_act == seat and not s.hand_over
        result = self._result_for(s, seat)
        border = theme.WIN if acting or (result and result[1]) else theme.GOLD_DARK
        alpha = 150 if (folded or out) else 225
        surface.blit(ui.panel(r.size, theme.METER_BG, alpha, radius=14, border=border,
                              border_w=4 if acting or result else 2), r)
        ink = theme.MUTED if folded or out else theme.WHITE
        text_w = PANEL_W - 2 * MINI_W - 30
        name = seat_name(s, seat)
        ui.fitted(surface, name, 22, ink, text_w, bold=True, topleft=(x + 12, y + 8))
        stack = t.stacks_now[seat]
        ui.fitted(surface, chips(stack), 25, theme.METER_TEXT if not out else theme.MUTED, text_w, bold=True,
                  topleft=(x + 12, y + 38))
        # status line
        if out:
            line, colour = _("Out · {place}").format(place=place_name(t.places[seat])), theme.MUTED
        elif result is not None:
            line, colour = result[0], theme.WIN
        elif acting:
            line, colour = _("Thinking…"), theme.WIN
        else:
            last = self._last_actions(s).get(seat)
            line, colour = (short_action(s, last), theme.CREAM) if last is not None else ("", theme.CREAM)
            if s.hand_over and h is not None and seat in {x.seat for x in (s.t.last_result.shown if s.t.last_result
                                                                         else ())}:
                line = ""
        if line:
            ui.fitted(surface, line, 18, colour, PANEL_W - 2 * MINI_W - 24, bold=True, topleft=(x + 12, y + 72))
        # cards: backs while in the hand, faces when shown
        shown = self._shown(s).get(seat)
        if h is not None and h.dealt_in[seat] and (not folded or shown):
            w = lay.px(MINI_W)
            for i in range(2):
                cr = lay.rect(x + PANEL_W - 2 * MINI_W - 14 + i * (MINI_W + 4), y + 10, MINI_W,
                              self.app.cards.height(w) / lay.scale)
                img = (self.app.cards.face(shown[i], w, self.app.prefs.four_colour) if shown
                       else self.app.cards.back(w))
                surface.blit(img, cr)
            if shown and s.hand_over:
                strength = self._strength(s, seat)
                if strength is not None:
                    cat = hand_class(strength)[0]
                    tag = category_name(cat)
                    tr_ = lay.rect(x + PANEL_W - 2 * MINI_W - 18, y + PANEL_H - 22, 2 * MINI_W + 12, 26)
                    surface.blit(ui.panel(tr_.size, (0, 0, 0), 210, radius=8), tr_)
                    ui.fitted(surface, tag, 16, theme.WIN if result else theme.CREAM, 2 * MINI_W + 6, bold=True,
                              center=(x + PANEL_W - MINI_W - 12, y + PANEL_H - 9))
        self._draw_badges(surface, self._badges(s, seat), x + PANEL_W - 6, y - 6)
        # the bet in front of the seat
        if h is not None and not s.hand_over and h.bets[seat] > 0:
            self._draw_bet(surface, h.bets[seat], bx, by)

    def _shown(self, s: TournamentSession) -> dict[int, tuple[int, int]]:
        h = s.t.hand
        if h is None:
            return {}
        return {r.seat: r.cards for r in h.history if isinstance(r, HandShown)}

    def _strength(self, s: TournamentSession, seat: int) -> int | None:
        h = s.t.hand
        return h.strengths.get(seat) if h is not None else None

    def _draw_bet(self, surface: pygame.Surface, amount: int, x: float, y: float) -> None:
        ui, lay = self.ui, self.layout
        size = lay.px(40)
        face = ui.chip_face((size, size), (200, 36, 36), "")
        label = self.app.text.render(chips(amount), lay.px(20), theme.WHITE, bold=True)
        total_w = size + lay.px(6) + label.get_width()
        cx, cy = lay.pos(x, y)
        left = cx - total_w // 2
        box = pygame.Rect(left - lay.px(6), cy - size // 2 - lay.px(2), total_w + lay.px(14), size + lay.px(4))
        surface.blit(ui.panel(box.size, (0, 0, 0), 120, radius=12), box)
        surface.blit(face, (left, cy - size // 2))
        surface.blit(label, label.get_rect(midleft=(left + size + lay.px(6), cy)))

    def _draw_my_bet(self, surface: pygame.Surface, s: TournamentSession) -> None:
        h = s.t.hand
        seat = s.human_seat
        if h is not None and not s.hand_over and h.bets[seat] > 0:
            self._draw_bet(surface, h.bets[seat], *MY_BET)
        badges = self._badges(s, seat)
        if badges:
            self._draw_badges(surface, badges, 420, RAIL_Y - 22)

    def _draw_me(self, surface: pygame.Surface, s: TournamentSession) -> None:
        ui, lay = self.ui, self.layout
        t = s.t
        h = t.hand
        seat = s.human_seat
        v = s.view()
        w = lay.px(MY_CARD_W)
        cards = v.hole_cards if v is not None else ()
        folded = h is not None and h.dealt_in[seat] and h.folded[seat]
        best: set[int] = set()
        if s.hand_over and s.t.last_result is not None and s.t.last_result.won[seat] > 0:
            best = self._winning_cards(s)
        for i in range(2):
            r = lay.rect(18 + i * (MY_CARD_W + 8), ROW1, MY_CARD_W, self.app.cards.height(w) / lay.scale)
            if i < len(cards):
                surface.blit(self.app.cards.shadow(w), (r.x + lay.px(2), r.y + lay.px(4)))
                surface.blit(self.app.cards.face(cards[i], w, self.app.prefs.four_colour), r)
                if folded:
                    surface.blit(ui.panel(r.size, (0, 0, 0), 130, radius=8), r)
                elif cards[i] in best:
                    pygame.draw.rect(surface, theme.WIN, r.inflate(lay.px(6), lay.px(6)), max(2, lay.px(4)),
                                     border_radius=lay.px(10))
            else:
                pygame.draw.rect(surface, (80, 90, 84), r, max(1, lay.px(2)), border_radius=lay.px(8))
        x, tw = 224, 212
        out = seat in t.places and t.places[seat] != 1
        acting = s.my_turn
        ui.fitted(surface, _("You"), 22, theme.WIN if acting else theme.WHITE, tw, bold=True, topleft=(x, ROW1 - 2))
        ui.fitted(surface, chips(t.stacks_now[seat]), 30, theme.METER_TEXT, tw, bold=True, topleft=(x, ROW1 + 24))
        y = ROW1 + 64
        if out:
            ui.fitted(surface, _("Out · {place}").format(place=place_name(t.places[seat])), 21, theme.LOSE, tw,
                      bold=True, topleft=(x, y))
            strength = self._strength(s, seat) if s.hand_over else None
            if strength is not None:
                ui.fitted(surface, hand_name(strength), 19, theme.CREAM, tw, bold=True, topleft=(x, y + 30))
            return
        if folded:
            ui.fitted(surface, _("You folded"), 20, theme.MUTED, tw, bold=True, topleft=(x, y))
            return
        strength = s.hand_name_strength()
        if strength is not None:
            ui.fitted(surface, hand_name(strength), 19, theme.WHITE, tw, bold=True, topleft=(x, y))
            y += 30
        elif cards:
            ui.fitted(surface, _("Your cards"), 19, theme.MUTED, tw, topleft=(x, y))
            y += 30
        eq, computing = s.equity()
        if s.equity_assist and cards and not s.hand_over:
            text = (_("Equity {pct}").format(pct=percent(eq.equity)) if eq is not None
                    else _("Equity …") if computing else "")
            if text:
                ui.fitted(surface, text, 22, theme.WIN, tw, bold=True, topleft=(x, y))
                y += 32
        la = s.legal()
        if la is not None and la.call_amount > 0 and s.equity_assist:
            ui.fitted(surface, _("Pot odds {pct}").format(pct=percent(pot_odds(la.call_amount, la.pot))), 18,
                      theme.CREAM, tw, topleft=(x, y))

    def _draw_right(self, surface: pygame.Surface, s: TournamentSession) -> None:
        """Above the buttons: what is happening, the result of the hand."""
        ui = self.ui
        if self.panel and s.raise_range() is not None:
            self._draw_slider(surface, s.raise_range())  # type: ignore[arg-type]
            return
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if s.is_over:
            champ = s.t.champion
            if champ == s.human_seat:
                lines.append((_("You won the tournament!"), theme.WIN))
            else:
                place = s.t.places.get(s.human_seat, 0)
                lines.append((_("You came {place} of {players}").format(place=place_name(place),
                                                                         players=s.t.n_seats), theme.WIN))
        elif s.playing_out:
            lines.append((_("You are out. Finishing the tournament…"), theme.CREAM))
        elif s.hand_over and s.t.last_result is not None:
            lines += self._result_lines(s)
        elif s.my_turn:
            la = s.legal()
            if la is not None:
                if la.can_check:
                    lines.append((_("Your turn: check or bet."), theme.CREAM) if la.can_bet else
                                 (_("Your turn."), theme.CREAM))
                else:
                    lines.append((_("{amount} to call.").format(amount=chips(la.call_amount)), theme.CREAM))
        else:
            lines.append((self._status(s), theme.MUTED))
        y = ROW1 + 6
        for text, colour in lines[:3]:
            ui.fitted(surface, text, 22 if len(lines) < 3 else 19, colour, 1268 - RIGHT_X - 14, bold=True,
                      topleft=(RIGHT_X + 12, y))
            y += 30 if len(lines) < 3 else 27

    def _result_lines(self, s: TournamentSession) -> list[tuple[str, tuple[int, int, int]]]:
        res = s.t.last_result
        assert res is not None
        strengths = {x.seat: x.strength for x in res.shown}
        out = []
        totals: dict[int, int] = {}
        for p in res.pots:
            for w, share in zip(p.winners, p.shares, strict=False):
                totals[w] = totals.get(w, 0) + share
        for seat, amount in sorted(totals.items(), key=lambda kv: -kv[1]):
            name = seat_name(s, seat)
            colour = theme.WIN if seat == s.human_seat else theme.CREAM
            if seat in strengths:
                out.append((_("{name} wins {amount} with {hand}").format(
                    name=name, amount=chips(amount), hand=hand_name(strengths[seat])), colour))
            else:
                out.append((_("{name} wins {amount}").format(name=name, amount=chips(amount)), colour))
        return out

    def _draw_slider(self, surface: pygame.Surface, rr: RaiseRange) -> None:
        ui, lay = self.ui, self.layout
        r = lay.rect(*SLIDER)
        surface.blit(ui.panel(r.size, theme.METER_BG, 230, radius=14, border=theme.GOLD_DARK), r)
        inner = r.inflate(-lay.px(40), 0)
        track = pygame.Rect(inner.x, r.centery - lay.px(5), inner.width, lay.px(10))
        pygame.draw.rect(surface, (70, 78, 86), track, border_radius=lay.px(5))
        f = rr.fraction(rr.clamp(self.amount))
        filled = track.copy()
        filled.width = max(1, round(track.width * f))
        pygame.draw.rect(surface, theme.GOLD, filled, border_radius=lay.px(5))
        knob = (track.x + round(track.width * f), r.centery)
        pygame.draw.circle(surface, theme.CREAM, knob, lay.px(20))
        pygame.draw.circle(surface, theme.GOLD_DARK, knob, lay.px(20), max(1, lay.px(3)))
        ui.fitted(surface, chips(rr.min_to), 15, theme.MUTED, 120, topleft=(SLIDER[0] + 20, SLIDER[1] + 4))
        ui.fitted(surface, chips(rr.max_to), 15, theme.MUTED, 120,
                  topright=(SLIDER[0] + SLIDER[2] - 20, SLIDER[1] + 4))

    def _draw_popup(self, surface: pygame.Surface, s: TournamentSession) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(ui.panel(lay.size, (0, 0, 0), 160, radius=0), (0, 0))
        if self.popup == "menu":
            box = lay.rect(360, 104, 560, 590)
            surface.blit(ui.panel(box.size, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3), box)
            ui.fitted(surface, _("Menu"), 34, theme.GOLD, 500, bold=True, center=(640, 150))
        else:
            box = lay.rect(300, 180, 680, 380)
            surface.blit(ui.panel(box.size, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3), box)
            ui.fitted(surface, _("Abandon this game?"), 36, theme.GOLD, 620, bold=True, center=(640, 250))
            ui.paragraph(surface, _("It is deleted and not recorded in your records."), 24, theme.CREAM, 340, 300,
                         600)
