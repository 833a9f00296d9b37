"""The table: bets, the deal, decisions, the reveal and the result.

Everything shown comes from the controller's snapshot; the scene only adds timing: cards
fly from the shoe and turn over a moment after the controller has dealt them, and the
result (hand names, highlights, per-spot payouts, the win meter) waits for the last card.
Until then the credit meter shows the credits before the round's returns, so the result
is never given away early.  A touch on the felt during an animation skips it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from engine.hands.evaluator import evaluate
from engine.uth.round import Action, Phase
from kiosk.ui import i18n, theme
from kiosk.ui.cards import CardRenderer
from kiosk.ui.i18n import N_, _, category_name, hand_name, pgettext
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.chrome import (
    draw_top_background,
    draw_top_bar,
    fmt,
    meter_frame,
    meter_value,
    top_buttons,
    top_command,
)
from kiosk.ui.widgets import Button, DamageSurface

# -- geometry (design units) --------------------------------------------------------------
CARD_W = 92
CARD_H = CardRenderer.height(CARD_W)
GAP = 12
COL_X = 386  # left edge of every card row
DEALER_Y = 108
BOARD_Y = 268
PLAYER_Y = 414
NAME_X = COL_X + 2 * CARD_W + GAP + 22  # hand names right of the two-card rows
NAME_W = 920 - NAME_X
SHOE = (1190, 120)
BAR_Y = 556
SPOTS: dict[str, tuple[float, float, float]] = {  # centre x, centre y, radius
    "trips": (172, 180, 60),
    "ante": (92, 332, 60),
    "blind": (252, 332, 60),
    "play": (172, 478, 60),
}
SPOT_LABELS = {
    "trips": N_("TRIPS"),
    "ante": N_("ANTE"),
    "blind": N_("BLIND"),
    "play": N_("PLAY"),
}
PAYS_X, PAYS_W = 934, 330

# -- timing (seconds at normal speed) --------------------------------------------------------
FLY = 0.28
DEAL_GAP = 0.17
FLIP = 0.22
REVEAL_PAUSE = 0.35

ACTION_LABELS = {
    Action.PLAY_4X: N_("PLAY 4×"),
    Action.PLAY_3X: N_("PLAY 3×"),
    Action.PLAY_2X: N_("PLAY 2×"),
    Action.PLAY_1X: N_("PLAY 1×"),
    Action.CHECK: N_("CHECK"),
    Action.FOLD: N_("FOLD"),
}
ACTION_STYLES = {Action.CHECK: "check", Action.FOLD: "fold"}
ACTION_MULT = {Action.PLAY_4X: 4, Action.PLAY_3X: 3, Action.PLAY_2X: 2, Action.PLAY_1X: 1}
PHASE_PROMPTS = {
    Phase.PREFLOP: N_("Play 4× or 3× your Ante, or check."),
    Phase.FLOP: N_("Play 2× your Ante, or check."),
    Phase.RIVER: N_("Play 1× your Ante, or fold."),
}


def slot_pos(slot: str) -> tuple[float, float]:
    kind, i = slot[0], int(slot[1:])
    y = {"d": DEALER_Y, "b": BOARD_Y, "p": PLAYER_Y}[kind]
    return COL_X + i * (CARD_W + GAP), y


def ease(t: float) -> float:
    t = max(0.0, min(1.0, t))
    return 1 - (1 - t) ** 3


@dataclass
class Sprite:
    slot: str
    card: int | None  # None: face unknown (dealer's hole card before the reveal)
    t_deal: float
    t_land: float
    t_flip: float | None  # when it starts turning face up; None = stays face down
    dealt_sound: bool = False
    flip_sound: bool = False

    @property
    def end(self) -> float:
        return self.t_land if self.t_flip is None else max(self.t_land, self.t_flip + FLIP)


class TableScene(Scene):
    name = "table"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.chip_index = 0
        self.popup: str | None = None
        self._static: pygame.Surface | None = None
        self._static_key: tuple = ()
        self.clock = 0.0  # animation time
        self._prev_rects: list[pygame.Rect] | None = None
        self._drawn_static: pygame.Surface | None = None
        self._base: pygame.Surface | None = None
        self._base_sig: tuple | None = None
        self.dirty: list[pygame.Rect] | None = None
        self.reset_round()

    # -- round presentation ------------------------------------------------------------------
    def reset_round(self) -> None:
        self.round_key: Any = None
        self.sprites: dict[str, Sprite] = {}
        self.cursor = 0.0
        self.reveal_at: float | None = None
        self.revealed = False
        self.reveal_sound = False

    @property
    def scale(self) -> float:
        return self.app.prefs.time_scale

    def _schedule(self, slot: str, card: int | None, flip: bool) -> None:
        start = max(self.clock, self.cursor)
        land = start + FLY * self.scale
        sp = Sprite(slot, card, start, land, land if flip and card is not None else None)
        self.sprites[slot] = sp
        self.cursor = start + DEAL_GAP * self.scale

    def _end(self) -> float:
        ends = [s.end for s in self.sprites.values()]
        if self.reveal_at is not None:
            ends.append(self.reveal_at)
        return max(ends, default=0.0)

    @property
    def busy(self) -> bool:
        return self.clock < self._end() or (self.reveal_at is not None and not self.revealed)

    def skip(self) -> None:
        """Finish every animation now."""
        delta = self._end() - self.clock
        if delta <= 0:
            return
        for s in self.sprites.values():
            s.t_deal -= delta
            s.t_land -= delta
            if s.t_flip is not None:
                s.t_flip -= delta
            s.dealt_sound = s.flip_sound = True
        self.cursor -= delta
        if self.reveal_at is not None:
            self.reveal_at -= delta

    def sync(self) -> None:
        """Schedule animations for whatever the snapshot shows that is not on the table yet."""
        snap = self.snap
        if not snap.hole:
            if self.sprites or self.round_key is not None:
                self.reset_round()
            return
        key = (snap.round_id, tuple(snap.hole))
        if key != self.round_key:
            self.reset_round()
            self.round_key = key
            self.cursor = self.clock
            self._schedule("p0", snap.hole[0], True)
            self._schedule("d0", None, False)
            self._schedule("p1", snap.hole[1], True)
            self._schedule("d1", None, False)
            self.cursor += DEAL_GAP * self.scale
        for i, card in enumerate(snap.board):
            if f"b{i}" not in self.sprites:
                if i == 3 or (i == 0 and self.cursor > self.clock):
                    self.cursor = max(self.cursor, self.clock) + 0.25 * self.scale
                self._schedule(f"b{i}", card, True)
        if snap.dealer and self.sprites.get("d0") and self.sprites["d0"].card is None:
            start = max(self._end(), self.clock) + REVEAL_PAUSE * self.scale
            for j, slot in enumerate(("d0", "d1")):
                sp = self.sprites[slot]
                sp.card = snap.dealer[j]
                sp.t_flip = max(sp.t_land, start + j * DEAL_GAP * self.scale)
            self.cursor = max(self.cursor, start)
        if self.result() is not None and self.reveal_at is None:
            self.reveal_at = max(self._end(), self.clock) + 0.15 * self.scale

    def result(self) -> Any:
        snap = self.snap
        if str(snap.phase) != "result" or snap.last_result is None:
            return None
        return snap.last_result

    # -- the scene verbs ----------------------------------------------------------------------
    def enter(self, **kwargs: Any) -> None:
        self.popup = None
        self.invalidate()
        if self.app.previous == "attract" or self.chip_index >= len(self.chips()):
            self.chip_index = self.default_chip()
        self.clamp_chip()

    def default_chip(self) -> int:
        """The smallest chip that makes a whole minimum Ante on its own."""
        lim = self.snap.limits
        return next((i for i, c in enumerate(self.chips()) if c >= lim.ante_min), 0)

    def update(self, dt: float) -> None:
        self.clock += dt
        self.sync()
        for sp in self.sprites.values():
            if not sp.dealt_sound and self.clock >= sp.t_deal:
                sp.dealt_sound = True
                self.app.sounds_play("deal")
            if sp.t_flip is not None and not sp.flip_sound and self.clock >= sp.t_flip:
                sp.flip_sound = True
                self.app.sounds_play("flip")
        if self.reveal_at is not None and not self.revealed and self.clock >= self.reveal_at:
            self.revealed = True
            res = self.result()
            if res is not None and not self.reveal_sound:
                self.reveal_sound = True
                net = res.seat(1).net if res.seats else 0
                if net > 0:
                    self.app.sounds_play("bigwin" if net >= 20 * max(1, res.seat(1).ante) else "win")

    def chips(self) -> tuple[int, ...]:
        return tuple(self.snap.limits.chips)[:6]

    def clamp_chip(self) -> None:
        self.chip_index = max(0, min(self.chip_index, len(self.chips()) - 1))

    def betting(self) -> bool:
        return str(self.snap.phase) in ("idle", "betting", "result") and not (self.busy and self.reveal_at is not None and not self.revealed)

    def on_touch(self, pos: tuple[int, int]) -> bool:
        if self.popup:
            self.popup = None
            return True
        for spot in ("ante", "trips"):
            x, y, r = SPOTS[spot]
            dx, dy = self.layout.to_design(pos)
            if (dx - x) ** 2 + (dy - y) ** 2 <= r * r:
                return self.on_command("chip", spot)
        if self.busy:
            self.skip()
            return True
        return False

    def on_command(self, name: str, arg: object = None) -> bool:
        snap = self.snap
        m = self.model
        if name == "language":
            self.popup = None if self.popup == "language" else "language"
            return True
        if name == "set_language":
            i18n.set_language(str(arg))
            self.popup = None
            return True
        if name == "close_popup":
            self.popup = None
            return True
        if top_command(self.app, name):
            return True
        if name == "back":
            if self.popup:
                self.popup = None
            return True
        if name == "chip_select":
            self.chip_index = int(arg)  # type: ignore[arg-type]
            return True
        if name in ("chip_prev", "chip_next"):
            n = len(self.chips())
            self.chip_index = (self.chip_index + (1 if name == "chip_next" else -1)) % n
            return True
        if name == "chip":
            if not self.betting():
                return True
            self.skip()
            self.clamp_chip()
            if m.call("add_chip", str(arg), self.chips()[self.chip_index]):
                self.app.sounds_play("chip")
            return True
        if name == "clear":
            if self.betting():
                m.call("clear_bets")
            return True
        if name == "repeat":
            if self.betting():
                self.skip()
                if m.call("repeat_bets"):
                    self.app.sounds_play("chip")
            return True
        if name == "deal":
            if self.busy:
                self.skip()
                return True
            if not self.betting():
                return True
            if snap.bet_ante <= 0 and str(snap.phase) == "result":
                if not m.call("repeat_bets"):
                    return True
            m.call("deal")
            return True
        if name == "cashout":
            if self.busy:
                self.skip()
            if snap.credits > 0:
                self.popup = "cashout"
            return True
        if name == "confirm_cashout":
            self.popup = None
            m.call("cash_out")
            return True
        if name in ("decide", "play_max", "play_3x", "check", "fold"):
            if self.busy:
                self.skip()
                return True
            action = self._action_for(name, arg)
            if action is not None:
                m.call("decide", action)
            return True
        return False

    def _action_for(self, name: str, arg: object) -> Action | None:
        legal = tuple(self.snap.legal)
        if name == "decide":
            return Action(str(arg)) if Action(str(arg)) in legal else None
        if name == "play_max":
            for a in (Action.PLAY_4X, Action.PLAY_2X, Action.PLAY_1X):
                if a in legal:
                    return a
            return None
        want = {"play_3x": Action.PLAY_3X, "check": Action.CHECK, "fold": Action.FOLD}[name]
        return want if want in legal else None

    # -- buttons -----------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        if self.popup == "language":
            return self._language_buttons()
        if self.popup == "cashout":
            return self._cashout_buttons()
        out = top_buttons()
        snap = self.snap
        y, h = 622, 90
        if str(snap.phase) == "in_round" or (self.busy and snap.hole and not self.revealed and str(snap.phase) != "result"):
            legal = [a for a in snap.legal] if not self.busy else []
            widths = [250] * max(1, len(legal))
            total = sum(widths) + 18 * (len(widths) - 1)
            x = 640 - total / 2 + 110
            for a in legal:
                mult = ACTION_MULT.get(a)
                sub = fmt(self.app, mult * snap.ante) if mult else ""
                hint = {Action.CHECK: "K", Action.FOLD: "F", Action.PLAY_3X: "M"}.get(a, "P")
                out.append(Button(f"act_{a.value}", (x, y, 250, h), _(ACTION_LABELS[a]), "decide", a.value,
                                  style=ACTION_STYLES.get(a, "play"), sublabel=sub, hint=hint, size=32))
                x += 268
            return out
        if self.busy and snap.hole and not self.revealed:
            return out  # the reveal is running: nothing to press (a touch skips it)
        betting = self.betting()
        x = 16
        for i, c in enumerate(self.chips()):
            style = "selected" if i == self.chip_index else "plain"
            out.append(Button(f"chip_{c}", (x, y, 90, h), fmt(self.app, c, compact=True), "chip_select", i,
                              style=style, round=True, enabled=betting, colour=theme.chip_colour(c, i)))
            x += 98
        has_bet = snap.bet_ante > 0 or snap.bet_trips > 0
        rebet = str(snap.phase) == "result" and not has_bet
        out.append(Button("clear", (626, y, 124, h), _("CLEAR"), "clear", style="plain",
                          enabled=betting and has_bet, hint="C", size=26))
        out.append(Button("repeat", (758, y, 134, h), _("REPEAT"), "repeat", style="plain",
                          enabled=betting and not has_bet, hint="R", size=26))
        deal_label = _("REBET & DEAL") if rebet else _("DEAL")
        out.append(Button("deal", (900, y, 206, h), deal_label, "deal", style="primary",
                          enabled=betting and (snap.bet_ante > 0 or rebet), hint="Space", size=34))
        out.append(Button("cashout", (1114, y, 150, h), _("CASH OUT"), "cashout", style="dark",
                          enabled=betting and snap.credits > 0, hint="O", size=24))
        return out

    def _language_buttons(self) -> list[Button]:
        out = []
        for i, lang in enumerate(i18n.LANGUAGES):
            x = 370 + (i % 2) * 280
            y = 230 + (i // 2) * 120
            style = "selected" if lang == i18n.language() else "dark"
            out.append(Button(f"lang_{lang}", (x, y, 260, 100), i18n.native_name(lang), "set_language", lang,
                              style=style, size=34))
        out.append(Button("close_popup", (520, 480, 240, 88), _("CLOSE"), "close_popup", style="plain"))
        return out

    def _cashout_buttons(self) -> list[Button]:
        return [
            Button("confirm_cashout", (380, 430, 250, 96), _("CASH OUT"), "confirm_cashout", style="primary"),
            Button("close_popup", (650, 430, 250, 96), _("CANCEL"), "close_popup", style="plain"),
        ]

    # -- drawing -------------------------------------------------------------------------------
    def static_layer(self) -> pygame.Surface:
        snap = self.snap
        key = (self.layout.size, i18n.generation(), snap.paytable.sha256, snap.limits,
               getattr(self.app, "casino_name", ""), getattr(self.app, "machine_number", ""))
        if self._static is not None and key == self._static_key:
            return self._static
        surf = self.app.felt.copy()
        ui, lay = self.ui, self.layout
        # betting spots
        for spot, (x, y, r) in SPOTS.items():
            c = lay.pos(x, y)
            pygame.draw.circle(surf, (8, 80, 44), c, lay.px(r))
            pygame.draw.circle(surf, theme.GOLD, c, lay.px(r), max(2, lay.px(4)))
            pygame.draw.circle(surf, theme.GOLD_DARK, c, lay.px(r - 9), max(1, lay.px(1.5)))
            ui.fitted(surf, _(SPOT_LABELS[spot]), 19, theme.GOLD, r * 1.45, bold=True, center=(x, y - r * 0.62))
        ui.label(surf, "=", 44, theme.GOLD, bold=True, center=(172, 330))
        # card outlines
        for slot in ("d0", "d1", "b0", "b1", "b2", "b3", "b4", "p0", "p1"):
            x, y = slot_pos(slot)
            r = lay.rect(x, y, CARD_W, CARD_H)
            pygame.draw.rect(surf, (30, 120, 72), r, max(1, lay.px(2)), border_radius=lay.px(8))
        ui.fitted(surf, _("DEALER"), 20, theme.GOLD, NAME_W, bold=True, topleft=(NAME_X, DEALER_Y + 4))
        ui.fitted(surf, _("YOUR HAND"), 20, theme.GOLD, NAME_W, bold=True, topleft=(NAME_X, PLAYER_Y + 4))
        # printed pays
        pt = snap.paytable
        y = 108
        for title, lines in ((_("BLIND PAYS"), pt.blind.lines()), (_("TRIPS PAYS"), pt.trips.lines())):
            ui.fitted(surf, title, 21, theme.GOLD, PAYS_W, bold=True, topleft=(PAYS_X, y))
            y += 30
            for cat, pay in lines.items():
                ui.fitted(surf, category_name(cat), 17, theme.CREAM, PAYS_W * 0.62, topleft=(PAYS_X + 6, y))
                text = pgettext("pay", "{n} to {d}").format(n=pay.numerator, d=pay.denominator)
                ui.label(surf, text, 17, theme.CREAM, bold=True, topright=(PAYS_X + PAYS_W, y))
                y += 24
            y += 12
        ui.paragraph(surf, _("Dealer needs a pair or better to qualify. Ante and Play pay 1 to 1."), 16,
                     theme.MUTED, PAYS_X, y, PAYS_W)
        # bottom rail
        bar = lay.rect(0, BAR_Y, 1280, 720 - BAR_Y)
        bar.x, bar.width = 0, lay.size[0]
        bar.height = lay.size[1] - bar.y
        surf.blit(ui.panel(bar.size, theme.RAIL, 240, radius=0), bar)
        pygame.draw.line(surf, theme.GOLD_DARK, (0, bar.y), (lay.size[0], bar.y), max(1, lay.px(2)))
        draw_top_background(self.app, surf)
        for rect, title in self.meters():
            meter_frame(self.app, surf, rect, title)
        self._static = surf.convert() if pygame.display.get_surface() else surf
        self._static_key = key
        return self._static

    def warm_up(self) -> None:
        """Render the table layer and all 52 faces (both deck styles) and the back now."""
        self.static_layer()
        w = self.layout.px(CARD_W)
        for card in range(52):
            for four in (False, True):
                self.app.cards.face(card, w, four)
        self.app.cards.back(w)
        self.app.cards.shadow(w)

    def invalidate(self) -> None:
        """Repaint the whole screen next frame (after an overlay, on entering the scene)."""
        self._prev_rects = None
        self._base_sig = None

    def _settled(self, sp: Sprite) -> bool:
        return self.clock >= sp.end

    def _signature(self) -> tuple:
        """Everything the base layer shows; the base is redrawn only when this changes."""
        note = self.model.current_note()
        blink = int(self.app.now * 1.6) % 2 if self.snap.bet_ante == 0 else 0
        settled = tuple(sorted(k for k, sp in self.sprites.items() if self._settled(sp)))
        return (self.model.version, i18n.generation(), self.popup, self.pressed_id(), self.chip_index,
                self.revealed, self.busy, note.text if note else None, blink, self.app.prefs.four_colour,
                settled, self.round_key, self.layout.size)

    def draw(self, surface: pygame.Surface) -> None:
        """Two layers: the *base* (the cached table plus everything that is not moving) is
        redrawn only when something in it changes; every frame restores the base under
        last frame's moving cards and draws the cards in flight or turning over.
        :attr:`dirty` lists the changed rectangles (None: the whole screen)."""
        static = self.static_layer()
        sig = self._signature()
        prev = self._prev_rects
        if self._base is None or self._base.get_size() != surface.get_size():
            self._base = static.copy()
            sig_changed = True
        else:
            sig_changed = sig != self._base_sig or self._drawn_static is not static
        if sig_changed:
            base = self._base
            base.blit(static, (0, 0))
            d = DamageSurface(base)
            draw_top_bar(self.app, d, background=False)  # type: ignore[arg-type]
            self._draw_spots(d)  # type: ignore[arg-type]
            self._draw_cards(d, moving=False)  # type: ignore[arg-type]
            self._draw_names(d)  # type: ignore[arg-type]
            self._draw_meters(d)  # type: ignore[arg-type]
            self._draw_message(d)  # type: ignore[arg-type]
            if self.popup:
                self._draw_popup(d)  # type: ignore[arg-type]
            else:
                self.draw_buttons(d, [b for b in self.buttons() if not b.id.startswith("top_")])  # type: ignore[arg-type]
            self._base_sig = sig
            self._drawn_static = static
            surface.blit(base, (0, 0))
            full = True
        else:
            full = prev is None
            if full:
                surface.blit(self._base, (0, 0))
            else:
                for r in prev:
                    surface.blit(self._base, r, r)
        d = DamageSurface(surface)
        self._draw_cards(d, moving=True)  # type: ignore[arg-type]
        self.dirty = None if full else (prev or []) + d.rects
        self._prev_rects = d.rects

    def _shown_amounts(self) -> dict[str, int]:
        snap = self.snap
        pending = snap.bet_ante > 0 or snap.bet_trips > 0
        if str(snap.phase) in ("idle", "betting") or pending:
            return {"ante": snap.bet_ante, "blind": snap.bet_ante, "trips": snap.bet_trips, "play": 0}
        return {"ante": snap.ante, "blind": snap.blind, "trips": snap.trips, "play": snap.play}

    def _draw_spots(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        amounts = self._shown_amounts()
        res = self.result() if self.revealed else None
        seat = res.seat(1) if res is not None and res.seats else None
        betting = self.betting() and not self.busy
        for spot, (x, y, r) in SPOTS.items():
            amount = amounts.get(spot, 0)
            if betting and spot == "ante" and amount == 0 and self.snap.credits > 0 and int(self.app.now * 1.6) % 2 == 0:
                surface.circle(theme.WIN, lay.pos(x, y), lay.px(r + 3), max(2, lay.px(4)))
            if amount > 0:
                self._chip_stack(surface, amount, x, y + 6)
            if seat is not None:
                stake = getattr(seat, spot)
                back = getattr(seat, f"{spot}_return")
                if stake:
                    if back > stake:
                        text, colour = _("WIN {amount}").format(amount=fmt(self.app, back - stake)), theme.WIN
                    elif back == stake:
                        text, colour = _("PUSH"), theme.PUSH
                    else:
                        text, colour = _("LOSE"), theme.LOSE
                    tag = self.app.text.render(text, lay.px(17), colour, bold=True)
                    box = tag.get_rect(center=lay.pos(x, y + r + 14)).inflate(lay.px(14), lay.px(4))
                    surface.blit(ui.panel(box.size, (0, 0, 0), 200, radius=10), box)
                    surface.blit(tag, tag.get_rect(center=box.center))

    def _chip_stack(self, surface: pygame.Surface, amount: int, x: float, y: float) -> None:
        chips = self.chips()
        idx = max((i for i, c in enumerate(chips) if c <= amount), default=0)
        colour = theme.chip_colour(chips[idx], idx)
        n = min(3, max(1, amount // chips[idx]))
        size = self.layout.px(66)
        label = fmt(self.app, amount, compact=True)
        for k in range(n):
            face = self.ui.chip_face((size, size), colour, label if k == n - 1 else "")
            surface.blit(face, face.get_rect(center=self.layout.pos(x, y - k * 5)))

    def _draw_cards(self, surface: pygame.Surface, moving: bool) -> None:
        """The cards settled in place (``moving=False``) or those in flight or turning."""
        lay = self.layout
        w = lay.px(CARD_W)
        cards = self.app.cards
        four = self.app.prefs.four_colour
        res = self.result() if self.revealed else None
        seat = res.seat(1) if res is not None and res.seats else None
        mine = set(seat.best_five) if seat is not None and seat.outcome.name != "FOLD" else set()
        dealers = set(res.dealer_best_five) if res is not None else set()
        shoe = SHOE
        for sp in sorted(self.sprites.values(), key=lambda s: s.t_deal):
            if self.clock < sp.t_deal or self._settled(sp) == moving:
                continue
            tx, ty = slot_pos(sp.slot)
            if self.clock < sp.t_land:
                k = ease((self.clock - sp.t_deal) / max(1e-6, sp.t_land - sp.t_deal))
                x, y = shoe[0] + (tx - shoe[0]) * k, shoe[1] + (ty - shoe[1]) * k
            else:
                x, y = tx, ty
            if sp.t_flip is not None and self.clock >= sp.t_flip:
                t = (self.clock - sp.t_flip) / (FLIP * self.scale)
                img = cards.face(sp.card, w, four) if t >= 1 else cards.flipping(sp.card, w, four, t)
            else:
                img = cards.back(w)
            pos = lay.pos(x, y)
            lift = 0
            if res is not None and sp.card is not None:
                if sp.card in mine:
                    lift = lay.px(8)
            rect = img.get_rect(midtop=(pos[0] + w // 2, pos[1] - lift))
            surface.blit(cards.shadow(w), (rect.x + lay.px(2), rect.y + lay.px(4)))
            surface.blit(img, rect)
            if res is not None and sp.card is not None:
                full = pygame.Rect(pos[0], pos[1] - lift, w, lay.px(CARD_H))
                if sp.card in mine:
                    surface.rect(theme.WIN, full.inflate(lay.px(6), lay.px(6)), max(2, lay.px(4)),
                                 border_radius=lay.px(10))
                if sp.card in dealers and sp.slot[0] in "db":
                    mark = full.inflate(-lay.px(24), 0)
                    mark.height = max(2, lay.px(6))
                    mark.y = full.bottom + lay.px(4) if sp.slot[0] == "b" else full.bottom + lay.px(4)
                    surface.rect(theme.PUSH, mark, border_radius=lay.px(3))
                if sp.card not in mine and sp.card not in dealers:
                    dim = self.ui.panel(full.size, (0, 0, 0), 110, radius=8)
                    surface.blit(dim, full)

    def _draw_names(self, surface: pygame.Surface) -> None:
        ui = self.ui
        snap = self.snap
        res = self.result() if self.revealed else None
        seat = res.seat(1) if res is not None and res.seats else None
        # the player's hand so far (five or more cards shown)
        landed = [sp.card for sp in self.sprites.values()
                  if sp.card is not None and sp.slot[0] in "pb" and sp.t_flip is not None
                  and self.clock >= sp.t_flip + FLIP * self.scale]
        name = ""
        if seat is not None:
            name = hand_name(seat.strength)
        elif len(landed) >= 5 and snap.hole:
            name = hand_name(evaluate(landed))
        if name:
            ui.fitted(surface, name, 26, theme.WHITE, NAME_W, bold=True, topleft=(NAME_X, PLAYER_Y + 34))
        if res is not None:
            ui.fitted(surface, hand_name(res.dealer_strength), 26, theme.WHITE, NAME_W, bold=True,
                      topleft=(NAME_X, DEALER_Y + 34))
            q = _("Dealer qualifies") if res.dealer_qualifies else _("Dealer does not qualify")
            ui.fitted(surface, q, 19, theme.PUSH if res.dealer_qualifies else theme.WIN, NAME_W,
                      topleft=(NAME_X, DEALER_Y + 72))
            if seat is not None:
                text, colour = self.outcome_text(seat)
                ui.fitted(surface, text, 30, colour, NAME_W, bold=True, topleft=(NAME_X, PLAYER_Y + 74))

    def outcome_text(self, seat: Any) -> tuple[str, tuple[int, int, int]]:
        net, paid = seat.net, seat.returned
        if seat.outcome.name == "FOLD":
            if paid > 0:
                return _("Folded · Trips pays {amount}").format(amount=fmt(self.app, paid)), theme.WIN
            return _("You folded"), theme.LOSE
        if net > 0:
            return _("YOU WIN {amount}").format(amount=fmt(self.app, paid)), theme.WIN
        if net == 0:
            return _("PUSH · {amount} returned").format(amount=fmt(self.app, paid)), theme.PUSH
        if paid > 0:
            return _("Paid {amount}").format(amount=fmt(self.app, paid)), theme.PUSH
        return _("Dealer wins"), theme.LOSE

    def _draw_meters(self, surface: pygame.Surface) -> None:
        snap = self.snap
        res = self.result()
        credits = snap.credits
        win = 0
        if res is not None and res.seats:
            if not self.revealed:
                credits -= res.seat(1).returned
            else:
                win = res.seat(1).returned
        amounts = self._shown_amounts()
        bet = sum(amounts.values())
        (r1, t1), (r2, t2), (r3, t3) = self.meters()
        meter_value(self.app, surface, r1, t1, fmt(self.app, credits))
        meter_value(self.app, surface, r2, t2, fmt(self.app, bet))
        meter_value(self.app, surface, r3, t3, fmt(self.app, win), theme.WIN if win else theme.METER_TEXT)

    @staticmethod
    def meters() -> list[tuple[tuple[float, float, float, float], str]]:
        return [((16, 564, 340, 48), _("CREDIT")), ((366, 564, 236, 48), _("BET")), ((612, 564, 236, 48), _("WIN"))]

    def prompt(self) -> tuple[str, tuple[int, int, int]]:
        """The one line telling the player what happens next."""
        snap = self.snap
        note = self.model.current_note()
        if note is not None:
            return note.text, (theme.LOSE if note.level == "error" else theme.CREAM)
        phase = str(snap.phase)
        if phase == "in_round":
            if self.busy:
                return _("Good luck!"), theme.CREAM
            return _(PHASE_PROMPTS.get(snap.game_phase, "")) if snap.game_phase in PHASE_PROMPTS else "", theme.CREAM
        if phase == "result" and self.busy:
            return _("Good luck!"), theme.CREAM
        if snap.credits <= 0 and phase in ("idle", "betting", "result"):
            if self.app.demo_mode:
                return _("Insert bills to play (demo: keys 1 to 6)."), theme.WIN
            return _("Insert bills to play."), theme.WIN
        if phase == "result" and not (snap.bet_ante or snap.bet_trips):
            return _("Place your bets, or rebet and deal."), theme.CREAM
        if snap.bet_ante <= 0:
            return _("Choose a chip, then touch ANTE."), theme.CREAM
        return _("Touch DEAL when you are ready."), theme.CREAM

    def _draw_message(self, surface: pygame.Surface) -> None:
        text, colour = self.prompt()
        if not text:
            return
        ui = self.ui
        r = self.layout.rect(858, 564, 406, 48)
        lines = self.app.text.wrap(text, self.layout.px(19), r.width - self.layout.px(16))
        if len(lines) == 1:
            ui.fitted(surface, text, 21, colour, 396, bold=True, midleft=(866, 588))
        else:
            ui.fitted(surface, lines[0], 18, colour, 396, bold=True, midleft=(866, 576))
            ui.fitted(surface, " ".join(lines[1:]) if i18n.language() not in ("ja", "th") else "".join(lines[1:]),
                      18, colour, 396, bold=True, midleft=(866, 600))

    def _draw_popup(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(ui.panel(lay.size, (0, 0, 0), 150, radius=0), (0, 0))
        box = lay.rect(330, 140, 620, 460)
        surface.blit(ui.panel(box.size, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3), box)
        if self.popup == "language":
            ui.fitted(surface, _("Language"), 34, theme.GOLD, 560, bold=True, center=(640, 186))
        else:
            ui.fitted(surface, _("Cash out"), 36, theme.GOLD, 560, bold=True, center=(640, 200))
            ui.fitted(surface, fmt(self.app, self.snap.credits), 60, theme.WHITE, 560, bold=True, center=(640, 290))
            ui.paragraph(surface, _("Your credits will be paid out. Please wait for your ticket."), 22,
                         theme.CREAM, 370, 340, 540)
        self.draw_buttons(surface)
