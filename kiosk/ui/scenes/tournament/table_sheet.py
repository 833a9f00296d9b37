"""A table in words and numbers: its description and its blind levels, with the hand on
which each level starts (seed 000, "The tables at a glance").  Drawn on the table list,
on the guide's page of each table, and as the guide's table of every level.

Levels are indexes of :data:`engine.holdem.blinds.BLIND_LEVELS`; hands are counted from 1.
"""

from __future__ import annotations

import pygame

from engine.holdem.blinds import BLIND_LEVELS, STARTING_LEVELS
from kiosk.tournament.settings import TABLE_ORDER, TournamentSettings, table_spec
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import N_, _
from kiosk.ui.layout import MIN_TEXT
from kiosk.ui.scenes.tournament.common import chips, table_name

#: What each table is like, beside its numbers.
TABLE_BLURBS = {
    "seed003": N_("You against Ike, Max, Rosa, Jules and Nina. Be the last one with chips."),
    "classic": N_("The usual game, for 2 to 6 players."),
    "turbo": N_("Fast and wild: fewer chips, and blinds that climb quickly."),
    "deep": N_("Room to play: deep stacks and slow blinds."),
    "steady": N_("No hurry: the blinds never go up."),
    "heads_up": N_("Just you and one opponent."),
    "custom": N_("Your own starting chips, starting blinds and blind increase."),
}


def level_starts(starting_level: int, hands_per_level: int | None) -> list[tuple[int, int]]:
    """``(level, first hand)`` for every level a game reaches: one row when the blinds
    never go up; else a new level every ``hands_per_level`` hands up to the last."""
    if hands_per_level is None:
        return [(starting_level, 1)]
    return [(lvl, 1 + (lvl - starting_level) * hands_per_level) for lvl in range(starting_level, len(BLIND_LEVELS))]


def numbers_text(chips_each: int, level: int, per: int | None) -> str:
    """"1,500 chips each, blinds 10/20 going up every 10 hands." in the current language."""
    b = BLIND_LEVELS[level]
    blinds = f"{chips(b.small)}/{chips(b.big)}"
    if per is None:
        return _("{chips} chips each, blinds {blinds} that never go up.").format(chips=chips(chips_each),
                                                                                blinds=blinds)
    return _("{chips} chips each, blinds {blinds} going up every {n} hands.").format(
        chips=chips(chips_each), blinds=blinds, n=per)


def players_text(key: str) -> str:
    lo, hi = table_spec(key).players
    if lo == hi:
        return _("{n} players").format(n=lo)
    return _("{lo} to {hi} players").format(lo=lo, hi=hi)


def table_values(key: str, settings: TournamentSettings) -> tuple[int, int, int | None]:
    """``(chips, starting level, hands per level)`` of table ``key``; Custom's are the setup's."""
    if key == "custom":
        return settings.starting_chips, settings.starting_level, settings.hands_per_level
    spec = table_spec(key)
    return spec.starting_chips, spec.starting_level, spec.hands_per_level


def description(key: str, settings: TournamentSettings) -> str:
    """The table's description: what it is like, then its numbers."""
    return _(TABLE_BLURBS[key]) + " " + numbers_text(*table_values(key, settings))


