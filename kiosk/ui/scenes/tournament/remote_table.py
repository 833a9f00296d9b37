"""A seat in another cabinet's game, played here: the table as the host sends this seat
(its own two cards only, the board, every seat's chips, bets and last move, "Computer
playing" on an away seat, whose turn with its clock), the actions the host offers (Fold,
Check or Call, Bet or Raise and the raise panel the host cabinet's table has: Min, ½ pot,
¾ pot, Pot, All in, − / + and a slider that follows a finger or the mouse), Next hand,
and Leave the game; at the end, the standings (recorded in the cabinet player's records,
:mod:`kiosk.friends.joined`).  Everything shown comes from the latest table of
:class:`kiosk.friends.client.FriendsClient`; the host checks every move.  At a showdown
each seat shows its hand and what it won, and the felt the pots that were won.

When the host's socket closes before the end (a power cut of the host cabinet) the
screen says so and connects again on a thread of its own for :data:`REOPEN_S` seconds
(the seat is taken back by its token when the host is back); after :data:`HOST_GONE_S`
it says the host has not come back, and when the wait is over that the game stopped.
The lobby says when the host deals by itself, with the countdown.
"""

from __future__ import annotations

from typing import Any

import pygame

from engine.cards import parse_card
from engine.hands.categories import HandCategory
from kiosk.friends.client import FriendsClient
from kiosk.friends.joined import record_joined
from kiosk.ui import theme
from kiosk.ui.events import Drag, InputEvent, Key, Touch
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, category_name
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.tournament.common import blinds_text, chips, place_name, top_background
from kiosk.ui.scenes.tournament.raise_panel import (
    draw_slider,
    legal_from_message,
    on_slider,
    raise_buttons,
    slider_amount,
)
from kiosk.ui.scenes.tournament.table_layout import RIGHT_X, ROW2, ROW_H
from kiosk.ui.widgets import Button

SEAT_W, SEAT_H = 204, 112
SEATS_Y = 104
BOARD_Y = 250
CARD_W = 84
ROW = 631
#: Seconds a seat whose host went away keeps trying to connect again (the host cabinet's
#: own wait for a cabinet that left, seed 003: 10 minutes).
REOPEN_S = 600.0
#: Seconds without the host before the screen says it has not come back.
HOST_GONE_S = 60.0


def move_name(last: str | None, bet: int) -> str:
    """A seat's last move and its bet in this round, short, in the language of the moment."""
    if last == "fold":
        return _("Fold")
    if last == "allin":
        return _("All in")
    if last == "check" and not bet:
        return _("Check")
    if last == "call":
        return _("Call {amount}").format(amount=chips(bet))
    if last == "raise":
        return _("Raise to {amount}").format(amount=chips(bet))
    return _("Bet {amount}").format(amount=chips(bet)) if bet else ""


