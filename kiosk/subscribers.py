"""Callbacks told of every change: the controllers' (cabinet, table host, station) one way
of letting screens and links follow them.

Thread-safe: callbacks may be added and removed from any thread while a change is being
announced; each announcement calls the callbacks registered when it began.  A callback
that raises is logged and the others still run: a screen or link bug never stops the
controller that announced the change.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, ParamSpec

P = ParamSpec("P")
log = logging.getLogger(__name__)


class Subscribers(Generic[P]):
    """The callbacks of one controller's changes, each called as ``callback(*args)``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: list[Callable[P, None]] = []

    def add(self, callback: Callable[P, None]) -> Callable[[], None]:
        """Register ``callback``; returns the function that removes it (idempotent)."""
        with self._lock:
            self._callbacks.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return remove

    def __bool__(self) -> bool:
        with self._lock:
            return bool(self._callbacks)

    def notify(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Call every callback registered now with ``args``."""
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback(*args, **kwargs)
            except Exception:
                log.exception("subscriber failed")
