"""Game codes, seat tokens and players' names.

A game code is :data:`CODE_LENGTH` characters from :data:`CODE_ALPHABET` (no 0/O or
1/I to misread); a seat token is a random secret the web page keeps so that opening the
link again gives the seat back.  A name is what everyone at the table sees: printable,
1 to :data:`NAME_MAX` characters after trimming.
"""

from __future__ import annotations

import secrets
import unicodedata

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 4
NAME_MAX = 16
TOKEN_BYTES = 18


class NameRefused(ValueError):
    """A name nobody should see at the table; ``reason`` says why (a stable code)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def new_code() -> str:
    """A fresh game code, e.g. ``"K7QM"``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_code(text: str) -> bool:
    """Whether ``text`` has the shape of a game code (not whether a game has it)."""
    return len(text) == CODE_LENGTH and all(c in CODE_ALPHABET for c in text)


def new_token() -> str:
    """A seat token: URL-safe, :data:`TOKEN_BYTES` random bytes."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def clean_name(raw: str) -> str:
    """``raw`` trimmed, or :class:`NameRefused`: empty, longer than :data:`NAME_MAX`
    characters, or holding a control, format or unassigned character."""
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise NameRefused("name.empty", "type a name")
    if len(name) > NAME_MAX:
        raise NameRefused("name.long", f"a name has at most {NAME_MAX} characters")
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise NameRefused("name.control", "a name has only printable characters")
    return " ".join(name.split())
