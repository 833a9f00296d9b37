"""The web seat's files: the page and its assets, read once from ``web/`` beside this
module, and the words of :mod:`kiosk.friends.strings` and the shape of a game code
(:mod:`kiosk.friends.codes`) as a script."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from kiosk.friends.codes import CODE_ALPHABET, CODE_LENGTH
from kiosk.friends.strings import catalogue

WEB_DIR = Path(__file__).resolve().parent / "web"
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".svg": "image/svg+xml", ".png": "image/png"}


@dataclass(frozen=True)
class Asset:
    body: bytes
    content_type: str


@dataclass(frozen=True)
class Assets:
    """``page``: index.html; ``files``: name -> asset (``strings.js`` made here)."""

    page: bytes
    files: dict[str, Asset]

    @classmethod
    def load(cls, folder: Path = WEB_DIR) -> Assets:
        files = {
            p.name: Asset(p.read_bytes(), _TYPES[p.suffix])
            for p in sorted(folder.iterdir())
            if p.suffix in _TYPES
        }
        words = "window.FRIENDS_WORDS = " + json.dumps(catalogue(), ensure_ascii=False) + ";\n"
        words += "window.FRIENDS_CODE = " + json.dumps({"alphabet": CODE_ALPHABET, "length": CODE_LENGTH}) + ";\n"
        files["strings.js"] = Asset(words.encode("utf-8"), _TYPES[".js"])
        return cls((folder / "index.html").read_bytes(), files)
