"""A background thread running one asyncio loop, and an ordered delivery thread.

The cabinet's controller is threaded; the link's ends run their sockets on their own loop
in a daemon thread so callers need no asyncio.  Inbound messages and events are handed to
the caller's callbacks on one separate delivery thread, in arrival order, so a slow
callback (a ledger write) never stalls the sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

log = logging.getLogger("kiosk.link")
T = TypeVar("T")


class LoopThread:
    """One asyncio loop in a daemon thread named ``name``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._delivery = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{name}-deliver")

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def start(self) -> None:
        self._thread.start()

    def submit(self, coro: Coroutine[object, None, T]) -> Future[T]:
        """Run ``coro`` on the loop; a future the calling thread may wait on."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def call(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the loop soon (thread-safe; calls keep their order)."""
        self.loop.call_soon_threadsafe(fn)

    def deliver(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the delivery thread, after everything delivered before it."""
        self._delivery.submit(_guarded, fn)

    def stop(self, timeout: float = 5.0) -> None:
        """Cancel the loop's tasks, stop the loop and the delivery thread (pending
        deliveries run first)."""
        if self._thread.is_alive():
            with contextlib.suppress(Exception):
                self.submit(_cancel_all()).result(timeout)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout)
        if not self._thread.is_alive() and not self.loop.is_closed():
            self.loop.close()
        self._delivery.shutdown(wait=True)


async def _cancel_all() -> None:
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _guarded(fn: Callable[[], object]) -> None:
    try:
        fn()
    except Exception:
        log.exception("link callback failed")
