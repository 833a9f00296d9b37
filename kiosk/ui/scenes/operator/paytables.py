"""The paytable page: every paytable of the table's paytables folder, scrolling, each
with its exact RTP per bet when known and the one in force marked; choosing another
shows what would change -- name, version, full SHA-256, RTP and limits -- for
confirmation before it is put in force.  The list and the change go through the operator
port (:class:`~kiosk.station.operator_port.Paytables`; at a station, the table host's).
Where the menu has the paytable editor (the ledger's own machine), NEW FROM… (a
manager) opens it (:mod:`kiosk.ui.scenes.operator.editor`) on a copy of that table, and
EXPORT… (a manager) writes the table's TOML and its PAR sheet to a USB stick or the
cabinet's disk, chosen as on the Export page (:class:`PaytableExportView`), and the
ledger records it.

The service refuses a change with credits on the meter, a round or a payout in
progress, the main door closed, or an RTP not proven on this table; a refused change
keeps the choice on screen with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from pathlib import Path

import pygame

from engine.uth.paytable import Paytable, PaytableError, load_paytable
from kiosk.config import role_at_least
from kiosk.game.commands import ExportPaytable
from kiosk.game.errors import MachineError
from kiosk.game.paytables.draft import default_stem
from kiosk.game.paytables.editor import PaytableEditor, paytables_folder
from kiosk.station.operator_port import Capability, PaytableChoice, Paytables, TableStatus
from kiosk.tournament.export import MOUNTS_FILE
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.operator import confirm
from kiosk.ui.scenes.operator.confirm import Change, Confirmation
from kiosk.ui.scenes.operator.editor import EditorView
from kiosk.ui.scenes.operator.export import ExportPage, safe_name
from kiosk.ui.scenes.operator.intents import Dialog, FileAction, PaytableFile
from kiosk.ui.scenes.operator.limits import CONDITIONS
from kiosk.ui.scenes.operator.machine_info import sha_lines
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Desk, Page, escape
from kiosk.ui.scenes.operator.status import waiting
from kiosk.ui.widgets import Button

#: Rows shown at once; more scroll.
SHOWN = 4
ROW = 112
TEXT_X, TEXT_W = 236, 480
RTP_NAMES = {"main_total": N_("Main game"), "trips": N_("Trips")}
BET_NAMES = {"ante": N_("Ante"), "blind": N_("Blind"), "play": N_("Play")}


class PaytableExportView(ExportPage):
    """The Export page's media chooser, for one paytable's TOML and PAR sheet; the files
    are written by the controller (:class:`ExportPaytable`)."""

    id = "paytable_export"
    suffix = ""
    description = N_("The paytable's TOML file and its PAR sheet (text); the export is recorded in the ledger.")

    def __init__(self, desk: Desk, path: Path, table: Paytable, mounts_file: Path) -> None:
        super().__init__(desk)
        self.path, self.table = path, table
        self.mounts_file = mounts_file
        self.open()

    def default_name(self) -> str:
        return safe_name(default_stem(self.table.name, self.table.sha256), "")

    def buttons(self) -> list[Button]:
        out = super().buttons()
        if self.keyboard is None:
            out.append(Button("export_back", (880, ROW_Y, 380, ROW_H), _("BACK TO PAYTABLES"), Nav.BACK,
                              style="plain"))
        return out

    def export(self) -> None:
        desk = self.desk
        self.refresh(force=True)
        if self.chosen is None:
            desk.report(_("Choose where to export: the USB stick is no longer there."), False)
            return
        files = desk.send(ExportPaytable(str(self.path), str(self.chosen), self.name))
        if files is None:
            desk.report(_("Export failed: {reason}").format(reason=desk.refusal()), False)
            return
        desk.report(_("Exported to {path}").format(path=", ".join(str(f) for f in files)), True)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.keyboard is None:
            t = self.table
            self.desk.ui.fitted(surface, f"{t.name} {t.version}   SHA-256 {t.sha256[:16]}…", 20, theme.CREAM, WIDTH,
                                topleft=(LEFT + 210, TOP + 72))


def ante_limits(t: PaytableChoice, money: Callable[[int, bool], str]) -> str:
    if t.ante_min is None or t.ante_max is None:
        return "—"
    return f"{money(t.ante_min, True)}–{money(t.ante_max, True)}"


class PaytablePage(Page):
    id = "paytable"
    mounts_file: Path = MOUNTS_FILE

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.listing: Paytables | None = None  # the port's last answer
        self._asked = False  # the port took the last request for the list
        self.selected: str | None = None  # the file of the table chosen
        self.confirming = False
        self.offset = 0  # the first row shown
        self.editor: EditorView | None = None
        self.exporting: PaytableExportView | None = None

    def open(self) -> None:
        self.selected, self.confirming, self.offset, self.editor = None, False, 0, None
        self.exporting = None
        self.ask()

    def ask(self) -> None:
        self._asked = self.desk.request(self.desk.port.paytables, self.keep)

    def update(self, dt: float) -> None:
        if not self._asked:  # the port was busy when the list was wanted: asked once free
            self.ask()

    def keep(self, listing: Paytables) -> None:
        self.listing = listing

    def changed(self, _status: TableStatus) -> None:
        """The service put the chosen table in force: the list again, with its mark."""
        self.selected = None
        self.ask()

    def tables(self) -> tuple[PaytableChoice, ...]:
        """Every paytable of the table's folder, by file name (unreadable ones with
        their reason)."""
        return self.listing.tables if self.listing is not None else ()

    def editing(self) -> bool:
        """NEW FROM… and EXPORT… are served here (a manager, the ledger's own machine)."""
        return role_at_least(self.desk.role, "manager") and self.desk.port.offers(
            Capability.PAYTABLE_EDITOR
        )

    def load(self, file: str) -> tuple[Path, Paytable] | None:
        """A table of the folder, read from the cabinet's own disk (the editor's)."""
        path = paytables_folder(self.desk.operations.config) / file
        try:
            return path, load_paytable(path)
        except (OSError, PaytableError) as exc:
            self.desk.report(_("Refused: {reason}").format(reason=str(exc)), False)
            return None

    @staticmethod
    def figures(t: PaytableChoice) -> list[str]:
        rtp = t.rtp or {}
        return [f"{_(name)} {float(rtp[key]):.3f}%" for key, name in RTP_NAMES.items() if key in rtp]

    def rtp_text(self, t: PaytableChoice) -> str:
        return "  ·  ".join(self.figures(t)) or _("RTP not known yet")

    def rtp_changes(self, old: PaytableChoice, new: PaytableChoice) -> list[Change]:
        """The RTP rows of a change's review: one per figure (a row holds one)."""
        a = self.figures(old) or [_("RTP not known yet")]
        b = self.figures(new) or [_("RTP not known yet")]
        n = max(len(a), len(b))
        a, b = a + [""] * (n - len(a)), b + [""] * (n - len(b))
        return [Change(_("RTP") if i == 0 else "", x, y) for i, (x, y) in enumerate(zip(a, b, strict=True))]

    def bets_text(self, t: PaytableChoice) -> str:
        rtp = t.rtp or {}
        return "  ·  ".join(f"{_(name)} {float(rtp[key]):.2f}%" for key, name in BET_NAMES.items() if key in rtp)

    def look(self) -> Hashable:
        if self.editor is not None:
            return None  # its RTP is computed by a worker thread, its progress drawn
        if self.exporting is not None:
            return self.exporting.look()
        return self.listing, self.selected

    def modal(self) -> bool:
        if self.exporting is not None:
            return self.exporting.modal()
        return self.confirming or (self.editor is not None and self.editor.modal())

    def confirmation(self) -> Confirmation | None:
        tables = self.tables()
        new = next((t for t in tables if t.file == self.selected), None)
        old = next((t for t in tables if t.in_force), None)
        if new is None or old is None:
            return None
        if not new.readable:
            return Confirmation(new.error, (), "apply_table", "cancel_table")
        money = self.desk.money
        old_sha, new_sha = sha_lines(old.sha256, 16, 16), sha_lines(new.sha256, 16, 16)
        changes = [Change(_("Paytable"), old.title, new.title),
                   *self.rtp_changes(old, new),
                   Change(_("Ante limits"), ante_limits(old, money), ante_limits(new, money))]
        changes += [Change(_("SHA-256") if i == 0 else "", a, b) for i, (a, b) in enumerate(zip(old_sha, new_sha,
                                                                                               strict=True))]
        return Confirmation(_("Put this paytable in force?"), tuple(changes), "apply_table", "cancel_table",
                            _(CONDITIONS))

    def buttons(self) -> list[Button]:
        if self.editor is not None:
            return self.editor.buttons()
        if self.exporting is not None:
            return self.exporting.buttons()
        c = self.confirmation() if self.confirming else None
        if c is not None:
            return confirm.buttons(c)
        out = []
        editing = self.editing()
        tables = self.tables()
        for i, t in enumerate(tables[self.offset:self.offset + SHOWN]):
            y = TOP + 8 + i * ROW
            stem = Path(t.file).stem
            out.append(Button(f"table_{stem}", (40, y, 180, 100), _("SELECT"), PaytableFile(t.file, FileAction.SELECT),
                              style="selected" if self.selected == t.file else "plain",
                              enabled=t.readable and not t.in_force))
            out.append(Button(f"copy_{stem}", (730, y, 250, 100), _("NEW FROM…"),
                              PaytableFile(t.file, FileAction.COPY),
                              style="dark", size=24, enabled=t.readable and editing))
            out.append(Button(f"export_{stem}", (990, y, 240, 100), _("EXPORT…"),
                              PaytableFile(t.file, FileAction.EXPORT),
                              style="dark", size=24, enabled=t.readable and editing))
        out.append(Button("review_table", (240, ROW_Y, 300, ROW_H), _("APPLY"), Dialog.REVIEW, style="primary",
                          enabled=self.selected is not None))
        out.append(Button("scroll_up", (860, ROW_Y, 190, ROW_H), "▲", Nav.UP, style="plain", size=32,
                          enabled=self.offset > 0))
        out.append(Button("scroll_down", (1070, ROW_Y, 190, ROW_H), "▼", Nav.DOWN, style="plain",
                          size=32, enabled=self.offset + SHOWN < len(tables)))
        return out

    def on_key(self, key: Key) -> bool:
        if self.editor is not None:
            if self.editor.on_key(key):
                return True
            if escape(key):  # nothing to lose: back to the paytables
                self.editor = None
                return True
            return False
        if self.exporting is not None:
            if escape(key) and not self.exporting.modal():
                self.exporting = None
                return True
            return self.exporting.on_key(key)
        if self.confirming and escape(key):
            self.confirming = False
            return True
        return self.confirming

    def on_intent(self, intent: object) -> bool:
        desk = self.desk
        if self.editor is not None:
            match intent:
                case Nav.BACK if self.editor.wants_to_leave():
                    self.close_editor()
                case Dialog.LEAVE:
                    self.close_editor()
                case Nav.BACK:
                    pass  # the editor asks first
                case _:
                    return self.editor.on_intent(intent)
            return True
        if self.exporting is not None:
            if intent is Nav.BACK:
                self.exporting = None
                return True
            return self.exporting.on_intent(intent)
        match intent:
            case PaytableFile(file=file, action=FileAction.SELECT):
                self.selected = file
                self.review()
            case Dialog.REVIEW:
                self.review()
            case Dialog.CANCEL:
                self.confirming = False
            case Nav.UP | Nav.DOWN:
                last = max(0, len(self.tables()) - SHOWN)
                self.offset = min(max(0, self.offset + (1 if intent is Nav.DOWN else -1)), last)
            case PaytableFile(file=file, action=FileAction.COPY) if self.editing():
                found = self.load(file)
                if found is None:
                    return True
                session = PaytableEditor(desk.operations)
                try:
                    session.start(found[0])
                except MachineError as exc:
                    desk.report(_("Refused: {reason}").format(reason=exc.reason), False)
                else:
                    self.editor = EditorView(desk, session)
            case PaytableFile(file=file, action=FileAction.EXPORT) if self.editing():
                found = self.load(file)
                if found is not None:
                    self.exporting = PaytableExportView(desk, found[0], found[1], self.mounts_file)
            case Dialog.CONFIRM:
                self.confirming = False
                chosen = next((t for t in self.tables() if t.file == self.selected and t.readable), None)
                if chosen is not None:
                    sha, port = chosen.sha256, desk.port
                    desk.request(lambda done: port.set_paytable(sha, done), self.changed, _("Paytable changed."))
            case _:
                return False
        return True

    def close_editor(self) -> None:
        """Back from the editor to the list."""
        self.editor = None
        self.ask()  # a table it saved is in the folder now

    def review(self) -> None:
        """APPLY (or SELECT): the change's review, unless the snapshot stands in the way."""
        why = confirm.blocker(self.desk)
        self.confirming = self.selected is not None and why is None
        if why is not None:
            self.desk.report(why, False)

    def draw(self, surface: pygame.Surface) -> None:
        if self.editor is not None:
            self.editor.draw(surface)
            return
        if self.exporting is not None:
            self.exporting.draw(surface)
            return
        desk = self.desk
        ui = desk.ui
        if self.listing is None:
            waiting(self, surface)
            return
        tables = self.tables()
        for i, t in enumerate(tables[self.offset:self.offset + SHOWN]):
            y = TOP + 8 + i * ROW
            if not t.readable:
                ui.fitted(surface, f"{t.file}: {t.error}", 20, theme.LOSE, TEXT_W, topleft=(TEXT_X, y + 10))
                continue
            mark = "  ✓ " + _("in force") if t.in_force else ""
            ui.fitted(surface, f"{t.title}{mark}", 24, theme.WHITE, TEXT_W, bold=True, topleft=(TEXT_X, y))
            ui.fitted(surface, self.rtp_text(t), 20, theme.CREAM, TEXT_W, topleft=(TEXT_X, y + 32))
            ui.fitted(surface, self.bets_text(t), 20, theme.CREAM, TEXT_W, topleft=(TEXT_X, y + 56))
            ui.fitted(surface, f"{t.file}  ·  {t.sha256[:12]}…", 20, theme.MUTED, TEXT_W,
                      topleft=(TEXT_X, y + 80))
        if tables and not role_at_least(desk.role, "manager"):  # why NEW FROM… and EXPORT… are grey
            ui.fitted(surface, _("NEW FROM… and EXPORT… need a manager."), 20, theme.MUTED, 990,
                      topright=(LEFT + WIDTH, TOP + 10 + SHOWN * ROW))
        if len(tables) > SHOWN:
            shown = _("{first}–{last} of {count}").format(first=self.offset + 1,
                                                          last=min(len(tables), self.offset + SHOWN),
                                                          count=len(tables))
            ui.fitted(surface, shown, 20, theme.MUTED, 300, midleft=(560, ROW_Y + ROW_H / 2))
        c = self.confirmation() if self.confirming else None
        if c is not None:
            confirm.draw(desk, surface, c)
