"""The SAS link in a process of its own, started and watched by the game service's
process (the cabinet): :class:`LinkProcess`, and the :class:`PortServer` that answers its
port calls here.

Why a process
-------------
SAS gives a machine 20 ms to start its answer.  In one process the poll thread shares
one interpreter lock with the screens: on a third of a Raspberry Pi's core, a frame
being drawn holds it for tens of milliseconds and the answers start late (worst while a
tilt's overlay is drawn).  A higher thread priority does not help (the lock, not the
CPU, is what it waits for), and drawing less only narrows the window.  In a process of
its own the poll thread has an interpreter to itself; the kernel's scheduler wakes it
within a few milliseconds of the poll's bytes even when the cabinet's process has used
its share, and the link's process is a child of the cabinet's, so it runs inside the
same CPU budget (cgroup) and is counted with it.

Nothing changes for the link itself: the same :class:`~kiosk.sas.service.SasService`
(poll thread, updater thread, its queue and exchanges in the ledger's database, written
as they are in one process, so a power cut leaves the same state) over a
:class:`~kiosk.sas.remote.RemotePort`.  Its port calls already run on its updater thread
only; each now crosses a socket to this process's :class:`PortServer`, which checks it
(:func:`kiosk.sas.wire.check_call`: the port's own methods, each argument typed and in
range) and runs it on the real port (:class:`~kiosk.sas.game_port.TablePort`), whose game
service applies its own checks.  The port's change notices travel the other way.

Life
----
The link's process ends when this one does (the socket's end of file, and
``PR_SET_PDEATHSIG``).  When it ends alone (a crash, a kill) :class:`LinkProcess` logs
it and starts it again after :data:`RESTART_DELAY_S` (longer when it keeps dying); it
picks its queue and exchanges up from the database as after a power cut.
:meth:`LinkProcess.stop` closes the socket (the link writes down what it holds and ends),
then waits, then ends it.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import kiosk
from kiosk.sas.port import GamePort, PortRefused
from kiosk.sas.service import addresses_for
from kiosk.sas.wire import (
    MAX_CALL_BYTES,
    BadCall,
    WireClosed,
    check_call,
    encode_result,
    read_message,
    send_message,
)

log = logging.getLogger(__name__)

#: Seconds between the link's process ending alone and its restart, doubled at each
#: death up to :data:`RESTART_DELAY_MAX_S` (back to the first after :data:`STEADY_S` up).
RESTART_DELAY_S = 1.0
RESTART_DELAY_MAX_S = 30.0
STEADY_S = 60.0
#: Seconds :meth:`LinkProcess.stop` gives the link to write down what it holds and end.
STOP_WAIT_S = 15.0
#: The program's folder: the link's process runs this program's code, nothing on its
#: working folder's path (the interpreter is isolated, ``-I``).
PROGRAM_ROOT = Path(kiosk.__file__).resolve().parent.parent
#: The link's process: SIGTERM and SIGINT ignored from its first line (see
#: :mod:`kiosk.sas.remote`), then its main.
_CHILD = (
    "import signal, sys; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    "signal.signal(signal.SIGINT, signal.SIG_IGN); sys.path.insert(0, sys.argv.pop(1)); "
    "from kiosk.sas.remote import main; raise SystemExit(main())"
)


class PortServer:
    """Answers the calls that come on ``sock`` with ``port``, one at a time, on a thread
    of its own; pushes the port's change notices.  :meth:`close` ends it."""

    def __init__(self, sock: socket.socket, port: GamePort) -> None:
        self.sock = sock
        self.port = port
        self.stations = port.stations()
        self.calls = 0
        self.refused = 0  # calls refused by the wire's checks
        self._changed = threading.Event()
        self._closed = threading.Event()
        self._write = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None
        self._threads = [
            threading.Thread(target=self._serve, name="sas-port-server", daemon=True),
            threading.Thread(target=self._notify, name="sas-port-notices", daemon=True),
        ]

    def start(self) -> PortServer:
        self._unsubscribe = self.port.subscribe(self._changed.set)
        for t in self._threads:
            t.start()
        return self

    def _send(self, message: dict[str, object]) -> None:
        with self._write:
            send_message(self.sock, message)

    def _serve(self) -> None:
        try:
            while not self._closed.is_set():
                message = read_message(self.sock, MAX_CALL_BYTES)
                self._send(self.answer(message))
        except BadCall as exc:  # a frame that cannot be read: the stream is lost
            self.refused += 1
            log.error("SAS link process: %s; its port is closed", exc.reason)
        except WireClosed:
            pass
        finally:
            self.close()
            close = getattr(self.port, "close", None)
            if close is not None:  # on this thread: no call of the port is running
                close()

    def answer(self, message: dict[str, object]) -> dict[str, object]:
        """The answer to one call message (run here, on the real port)."""
        try:
            call_id, name, args = check_call(message, self.stations)
        except BadCall as exc:
            self.refused += 1
            log.error("SAS link process: call refused: %s", exc.reason)
            return {"id": message.get("id"), "error": f"refused: {exc.reason}"}
        self.calls += 1
        try:
            result = getattr(self.port, name)(*args)
        except PortRefused as exc:
            return {"id": call_id, "refused": exc.reason}
        except Exception as exc:  # the link logs it and asks again on its next pass
            log.exception("SAS link process: %s failed", name)
            return {"id": call_id, "error": repr(exc)}
        return {"id": call_id, "ok": encode_result(result)}

    def _notify(self) -> None:
        while not self._closed.is_set():
            self._changed.wait()
            self._changed.clear()
            if self._closed.is_set():
                return
            try:
                self._send({"changed": True})
            except WireClosed:
                return

    def close(self) -> None:
        """Stop answering: the link's process reads the end of file."""
        if self._closed.is_set():
            return
        self._closed.set()
        self._changed.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def join(self, timeout: float) -> None:
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(timeout)
        self.sock.close()


