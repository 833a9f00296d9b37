"""The host cabinet's side of a friends game: the game, its web server and the loop
between them.

:class:`FriendsHost` owns a :class:`FriendsGame` and a :class:`FriendsServer`.  The server
thread only queues what arrives; the game is touched by one thread, the owner, which
calls :meth:`pump` (the cabinet's frame loop, instead of ``session.update``) or lets
:meth:`run_in_background` do it.  Each :meth:`pump` applies what arrived, advances the
game and hands each connection its new messages; when the game has ended and its results
have been up for :attr:`FriendsTimers.finish_s`, the seats' sockets are closed.

With ``link_pairing`` (the cabinet's pairing folder of the table link) the host also
seats paired cabinets over the link (:class:`~kiosk.friends.link_seats.LinkSeats`, on
``link_port``): their connections are the game's connections like the phones' sockets.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from kiosk.friends.addresses import advertised, is_loopback
from kiosk.friends.game import FriendsGame
from kiosk.friends.link_seats import LinkSeats
from kiosk.friends.server import Closed, FriendsServer, Opened, Received, ServerEvent, ServerLimits
from kiosk.link.pairing import HostPairing

log = logging.getLogger("kiosk.friends")
T = TypeVar("T")

#: How often :meth:`FriendsHost.call` looks whether the loop it waits on still runs (s).
CALL_POLL_S = 0.25


class HostLoopStopped(RuntimeError):
    """:meth:`FriendsHost.call` on a loop that is not running, or that stopped (failed:
    ``failure``) before it ran the call."""

    def __init__(self, code: str, failure: Exception | None) -> None:
        why = f"it failed: {failure!r}" if failure is not None else "it is not running"
        super().__init__(f"the host loop of friends game {code} cannot run the call: {why}")
        self.failure = failure


class FriendsHost:
    """Serves ``game`` on ``bind:port``; the link is ``http://{advertise}:{port}/g/{code}``
    (``advertise`` defaults to ``bind``, or for ``0.0.0.0`` the venue network's address,
    :func:`kiosk.friends.addresses.advertised`)."""

    def __init__(
        self,
        game: FriendsGame,
        *,
        bind: str = "127.0.0.1",
        port: int = 0,
        advertise: str | None = None,
        limits: ServerLimits | None = None,
        link_pairing: HostPairing | None = None,
        link_port: int = 0,
    ) -> None:
        self.game = game
        self._inbox: queue.SimpleQueue[ServerEvent | _Call] = queue.SimpleQueue()
        self._wake = threading.Event()
        self.server = FriendsServer(
            game.code,
            self._arrived,
            host=bind,
            port=port,
            limits=limits,
            seated=self._seated,
            known_token=self._known_token,
        )
        self.advertise = advertised(bind, advertise)
        self.link_seats = (
            LinkSeats(link_pairing, self._arrived, host=bind, port=link_port, limits=limits)
            if link_pairing is not None
            else None
        )
        self._seated_conns: set[int] = set()
        self._tokens: frozenset[str] = frozenset(f.token for f in game.friends() if not f.left)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._closed = False
        self._last = time.monotonic()
        self.cpu_s = 0.0  # owner-thread CPU seconds spent in pump()
        self._failure: Exception | None = None  # what stopped the background loop

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> str:
        """Start serving; returns the link.  The port is kept in the game (and so in its
        saved state), for friends' links to work again after a restart."""
        self.server.start()
        if self.link_seats is not None:
            self.link_seats.start()
        self.game.port = self.server.port
        return self.link

    @property
    def link(self) -> str:
        return f"http://{self.advertise}:{self.server.port}/g/{self.game.code}"

    @property
    def phones_can_reach(self) -> bool:
        """False when the link names loopback: only this machine can open it (the
        configuration binds the friends' server to 127.0.0.1)."""
        return not is_loopback(self.advertise)

    @property
    def port(self) -> int:
        return self.server.port

    def stop(self) -> None:
        """Stop the loop (if running) and the server: every seat's socket closes."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(10)
        self.server.stop()
        if self.link_seats is not None:
            self.link_seats.stop()

    def __enter__(self) -> FriendsHost:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the owner's loop ---------------------------------------------------------------
    def pump(self, dt: float | None = None) -> None:
        """Apply what arrived, advance the game ``dt`` seconds (default: since the last
        pump) and send each connection its messages."""
        started = time.thread_time()
        now = time.monotonic()
        step = now - self._last if dt is None else dt
        self._last = now
        game = self.game
        while True:
            try:
                event = self._inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(event, Opened):
                game.connect(event.conn)
            elif isinstance(event, Received):
                game.receive(event.conn, event.message)
            elif isinstance(event, Closed):
                game.disconnect(event.conn)
            else:
                event.run(game)
        game.update(step)
        self._flush()
        if game.finished and not self._closed:
            self._closed = True
            log.info("friends game %s ended: closing its seats", game.code)
            self.server.close_all()
            if self.link_seats is not None:
                self.link_seats.close_all()
        self.cpu_s += time.thread_time() - started

    def _flush(self) -> None:
        messages, closes = self.game.outgoing()
        link = self.link_seats
        for conn, text in messages:
            (link if link is not None and link.owns(conn) else self.server).send(conn, text)
        for conn, reason in closes:
            (link if link is not None and link.owns(conn) else self.server).close(conn, reason)
        self._seated_conns = {c for f in self.game.friends() for c in f.conns}
        self._tokens = frozenset(f.token for f in self.game.friends() if not f.left)

    def run_in_background(self, tick_s: float = 0.02) -> None:
        """Run :meth:`pump` on a thread of its own: at once when something arrives, else
        every ``tick_s`` seconds."""

        def loop() -> None:
            while not self._stop.is_set():
                self._wake.wait(tick_s)
                self._wake.clear()
                try:
                    self.pump()
                except Exception as exc:
                    self._failure = exc
                    log.exception("friends game %s: the host loop failed", self.game.code)
                    raise

        self._thread = threading.Thread(target=loop, name="friends-host", daemon=True)
        self._thread.start()

    @property
    def in_background(self) -> bool:
        return self._thread is not None

    def pause_background(self) -> None:
        """Stop the loop of :meth:`run_in_background` (the server stays up): the caller's
        thread owns the game again and calls :meth:`pump`."""
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        self._wake.set()
        if thread is not threading.current_thread():
            thread.join(10)
        self._thread = None
        self._stop.clear()
        self._last = time.monotonic()

    def call(self, fn: Callable[[FriendsGame], T], timeout: float | None = None) -> T:
        """Run ``fn(game)`` on the owner's loop (started with :meth:`run_in_background`)
        and return its result: how the demo and tests touch the game.

        It waits for as long as the loop runs: a step held up by a slow disk (every
        change is saved) or a busy machine is waited for, never taken for a failure.
        :class:`HostLoopStopped` when the loop is not running or stopped before running
        ``fn``; :class:`TimeoutError` only with a ``timeout`` and the loop still busy."""
        job = _Call(fn)
        self._inbox.put(job)
        self._wake.set()
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                return job.result(CALL_POLL_S)
            except queue.Empty:
                pass
            thread = self._thread
            if thread is None or not thread.is_alive():
                try:  # it may have run just before the loop stopped
                    return job.result(0)
                except queue.Empty:
                    raise HostLoopStopped(self.game.code, self._failure) from self._failure
            if end is not None and time.monotonic() >= end:
                raise TimeoutError(f"the host's loop did not run the call within {timeout} s")

    # -- from the server thread -----------------------------------------------------------
    def _arrived(self, event: ServerEvent) -> None:
        self._inbox.put(event)
        self._wake.set()

    def _seated(self, conn: int) -> bool:
        return conn in self._seated_conns

    def _known_token(self, token: str) -> bool:
        return token in self._tokens


class _Call:
    """A function to run on the owner's loop, and its outcome."""

    def __init__(self, fn: Callable[[FriendsGame], Any]) -> None:
        self.fn = fn
        self._done: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()

    def run(self, game: FriendsGame) -> None:
        try:
            self._done.put((True, self.fn(game)))
        except Exception as exc:  # noqa: BLE001 - handed back to the caller
            self._done.put((False, exc))

    def result(self, timeout: float) -> Any:
        ok, value = self._done.get(timeout=timeout)
        if not ok:
            raise value
        return value
