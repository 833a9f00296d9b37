"""Records (seed 000): totals -- games, wins and win rate, average place, play time, hands
played and won, biggest pot, best hand, VPIP -- the finishing places, results by table
and by computer strength, the recent games; Export JSON; Export hands (the latest game's,
to a USB stick when one is mounted); Delete all (a question that an operator answers with
their PIN).  The cabinet keeps the latest 60 games."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum
from typing import Any

import pygame

from engine.holdem.stats import PlayerRecords
from kiosk.game.commands import OperatorLogin, OperatorLogout
from kiosk.pins import PIN_MAX
from kiosk.tournament.settings import DEFAULT_NAME
from kiosk.tournament.store import KEEP_GAMES, TournamentStoreError
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, count, hand_name
from kiosk.ui.scenes.base import Scene
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.keypad import keypad_buttons
from kiosk.ui.scenes.tournament.common import (
    IDLE_OTHER,
    chips,
    idle_for,
    percent,
    place_name,
    play_time,
    player_name,
    strength_name,
    table_name,
    title_bar,
)
from kiosk.ui.scenes.tournament.hands_export import Message, export_game_hands
from kiosk.ui.widgets import Button

#: The PIN pad of the Delete all question (design units).
KEYPAD_AT, KEYPAD_PITCH, KEYPAD_KEY = (660, 180), (132, 92), (120, 82)


class Records(Enum):
    """The records page's own buttons."""

    EXPORT = "export"  # every game as JSON
    EXPORT_HANDS = "export_hands"  # the kept games' hands
    DELETE = "delete"  # ask an operator's PIN to delete them all


class Pin(Enum):
    """The delete question's keypad: clear the PIN, delete."""

    CLEAR = "clear"
    CONFIRM = "confirm_delete"


@dataclass(frozen=True)
class PinDigit:
    """A digit of the operator's PIN."""

    digit: str


#: Esc: closes the question, else goes back.
KEYS: dict[str, Nav] = {"escape": Nav.BACK}
#: The question's keys besides the digits.
PIN_KEYS: dict[str, Pin] = {"backspace": Pin.CLEAR, "return": Pin.CONFIRM}