class LinkProcess:
    """The link of ``make_port()``'s stations on the serial port ``sas_port``, its state in
    ``db_path``, in a child process; ``make_port`` gives a fresh port for each start of
    it.  :meth:`start`, then :meth:`stop`."""

    def __init__(
        self,
        make_port: Callable[[], GamePort],
        db_path: str | Path,
        sas_port: str,
        first_address: int = 1,
    ) -> None:
        self.make_port = make_port
        self.db_path = str(db_path)
        self.sas_port = sas_port
        self.first_address = first_address
        self.restarts = 0
        #: Machine address -> station, once started (as :attr:`SasService.addresses`).
        self.addresses: dict[int, int] = {}
        self.server: PortServer | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopping = threading.Event()
        self._running = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(
            target=self._supervise, name="sas-link-process", daemon=True
        )

    @property
    def pid(self) -> int | None:
        """The link's process id (None between a death and its restart)."""
        proc = self._proc
        return None if proc is None or proc.poll() is not None else proc.pid

    def start(self) -> LinkProcess:
        self._thread.start()
        self._running.wait(30)
        return self

    def _spawn(self) -> tuple[subprocess.Popen[bytes], PortServer]:
        ours, theirs = socket.socketpair()
        try:
            server = PortServer(ours, self.make_port())
            self.addresses = addresses_for(self.first_address, server.stations)
            cmd = [sys.executable, "-I", "-c", _CHILD, str(PROGRAM_ROOT),
                   "--fd", str(theirs.fileno()), "--db", self.db_path, "--port", self.sas_port,
                   "--address", str(self.first_address), "--parent", str(os.getpid())]  # fmt: skip
            proc = subprocess.Popen(cmd, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        return proc, server.start()

    def _supervise(self) -> None:
        # the child's PR_SET_PDEATHSIG follows the thread that started it: this one,
        # which lives as long as the link
        delay = RESTART_DELAY_S
        while not self._stopping.is_set():
            try:
                with self._lock:
                    if self._stopping.is_set():
                        return
                    proc, server = self._spawn()
                    self._proc, self.server = proc, server
            except Exception:
                log.exception("the SAS link's process could not start")
                self._running.set()
                self._stopping.wait(RESTART_DELAY_S)
                continue
            self._running.set()
            began = time.monotonic()
            code = proc.wait()
            server.close()
            server.join(5)
            if self._stopping.is_set():
                return
            self.restarts += 1
            if time.monotonic() - began > STEADY_S:
                delay = RESTART_DELAY_S
            log.error(
                "the SAS link's process ended by itself (exit status %s): started again in %g s",
                code,
                delay,
            )
            self._stopping.wait(delay)
            delay = min(2 * delay, RESTART_DELAY_MAX_S)

    def stop(self) -> None:
        """Close the link's port (it writes down what it holds and ends); end it when it
        has not within :data:`STOP_WAIT_S`."""
        with self._lock:
            self._stopping.set()
            proc, server = self._proc, self.server
        if server is not None:
            server.close()
        if proc is not None:
            try:
                proc.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                log.error("the SAS link's process did not end: hung up")
                proc.send_signal(signal.SIGHUP)
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(10)
