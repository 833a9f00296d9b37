"""The SAS link's own process: the same :class:`~kiosk.sas.service.SasService` (poll
thread, updater thread, its state in the ledger's database) over a
:class:`RemotePort`, the :class:`~kiosk.sas.port.GamePort` whose every call goes over
a socket to the game service's process (:mod:`kiosk.sas.process` starts this process
and answers there; :mod:`kiosk.sas.wire` is the format).

Only the updater thread (and the start) call the port, as in one process: the poll
thread answers from the link's own view and never waits for the game's process, so
its timing does not depend on that process's interpreter (the screens).

It ends when the game's process does: the socket's end of file, and the kernel's
``PR_SET_PDEATHSIG`` (SIGHUP) when the game's process dies first; either way it stops
as :meth:`SasService.stop` does (the queue and the exchanges are already on disk).  It
ignores SIGTERM and SIGINT: a service manager stopping the cabinet signals every process
of it, and the link must stop after the game's process, which closes its end when it
has stopped (else the link, gone first, would be started again).
"""

from __future__ import annotations

import argparse
import ctypes
import logging
import os
import signal
import socket
import threading
from collections.abc import Callable, Mapping, Sequence

from kiosk.sas.port import (
    Capabilities,
    GameEvent,
    LinkedProgressive,
    LinkedWin,
    MachineInfo,
    PendingCashout,
    PortRefused,
    Redemption,
    RoundRow,
    TicketInEscrow,
    ValidationRecord,
)
from kiosk.sas.wire import (
    MAX_RESULT_BYTES,
    BadCall,
    WireClosed,
    decode_result,
    read_message,
    send_message,
)

log = logging.getLogger(__name__)

#: prctl(2): deliver a signal to this process when its parent dies.
PR_SET_PDEATHSIG = 1


class PortFailed(RuntimeError):
    """The game's process could not run a call (its text says why)."""


