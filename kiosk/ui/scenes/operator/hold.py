"""The hold page: per bet (Ante, Blind, Play, Trips) and for the main game, the actual
hold of the settled rounds against the theoretical hold of the decisions made and the
optimal theoretical hold, with the actual hold's 99% interval and the flag raised when
it leaves its 99.9% band over enough rounds; one table per paytable played.  The figures
are the operator port's (:meth:`kiosk.station.operator_port.LocalOperations.hold`, the same code as
``uth audit hold``).  Holds are percent of each bet's handle.

The page also turns the player's strategy coach on or off (a technician or a manager).
"""

from __future__ import annotations

import math

import pygame

from engine.maths.hold import FLAG_MIN_ROUNDS, HoldRow
from kiosk.config import role_at_least
from kiosk.game.commands import SetStrategyCoach
from kiosk.game.paytables.hold import PaytableHold
from kiosk.ui import theme
from kiosk.ui.i18n import N_, _, pgettext
from kiosk.ui.scenes.operator.intents import SetCoach
from kiosk.ui.scenes.operator.page import BOTTOM, LEFT, ROW_H, ROW_Y, TOP, WIDTH, Page, heading
from kiosk.ui.widgets import Button

BET_NAMES = {
    "ante": N_("Ante"),
    "blind": N_("Blind"),
    "play": N_("Play"),
    "trips": N_("Trips"),
    "main": N_("Main game"),
}
#: Columns: (heading, left edge as a share of the width, right-aligned).
COLUMNS = (
    (N_("Bet"), 0.0),
    (N_("Rounds"), 0.16),
    (N_("Actual hold"), 0.27),
    (N_("Interval (99%)"), 0.42),
    (N_("Decisions made"), 0.68),
    (N_("Optimal"), 0.85),
)
ROW = 30
#: Under the tables: what the columns mean.
LEGEND = N_(
    "Hold: the share of a bet's stakes the cabinet kept. Interval: where the true hold "
    "lies (99%) from these rounds, wide over few rounds. Decisions made: the hold "
    "the players' own decisions give in theory. Optimal: the hold against perfect play."
)
#: Design height kept for the legend.
LEGEND_H = 100


def percent(x: float) -> str:
    """A fraction of 1 as a percent with three decimals (the language's decimal point)."""
    if math.isnan(x):
        return "—"
    return f"{100 * x:.3f}%".replace(".", pgettext("number format", "decimal point"))


def row_cells(row: HoldRow) -> list[str]:
    """The table cells of one bet's row."""
    if row.rounds == 0:
        return [_(BET_NAMES[row.bet]), "0", "—", "—", "—", percent(row.optimal)]
    lo, hi = row.interval
    return [
        _(BET_NAMES[row.bet]),
        f"{row.rounds:,}",
        percent(row.actual),
        f"{percent(lo)} … {percent(hi)}",
        "—" if row.decisions is None else percent(row.decisions),
        percent(row.optimal),
    ]


#: Under a table whose optimal figures are not signed with this cabinet's key (read from
#: an unsigned PAR cache): the figure is shown, said to be unproven.
UNPROVEN = N_(
    "The exact return to player of this paytable is not proven yet: run the "
    "paytable check first."
)


def verdict(hold: PaytableHold) -> tuple[str, tuple[int, int, int]]:
    """The line under a table: the flag, or why there is none."""
    if not hold.rtp_known:  # the actual hold is shown alone
        return _("The exact RTP of this paytable is not known on this cabinet yet."), theme.MUTED
    if hold.report.flagged:
        return _(
            "FLAG: the actual hold left its 99.9% band (advantage play or a fault?)"
        ), theme.LOSE
    if hold.rounds < FLAG_MIN_ROUNDS:
        return _("No flag is raised below {n} rounds.").format(
            n=f"{FLAG_MIN_ROUNDS:,}"
        ), theme.MUTED
    return _("The actual hold is within its 99.9% band."), theme.WIN


class HoldPage(Page):
    id = "hold"

    def holds(self) -> list[PaytableHold]:
        desk = self.desk
        return desk.cached(("hold",), desk.operations.hold)

    def buttons(self) -> list[Button]:
        on = self.desk.snap.coach
        label = _("STRATEGY COACH: ON") if on else _("STRATEGY COACH: OFF")
        return [
            Button(
                "coach",
                (240, ROW_Y, 420, ROW_H),
                label,
                SetCoach(not on),
                style="primary" if on else "plain",
                enabled=role_at_least(self.desk.role, "technician"),
            )
        ]

    def on_intent(self, intent: object) -> bool:
        if not isinstance(intent, SetCoach):
            return False
        desk = self.desk
        on = intent.on
        ok = desk.send(SetStrategyCoach(on)) is not None
        text = _("Strategy coach turned on.") if on else _("Strategy coach turned off.")
        desk.report(text if ok else desk.refusal(), ok)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui = desk.ui
        y: float = TOP + 4
        holds = self.holds()
        if not holds:
            ui.fitted(
                surface, _("No rounds played yet."), 24, theme.MUTED, WIDTH, topleft=(LEFT, y)
            )
            return
        for hold in holds:
            t = hold.table
            rows = hold.report.rows
            if y + 40 + ROW * (1 + len(rows)) + 30 + (30 if hold.unproven else 0) > BOTTOM - LEGEND_H:
                break
            title = _("{paytable}: {n} settled rounds").format(
                paytable=f"{t.name} {t.version}", n=f"{hold.rounds:,}"
            )
            y = heading(desk, surface, title, LEFT, y, WIDTH, 22)
            if rows:
                for (name, share), edge in zip(
                    COLUMNS, (*(c[1] for c in COLUMNS[1:]), 1.0), strict=True
                ):
                    w = (edge - share) * WIDTH - 12
                    ui.fitted(
                        surface, _(name), 20, theme.GOLD, w, topleft=(LEFT + share * WIDTH, y)
                    )
                y += ROW
                for row in rows:
                    colour = (
                        theme.LOSE
                        if row.flagged
                        else theme.WHITE
                        if row.bet == "main"
                        else theme.CREAM
                    )
                    for cell, (_name, share), edge in zip(
                        row_cells(row), COLUMNS, (*(c[1] for c in COLUMNS[1:]), 1.0), strict=True
                    ):
                        w = (edge - share) * WIDTH - 12
                        ui.fitted(
                            surface,
                            cell,
                            20,
                            colour,
                            w,
                            bold=row.bet == "main",
                            topleft=(LEFT + share * WIDTH, y),
                        )
                    y += ROW
            text, colour = verdict(hold)
            ui.fitted(surface, text, 20, colour, WIDTH, topleft=(LEFT, y + 2))
            y += 40
            if hold.unproven:  # the optimal figures shown are not signed by this cabinet
                ui.fitted(surface, _(UNPROVEN), 20, theme.LOSE, WIDTH, topleft=(LEFT, y - 8))
                y += 30
        ui.column(surface, [_(LEGEND)], 20, theme.MUTED, LEFT, y, WIDTH, BOTTOM - y)
