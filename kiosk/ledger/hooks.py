"""What an open ledger tells of each of its commits: the port a witness of the ledger
plugs into (:attr:`kiosk.ledger.ledger.Ledger.witness`; the money witness of
:mod:`kiosk.ledger.witness` is one)."""

from __future__ import annotations

from collections.abc import Set
from typing import Any, Protocol


class CommitWitness(Protocol):
    """Called by the ledger around each outermost transaction that commits."""

    def before_commit(self, ledger: Any, kinds: Set[str]) -> None:
        """Inside the transaction, before its commit; ``kinds``: the kinds of event
        written in it.  Rows it writes commit with the transaction."""
        ...

    def after_commit(self, ledger: Any) -> None:
        """After the commit (not after a rollback); must not raise."""
        ...