class RemotePort:
    """A :class:`~kiosk.sas.port.GamePort` over ``sock``: one call at a time (the updater
    thread's), answers and change notices read by a thread of its own.  ``on_closed`` is
    called once when the game's process closes its end."""

    def __init__(self, sock: socket.socket, on_closed: Callable[[], None] = lambda: None) -> None:
        self._sock = sock
        self._on_closed = on_closed
        self._call_lock = threading.Lock()
        self._answered = threading.Condition()
        self._answer: dict[str, object] | None = None
        self._next_id = 0
        self._closed = False
        self._callbacks: list[Callable[[], None]] = []
        self._reader = threading.Thread(target=self._read, name="sas-port-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            while True:
                message = read_message(self._sock, MAX_RESULT_BYTES)
                if message.get("changed"):
                    for callback in list(self._callbacks):
                        callback()
                    continue
                with self._answered:
                    self._answer = message
                    self._answered.notify_all()
        except WireClosed:
            log.info("the game's process closed the port")
        except BadCall as exc:
            log.error("the game's process sent what is not a message: %s", exc.reason)
        finally:
            with self._answered:
                self._closed = True
                self._answered.notify_all()
            self._on_closed()

    def _call(self, name: str, *args: object) -> object:
        with self._call_lock:
            self._next_id += 1
            call_id = self._next_id
            with self._answered:
                if self._closed:
                    raise WireClosed("the game's process is gone")
                self._answer = None
            send_message(self._sock, {"id": call_id, "call": name, "args": list(args)})
            with self._answered:
                while not self._closed and (
                    self._answer is None or self._answer.get("id") != call_id
                ):
                    self._answered.wait()
                answer = self._answer
                if answer is None or answer.get("id") != call_id:
                    raise WireClosed("the game's process is gone")
        if "refused" in answer:
            raise PortRefused(str(answer["refused"]))
        if "error" in answer:
            raise PortFailed(f"{name}: {answer['error']}")
        return decode_result(name, answer.get("ok"))

    def close(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    # -- the port -------------------------------------------------------------------------
    def stations(self) -> tuple[int, ...]:
        return self._call("stations")  # type: ignore[return-value]

    def machine_info(self) -> MachineInfo:
        return self._call("machine_info")  # type: ignore[return-value]

    def capabilities(self) -> Capabilities:
        return self._call("capabilities")  # type: ignore[return-value]

    def meters(self, station: int) -> Mapping[str, int]:
        return self._call("meters", station)  # type: ignore[return-value]

    def events_after(self, event_id: int, limit: int) -> Sequence[GameEvent]:
        return self._call("events_after", event_id, limit)  # type: ignore[return-value]

    def rounds_after(self, round_id: int, limit: int) -> Sequence[RoundRow]:
        return self._call("rounds_after", round_id, limit)  # type: ignore[return-value]

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self._callbacks.append(callback)
        return lambda: self._callbacks.remove(callback) if callback in self._callbacks else None

    def set_enabled(self, station: int, enabled: bool, by: str) -> None:
        self._call("set_enabled", station, enabled, by)

    def set_note_acceptance(self, station: int, enabled: bool, by: str) -> None:
        self._call("set_note_acceptance", station, enabled, by)

    def pending_cashout(self, station: int) -> PendingCashout | None:
        return self._call("pending_cashout", station)  # type: ignore[return-value]

    def deliver_validation(self, station: int, cashout_id: str, validation: str | None) -> None:
        self._call("deliver_validation", station, cashout_id, validation)

    def validation_records(self, station: int, limit: int) -> Sequence[ValidationRecord]:
        return self._call("validation_records", station, limit)  # type: ignore[return-value]

    def ticket_in_escrow(self, station: int) -> TicketInEscrow | None:
        return self._call("ticket_in_escrow", station)  # type: ignore[return-value]

    def redeem_ticket(self, station: int, escrow_id: str, amount: int, restricted: bool) -> None:
        self._call("redeem_ticket", station, escrow_id, amount, restricted)

    def refuse_ticket(self, station: int, escrow_id: str, code: int) -> None:
        self._call("refuse_ticket", station, escrow_id, code)

    def redemption(self, station: int, escrow_id: str) -> Redemption | None:
        return self._call("redemption", station, escrow_id)  # type: ignore[return-value]

    def progressive_link(self) -> LinkedProgressive | None:
        return self._call("progressive_link")  # type: ignore[return-value]

    def progressive_levels(self, group: int, levels: Sequence[tuple[int, int]], by: str) -> None:
        self._call("progressive_levels", group, [list(pair) for pair in levels], by)

    def progressive_lost(self, group: int, by: str) -> None:
        self._call("progressive_lost", group, by)

    def progressive_win(self, station: int) -> LinkedWin | None:
        return self._call("progressive_win", station)  # type: ignore[return-value]


def die_with_parent(parent: int) -> None:
    """SIGHUP to this process when its parent dies (Linux); ends it now when the parent
    ``parent`` is already gone."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGHUP, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the socket's end of file still ends it
        pass
    if os.getppid() != parent:
        raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    """The link's process: ``--fd`` the socket to the game's process, ``--db`` the
    ledger's database, ``--port`` the serial port, ``--address`` the first station's
    address, ``--parent`` the game's process id."""
    p = argparse.ArgumentParser(prog="sas-link")
    p.add_argument("--fd", type=int, required=True)
    p.add_argument("--db", required=True)
    p.add_argument("--port", required=True)
    p.add_argument("--address", type=int, required=True)
    p.add_argument("--parent", type=int, required=True)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="sas-link %(levelname)s %(name)s: %(message)s")
    stop = threading.Event()
    signal.signal(signal.SIGHUP, lambda *_: stop.set())  # the game's process died
    for sig in (signal.SIGTERM, signal.SIGINT):  # the game's process stops first, then us
        signal.signal(sig, signal.SIG_IGN)
    die_with_parent(args.parent)

    from devices.sas.uart import open_line
    from kiosk.sas.service import SasService

    port = RemotePort(socket.socket(fileno=args.fd), on_closed=stop.set)
    service = SasService(port, args.db, lambda: open_line(args.port), args.address)
    service.start()
    try:
        while not stop.wait(1.0):
            pass
    finally:
        service.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
