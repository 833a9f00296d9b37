"""The poll thread: reads the line, frames the host's messages, answers each machine
address within the 20 ms of SAS, chirps when nobody polls.

Framing: a byte with the wakeup bit starts a message (a message cut short by it is
dropped and counted); the message ends at its length by command
(:data:`devices.sas.frames.REQUEST_LENGTHS`), or after 5 ms without a byte (then it is
dropped: truncated, or a long poll this machine does not know).

Acknowledgement (SAS 6.02 section 2, the implied ACK and NACK; 2.2, the general poll
and the exception queue): the answer to a poll stays in hand until the host moves on.
The same poll again to the same address is an implied NACK: the same answer is sent
again, without doing the request twice.  An exception (or any answer whose
acknowledgement does something) is sent again to every repeat of its poll until the host
acknowledges it, however many: SAS keeps an exception at the head of the queue until the
implied ACK, and a host that missed answers must not lose one.  Another long poll's
answer is repeated at most :data:`MAX_REPEATS` times, and a general poll answered "no
activity" (00) is answered afresh.  Any other poll to that address, a poll to another
address (address 0 included) or a global broadcast is the implied ACK: the answer's
``on_ack`` runs (the exception leaves the queue, durably: the ACK is on disk before
that poll is answered, :class:`~kiosk.sas.store.AckJournal`).  A real-time event sent
instead of a long poll's answer is acknowledged by the host sending that long poll again.

Chirp: after :data:`~devices.sas.frames.CHIRP_AFTER_S` without any address byte, each
served address is sent with the wakeup bit every 200 ms until a poll comes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from devices.sas.frames import (
    CHIRP_AFTER_S,
    CHIRP_EVERY_S,
    GENERAL_POLL_BIT,
    INTER_BYTE_S,
    REQUEST_LENGTHS,
    expected_length,
)
from devices.sas.line import LineClosed, WakeupLine
from kiosk.sas.codec import BadRequest, Request, parse
from kiosk.sas.egm import Answer, Egm

log = logging.getLogger(__name__)

#: How many times a long poll's answer with nothing to acknowledge is sent again for the
#: same poll (implied NACK); an exception is sent again until acknowledged.
MAX_REPEATS = 2


@dataclass
class LinkStats:
    """What the poll thread has seen: messages by outcome and the time from the end of a
    poll to the answer's write, seconds."""

    polls: int = 0
    answered: int = 0
    repeats: int = 0
    ignored: int = 0
    bad_crc: int = 0
    truncated: int = 0
    others: int = 0  # polls for addresses served elsewhere
    chirps: int = 0
    reopen: int = 0
    answer_s: list[float] = field(default_factory=list)


@dataclass
class _InHand:
    raw: bytes
    answer: Answer
    repeats: int = 0


