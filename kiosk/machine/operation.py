"""The frame every controller operation runs in: the machine lock, the refusal message,
the ledger tilt and the subscribers' notice."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from kiosk.ledger.errors import LedgerError
from kiosk.machine.errors import MachineError, PlayDisabled
from kiosk.machine.state import LEDGER_TILT, CabinetState

log = logging.getLogger("kiosk.machine.controller")


@contextmanager
def operation(
    lock: threading.RLock, state: CabinetState, notify: Callable[[], None]
) -> Iterator[None]:
    """Run the block under ``lock``; a refusal sets the message; ``notify`` runs after.

    A ledger failure inside the block tilts the machine (``ledger``) and is raised as
    :class:`PlayDisabled`: nothing took effect, since the ledger write comes first.
    """
    with lock:
        state.message = ""
        try:
            yield
        except MachineError as exc:
            state.message = exc.reason
            raise
        except (LedgerError, sqlite3.Error) as exc:
            reason = f"ledger write failed: {exc}"
            log.error(reason)
            state.tilts[LEDGER_TILT] = reason
            state.message = reason
            raise PlayDisabled(reason, code="ledger_fault") from exc
        finally:
            notify()
