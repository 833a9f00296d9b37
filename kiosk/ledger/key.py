"""The cabinet key: the secret that authenticates the ledger's rows, its head and its
anchor (HMAC-SHA256).  It lives in a file outside the database (mode 0600, readable only
by the cabinet's user), so a copy of the database alone cannot produce a valid row.

The file holds 32 random bytes as 64 hex digits and a newline.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from kiosk.ledger.errors import LedgerError

#: Bytes of key material.
KEY_BYTES = 32


class KeyFileError(LedgerError):
    """The key file is missing, unreadable, malformed or readable by others."""


class CabinetKey:
    """An HMAC-SHA256 key; :meth:`mac` signs text, :attr:`fingerprint` names the key
    without revealing it (the MAC of a fixed label, 16 hex digits)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) != KEY_BYTES:
            raise ValueError(f"a cabinet key is {KEY_BYTES} bytes, not {len(secret)}")
        self._base = hmac.new(secret, digestmod=hashlib.sha256)
        self.fingerprint = self.mac("uth cabinet key")[:16]

    def mac(self, text: str) -> str:
        """HMAC-SHA256 of ``text`` (UTF-8), 64 hex digits."""
        h = self._base.copy()
        h.update(text.encode())
        return h.hexdigest()

    def check(self, text: str, mac: str | None) -> bool:
        """Whether ``mac`` is this key's MAC of ``text`` (constant-time compare)."""
        return mac is not None and hmac.compare_digest(self.mac(text), mac)

    @classmethod
    def load(cls, path: Path) -> CabinetKey:
        """Read the key file; raises :class:`KeyFileError` naming the file and the fault."""
        path = Path(path)
        try:
            mode = path.stat().st_mode
            text = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            raise KeyFileError(f"cabinet key {path} is missing") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise KeyFileError(f"cabinet key {path} is unreadable ({exc})") from None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise KeyFileError(
                f"cabinet key {path} is accessible to other users (mode {stat.S_IMODE(mode):o}): "
                "it must be 600, owned by the cabinet's user"
            )
        try:
            secret = bytes.fromhex(text)
            return cls(secret)
        except ValueError:
            raise KeyFileError(f"cabinet key {path} is not {KEY_BYTES * 2} hex digits") from None

    @classmethod
    def create(cls, path: Path) -> CabinetKey:
        """Write a new random key to ``path`` (mode 0600; refused if the file exists)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        secret = secrets.token_bytes(KEY_BYTES)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise KeyFileError(f"cabinet key {path} already exists; it is never replaced") from None
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secret.hex() + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        return cls(secret)

    @classmethod
    def load_or_create(cls, path: Path) -> tuple[CabinetKey, bool]:
        """The key at ``path``, created if the file does not exist; returns (key, created)."""
        if Path(path).exists():
            return cls.load(path), False
        return cls.create(path), True