def draw_sheet(app: SceneHost, surface: pygame.Surface, key: str, settings: TournamentSettings,
               box: tuple[float, float, float, float]) -> None:
    """Table ``key`` in the design rectangle ``box``: its name and players, description,
    and its levels in two columns (level, blinds, the hand it starts on)."""
    ui = app.painter
    x, y, w, h = box
    ui.fitted(surface, table_name(key), 32, theme.GOLD, w - 220, bold=True, topleft=(x, y))
    ui.fitted(surface, players_text(key), 20, theme.MUTED, 210, topright=(x + w, y + 8))
    y = ui.paragraph(surface, description(key, settings), 21, theme.CREAM, x, y + 48, w, line_gap=1.2) + 6
    _chips, level, per = table_values(key, settings)
    rows = level_starts(level, per)
    if per is None:
        b = BLIND_LEVELS[level]
        ui.fitted(surface, _("Blinds {small}/{big} for the whole game.").format(small=chips(b.small),
                                                                                big=chips(b.big)),
                  22, theme.WHITE, w, bold=True, topleft=(x, y + 8))
        return
    per_col = (len(rows) + 1) // 2
    row_h = min(30.0, (box[1] + h - y - 30) / max(1, per_col))
    col_w = (w - 20) / 2
    for col in range(2):
        cx = x + col * (col_w + 20)
        ui.fitted(surface, _("Level"), 16, theme.GOLD, 70, bold=True, topleft=(cx, y))
        ui.fitted(surface, _("Blinds"), 16, theme.GOLD, 140, bold=True, topleft=(cx + 70, y))
        ui.fitted(surface, _("From hand"), 16, theme.GOLD, col_w - 210, bold=True, topright=(cx + col_w, y))
        for i, (lvl, hand) in enumerate(rows[col * per_col:(col + 1) * per_col]):
            ry = y + 26 + i * row_h
            b = BLIND_LEVELS[lvl]
            first = lvl == level
            ink = theme.WIN if first else theme.CREAM
            ui.fitted(surface, str(lvl - level + 1), 18, ink, 60, bold=first, topleft=(cx + 8, ry))
            ui.fitted(surface, f"{chips(b.small)}/{chips(b.big)}", 18, ink, 140, bold=True, topleft=(cx + 70, ry))
            ui.fitted(surface, chips(hand), 18, ink, col_w - 210, topright=(cx + col_w, ry))


def draw_glance(app: SceneHost, surface: pygame.Surface, box: tuple[float, float, float, float]) -> None:
    """Every level, the starting blinds one may choose highlighted, and the hand on which
    each level begins at each table whose blinds go up."""
    ui, lay = app.painter, app.layout
    x, y, w, h = box
    tables = [k for k in TABLE_ORDER if k != "custom" and table_spec(k).hands_per_level is not None]
    col0, col1 = 70.0, 150.0
    col_w = (w - col0 - col1) / len(tables)
    ui.fitted(surface, _("Level"), 16, theme.GOLD, col0 - 6, bold=True, topleft=(x, y))
    ui.fitted(surface, _("Blinds"), 16, theme.GOLD, col1 - 6, bold=True, topleft=(x + col0, y))
    for i, key in enumerate(tables):
        ui.fitted(surface, table_name(key), 16, theme.GOLD, col_w - 8, bold=True,
                  topright=(x + col0 + col1 + (i + 1) * col_w - 4, y))
    row_h = (h - 26) / len(BLIND_LEVELS)
    starts = {k: dict(level_starts(table_spec(k).starting_level, table_spec(k).hands_per_level)) for k in tables}
    for lvl, b in enumerate(BLIND_LEVELS):
        ry = y + 26 + lvl * row_h
        if lvl in STARTING_LEVELS:  # a stripe behind the row (no frame: the row is no box)
            band = lay.rect(x - 6, ry - 2, w + 12, row_h)
            surface.blit(ui.panel(band.size, theme.GOLD_DARK, 90, radius=6), band)
        size = min(17.0, max(float(MIN_TEXT), row_h * 0.9))
        mid = ry - 2 + row_h / 2  # each line centred in its band
        ui.fitted(surface, str(lvl + 1), size, theme.CREAM, col0 - 6, max_lines=1, midleft=(x + 6, mid))
        ui.fitted(surface, f"{chips(b.small)}/{chips(b.big)}", size, theme.WHITE, col1 - 6, bold=True,
                  max_lines=1, midleft=(x + col0, mid))
        for i, key in enumerate(tables):
            hand = starts[key].get(lvl)
            ui.fitted(surface, chips(hand) if hand is not None else "—", size,
                      theme.WIN if hand == 1 else theme.CREAM, col_w - 8, max_lines=1,
                      midright=(x + col0 + col1 + (i + 1) * col_w - 4, mid))
