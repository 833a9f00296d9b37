"""Invite a friend (seed 003): the host cabinet's QR code of the game's link, its short
game code, the friends who joined, and Start once at least one has.  Seats nobody took
are played by the computer.  While this screen shows, the frame loop serves the lobby
(:meth:`kiosk.friends.cabinet.CabinetHost.pump`); Back closes the invitation.
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import Any

import pygame

from kiosk.friends.cabinet import CabinetHost
from kiosk.friends.invite import invite_surface
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.tournament.common import language_button, top_background
from kiosk.ui.widgets import Button

log = logging.getLogger(__name__)


class Invite(Enum):
    """Start the game with the friends who joined."""

    START = "start"


#: Keys: Esc back (the invitation closes), Enter start.
KEYS: dict[str, Nav | Invite] = {"escape": Nav.BACK, "return": Invite.START}

QR = (40, 110, 430)  # x, y, size of the QR code (design units)
TEXT_X = 510
TEXT_W = 740


class TournamentInviteScene(Scene):
    name = "tournament_invite"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.problem: str | None = None
        self._qr: tuple[tuple[str, int], pygame.Surface] | None = None

    @property
    def host(self) -> CabinetHost | None:
        return self.app.tournament.friends

    def enter(self, **kwargs: Any) -> None:
        self.problem = None
        try:
            self.app.tournament.invite()
        except OSError as exc:  # the address or port cannot be served
            log.error("the invitation cannot be served: %s", exc)
            self.problem = str(exc)

    # -- buttons --------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        f = self.host
        ready = f is not None and f.can_start
        return [
            language_button(1120, 4, 154),
            Button("back", (16, 631, 220, 86), _("BACK"), Nav.BACK, style="dark", hint="Esc", size=26),
            Button("start", (890, 631, 380, 86), _("START GAME"), Invite.START, style="primary", size=32, hint="Enter",
                   enabled=ready),
        ]

    def on_key(self, key: Key) -> bool:
        intent = KEYS.get(key.name)
        return intent is not None and self.on_intent(intent)

    def on_intent(self, intent: object) -> bool:
        ctx = self.app.tournament
        match intent:
            case Nav.BACK:
                ctx.close_friends()
                self.app.go("tournament_setup")
            case Invite.START:
                f = self.host
                if f is None or not f.can_start:
                    return True
                ctx.start_friends()
                self.app.go("tournament")
            case _:
                return False
        return True

    def update(self, dt: float) -> None:
        f = self.host
        if f is not None:
            f.pump(dt)

    # -- drawing --------------------------------------------------------------------------
    def _qr_surface(self, link: str) -> pygame.Surface:
        size = self.layout.px(QR[2])
        key = (link, size)
        if self._qr is None or self._qr[0] != key:
            self._qr = (key, invite_surface(link, size))
        return self._qr[1]

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        top_background(self.app, surface)
        ui.fitted(surface, _("Invite a friend"), 34, theme.GOLD, 900, bold=True, topleft=(22, 18))
        f = self.host
        if f is None:
            ui.paragraph(surface, _("The invitation cannot be served: {problem}").format(problem=self.problem or "?"),
                         24, theme.CREAM, TEXT_X, 140, TEXT_W)
            self.draw_buttons(surface)
            return
        x, y, size = QR
        surface.blit(self._qr_surface(f.link), lay.pos(x, y))
        ui.fitted(surface, f.link, 16, theme.MUTED, size, midtop=(x + size / 2, y + size + 8))
        if not f.host.phones_can_reach:  # a loopback link: no phone can open it
            ui.column(surface, [_("Phones cannot open this link: this cabinet keeps friends’ games to itself. "
                                  "Ask an attendant to open them to the venue’s network.")],
                      17, theme.GOLD, TEXT_X, 560, TEXT_W, 62)
        ui.fitted(surface, _("Game {code}").format(code=f.code), 56, theme.WHITE, TEXT_W, bold=True,
                  topleft=(TEXT_X, 112))
        below = ui.paragraph(surface, _("Send this link to up to five friends. Each takes a computer player’s seat, "
                                        "with its chips; the computer plays any seats left."),
                             24, theme.CREAM, TEXT_X, 196, TEXT_W)
        top = below + 24
        ui.fitted(surface, _("Friends at the table"), 24, theme.GOLD, TEXT_W, bold=True, topleft=(TEXT_X, top))
        line = top + 40
        friends = f.friends()
        if not friends:
            ui.fitted(surface, _("Waiting…"), 24, theme.MUTED, TEXT_W, topleft=(TEXT_X + 8, line))
        for friend in friends:
            ui.fitted(surface, "• " + friend.name, 26, theme.WHITE, TEXT_W, bold=True, topleft=(TEXT_X + 8, line))
            line += 38
        ui.fitted(surface, _("Chips are points only: no money."), 17, theme.MUTED, 600, topleft=(260, 663))
        self.draw_buttons(surface)
