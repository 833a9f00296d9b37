"""The ID-003 exchange: send one command, read one frame, retry.

A response that is garbled (bad CRC, bad length, noise, partial) or missing is logged and
the command resent, up to ``max_retries`` times; each failed attempt counts towards the
link's :class:`~devices.comm_health.CommHealth`.  Bytes nobody asked for are discarded
(and counted) before every command.  While the port is lost every attempt fails at once,
unlogged (the loss itself was logged and reported).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace

from devices.comm_health import CommHealth
from devices.id003.codes import Command, Status
from devices.id003.config import ValidatorConfig
from devices.id003.frame import BadFrame, BadFrameReason, Frame, FrameDecoder, encode_frame
from devices.polling import SerialPoller


@dataclass(frozen=True, slots=True)
class CommStats:
    """Counters of the exchanges so far (a snapshot)."""

    frames_ok: int = 0
    bad_frames: int = 0
    timeouts: int = 0
    stale_bytes: int = 0
    device_comm_errors: int = 0
    invalid_commands: int = 0


class Id003Link:
    """Framed exchanges with one validator over ``poller``'s port.

    ``config.response_timeout`` (seconds) bounds each attempt; ``config.max_retries``
    resends follow a failed attempt.  Callers hold ``poller.lock`` around each exchange.
    """

    def __init__(
        self,
        poller: SerialPoller,
        health: CommHealth,
        config: ValidatorConfig,
        log: logging.Logger,
    ) -> None:
        self._poller = poller
        self._health = health
        self._response_timeout = config.response_timeout
        self._attempts = 1 + config.max_retries
        self._log = log
        self._decoder = FrameDecoder()
        self._stats = CommStats()

    @property
    def stats(self) -> CommStats:
        """Snapshot of the communication counters."""
        return self._stats

    @property
    def lost(self) -> bool:
        """True while a ``comm_error`` stands."""
        return self._health.lost

    def port_lost(self, detail: str) -> None:
        """The port vanished: drop any partial frame and raise ``comm_error`` now."""
        self._decoder.reset()
        self._health.port_lost(detail)

    def transact(self, command: Command, data: bytes = b"") -> Frame | None:
        """Send ``command`` and return the validator's answer, retrying garbled exchanges."""
        request = encode_frame(command, data)
        what = command.name
        name = self._poller.name

        def send() -> bool:
            self._discard_input()
            return self._poller.write(request)

        def resending(attempt: int) -> None:
            if self._poller.is_open:
                self._log.info("%s: resending %s (attempt %d)", name, what, attempt + 1)

        return self._health.exchange(self._attempts, send, lambda: self._reply(what), resending)

    def send_ack(self) -> None:
        """ACK a VEND VALID (the validator does not answer an ACK)."""
        self._discard_input()
        self._poller.write(encode_frame(Command.ACK))

    def _reply(self, what: str) -> Frame | None:
        """The answer to ``what``, None if there is none or it reports a garbled command."""
        reply = self._read_frame(what)
        if reply is None:
            return None
        name = self._poller.name
        if reply.command == Status.COMMUNICATION_ERROR:
            self._bump(device_comm_errors=1)
            self._log.warning("%s: validator reports a communication error for %s", name, what)
            return None
        if reply.command == Status.INVALID_COMMAND:
            self._bump(invalid_commands=1)
            self._log.info("%s: validator answered INVALID COMMAND to %s", name, what)
        return reply

    def _bump(self, **fields: int) -> None:
        self._stats = replace(
            self._stats, **{k: getattr(self._stats, k) + v for k, v in fields.items()}
        )

    def _discard_input(self) -> None:
        stale = self._decoder.reset() + self._poller.drain()
        if stale:
            self._bump(stale_bytes=len(stale))
            self._log.warning(
                "%s: discarded %d unexpected bytes: %s",
                self._poller.name,
                len(stale),
                stale.hex(" "),
            )

    def _read_frame(self, what: str) -> Frame | None:
        """Read one good frame within ``response_timeout``; log everything discarded."""
        name = self._poller.name
        deadline = time.monotonic() + self._response_timeout
        while True:
            if deadline - time.monotonic() <= 0:
                pending = self._decoder.reset()
                self._bump(timeouts=1)
                self._log.warning(
                    "%s: no valid response to %s within %.0f ms%s",
                    name,
                    what,
                    self._response_timeout * 1000,
                    f" (partial frame dropped: {pending.hex(' ')})" if pending else "",
                )
                return None
            chunk = self._poller.read_some()
            if chunk is None:
                return None
            if not chunk:
                continue
            garbled = False
            for item in self._decoder.feed(chunk):
                if isinstance(item, Frame):
                    self._bump(frames_ok=1)
                    return item
                assert isinstance(item, BadFrame)
                self._bump(bad_frames=1)
                self._log.warning(
                    "%s: bad frame (%s) in response to %s: %s",
                    name,
                    item.reason.value,
                    what,
                    item.raw.hex(" "),
                )
                garbled = garbled or item.reason is BadFrameReason.BAD_CRC
            if garbled and not self._decoder.pending:
                return None  # the response was destroyed; resend rather than wait
