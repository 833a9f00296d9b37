"""Around a seat in another cabinet's game, played here (over
:class:`~kiosk.friends.seat.link.LinkSeat`): the table as the host sends this seat
(its own two cards only, the board, every seat's chips, bets and last move, "Computer
playing" on an away seat, whose turn with its clock), Next hand, Leave the game (asked
first); the lobby (with the countdown when the host deals by itself) and, at the end,
the standings (recorded in the cabinet player's records, :mod:`kiosk.friends.joined`).
The host checks every move.  The table itself is painted as at the cabinet's own game
(:mod:`~kiosk.ui.scenes.tournament.table_paint`, from the seat port's view): at a
showdown each seat shows its hand and what it won, and the felt the pots that were won.

When the host's socket closes before the end (a power cut of the host cabinet) the
screen says so and connects again on a thread of its own for :data:`REOPEN_S` seconds
(the seat is taken back by its token when the host is back); after :data:`HOST_GONE_S`
it says the host has not come back, and when the wait is over that the game stopped.
"""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from kiosk.friends.client import FriendsClient
from kiosk.friends.joined import record_joined
from kiosk.friends.seat.link import LinkSeat
from kiosk.tournament.seat_port import Phase, TableView
from kiosk.ui import theme
from kiosk.ui.i18n import _
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.tournament.common import place_name, top_background
from kiosk.ui.scenes.tournament.raise_panel import raise_buttons
from kiosk.ui.scenes.tournament.table_facts import status
from kiosk.ui.scenes.tournament.table_intents import Chrome, Move, TableScreen, decision_buttons
from kiosk.ui.scenes.tournament.table_paint import TableLook, TablePainter
from kiosk.ui.widgets import Button

ROW = 631
#: Seconds a seat whose host went away keeps trying to connect again (the host cabinet's
#: own wait for a cabinet that left, seed 003: 10 minutes).
REOPEN_S = 600.0
#: Seconds without the host before the screen says it has not come back.
HOST_GONE_S = 60.0


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
        self.painter = TablePainter(scene.app)

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

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay, scene = self.app.painter, self.app.layout, self.scene
        port, c = self.port(), self.client
        v = port.view() if port is not None else None
        if v is not None and v.phase in (Phase.PLAY, Phase.HAND_OVER):
            # whose turn it was, and the options, are stale until the host is back
            look = TableLook(status="" if self.lost else status(v), clock=not self.lost)
            legal = port.legal() if port is not None and not self.lost else None
            self.painter.draw(surface, v, look, legal, scene.panel, scene.amount)
        else:
            surface.blit(self.app.felt, (0, 0))
            top_background(self.app, surface)
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

    def _draw_over(self, surface: pygame.Surface, v: TableView) -> None:
        """The standings at the end of the game."""
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
