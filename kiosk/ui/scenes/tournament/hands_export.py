"""The Export button of the results and Records screens: a finished game's hands (JSON
and PHH) to the first mounted USB stick, else to the cabinet's own disk; the line that
says where they went."""

from __future__ import annotations

from kiosk.tournament.export import ExportError
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _

#: A line to show and its colour.
Message = tuple[str, tuple[int, int, int]]


def export_game_hands(app: SceneHost, game_id: str) -> Message:
    """Export the kept hands of the finished game ``game_id``; the line saying where
    (the folder) or why not."""
    try:
        done, on_usb = app.tournament.export_game(game_id)
    except ExportError as exc:
        return _("Export failed: {reason}").format(reason=exc.reason), theme.LOSE
    folder = str(done.json_path.parent)
    if on_usb:
        return _("Hands exported to the USB stick: {folder}").format(folder=folder), theme.CREAM
    return _("No USB stick: hands exported to this cabinet: {folder}").format(folder=folder), theme.CREAM
