"""The machine page: who the cabinet is (number, casino, ledger, anchor) and the paytable
in force with its full SHA-256, the fingerprint a regulator checks.  When the ledger's
anchor is beside the database (demo mode) the page, like the menu, says in words what
that leaves undetected."""

from __future__ import annotations

import pygame

from kiosk.ui import theme
from kiosk.ui.i18n import N_, _
from kiosk.ui.scenes.operator.page import LEFT, WIDTH, Page, heading, rows

#: Shown on the menu and this page while the anchor is beside the database (demo mode).
ANCHOR_WARNING = N_(
    "Demo: the ledger's anchor is beside the database; a copied-back database cannot be detected"
)


def anchor_warning(beside: bool) -> str | None:
    """The anchor warning, translated, when the anchor is beside the database."""
    return _(ANCHOR_WARNING) if beside else None


def sha_lines(digest: str, per_line: int = 32, group: int = 8) -> list[str]:
    """A hex digest in lines of ``per_line`` characters, in groups of ``group``."""
    out = []
    for start in range(0, len(digest), per_line):
        part = digest[start : start + per_line]
        out.append(" ".join(part[i : i + group] for i in range(0, len(part), group)))
    return out


class MachinePage(Page):
    id = "machine"

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        config, snap = desk.machine.config, desk.snap
        ledger_id = desk.cached(("ledger_id",), desk.machine.ledger_id)
        lines = [
            (_("Machine number"), config.machine_number or "—"),
            (_("Casino"), config.casino_name or "—"),
            (_("Ledger id"), ledger_id if ledger_id is not None else "—"),
            (_("Paytable"), f"{snap.paytable.name} {snap.paytable.version}"),
        ]
        y = rows(desk, surface, lines, size=22, gap=1.5, label_share=0.3)
        # the files, whole, each on a line of its own under its label (paths can be long)
        for label, path in ((_("Ledger"), config.db_path), (_("Anchor"), config.anchor_file)):
            desk.ui.fitted(surface, label, 20, theme.CREAM, WIDTH, topleft=(LEFT, y))
            desk.ui.fitted(surface, str(path), 20, theme.WHITE, WIDTH, bold=True, topleft=(LEFT, y + 23))
            y += 50
        y = heading(desk, surface, _("Paytable SHA-256"), LEFT, y + 6, WIDTH, size=22)
        for line in sha_lines(snap.paytable.sha256):
            desk.ui.fitted(surface, line, 26, theme.WHITE, WIDTH, bold=True, topleft=(LEFT, y))
            y += 36
        y = desk.ui.paragraph(
            surface,
            _(
                "The machine number and the casino name are set in the cabinet "
                "configuration file and recorded in the ledger when it is created."
            ),
            20,
            theme.MUTED,
            LEFT,
            y + 14,
            WIDTH,
        )
        warning = anchor_warning(snap.anchor_beside_db)
        if warning is not None:
            desk.ui.fitted(
                surface, warning, 22, theme.LOSE, WIDTH, bold=True, topleft=(LEFT, y + 8)
            )
