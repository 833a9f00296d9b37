"""Exceptions shared by the game engines."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that the rules do not allow now; raised before any state changes.

    ``reason`` is the rule it breaks, in words a player or an auditor reads.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
