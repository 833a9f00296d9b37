"""Game codes, seat tokens and players' names.

A game code is :data:`CODE_LENGTH` characters from :data:`CODE_ALPHABET` (no 0/O or
1/I to misread): 32^6 = 1,073,741,824 codes, so that with the server's lockout of an
address after a few wrong codes (:class:`kiosk.friends.server.ServerLimits`) a whole
venue day of guessing from a /24 of addresses finds a live game with a chance under
1 in 10,000 (the README has the arithmetic).  :func:`typed_code` reads a code as people
type it (any case, spaces or hyphens between groups).  A seat token is a random secret the web page keeps so that opening the
link again gives the seat back.  A name is what everyone at the table sees: printable,
1 to :data:`NAME_MAX` characters after trimming.
"""

from __future__ import annotations

import secrets
import unicodedata

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NAME_MAX = 16
TOKEN_BYTES = 18


class NameRefused(ValueError):
    """A name nobody should see at the table; ``reason`` says why (a stable code)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def new_code() -> str:
    """A fresh game code, e.g. ``"K7QMX4"``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_code(text: str) -> bool:
    """Whether ``text`` has the shape of a game code (not whether a game has it)."""
    return len(text) == CODE_LENGTH and all(c in CODE_ALPHABET for c in text)


def typed_code(text: str) -> str:
    """``text`` as a code: upper case, without the spaces and hyphens people type
    between groups (``"k7q-mx4"`` is ``"K7QMX4"``); the shape is not checked."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


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
