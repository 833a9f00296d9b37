"""Around a seat in another cabinet's game, played here (over
:class:`~kiosk.friends.seat.link.LinkSeat`): the table as the host sends this seat
(its own two cards only, the board, every seat's chips, bets and last move, "Computer
playing" on an away seat, whose turn with its clock), Next hand, Leave the game (asked
first); the lobby (with the countdown when the host deals by itself) and, at the end,
the standings (recorded in the cabinet player's records, :mod:`kiosk.friends.joined`).
The host checks every move.  At a showdown each seat shows its hand and what it won,
and the felt the pots that were won.

When the host's socket closes before the end (a power cut of the host cabinet) the
screen says so and connects again on a thread of its own for :data:`REOPEN_S` seconds
(the seat is taken back by its token when the host is back); after :data:`HOST_GONE_S`
it says the host has not come back, and when the wait is over that the game stopped.
"""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from engine.holdem.actions import ActionKind
from kiosk.friends.client import FriendsClient
from kiosk.friends.joined import record_joined
from kiosk.friends.seat.link import LinkSeat
from kiosk.tournament.seat_port import Phase, SeatRow, TableView
from kiosk.ui import theme
from kiosk.ui.i18n import _, category_name
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.tournament.common import blinds_text, chips, place_name, top_background
from kiosk.ui.scenes.tournament.raise_panel import draw_slider, raise_buttons
from kiosk.ui.scenes.tournament.table_intents import Chrome, Move, TableScreen, decision_buttons
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


def move_name(last: ActionKind | None, bet: int) -> str:
    """A seat's last move and its bet in this round, short, in the language of the moment."""
    if last is ActionKind.FOLD:
        return _("Fold")
    if last is ActionKind.ALL_IN:
        return _("All in")
    if last is ActionKind.CHECK and not bet:
        return _("Check")
    if last is ActionKind.CALL:
        return _("Call {amount}").format(amount=chips(bet))
    if last is ActionKind.RAISE:
        return _("Raise to {amount}").format(amount=chips(bet))
    return _("Bet {amount}").format(amount=chips(bet)) if bet else ""