class Responder:
    """Serves ``egms`` (by address) on the line ``open_line()`` returns (reopened on a
    back-off when it goes away)."""

    def __init__(
        self,
        open_line: Callable[[], WakeupLine],
        egms: dict[int, Egm],
        *,
        chirp: bool = True,
        chirp_after: float = CHIRP_AFTER_S,
        keep_timings: int = 200_000,
    ) -> None:
        self._open_line = open_line
        self.egms = egms
        self.chirp = chirp
        self.chirp_after = chirp_after
        self.keep_timings = keep_timings
        self.stats = LinkStats()
        self._in_hand: dict[int, _InHand] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.line: WakeupLine | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="sas-poll", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.line is not None:
            self.line.close()

    # -- the loop -----------------------------------------------------------------------
    def _run(self) -> None:
        backoff = 0.05
        while not self._stop.is_set():
            try:
                self.line = self._open_line()
            except OSError as exc:
                log.warning("SAS port cannot be opened: %s", exc)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            backoff = 0.05
            try:
                self._serve(self.line)
            except LineClosed as exc:
                log.warning("SAS line lost: %s", exc)
                self.stats.reopen += 1
            finally:
                self.line.close()
            self._stop.wait(backoff)

    def _serve(self, line: WakeupLine) -> None:
        message = bytearray()
        last_byte = last_address = time.monotonic()
        last_chirp = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            if message:
                wait = max(0.0, last_byte + INTER_BYTE_S - now)
            else:
                wait = 0.05
                if self.chirp and now - last_address > self.chirp_after:
                    wait = min(wait, max(0.0, last_chirp + CHIRP_EVERY_S - now))
            items = line.receive(wait)
            now = time.monotonic()
            if not items:
                if message and now - last_byte >= INTER_BYTE_S:
                    self._drop(bytes(message))
                    message.clear()
                elif (
                    self.chirp
                    and now - last_address > self.chirp_after
                    and now - last_chirp >= CHIRP_EVERY_S
                ):
                    for address in self.egms:
                        line.send(bytes((address,)), wakeup_first=True)
                        self.stats.chirps += 1
                    last_chirp = now
                continue
            for byte, wakeup in items:
                if wakeup:
                    if message:
                        self.stats.truncated += 1
                    message = bytearray((byte,))
                    last_address = now
                elif message:
                    message.append(byte)
                else:
                    continue  # noise between messages
                if self._complete(message):
                    self._handle(line, bytes(message), now)
                    message.clear()
            last_byte = now

    @staticmethod
    def _complete(message: bytearray) -> bool:
        if len(message) == 1:
            return bool(message[0] & GENERAL_POLL_BIT)
        need = expected_length(message, REQUEST_LENGTHS)
        return need is not None and len(message) >= need

    def _drop(self, raw: bytes) -> None:
        """A message ended by silence: too short for its command, or unknown."""
        if raw and (raw[0] in self.egms or raw[0] == 0):
            if len(raw) > 1 and raw[1] not in REQUEST_LENGTHS:
                self.stats.ignored += 1  # a long poll this machine does not know
            else:
                self.stats.truncated += 1
            self._acknowledge_others(raw[0])
        elif raw:
            self.stats.others += 1
            self._acknowledge_others(raw[0] & 0x7F)

    # -- one message ----------------------------------------------------------------------
    def _handle(self, line: WakeupLine, raw: bytes, received: float) -> None:
        self.stats.polls += 1
        try:
            req = parse(raw)
        except BadRequest as exc:
            if "CRC" in exc.reason:
                self.stats.bad_crc += 1
            else:
                self.stats.ignored += 1
            address = raw[0] & 0x7F
            if exc.answer is not None and address in self.egms:
                line.send(exc.answer)
            return
        self._acknowledge_others(req.address)
        egm = self.egms.get(req.address)
        if req.address == 0:  # a global broadcast: every machine takes it, none answers
            if req.command >= 0:
                for each in self.egms.values():
                    each.answer(req)
            return
        if egm is None:
            self.stats.others += 1
            return
        held = self._in_hand.get(req.address)
        if held is not None:
            if held.raw == raw and self._repeats(held):
                held.repeats += 1
                self.stats.repeats += 1
                self._send(line, held.answer.data, received)
                return
            self._ack(req.address)
        answer = egm.answer(req)
        if answer is None:
            self.stats.ignored += 1
            return
        self._send(line, answer.data, received)
        self._in_hand[req.address] = _InHand(raw, answer)

    @staticmethod
    def _repeats(held: _InHand) -> bool:
        """Whether the same poll again gets ``held``'s answer again (implied NACK)."""
        if held.answer.event_for_poll:
            return False  # the long poll again acknowledges the event
        if held.answer.on_ack is not None:
            return True  # until the implied ACK, however many times
        if len(held.raw) == 1:
            return False  # a general poll answered 00: whatever is new now
        return held.repeats < MAX_REPEATS

    def _send(self, line: WakeupLine, data: bytes, received: float) -> None:
        line.send(data)
        self.stats.answered += 1
        if len(self.stats.answer_s) < self.keep_timings:
            self.stats.answer_s.append(time.monotonic() - received)

    def _ack(self, address: int) -> None:
        held = self._in_hand.pop(address, None)
        if held is not None and held.answer.on_ack is not None:
            held.answer.on_ack()

    def _acknowledge_others(self, address: int) -> None:
        for other in [a for a in self._in_hand if a != address]:
            self._ack(other)

    # -- for tests and tools -------------------------------------------------------------
    def make_request(self, raw: bytes) -> Request:
        return parse(raw)