class TournamentRemoteTableScene(Scene):
    name = "tournament_remote"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.confirm_leave = False
        self.panel = False  # the raise panel is open
        self.amount = 0  # the chips chosen on it (a round total)
        self.sliding = False  # a press began on the slider and the finger has not let go elsewhere
        self._panel_for: tuple[int, int] | None = None  # (hand, seq) the panel was opened for
        self.recorded = False
        self.lost_s: float | None = None  # seconds since the host's socket closed (None: connected)

    @property
    def client(self) -> FriendsClient | None:
        return self.app.tournament.joined

    @property
    def state(self) -> dict[str, Any] | None:
        c = self.client
        return c.state if c is not None else None

    def enter(self, **kwargs: Any) -> None:
        self.confirm_leave = False
        self.panel = False
        self.sliding = False
        self.recorded = False
        self.lost_s = None
        if self.client is None:
            self.app.go("tournament_join")

    @property
    def lost(self) -> bool:
        """The host's socket closed before the end of the game (the table shown is stale)."""
        return self.lost_s is not None

    def update(self, dt: float) -> None:
        c = self.client
        if c is None:
            return
        c.poll()
        self._watch_connection(c, dt)
        if c.welcome is not None:
            self.app.tournament.joined_tokens[c.code] = str(c.welcome["token"])
        m = c.state
        if self.panel and (m is None or self.raise_range() is None or (m["hand"], m["seq"]) != self._panel_for):
            self.panel = False  # the table moved on: the decision is no longer ours
            self.sliding = False
        if m is not None and m.get("phase") == "over" and not self.recorded:
            self._record(m)

    def _watch_connection(self, c: FriendsClient, dt: float) -> None:
        """Count the time without the host and connect again in the background."""
        over = c.state is not None and c.state.get("phase") == "over"
        if not c.closed or over or c.welcome is None or not c.can_reopen:
            self.lost_s = None
            return
        self.lost_s = 0.0 if self.lost_s is None else self.lost_s + dt
        if not c.reopening and not c.gave_up:
            c.reopen_in_background(REOPEN_S)

    def _lost_text(self) -> str:
        c = self.client
        if c is not None and c.gave_up:
            return _("The host did not come back: the game has stopped.")
        if (self.lost_s or 0.0) >= HOST_GONE_S:
            return _("The host has not come back: the game is stopped. This cabinet keeps trying.")
        return _("Connection to the host lost: trying again…")

    def _record(self, over: dict[str, Any]) -> None:
        """The result into the cabinet player's records (once)."""
        self.recorded = True
        c, ctx = self.client, self.app.tournament
        store = ctx.store
        if c is None or c.welcome is None or store is None:
            return
        name = str(c.welcome["name"])
        record_joined(store, over, player=name, token=str(c.welcome["token"]))

    def raise_range(self) -> RaiseRange | None:
        """What this seat may bet or raise to now (``None``: not its turn, or no raise)."""
        m = self.state
        if m is None or m.get("phase") != "play" or not m.get("your_turn"):
            return None
        return RaiseRange.offered(legal_from_message(m.get("legal"), int(m["you"])))

    # -- buttons --------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        if self.confirm_leave:
            return [Button("confirm_leave", (350, 430, 280, 96), _("LEAVE"), "confirm_leave", style="fold", size=28),
                    Button("cancel", (650, 430, 280, 96), _("CANCEL"), "cancel", style="plain", hint="Esc", size=28)]
        out = [Button("leave", (1046, 4, 228, 86), _("Leave the game"), "leave", style="dark", size=22)]
        m = self.state
        if m is None:
            return out
        c = self.client
        if self.lost and c is not None and c.gave_up:
            out.append(Button("done", (890, ROW, 380, 86), _("BACK TO TITLE"), "done", style="primary", size=28))
            return out
        if self.lost:
            return out  # the table shown is stale until the host is back
        if m.get("phase") == "over":
            out.append(Button("done", (890, ROW, 380, 86), _("BACK TO TITLE"), "done", style="primary", size=28))
            return out
        if m.get("phase") == "hand_over":
            vote = m.get("vote") or {}
            out.append(Button("next", (890, ROW, 380, 86), _("NEXT HAND"), "next", style="primary", hint="Space",
                              size=30, enabled=bool(vote.get("counts")) and not vote.get("voted")))
            return out
        la = m.get("legal")
        if not m.get("your_turn") or la is None:
            return out
        rr = self.raise_range()
        if self.panel and rr is not None:
            return out + raise_buttons(rr, self.amount)
        w = 262
        x = RIGHT_X + 12
        out.append(Button("fold", (x, ROW2, w, ROW_H), _("FOLD"), "act", ("fold", None), style="fold", hint="F",
                          size=30, enabled=bool(la["can_fold"])))
        if la["can_check"]:
            out.append(Button("call", (x + w + 10, ROW2, w, ROW_H), _("CHECK"), "act", ("check", None),
                              style="check", hint="C", size=30))
        else:
            all_in = int(la["call_amount"]) >= int(la["stack"])
            out.append(Button("call", (x + w + 10, ROW2, w, ROW_H), _("CALL"), "act", ("call", None),
                              style="check", hint="C", size=30,
                              sublabel=_("All in") if all_in else chips(int(la["call_amount"]))))
        label = _("BET") if la["can_bet"] else _("RAISE")
        out.append(Button("raise", (x + 2 * (w + 10), ROW2, w, ROW_H), label, "raise", style="play", hint="R",
                          size=30, enabled=rr is not None))
        return out

    def handle(self, event: InputEvent) -> bool:
        if isinstance(event, Drag):  # the slider follows a press that began on it
            if self.sliding and self.panel and not self.confirm_leave:
                self._slide(event.pos[0])
                return True
            return False
        if isinstance(event, Touch):
            self.sliding = False
            if self.panel and not self.confirm_leave and on_slider(self.layout, event.pos):
                self.sliding = True
                self._slide(event.pos[0])
                return True
        return super().handle(event)

    def _slide(self, x: int) -> None:
        rr = self.raise_range()
        if rr is not None:
            self.amount = slider_amount(self.layout, rr, x)

    def on_key(self, key: Key) -> bool:
        if key.name == "escape":
            if self.panel and not self.confirm_leave:
                return self.on_command("back")
            return self.on_command("cancel" if self.confirm_leave else "leave")
        if key.name == "space":
            return self.on_command("next")
        if self.panel and not self.confirm_leave:
            steps = {"up": "plus", "right": "plus", "down": "minus", "left": "minus", "return": "confirm_raise"}
            if key.name in steps:
                return self.on_command(steps[key.name])
        for b in self.buttons():
            if b.hint and key.name == b.hint.lower() and b.enabled:
                return self.on_command(str(b.command), b.arg)
        return False

    def on_command(self, name: str, arg: object = None) -> bool:
        c = self.client
        ctx = self.app.tournament
        if name == "leave":
            self.confirm_leave = True
        elif name == "cancel":
            self.confirm_leave = False
        elif name == "confirm_leave":
            if c is not None:
                c.leave()
                ctx.joined_tokens.pop(c.code, None)
            ctx.close_joined()
            self.app.go("attract")
        elif name == "done":
            ctx.close_joined()
            self.app.go("attract")
        elif c is None:
            return False
        elif name == "next":
            c.next_hand()
        elif name == "act" and isinstance(arg, tuple):
            action, amount = arg
            self.panel = False
            c.act(str(action), amount)
        elif name in ("raise", "back", "preset", "plus", "minus", "confirm_raise"):
            self._raise_command(c, name, arg)
        else:
            return False
        return True

    def _raise_command(self, c: FriendsClient, name: str, arg: object) -> None:
        """The raise panel: open it, choose the amount, close it or send the raise."""
        rr = self.raise_range()
        m = self.state
        if name == "back" or rr is None or m is None:
            self.panel = False
            return
        if name == "raise":
            if self.panel:
                name = "confirm_raise"
            else:
                self.panel = True
                self._panel_for = (int(m["hand"]), int(m["seq"]))
                self.amount = rr.min_to
                return
        if name == "preset":
            self.amount = rr.preset(str(arg))
        elif name in ("plus", "minus"):
            self.amount = rr.nudge(self.amount, 1 if name == "plus" else -1)
        elif name == "confirm_raise":
            to = rr.clamp(self.amount)
            self.panel = False
            self.sliding = False
            if to >= rr.max_to:
                c.act("allin")
            else:
                c.act("bet" if rr.legal.can_bet else "raise", to)

    # -- drawing --------------------------------------------------------------------------
    def _card(self, surface: pygame.Surface, name: str | None, x: float, y: float, w: float) -> None:
        px = self.layout.px(w)
        img = self.app.cards.face(parse_card(name), px) if name else self.app.cards.back(px)
        surface.blit(img, self.layout.pos(x, y))

    def draw(self, surface: pygame.Surface) -> None:
        ui = self.ui
        surface.blit(self.app.felt, (0, 0))
        top_background(self.app, surface)
        m = self.state
        c = self.client
        if m is None:
            text = _("The host has closed this game.") if c is None or c.closed else _("Waiting…")
            ui.fitted(surface, text, 30, theme.CREAM, 900, topleft=(22, 24))
        elif m.get("phase") == "lobby":
            ui.fitted(surface, _("Game {code}").format(code=m["code"]), 34, theme.GOLD, 900, bold=True,
                      topleft=(22, 18))
            starts_in = m.get("starts_in")
            text = (_("Waiting… the game starts when the host taps Start.") if starts_in is None
                    else _("The game starts by itself in {n} s.").format(n=int(starts_in)))
            ui.fitted(surface, text, 24, theme.CREAM, 1200, topleft=(40, 140))
        elif m.get("phase") == "over":
            self._draw_over(surface, m)
        else:
            self._draw_table(surface, m)
        if c is not None and c.refused is not None:
            ui.fitted(surface, str(c.refused.get("detail", "")), 20, theme.WIN, 800, bold=True, topleft=(460, 490))
        if self.lost:
            box = self.layout.rect(240, 300, 800, 110)
            surface.blit(ui.panel(box.size, theme.PANEL, 252, radius=16, border=theme.WIN, border_w=3), box)
            ui.fitted(surface, self._lost_text(), 26, theme.WHITE, 752, max_h=90, center=(640, 355))
        if self.confirm_leave:
            lay = self.layout
            ui.shade(surface, 160)
            box = lay.rect(300, 200, 680, 340)
            ui.box(surface, box, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3)
            ui.fitted(surface, _("Leave the game?"), 36, theme.GOLD, 620, bold=True, center=(640, 270))
            ui.paragraph(surface, _("The computer plays your seat for good."), 24, theme.CREAM, 340, 320, 600)
        self.draw_buttons(surface)

    def _draw_table(self, surface: pygame.Surface, m: dict[str, Any]) -> None:
        ui = self.ui
        top = [_("Hand {n}").format(n=m["hand"]), blinds_text(*m["blinds"])]
        ui.fitted(surface, "  ·  ".join(top), 28, theme.GOLD, 1000, bold=True, topleft=(22, 12))
        ui.fitted(surface, self._turn_text(m), 21, theme.CREAM, 1000, topleft=(24, 54))
        others = [s for s in m["seats"] if s["seat"] != m["you"]]
        for i, seat in enumerate(others):
            self._draw_seat(surface, m, seat, 20 + i * (SEAT_W + 12), SEATS_Y)
        for i, name in enumerate(m["board"]):
            self._card(surface, name, 640 - 2.5 * (CARD_W + 8) + i * (CARD_W + 8), BOARD_Y, CARD_W)
        result = m.get("result")
        # at a showdown the felt shows the pots that were won, not an empty pot
        pots = [int(p["amount"]) for p in result["pots"]] if result and result.get("pots") else m.get("pots") or [0]
        ui.fitted(surface, _("Pot {amount}").format(amount=chips(sum(pots))), 24, theme.WHITE, 400, bold=True,
                  midtop=(640, BOARD_Y + 128))
        me = m["seats"][m["you"]]
        for i, name in enumerate(m["cards"]):
            self._card(surface, name, 24 + i * (CARD_W + 8), 440, CARD_W)
        ui.fitted(surface, me["name"], 24, theme.WHITE, 240, bold=True, topleft=(210, 440))
        mine = chips(me["chips"])
        if result is not None and result["won"][m["you"]] > 0:
            mine += "  +" + chips(result["won"][m["you"]])
        ui.fitted(surface, mine, 26, theme.METER_TEXT, 240, bold=True, topleft=(210, 474))
        hand = m.get("hand_name")
        if hand is not None:
            ui.fitted(surface, category_name(HandCategory(int(hand["cat"]))), 20, theme.CREAM, 240,
                      topleft=(210, 510))
        if result is not None:
            won = [(i, n) for i, n in enumerate(result["won"]) if n > 0]
            text = "  ·  ".join(_("{name} wins {amount}").format(name=m["seats"][i]["name"], amount=chips(n))
                                for i, n in won)
            ui.fitted(surface, text, 22, theme.WIN, 800, bold=True, midtop=(640, BOARD_Y + 164))
        rr = self.raise_range() if self.panel else None
        if rr is not None:
            draw_slider(ui, self.layout, surface, rr, self.amount)

    def _turn_text(self, m: dict[str, Any]) -> str:
        if self.lost:
            return ""  # whose turn it was is stale until the host is back
        if m.get("host_wait_s") is not None:
            return _("The host has left: the game waits for them.")
        if m.get("phase") == "hand_over":
            return _("Touch NEXT HAND when you are ready.")
        to_act = m.get("to_act")
        if to_act is None:
            return ""
        text = _("Your turn") if m.get("your_turn") else _("Waiting for {name}…").format(
            name=m["seats"][to_act]["name"])
        if m.get("turn_s") is not None:
            text += "  " + _("{n} s").format(n=m["turn_s"])
        return text

    def _draw_seat(self, surface: pygame.Surface, m: dict[str, Any], seat: dict[str, Any], x: float,
                   y: float) -> None:
        ui, lay = self.ui, self.layout
        acting = m.get("to_act") == seat["seat"] and m.get("phase") == "play"
        r = lay.rect(x, y, SEAT_W, SEAT_H)
        ui.box(surface, r, theme.METER_BG, 150 if seat["folded"] or seat["place"] else 225, radius=14,
               border=theme.WIN if acting else theme.GOLD_DARK, border_w=4 if acting else 2)
        ui.fitted(surface, seat["name"], 21, theme.WHITE, SEAT_W - 20, bold=True, topleft=(x + 10, y + 6))
        result = m.get("result")
        won = int(result["won"][seat["seat"]]) if result is not None else 0
        shown = next((h for h in result["shown"] if h["seat"] == seat["seat"]), None) if result else None
        ui.fitted(surface, chips(seat["chips"]), 22, theme.METER_TEXT, SEAT_W - 20, bold=True,
                  topleft=(x + 10, y + 34))
        if won > 0:  # a winner of this hand, with what it won
            ui.fitted(surface, "+" + chips(won), 19, theme.WIN, SEAT_W - 20, bold=True, topleft=(x + 10, y + 87))
        if shown is not None:  # its hand at the showdown, at its seat
            line = category_name(HandCategory(int(shown["hand"]["cat"])))
        elif seat["place"]:
            line = _("Out · {place}").format(place=place_name(seat["place"]))
        elif seat["status"] == "away":
            line = _("Computer playing")
        else:
            line = move_name(seat["last"], int(seat["bet"]))
        ui.fitted(surface, line, 17, theme.CREAM, SEAT_W - 20, topleft=(x + 10, y + 64))
        if seat["cards"]:
            for i, name in enumerate(seat["cards"]):
                self._card(surface, name, x + SEAT_W - 78 + i * 36, y + 4, 34)

    def _draw_over(self, surface: pygame.Surface, m: dict[str, Any]) -> None:
        ui = self.ui
        ui.fitted(surface, _("TOURNAMENT OVER"), 34, theme.GOLD, 900, bold=True, topleft=(22, 18))
        for i, s in enumerate(m["standings"]):
            mine = s["seat"] == m["you"]
            ui.fitted(surface, f"{place_name(s['place'])}  {s['name']}", 28, theme.WIN if mine else theme.WHITE, 800,
                      bold=mine, topleft=(80, 120 + i * 52))