class TournamentRecordsScene(Scene):
    name = "tournament_records"

    def __init__(self, app: SceneHost) -> None:
        super().__init__(app)
        self.confirm = False  # the Delete all question (with the operator's PIN pad) is up
        self.pin = ""  # the operator's PIN being typed
        self.refused: str | None = None  # why the last PIN was refused
        self.message: Message | None = None
        self.back_to = "attract"
        self.games: list[tuple[str, Any]] = []
        self.kept: list[str] = []  # ids of this player's finished games whose hands are kept, newest first

    @property
    def owner(self) -> str:
        """Whose records are shown: the name on the setup screen."""
        return self.app.tournament.settings.human_name

    def reload(self) -> None:
        store = self.app.tournament.store
        try:
            self.games = store.games(self.owner) if store is not None else []
            self.kept = [k.game_id for k in store.kept_games(self.owner)] if store is not None else []
        except Exception:  # noqa: BLE001 - a damaged table shows as no records
            self.games, self.kept = [], []

    def enter(self, **kwargs: Any) -> None:
        self._close_question()
        self.message = None
        self.reload()
        prev = self.app.previous
        self.back_to = prev if prev in ("tournament_results", "tournament_setup", "tournament_tables") else "attract"

    def buttons(self) -> list[Button]:
        if self.confirm:
            keys = keypad_buttons(KEYPAD_AT, KEYPAD_PITCH, KEYPAD_KEY, "", "fold", 24)
            enter = keys.pop()  # the enter key's place holds DELETE
            keys = [replace(b, command=PinDigit(str(b.arg)) if str(b.arg).isdigit() else Pin.CLEAR, arg=None)
                    for b in keys]
            keys.append(Button("confirm_delete", enter.rect, _("DELETE"), Pin.CONFIRM, style="fold", size=24,
                               enabled=bool(self.pin)))
            return keys + [Button("cancel_delete", (230, 500, 360, 86), _("CANCEL"), Nav.BACK, style="plain",
                                  hint="Esc", size=28)]
        have = bool(self.games)
        y, w = 626, 250
        return [
            Button("back", (16, y, w, 86), _("BACK"), Nav.BACK, style="dark", hint="Esc", size=28),
            Button("export", (282, y, w, 86), _("EXPORT JSON"), Records.EXPORT, style="plain", size=26, enabled=have),
            Button("export_hands", (548, y, w, 86), _("EXPORT HANDS"), Records.EXPORT_HANDS, style="plain", size=26,
                   enabled=bool(self.kept)),
            Button("delete", (1014, y, w, 86), _("DELETE ALL"), Records.DELETE, style="fold", size=26, enabled=have),
        ]

    def modal(self) -> bool:
        return self.confirm

    def on_key(self, key: Key) -> bool:
        if KEYS.get(key.name) is Nav.BACK:
            return self.on_intent(Nav.BACK)
        if self.confirm:
            if key.name.isdigit() and len(key.name) == 1:
                return self.on_intent(PinDigit(key.name))
            pin = PIN_KEYS.get(key.name)
            if pin is not None:
                return self.on_intent(pin)
            return True  # the question takes every key
        return False

    def _close_question(self) -> None:
        self.confirm, self.pin, self.refused = False, "", None

    def _delete_all(self) -> None:
        """Delete this player's records if the PIN typed is an operator's (who is logged
        out again at once)."""
        store = self.app.tournament.store
        model = self.app.model
        pin, self.pin = self.pin, ""
        if store is None:
            return
        if not model.send(OperatorLogin(pin)):
            note = model.note
            self.refused = note.text if note is not None else _("Refused.")
            return
        try:
            store.delete_all(self.owner)
        finally:
            model.send(OperatorLogout())
        self.reload()
        self._close_question()
        self.message = (_("Every record was deleted."), theme.CREAM)

    def on_command(self, name: str, arg: object = None) -> bool:
        """The cabinet's shortcuts: none is the page's; the question takes them all."""
        return self.confirm

    def on_intent(self, intent: object) -> bool:
        store = self.app.tournament.store
        match intent:
            case Nav.BACK:
                if self.confirm:
                    self._close_question()
                else:
                    self.app.go(self.back_to)
            case Records.EXPORT if store is not None:
                try:
                    path = store.export_to(player=self.owner)
                    self.message = (_("Exported to {path}").format(path=str(path)), theme.CREAM)
                except (OSError, TournamentStoreError) as exc:
                    self.message = (_("Export failed: {reason}").format(reason=str(exc)), theme.LOSE)
            case Records.EXPORT_HANDS if self.kept:
                self.message = export_game_hands(self.app, self.kept[0])
            case Records.DELETE:
                self._close_question()
                self.confirm = True
            case PinDigit(digit=digit) if self.confirm:
                if len(self.pin) < PIN_MAX:
                    self.pin += digit
                self.refused = None
            case Pin.CLEAR if self.confirm:
                self.pin, self.refused = "", None
            case Pin.CONFIRM if self.confirm:
                self._delete_all()
            case _:
                return self.confirm  # the question takes every request
        return True

    def update(self, dt: float) -> None:
        if idle_for(self.app) > IDLE_OTHER:
            self.app.go("attract")

    def look(self) -> Hashable:
        return ()  # what it shows changes with the input alone

    def draw(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        surface.blit(self.app.felt, (0, 0))
        who = self.owner
        title = _("Your records") if who == DEFAULT_NAME else _("Records of {name}").format(name=player_name(who))
        title_bar(self.app, surface, title,
                  _("The latest {n} games are kept on this cabinet.").format(n=KEEP_GAMES), slim=True)
        games = self.games
        if not games:
            ui.fitted(surface, _("No games recorded yet."), 32, theme.CREAM, 1000, center=(640, 320))
            self._draw_message(surface)
            self.draw_buttons(surface)
            return
        tot = PlayerRecords((g for _s, g in games), keep=KEEP_GAMES).totals()
        left = lay.rect(12, 72, 610, 546)
        ui.box(surface, left, (0, 0, 0), 140, radius=18, border=theme.GOLD_DARK)
        avg = tot["average_place"]
        rows = [
            (_("Games"), chips(tot["games"])),
            (_("Wins"), f"{chips(tot['wins'])}  ({percent(tot['win_rate'])})"),
            (_("Average place"), f"{avg:.1f}" if avg is not None else "—"),
            (_("Play time"), play_time(tot["play_time_s"])),
            (_("Hands played"), chips(tot["hands_played"])),
            (_("Hands won"), chips(tot["hands_won"])),
            (_("Biggest pot"), chips(tot["biggest_pot"]) if tot["biggest_pot"] else "—"),
            (_("Best hand"), hand_name(tot["best_hand"]) if tot["best_hand"] is not None else "—"),
            (_("VPIP"), percent(tot["vpip"])),
        ]
        y: float = 84
        for label, value in rows:
            ui.fitted(surface, label, 20, theme.CREAM, 250, topleft=(30, y))
            ui.fitted(surface, value, 22, theme.WHITE, 330, bold=True, topright=(604, y - 1))
            y += 36
        # finishing places: a bar each
        places_title = ui.fitted(surface, _("Finishing places"), 20, theme.GOLD, 300, bold=True, topleft=(30, 410))
        counts = [tot["places"].get(str(p), 0) for p in range(1, 7)]
        top = max(1, max(counts))
        floor = 572
        tallest = floor - (places_title.bottom - lay.oy) / lay.scale - 40  # room for a count over the tallest bar
        for i, n in enumerate(counts):
            x = 40 + i * 96
            h = tallest * n / top
            bar = lay.rect(x, floor - h, 60, max(2, h))
            pygame.draw.rect(surface, theme.WIN if i == 0 else theme.GOLD_DARK, bar, border_radius=lay.px(4))
            ui.fitted(surface, str(n), 17, theme.WHITE, 80, bold=True, midbottom=(x + 30, floor - 2 - h))
            ui.fitted(surface, place_name(i + 1), 17, theme.CREAM, 90, midtop=(x + 30, floor + 6))
        # by table, by strength, recent
        right = lay.rect(634, 72, 634, 546)
        ui.box(surface, right, (0, 0, 0), 140, radius=18, border=theme.GOLD_DARK)
        x, w = 652, 600
        y = 82
        y = self._section(surface, _("By table"), [(table_name(k), v) for k, v in tot["by_table"].items()][:4],
                          x, y, w)
        y = self._section(surface, _("By computer strength"),
                          [(strength_name(k), v) for k, v in sorted(tot["by_ai_strength"].items(),
                                                                   key=lambda kv: ("easy", "normal", "hard").index(kv[0])
                                                                   if kv[0] in ("easy", "normal", "hard") else 9)],
                          x, y, w)
        ui.fitted(surface, _("Recent games"), 20, theme.GOLD, w, bold=True, topleft=(x, y))
        y += 30
        for _stamp, g in list(reversed(games))[:6]:
            when = datetime.fromtimestamp(g.finished_at).strftime("%Y-%m-%d %H:%M") if g.finished_at else ""
            ui.fitted(surface, when, 18, theme.MUTED, 170, topleft=(x, y))
            ui.fitted(surface, table_name(g.table), 18, theme.CREAM, 190, topleft=(x + 176, y))
            ui.fitted(surface, _("{place} of {players}").format(place=place_name(g.place), players=g.players), 18,
                      theme.WIN if g.place == 1 else theme.WHITE, 120, bold=True, topleft=(x + 374, y))
            ui.fitted(surface, count("{n} hand", "{n} hands", g.hands_played), 18, theme.CREAM, 100, topright=(x + w, y))
            y += 28
        self._draw_message(surface)
        if self.confirm:
            self._draw_confirm(surface)
        self.draw_buttons(surface)

    def _section(self, surface: pygame.Surface, title: str, rows: list[tuple[str, dict[str, float]]],
                 x: float, y: float, w: float) -> float:
        ui = self.ui
        ui.fitted(surface, title, 20, theme.GOLD, w, bold=True, topleft=(x, y))
        y += 30
        for label, v in rows:
            games, wins = int(v["games"]), int(v["wins"])
            ui.fitted(surface, label, 20, theme.CREAM, 280, topleft=(x + 8, y))
            ui.fitted(surface, _("{wins} of {games} won").format(wins=wins, games=games) + "  ·  "
                      + percent(wins / games if games else 0), 20, theme.WHITE, 300, topright=(x + w, y))
            y += 29
        return y + 10

    def _draw_message(self, surface: pygame.Surface) -> None:
        if self.message is not None:
            self.ui.paragraph(surface, self.message[0], 15, self.message[1], 814, 630, 190, line_gap=1.15)

    def _draw_confirm(self, surface: pygame.Surface) -> None:
        ui, lay = self.ui, self.layout
        ui.shade(surface, 160)
        box = lay.rect(200, 100, 880, 520)
        ui.box(surface, box, theme.PANEL, 245, radius=20, border=theme.GOLD, border_w=3)
        ui.fitted(surface, _("Delete all records?"), 36, theme.GOLD, 820, bold=True, center=(640, 140))
        ui.paragraph(surface, _("Every finished game is deleted. This cannot be undone."), 22, theme.CREAM, 230, 190,
                     380)
        ui.fitted(surface, _("An operator's PIN is needed."), 22, theme.CREAM, 380, topleft=(230, 300))
        pin_box = lay.rect(230, 340, 360, 56)
        pygame.draw.rect(surface, (0, 0, 0), pin_box, border_radius=lay.px(8))
        ui.label(surface, "●" * len(self.pin), 28, theme.WHITE, center=(410, 368))
        if self.refused is not None:
            ui.paragraph(surface, self.refused, 18, theme.LOSE, 230, 410, 360)