class JoinedTable:
    """A seat in a game hosted elsewhere, at ``scene`` (see the module's text)."""

    back_popup = "leave"  # Esc with the raise panel closed
    keys: dict[str, Chrome] = {}

    def __init__(self, scene: TableScreen) -> None:
        self.scene = scene
        self.app = scene.app
        self.recorded = False
        self.lost_s: float | None = None  # seconds since the host's socket closed (None: connected)
        self._port: LinkSeat | None = None

    @property
    def client(self) -> FriendsClient | None:
        return self.app.tournament.joined

    def port(self) -> LinkSeat | None:
        c = self.client
        if c is None:
            return None
        if self._port is None or self._port.client is not c:
            self._port = LinkSeat(c)
        return self._port

    @property
    def lost(self) -> bool:
        """The host's socket closed before the end of the game (the table shown is stale)."""
        return self.lost_s is not None

    def enter(self) -> None:
        self.recorded = False
        self.lost_s = None
        if self.client is None:
            self.app.go("tournament_join")

    def leave(self) -> None:
        pass

    def update(self, dt: float) -> None:
        c, port = self.client, self.port()
        if c is None or port is None:
            return
        port.advance(dt)
        self._watch_connection(c, dt)
        if c.welcome is not None:
            self.app.tournament.joined_tokens[c.code] = str(c.welcome["token"])
        if c.state is not None and c.state.get("phase") == "over" and not self.recorded:
            self._record(c)

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

    def _record(self, c: FriendsClient) -> None:
        """The result into the cabinet player's records (once)."""
        self.recorded = True
        store = self.app.tournament.store
        if c.welcome is None or store is None or c.state is None:
            return
        record_joined(store, c.state, player=str(c.welcome["name"]), token=str(c.welcome["token"]))

    def refused(self) -> None:
        """Never called: the host checks a move and a refusal comes back on the client."""

    def next_hand(self) -> None:
        port = self.port()
        if port is not None:
            port.next_hand()

    def on_intent(self, intent: Chrome) -> bool:
        c, ctx, scene = self.client, self.app.tournament, self.scene
        match intent:
            case Chrome.LEAVE:
                scene.popup = "leave"
            case Chrome.CLOSE:
                scene.popup = None
            case Chrome.CONFIRM_LEAVE:
                if c is not None:
                    c.leave()
                    ctx.joined_tokens.pop(c.code, None)
                ctx.close_joined()
                self.app.go("attract")
            case Chrome.DONE:
                ctx.close_joined()
                self.app.go("attract")
            case _:
                return False
        return True

    # -- buttons --------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        scene = self.scene
        if scene.popup == "leave":
            return [
                Button(
                    "confirm_leave",
                    (350, 430, 280, 96),
                    _("LEAVE"),
                    Chrome.CONFIRM_LEAVE,
                    style="fold",
                    size=28,
                ),
                Button(
                    "cancel",
                    (650, 430, 280, 96),
                    _("CANCEL"),
                    Chrome.CLOSE,
                    style="plain",
                    hint="Esc",
                    size=28,
                ),
            ]
        out = [
            Button(
                "leave",
                (1046, 4, 228, 86),
                _("Leave the game"),
                Chrome.LEAVE,
                style="dark",
                size=22,
            )
        ]
        port, c = self.port(), self.client
        v = port.view() if port is not None else None
        if v is None or c is None:
            return out
        done = Button(
            "done", (890, ROW, 380, 86), _("BACK TO TITLE"), Chrome.DONE, style="primary", size=28
        )
        if self.lost:
            return (
                out + [done] if c.gave_up else out
            )  # the table shown is stale until the host is back
        if v.phase is Phase.OVER:
            return out + [done]
        if v.phase is Phase.HAND_OVER:
            out.append(
                Button(
                    "next",
                    (890, ROW, 380, 86),
                    _("NEXT HAND"),
                    Move.NEXT_HAND,
                    style="primary",
                    hint="Space",
                    size=30,
                    enabled=v.next_open,
                )
            )
            return out
        la = port.legal() if port is not None else None
        if la is None:
            return out
        rr = RaiseRange.offered(la)
        if scene.panel and rr is not None:
            return out + raise_buttons(rr, scene.amount)
        return out + decision_buttons(la, rr)

    # -- drawing --------------------------------------------------------------------------
    def look(self) -> Hashable:
        """What the picture shows besides the port's version and the scene's state."""
        return self._lost_text() if self.lost else None

    def _card(
        self, surface: pygame.Surface, card: int | None, x: float, y: float, w: float
    ) -> None:
        lay = self.app.layout
        px = lay.px(w)
        img = self.app.cards.face(card, px) if card is not None else self.app.cards.back(px)
        surface.blit(img, lay.pos(x, y))

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay, scene = self.app.painter, self.app.layout, self.scene
        surface.blit(self.app.felt, (0, 0))
        top_background(self.app, surface)
        port, c = self.port(), self.client
        v = port.view() if port is not None else None
        if v is None:
            text = _("The host has closed this game.") if c is None or c.closed else _("Waiting…")
            ui.fitted(surface, text, 30, theme.CREAM, 900, topleft=(22, 24))
        elif v.phase is Phase.LOBBY:
            ui.fitted(
                surface,
                _("Game {code}").format(code=v.code),
                34,
                theme.GOLD,
                900,
                bold=True,
                topleft=(22, 18),
            )
            text = (
                _("Waiting… the game starts when the host taps Start.")
                if v.starts_in is None
                else _("The game starts by itself in {n} s.").format(n=v.starts_in)
            )
            ui.fitted(surface, text, 24, theme.CREAM, 1200, topleft=(40, 140))
        elif v.phase is Phase.OVER:
            self._draw_over(surface, v)
        else:
            self._draw_table(surface, v)
        if c is not None and c.refused is not None:
            ui.fitted(
                surface,
                str(c.refused.get("detail", "")),
                20,
                theme.WIN,
                800,
                bold=True,
                topleft=(460, 490),
            )
        if self.lost:
            box = lay.rect(240, 300, 800, 110)
            surface.blit(
                ui.panel(box.size, theme.PANEL, 252, radius=16, border=theme.WIN, border_w=3), box
            )
            ui.fitted(surface, self._lost_text(), 26, theme.WHITE, 752, max_h=90, center=(640, 355))
        if scene.popup == "leave":
            ui.shade(surface, 160)
            box = lay.rect(300, 200, 680, 340)
            ui.box(surface, box, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3)
            ui.fitted(
                surface, _("Leave the game?"), 36, theme.GOLD, 620, bold=True, center=(640, 270)
            )
            ui.paragraph(
                surface, _("The computer plays your seat for good."), 24, theme.CREAM, 340, 320, 600
            )
        scene.draw_buttons(surface)

    def _draw_table(self, surface: pygame.Surface, v: TableView) -> None:
        ui = self.app.painter
        top = [_("Hand {n}").format(n=v.hand), blinds_text(*v.blinds)]
        ui.fitted(surface, "  ·  ".join(top), 28, theme.GOLD, 1000, bold=True, topleft=(22, 12))
        ui.fitted(surface, self._turn_text(v), 21, theme.CREAM, 1000, topleft=(24, 54))
        others = [s for s in v.seats if s.seat != v.you]
        for i, seat in enumerate(others):
            self._draw_seat(surface, v, seat, 20 + i * (SEAT_W + 12), SEATS_Y)
        for i, card in enumerate(v.board):
            self._card(surface, card, 640 - 2.5 * (CARD_W + 8) + i * (CARD_W + 8), BOARD_Y, CARD_W)
        result = v.outcome
        # at a showdown the felt shows the pots that were won, not an empty pot
        pots = result.pots if result and result.pots else v.pots or (0,)
        ui.fitted(
            surface,
            _("Pot {amount}").format(amount=chips(sum(pots))),
            24,
            theme.WHITE,
            400,
            bold=True,
            midtop=(640, BOARD_Y + 128),
        )
        me = v.seats[v.you]
        for i, card in enumerate(v.cards):
            self._card(surface, card, 24 + i * (CARD_W + 8), 440, CARD_W)
        ui.fitted(surface, me.name, 24, theme.WHITE, 240, bold=True, topleft=(210, 440))
        mine = chips(me.chips)
        if result is not None and result.won[v.you] > 0:
            mine += "  +" + chips(result.won[v.you])
        ui.fitted(surface, mine, 26, theme.METER_TEXT, 240, bold=True, topleft=(210, 474))
        if v.category is not None:
            ui.fitted(surface, category_name(v.category), 20, theme.CREAM, 240, topleft=(210, 510))
        if result is not None:
            won = [(i, n) for i, n in enumerate(result.won) if n > 0]
            text = "  ·  ".join(
                _("{name} wins {amount}").format(name=v.seats[i].name, amount=chips(n))
                for i, n in won
            )
            ui.fitted(surface, text, 22, theme.WIN, 800, bold=True, midtop=(640, BOARD_Y + 164))
        rr = self.scene.raise_range() if self.scene.panel else None
        if rr is not None:
            draw_slider(ui, self.app.layout, surface, rr, self.scene.amount)

    def _turn_text(self, v: TableView) -> str:
        if self.lost:
            return ""  # whose turn it was is stale until the host is back
        if v.host_away:
            return _("The host has left: the game waits for them.")
        if v.phase is Phase.HAND_OVER:
            return _("Touch NEXT HAND when you are ready.")
        if v.to_act is None:
            return ""
        text = (
            _("Your turn")
            if v.your_turn
            else _("Waiting for {name}…").format(name=v.seats[v.to_act].name)
        )
        if v.turn_s is not None:
            text += "  " + _("{n} s").format(n=v.turn_s)
        return text

    def _draw_seat(
        self, surface: pygame.Surface, v: TableView, seat: SeatRow, x: float, y: float
    ) -> None:
        ui, lay = self.app.painter, self.app.layout
        acting = v.to_act == seat.seat and v.phase is Phase.PLAY
        r = lay.rect(x, y, SEAT_W, SEAT_H)
        ui.box(
            surface,
            r,
            theme.METER_BG,
            150 if seat.folded or seat.place else 225,
            radius=14,
            border=theme.WIN if acting else theme.GOLD_DARK,
            border_w=4 if acting else 2,
        )
        ui.fitted(
            surface, seat.name, 21, theme.WHITE, SEAT_W - 20, bold=True, topleft=(x + 10, y + 6)
        )
        result = v.outcome
        won = result.won[seat.seat] if result is not None else 0
        shown = next((h for h in result.shown if h.seat == seat.seat), None) if result else None
        ui.fitted(
            surface,
            chips(seat.chips),
            22,
            theme.METER_TEXT,
            SEAT_W - 20,
            bold=True,
            topleft=(x + 10, y + 34),
        )
        if won > 0:  # a winner of this hand, with what it won
            ui.fitted(
                surface,
                "+" + chips(won),
                19,
                theme.WIN,
                SEAT_W - 20,
                bold=True,
                topleft=(x + 10, y + 87),
            )
        if shown is not None:  # its hand at the showdown, at its seat
            line = category_name(shown.category)
        elif seat.place:
            line = _("Out · {place}").format(place=place_name(seat.place))
        elif seat.away:
            line = _("Computer playing")
        else:
            line = move_name(seat.last, seat.bet)
        ui.fitted(surface, line, 17, theme.CREAM, SEAT_W - 20, topleft=(x + 10, y + 64))
        for i, card in enumerate(seat.cards):
            self._card(surface, card, x + SEAT_W - 78 + i * 36, y + 4, 34)

    def _draw_over(self, surface: pygame.Surface, v: TableView) -> None:
        ui = self.app.painter
        ui.fitted(surface, _("TOURNAMENT OVER"), 34, theme.GOLD, 900, bold=True, topleft=(22, 18))
        for i, s in enumerate(v.standings):
            mine = s.seat == v.you
            ui.fitted(
                surface,
                f"{place_name(s.place)}  {s.name}",
                28,
                theme.WIN if mine else theme.WHITE,
                800,
                bold=mine,
                topleft=(80, 120 + i * 52),
            )
