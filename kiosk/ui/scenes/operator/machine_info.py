"""The machine page: who the cabinet is (number, casino, ledger, anchor) and the paytable
in force with its full SHA-256, the fingerprint a regulator checks.  When the ledger's
anchor is beside the database (demo mode) the page, like the menu, says in words what
that leaves undetected.  It also shows the software version, the program's SHA-256 (the
manifest check's unseeded digest, :mod:`kiosk.integrity`), whether the program matches
its release manifest, and the fingerprint of the release key whose signature this program
accepts (its first 32 hex digits; the README gives it whole)."""

from __future__ import annotations

import pygame

from kiosk.integrity.manifest import ProgramCheck, check_program
from kiosk.integrity.signing import release_fingerprint
from kiosk.integrity.startup import last_check
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


def program_line(check: ProgramCheck) -> str:
    """The Software row: the version and whether the program matches its manifest."""
    if check.ok:
        return _("{version}, matches the manifest").format(version=check.version)
    return _("{version}, does NOT match the manifest").format(version=check.version)


def program_check() -> ProgramCheck:
    """The power-up check's result, else a check made now (the page opened outside the
    cabinet's wiring, as in tests)."""
    return last_check() or check_program()


class MachinePage(Page):
    id = "machine"

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        config, snap = desk.operations.config, desk.snap
        ledger_id = desk.cached(("ledger_id",), desk.operations.ledger_id)
        program = desk.cached(("program",), program_check)
        lines = [
            (_("Machine number"), config.machine_number or "—"),
            (_("Casino"), config.casino_name or "—"),
            (_("Ledger id"), ledger_id if ledger_id is not None else "—"),
            (_("Paytable"), f"{snap.paytable.name} {snap.paytable.version}"),
            (_("Software"), program_line(program)),
            (_("Release key"), " ".join(sha_lines(release_fingerprint(), 64, 8)[:1])[:35]),
        ]
        y = rows(desk, surface, lines, size=22, gap=1.3, label_share=0.3)
        # the files, whole, each on a line of its own under its label (paths can be long)
        for label, path in ((_("Ledger"), config.db_path), (_("Anchor"), config.anchor_file)):
            desk.ui.fitted(surface, label, 20, theme.CREAM, WIDTH, topleft=(LEFT, y))
            desk.ui.fitted(
                surface, str(path), 20, theme.WHITE, WIDTH, bold=True, topleft=(LEFT, y + 23)
            )
            y += 50
        half = WIDTH / 2
        top = y + 6
        for x, title, digest, colour in (
            (LEFT, _("Paytable SHA-256"), snap.paytable.sha256, theme.WHITE),
            (
                LEFT + half,
                _("Program SHA-256"),
                program.digest or "-" * 64,
                theme.WHITE if program.ok else theme.LOSE,
            ),
        ):
            y = heading(desk, surface, title, x, top, half - 20, size=22)
            for line in sha_lines(digest):
                desk.ui.fitted(surface, line, 26, colour, half - 20, bold=True, topleft=(x, y))
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
