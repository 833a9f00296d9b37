"""The ``@_operation`` wrapper every public :class:`Machine` operation runs in: the
machine lock, the refusal message, the ledger tilt, the subscribers' notice."""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from kiosk.ledger.ledger import LedgerError
from kiosk.machine.types import LEDGER_TILT, MachineError, PlayDisabled

log = logging.getLogger("kiosk.machine.controller")

if TYPE_CHECKING:
    from kiosk.machine.controller import Machine


P = ParamSpec("P")
R = TypeVar("R")


def _operation(method: Callable[P, R]) -> Callable[P, R]:
    """Run under the machine lock; a refusal sets the message; subscribers hear of changes.

    A ledger failure during an operation tilts the machine (``ledger``) and is reported
    as :class:`PlayDisabled`: nothing took effect, since the ledger write comes first.
    """

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        self: Machine = args[0]  # type: ignore[assignment]
        with self._lock:
            self._message = ""
            try:
                return method(*args, **kwargs)
            except MachineError as exc:
                self._message = exc.reason
                raise
            except (LedgerError, sqlite3.Error) as exc:
                reason = f"ledger write failed: {exc}"
                log.error(reason)
                self._tilts[LEDGER_TILT] = reason
                self._message = reason
                raise PlayDisabled(reason, code="ledger_fault") from exc
            finally:
                self._notify()

    return wrapper
