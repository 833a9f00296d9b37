"""The export page: the ledger (rounds, events, meters and tickets with their hashes, as
JSON) written to a USB stick chosen from the media mounted now, or to the cabinet's own
disk.

Media are read from the mounts file (``/proc/mounts``; :attr:`ExportPage.mounts_file`
for tests) by :func:`kiosk.tournament.export.removable_media`: removable file systems
under ``/media/`` and ``/run/media/``.  The list is read again when the page opens, on
REFRESH and every few seconds.  The file name is proposed (machine number and time);
RENAME opens the on-screen keyboard.  The export goes through the controller
(:meth:`kiosk.station.operator_port.LocalOperations.export_ledger`).
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path

import pygame

from kiosk.game.errors import MachineError
from kiosk.tournament.export import MOUNTS_FILE, removable_media
from kiosk.ui import theme
from kiosk.ui.events import Key
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.operator.intents import Act, ChooseMedium, Intent
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, WIDTH, Desk, Page, heading
from kiosk.ui.scenes.osk import CHARACTERS, TextKeyboard
from kiosk.ui.widgets import Button

#: Media listed at once (the cabinet's own disk is always the last).
SHOWN = 4
#: Seconds between two readings of the mounts file.
REFRESH_S = 2.0
SUFFIX = ".json"
NAME_MAX = 60


@dataclass(frozen=True)
class Medium:
    """Where an export can go: ``folder``, and whether it is a USB stick."""

    folder: Path
    removable: bool


def safe_name(text: str, suffix: str = SUFFIX) -> str:
    """``text`` as a file name: only :data:`~kiosk.ui.scenes.osk.CHARACTERS`, ending in
    ``suffix``."""
    name = "".join(c for c in text.lower() if c in CHARACTERS).strip(".") or "uth-ledger"
    return name if name.endswith(suffix) else name + suffix


def short_path(folder: Path, limit: int = 30) -> str:
    """``folder`` as text, its start cut to ``…`` past ``limit`` characters."""
    text = str(folder)
    return text if len(text) <= limit else "…" + text[-(limit - 1):]


def free_space(folder: Path) -> int | None:
    """Bytes free on the file system of ``folder`` (None when it cannot be read)."""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def size_text(n: int | None) -> str:
    if n is None:
        return "—"
    for unit, div in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= div:
            return f"{n / div:.1f} {unit}"
    return f"{n} B"


class ExportPage(Page):
    id = "export"
    mounts_file: Path = MOUNTS_FILE
    #: The file name's ending, and what is exported (shown under the media).
    suffix = SUFFIX
    description = N_("Rounds, events, meters and tickets with their hashes, as JSON.")

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.chosen: Path | None = None
        self.name = ""
        self.keyboard: TextKeyboard | None = None
        self._media: list[Medium] = []
        self._read_at = -1e9

    # -- state --------------------------------------------------------------------------
    def open(self) -> None:
        self.keyboard = None
        self.name = self.default_name()
        self.refresh(force=True)
        self.chosen = self._media[0].folder if self._media else None

    def default_name(self) -> str:
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
        machine = safe_name(self.desk.operations.config.machine_number or "").removesuffix(SUFFIX)
        return safe_name(f"uth-ledger-{machine}-{stamp}" if machine != "uth-ledger" else f"uth-ledger-{stamp}")

    def cabinet_folder(self) -> Path:
        return self.desk.operations.config.db_path.parent / "exports"

    def refresh(self, force: bool = False) -> None:
        now = self.desk.app.now
        if not force and now - self._read_at < REFRESH_S:
            return
        self._read_at = now
        sticks = [Medium(p, True) for p in removable_media(self.mounts_file)][: SHOWN - 1]
        self._media = [*sticks, Medium(self.cabinet_folder(), False)]
        if self.chosen is not None and all(m.folder != self.chosen for m in self._media):
            self.chosen = None  # the stick was pulled out

    def media(self) -> list[Medium]:
        """The media to choose from, sticks first (read again every few seconds)."""
        self.refresh()
        return self._media

    def modal(self) -> bool:
        return self.keyboard is not None

    def look(self) -> Hashable:
        return tuple(m.folder for m in self.media())  # a stick put in or pulled out

    # -- input --------------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        if self.keyboard is not None:
            return self.keyboard.buttons()
        out = []
        for i, m in enumerate(self.media()):
            x, y = medium_origin(i)
            label = m.folder.name if m.removable else _("This cabinet")
            out.append(Button(f"medium_{i}", (x, y, 260, 88), label, ChooseMedium(str(m.folder)),
                              style="selected" if m.folder == self.chosen else "plain", size=26))
        out += [Button("rename", (1000, TOP, 240, 88), _("RENAME"), Act.RENAME, style="plain"),
                Button("export", (240, ROW_Y, 300, ROW_H), _("EXPORT"), Act.EXPORT, style="primary",
                       enabled=self.chosen is not None),
                Button("refresh", (560, ROW_Y, 300, ROW_H), _("REFRESH"), Intent.REFRESH, style="plain")]
        return out

    def on_key(self, key: Key) -> bool:
        if self.keyboard is None:
            return False
        self.keyboard.key(key)
        self._keyboard_closed()
        return True

    def on_intent(self, intent: object) -> bool:
        if self.keyboard is not None:  # its keys: TypeKey and Edit
            used = self.keyboard.on_intent(intent)
            self._keyboard_closed()
            return used
        match intent:
            case ChooseMedium(folder=folder):
                self.chosen = Path(folder)
            case Intent.REFRESH:
                self.refresh(force=True)
            case Act.RENAME:
                self.keyboard = TextKeyboard(self.name.removesuffix(self.suffix), _("File name"), NAME_MAX)
            case Act.EXPORT:
                self.export()
            case _:
                return False
        return True

    def _keyboard_closed(self) -> None:
        kb = self.keyboard
        if kb is not None and not kb.open:
            if kb.result:
                self.name = safe_name(kb.result, self.suffix)
            self.keyboard = None

    def export(self) -> None:
        desk = self.desk
        self.refresh(force=True)
        if self.chosen is None:
            desk.report(_("Choose where to export: the USB stick is no longer there."), False)
            return
        try:
            out = desk.operations.export_ledger(self.chosen / self.name)
        except OSError as exc:
            desk.report(_("Export failed: {reason}").format(reason=exc.strerror or str(exc)), False)
            return
        except MachineError as exc:
            desk.report(_("Export failed: {reason}").format(reason=exc.reason), False)
            return
        desk.report(_("Exported to {path}").format(path=str(out)), True)
        self.name = self.default_name()

    # -- drawing ------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        ui = desk.ui
        ui.fitted(surface, _("File name"), 22, theme.GOLD, 200, bold=True, midleft=(LEFT, TOP + 44))
        ui.fitted(surface, self.name, 26, theme.WHITE, 740, bold=True, midleft=(LEFT + 210, TOP + 44))
        heading(desk, surface, _("Where to"), LEFT, TOP + 110, WIDTH)
        media = self.media()
        for i, m in enumerate(media):
            x, y = medium_origin(i)
            free = size_text(free_space(m.folder) if m.folder.exists() else None)
            ui.fitted(surface, short_path(m.folder), 20, theme.CREAM, 320, topleft=(x + 276, y + 12))
            ui.fitted(surface, _("{size} free").format(size=free) if m.removable else _("The cabinet's own disk"),
                      20, theme.MUTED, 320, topleft=(x + 276, y + 50))
        y = TOP + 160 + 2 * 100
        if len(media) == 1:
            ui.fitted(surface, _("No USB stick is mounted. Insert one and touch REFRESH."), 22, theme.LOSE, WIDTH,
                      topleft=(LEFT, y))
        ui.fitted(surface, _(self.description), 20, theme.MUTED, WIDTH, topleft=(LEFT, y + 40))
        if self.keyboard is not None:
            self.keyboard.draw(desk.app, surface)


def medium_origin(i: int) -> tuple[float, float]:
    """Where the ``i``-th medium's button goes: two columns of two."""
    return LEFT + (i % 2) * 610, TOP + 160 + (i // 2) * 100
