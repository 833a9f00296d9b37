"""The ledger's errors: each carries a ``reason`` an operator can act on."""

from __future__ import annotations


class LedgerError(Exception):
    """The ledger cannot be used; ``reason`` says why in words an operator can act on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class LedgerCorruptError(LedgerError):
    """Corrupt or tampered ledger.  ``where`` names the first bad row or meter."""

    def __init__(self, reason: str, where: str = "") -> None:
        super().__init__(f"{where}: {reason}" if where else reason)
        self.where = where


class LedgerMissingError(LedgerError):
    """The database is missing but the install marker says this cabinet had one."""


class LedgerExistsError(LedgerError):
    """Refusing to create a ledger over an existing one."""
