"""Join a game: the code shown on the host cabinet, typed on a keypad of the code's own
letters and digits; then this cabinet's player takes a seat in that game
(:class:`kiosk.friends.client.FriendsClient`, under the name of the setup screen, else
"Guest") and
plays it on ``tournament_remote``.  A seat this cabinet had in that game is taken back
with its token.  A cabinet paired with the host joins over the table link
(:meth:`~kiosk.friends.client.FriendsClient.find`); a refused pairing is shown.
"""

from __future__ import annotations

from collections.abc import Hashable
from enum import Enum
from typing import Any

import pygame

from kiosk.friends.client import FriendsClient, JoinRefused
from kiosk.friends.codes import CODE_ALPHABET, CODE_LENGTH
from kiosk.tournament.settings import DEFAULT_NAME
from kiosk.ui import i18n, theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _
from kiosk.ui.layout import MIN_TOUCH
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.intents import Edit, Nav, TypeKey
from kiosk.ui.scenes.tournament.common import language_button, top_background
from kiosk.ui.widgets import Button


class JoinGame(Enum):
    """Join the game the typed code names."""

    JOIN = "join"


#: Keys: Esc back, Enter join, Backspace delete (a letter of the code types it).
KEYS: dict[str, Nav | Edit | JoinGame] = {"escape": Nav.BACK, "return": JoinGame.JOIN, "backspace": Edit.DELETE}

KEYS_PER_ROW = 8
KEY_W, KEY_H, KEY_GAP = 120, MIN_TOUCH, 6
KEYS_X, KEYS_Y = 640 - (KEYS_PER_ROW * KEY_W + (KEYS_PER_ROW - 1) * KEY_GAP) / 2, 250
#: The typed code's box: left edge, width and centre (design units), wide enough for
#: every character of a code at the box's type size.
CODE_BOX = (380, 520, 640)


class TournamentJoinScene(Scene):
    name = "tournament_join"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.code = ""
        self.problem: str | None = None

    def enter(self, **kwargs: Any) -> None:
        self.code = ""
        self.problem = None

    def buttons(self) -> list[Button]:
        out = [language_button(1120, 4, 154)]
        for i, ch in enumerate(CODE_ALPHABET):
            row, col = divmod(i, KEYS_PER_ROW)
            out.append(
                Button(
                    f"key_{ch}",
                    (
                        KEYS_X + col * (KEY_W + KEY_GAP),
                        KEYS_Y + row * (KEY_H + KEY_GAP),
                        KEY_W,
                        KEY_H,
                    ),
                    ch,
                    TypeKey(ch),
                    style="dark",
                    size=34,
                )
            )
        out.append(
            Button("back", (16, 631, 220, 86), _("BACK"), Nav.BACK, style="dark", hint="Esc", size=26)
        )
        out.append(
            Button("delete", (560, 631, 320, 86), _("DELETE"), Edit.DELETE, style="plain", size=26)
        )
        out.append(
            Button(
                "join",
                (890, 631, 380, 86),
                _("JOIN THE GAME"),
                JoinGame.JOIN,
                style="primary",
                size=30,
                hint="Enter",
                enabled=len(self.code) == CODE_LENGTH,
            )
        )
        return out

    def on_key(self, key: Key) -> bool:
        intent = KEYS.get(key.name)
        if intent is not None:
            return self.on_intent(intent)
        ch = (key.text or "").upper()
        if len(ch) == 1 and ch in CODE_ALPHABET:
            return self.on_intent(TypeKey(ch))
        return False

    def on_intent(self, intent: object) -> bool:
        match intent:
            case Nav.BACK:
                self.app.go("tournament_setup")
            case TypeKey(ch=ch):
                if len(self.code) < CODE_LENGTH:
                    self.code += ch
                self.problem = None
            case Edit.DELETE:
                self.code = self.code[:-1]
                self.problem = None
            case JoinGame.JOIN:
                if len(self.code) == CODE_LENGTH:
                    self._join()
            case _:
                return False
        return True

    def _join(self) -> None:
        ctx = self.app.tournament
        try:
            client = FriendsClient.find(
                self.code, ctx.friends_hosts, ctx.friends_link_pairing, ctx.friends_link_hosts
            )
        except JoinRefused as exc:
            self.problem = exc.reason
            return
        ctx.close_joined()
        ctx.joined = client
        token = ctx.joined_tokens.get(self.code)
        if token is not None:
            client.resume(token)
        else:
            client.join(self.joining_name(), i18n.language())
        self.app.go("tournament_remote")

    def joining_name(self) -> str:
        """The name the table sees: the one typed on the setup screen, else "Guest"."""
        name = self.app.tournament.settings.human_name
        return _("Guest") if name == DEFAULT_NAME else name

    def look(self) -> Hashable:
        return ()  # what it shows changes with the input alone

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        top_background(self.app, surface)
        ui.fitted(surface, _("Join a game"), 34, theme.GOLD, 900, bold=True, topleft=(22, 18))
        ui.fitted(
            surface,
            _("Type the game code shown on the host cabinet."),
            24,
            theme.CREAM,
            1000,
            topleft=(40, 112),
        )
        shown = " ".join(self.code.ljust(CODE_LENGTH, "·"))
        box = lay.rect(CODE_BOX[0], 150, CODE_BOX[1], 86)
        ui.box(surface, box, theme.PANEL, 235, radius=14, border=theme.GOLD, border_w=2)
        ui.fitted(
            surface, shown, 50, theme.WHITE, CODE_BOX[1] - 24, bold=True, center=(CODE_BOX[2], 193)
        )
        ui.fitted(
            surface,
            _("You play as {name}").format(name=self.joining_name()),
            20,
            theme.MUTED,
            1240 - CODE_BOX[0] - CODE_BOX[1] - 20,
            topleft=(CODE_BOX[0] + CODE_BOX[1] + 20, 180),
        )
        if self.problem is not None:
            words = {
                "code.unknown": _("No game has this code."),
                "code.shape": _("A game code has {n} letters and digits.").format(n=CODE_LENGTH),
                "code.locked": _("Too many wrong codes from this cabinet: try again in 15 minutes."),
                "host.busy": _("The host cabinet is busy: try again in a moment."),
                "host.unreached": _("The host cabinet does not answer."),
                "host.none": _("No host cabinet is set: friends_hosts in the configuration names them."),
                "game.over": _("This game has ended."),
                "link.unpaired": _("This cabinet is not paired with the host cabinet."),
                "link.refused": _("The host cabinet refused this cabinet's pairing."),
                "link.unreached": _("The host cabinet does not answer."),
            }
            ui.fitted(
                surface,
                words.get(self.problem, self.problem),
                22,
                theme.WIN,
                900,
                bold=True,
                midtop=(640, 602),
            )
        self.draw_buttons(surface)
