"""The paytable page: the shipped paytables with their RTP, the one in force marked;
choosing another shows what would change -- name, version, full SHA-256, RTP and limits
-- for confirmation before it is put in force.

The controller refuses a change with credits on the meter, a round or a payout in
progress, the main door closed, or an RTP not proven on this cabinet; a refused change
keeps the choice on screen with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from engine.uth.paytable import Paytable, PaytableError, load_paytable, shipped_paytables
from kiosk.machine.commands import SetPaytable
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.operator import confirm
from kiosk.ui.scenes.operator.confirm import Change, Confirmation
from kiosk.ui.scenes.operator.limits import CONDITIONS
from kiosk.ui.scenes.operator.machine_info import sha_lines
from kiosk.ui.scenes.operator.page import ROW_H, ROW_Y, TOP, Desk, Page
from kiosk.ui.scenes.paytable import rtp_figures
from kiosk.ui.widgets import Button

SHOWN = 4
ROW = 108
TEXT_X, TEXT_W = 260, 980
RTP_NAMES = {"main_total": N_("Main game"), "trips": N_("Trips")}


class PaytablePage(Page):
    id = "paytable"

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.selected: Path | None = None
        self.confirming = False
        self._rtp: dict[str, dict[str, float]] = {}

    def open(self) -> None:
        self.selected, self.confirming = None, False

    def tables(self) -> list[tuple[Path, Paytable | str]]:
        """The shipped tables: ``(path, table)``, or ``(path, the reason it is unusable)``."""
        def load() -> list[tuple[Path, Paytable | str]]:
            out: list[tuple[Path, Paytable | str]] = []
            for path in shipped_paytables()[:SHOWN]:
                try:
                    out.append((path, load_paytable(path)))
                except PaytableError as exc:
                    out.append((path, str(exc)))
            return out

        return self.desk.cached(("tables",), load)

    def rtp(self, table: Paytable) -> dict[str, float]:
        if table.sha256 not in self._rtp:
            self._rtp[table.sha256] = rtp_figures(table)
        return self._rtp[table.sha256]

    def rtp_text(self, table: Paytable) -> str:
        figures = self.rtp(table)
        if not figures:
            return _("RTP not known yet")
        return "  ·  ".join(f"{_(name)} {figures[key]:.3f}%" for key, name in RTP_NAMES.items() if key in figures)

    def modal(self) -> bool:
        return self.confirming

    def confirmation(self) -> Confirmation | None:
        new = next((t for p, t in self.tables() if p == self.selected), None)
        if new is None:
            return None
        if isinstance(new, str):
            return Confirmation(new, (), "apply_table", "cancel_table")
        desk = self.desk
        old, money = desk.snap.paytable, desk.money

        def limits(t: Paytable) -> str:
            lim = t.limits
            return f"{money(lim.ante_min, True)}–{money(lim.ante_max, True)}"

        old_sha, new_sha = sha_lines(old.sha256, 16, 16), sha_lines(new.sha256, 16, 16)
        changes = [Change(_("Paytable"), f"{old.name} {old.version}", f"{new.name} {new.version}"),
                   Change(_("RTP"), self.rtp_text(old), self.rtp_text(new)),
                   Change(_("Ante limits"), limits(old), limits(new))]
        changes += [Change(_("SHA-256") if i == 0 else "", a, b) for i, (a, b) in enumerate(zip(old_sha, new_sha,
                                                                                               strict=True))]
        return Confirmation(_("Put this paytable in force?"), tuple(changes), "apply_table", "cancel_table",
                            _(CONDITIONS))

    def buttons(self) -> list[Button]:
        c = self.confirmation() if self.confirming else None
        if c is not None:
            return confirm.buttons(c)
        out = []
        current = self.desk.snap.paytable.sha256
        for i, (path, table) in enumerate(self.tables()):
            in_force = isinstance(table, Paytable) and table.sha256 == current
            out.append(Button(f"table_{path.stem}", (40, TOP + 30 + i * ROW, 200, 96), _("SELECT"), "select_table",
                              str(path), style="selected" if self.selected == path else "plain",
                              enabled=isinstance(table, Paytable) and not in_force))
        out.append(Button("review_table", (240, ROW_Y, 300, ROW_H), _("APPLY"), "review_table", style="primary",
                          enabled=self.selected is not None))
        return out

    def on_key(self, key: Key) -> bool:
        if self.confirming and key.name == "escape":
            self.confirming = False
            return True
        return self.confirming

    def on_command(self, name: str, arg: object = None) -> bool:
        desk = self.desk
        if name == "select_table":
            self.selected, self.confirming = Path(str(arg)), True
        elif name == "review_table":
            self.confirming = self.selected is not None
        elif name == "cancel_table":
            self.confirming = False
        elif name == "apply_table":
            self.confirming = False
            if self.selected is not None:
                ok = desk.send(SetPaytable(str(self.selected)))
                desk.report(_("Paytable changed.") if ok else desk.refusal(), bool(ok))
                if ok:
                    self.selected = None
        else:
            return False
        return True

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui = desk.ui
        current = desk.snap.paytable.sha256
        for i, (path, table) in enumerate(self.tables()):
            y = TOP + 30 + i * ROW
            if isinstance(table, str):
                ui.fitted(surface, f"{path.name}: {table}", 20, theme.LOSE, TEXT_W, topleft=(TEXT_X, y + 10))
                continue
            mark = "  ✓ " + _("in force") if table.sha256 == current else ""
            ui.fitted(surface, f"{table.name} {table.version}{mark}", 24, theme.WHITE, TEXT_W, bold=True,
                      topleft=(TEXT_X, y + 4))
            ui.fitted(surface, self.rtp_text(table), 20, theme.CREAM, TEXT_W, topleft=(TEXT_X, y + 40))
            ui.fitted(surface, f"{path.name}   SHA-256 {table.sha256[:16]}…", 20, theme.MUTED, TEXT_W,
                      topleft=(TEXT_X, y + 68))
        c = self.confirmation() if self.confirming else None
        if c is not None:
            confirm.draw(desk, surface, c)
