"""The README's key tables list every key the screens answer: each shortcut of
:data:`kiosk.ui.shortcuts.SHORTCUTS`, the exit chord, and the keys the tournament table
maps itself."""

from __future__ import annotations

import re
from pathlib import Path

from kiosk.ui.shortcuts import SHORTCUTS

README = Path(__file__).resolve().parents[3] / "README.md"
#: pygame's key names as the README writes them.
WRITTEN = {"space": "Space", "return": "Enter", "backspace": "Backspace", "escape": "Esc", "left": "←",
           "right": "→", "up": "↑", "down": "↓", "f1": "F1", "f9": "F9", "f12": "F12"}


def key_cells() -> str:
    """The first column of every key table row, and the keys column of the screens' table."""
    text = README.read_text(encoding="utf-8")
    start = text.index("### Playing on the demo cabinet")
    section = text[start:text.index("###", start + 10)]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def listed(cells: str, key: str) -> bool:
    word = WRITTEN.get(key, key.upper())
    if len(word) == 1 and word.isalnum():
        return re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", cells) is not None
    return word in cells


def test_every_shortcut_is_in_the_readme():
    cells = key_cells()
    missing = [k for k in SHORTCUTS if not (k in "23456" and "1 .. 6" in cells) and not listed(cells, k)]
    assert missing == []
    assert "Ctrl+Shift+Q" in cells


def test_the_tournament_tables_keys_are_in_the_readme():
    cells = key_cells()
    row = next(line for line in cells.splitlines() if line.startswith("| Tournament table"))
    for key in ("f", "c", "k", "r", "b", "up", "down", "left", "right", "return", "space", "h", "g", "y", "m",
                "l", "escape"):
        assert listed(row, key), key
