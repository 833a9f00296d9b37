"""A technician's SAS host: general polls, long polls with implied-NACK retries, broadcast,
and the answers decoded for people.  What ``uth sas host`` drives, and what the tests and
the bench poll the machine with.

Acknowledgement: the machine drops an exception (or a long poll's data) once the host
has moved on (SAS *implied ACK*: a poll to another address, another poll to this one, or
a global broadcast); the same poll again is an *implied NACK* and gets the same answer.
:meth:`SasHost.acknowledge` is the general poll of address 0, which no machine answers:
it acknowledges every machine on the line (a host of one machine sends it after each
exception it has recorded).

Timing: each :class:`Exchange` holds how long after the end of the poll the first byte
of the answer came (``start_s``) and the largest gap between bytes of the answer
(``max_gap_s``, between reads: a pty delivers what was written together in one read).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from devices.sas.bcd import BcdError, bcd_digits, from_bcd
from devices.sas.crc import crc_ok
from devices.sas.frames import (
    EVENT_COMMAND,
    GENERAL_POLL_BIT,
    INTER_BYTE_S,
    NACK_BIT,
    RESPONSE_LENGTHS,
    answer_kind,
    event_length,
    expected_length,
    general_poll,
    long_poll,
)
from devices.sas.line import WakeupLine
from devices.sas.progressive import ProgressiveMessageError, decode_wins


@dataclass(frozen=True)
class Exchange:
    """One poll and what came back.  ``kind``: ``exception`` (a general poll's one byte),
    ``ack``, ``nack``, ``busy``, ``data``, ``event``, ``bad`` (garbled) or ``none``."""

    sent: bytes
    answer: bytes
    kind: str
    start_s: float | None
    max_gap_s: float
    tries: int = 1

    @property
    def code(self) -> int | None:
        """The exception code of a general poll's answer (None for anything else)."""
        return self.answer[0] if self.kind == "exception" else None

    @property
    def data(self) -> bytes:
        """The data of a ``data`` answer: between the command byte and the CRC."""
        return self.answer[2:-2] if self.kind in ("data", "event") else b""


@dataclass
class HostStats:
    """Every answer's start time and largest inter-byte gap (seconds), polls sent again,
    bytes that came after their poll had timed out (dropped before the next poll), and the
    chirps heard."""

    starts: list[float] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    timeouts: int = 0
    retries: int = 0
    stale: int = 0
    chirps: int = 0


class SasHost:
    """Polls machines on ``line``.  ``answer_timeout``: how long to wait for the first
    byte (SAS: 20 ms); ``silence``: the gap that ends an answer of unknown length;
    ``retries``: how many times a poll with no (or a garbled) answer is sent again."""

    def __init__(
        self,
        line: WakeupLine,
        *,
        answer_timeout: float = 0.02,
        silence: float = INTER_BYTE_S,
        retries: int = 2,
    ) -> None:
        self.line = line
        self.answer_timeout = answer_timeout
        self.silence = silence
        self.retries = retries
        self.stats = HostStats()

    # -- polls --------------------------------------------------------------------------
    def general_poll(self, address: int) -> Exchange:
        """Ask ``address`` for its next exception (the answer's ``code``); a machine
        that finished a ROM signature answers with it instead (``kind`` data), one in
        real-time event mode with an event message (``kind`` event)."""
        message = general_poll(address)
        for tries in range(1, self.retries + 2):
            self._send(message)
            raw, start, gap = self._read(address, general=True)
            kind = self._general_kind(address, raw)
            if kind not in ("none", "bad") or tries > self.retries:
                return self._record(Exchange(message, raw, kind, start, gap, tries))
        raise AssertionError("unreachable")

    def long_poll(
        self, address: int, command: int, data: bytes = b"", *, crc: bool | None = None
    ) -> Exchange:
        """Send a long poll and read the answer, sending it again (implied NACK) when
        nothing or a garbled message came back."""
        message = long_poll(address, command, data, crc=crc)
        return self.send_poll(address, message)

    def send_poll(self, address: int, message: bytes) -> Exchange:
        """Send ``message`` (a whole long poll) and read the answer, with retries."""
        for tries in range(1, self.retries + 2):
            self._send(message)
            raw, start, gap = self._read(address, general=False)
            kind = "none" if not raw else answer_kind(address, raw)
            if kind not in ("none", "bad") or tries > self.retries:
                return self._record(Exchange(message, raw, kind, start, gap, tries))
        raise AssertionError("unreachable")

    def broadcast(self, command: int, data: bytes) -> None:
        """A type G global broadcast (address 0): nobody answers."""
        self._send(long_poll(0, command, data, crc=True))

    def acknowledge(self) -> None:
        """The general poll of address 0: an implied ACK for every machine."""
        self._send(general_poll(0))

    # -- the line ---------------------------------------------------------------------
    def _send(self, message: bytes) -> None:
        while stale := self.line.receive(0):  # an answer that came too late: not this one's
            self.stats.stale += len(stale)
        self.line.send(message, wakeup_first=True)
        self._sent_at = time.monotonic()

    def _read(self, address: int, *, general: bool) -> tuple[bytes, float | None, float]:
        buf = bytearray()
        first: float | None = None
        last = max_gap = 0.0
        deadline = self._sent_at + self.answer_timeout
        while True:
            now = time.monotonic()
            if not buf:
                wait = deadline - now
                if wait <= 0:
                    break
            else:
                need = self._needed(address, buf, general)
                if need is not None and len(buf) >= need:
                    break
                wait = last + max(self.silence, INTER_BYTE_S) - now
                if wait <= 0:
                    break
            items = self.line.receive(wait)
            at = time.monotonic()
            for byte, wakeup in items:
                if wakeup:  # a machine chirping: not part of an answer
                    self.stats.chirps += 1
                    continue
                if first is None:
                    first = at
                else:
                    max_gap = max(max_gap, at - last)
                buf.append(byte)
                last = at
        start = None if first is None else first - self._sent_at
        return bytes(buf), start, max_gap

    @staticmethod
    def _needed(address: int, buf: bytearray, general: bool) -> int | None:
        """The answer's whole length once known (None: read until silence)."""
        if buf[0] != address:
            return 1  # an exception code, a NACK, or a stranger's byte
        if len(buf) < 2:
            return None
        if buf[1] == 0x00:
            return 2  # busy
        if buf[1] == EVENT_COMMAND:
            return event_length(buf)
        return expected_length(buf, RESPONSE_LENGTHS)

    @staticmethod
    def _general_kind(address: int, raw: bytes) -> str:
        if not raw:
            return "none"
        if len(raw) == 1:
            return "exception"
        return answer_kind(address, raw)

    def _record(self, exchange: Exchange) -> Exchange:
        self.stats.retries += exchange.tries - 1
        if exchange.start_s is None:
            self.stats.timeouts += 1
        else:
            self.stats.starts.append(exchange.start_s)
            self.stats.gaps.append(exchange.max_gap_s)
        return exchange


# -- decoding, for people and tests ----------------------------------------------------
_METER_LISTS = {
    0x0F: ("cancelled_credits", "coin_in", "coin_out", "drop", "jackpot", "games_played"),
    0x19: ("coin_in", "coin_out", "drop", "jackpot", "games_played"),
    0x1C: ("coin_in", "coin_out", "drop", "jackpot", "games_played", "games_won",
           "slot_door_opened", "power_resets"),
}  # fmt: skip


def decode(command: int, message: bytes) -> dict[str, Any]:
    """The fields of a machine's data answer to ``command`` (the whole message, address
    to CRC), as names and numbers (meters in credits of one cent, amounts in cents).
    Raises ``ValueError`` on a message that does not decode."""
    if not crc_ok(message) or len(message) < 4 or message[1] != command:
        raise ValueError(f"not a good answer to {command:02X}: {message.hex()}")
    d = bytes(message[2:-2])
    try:
        if command in _METER_LISTS:
            names = _METER_LISTS[command]
            return {n: from_bcd(d[4 * i : 4 * i + 4]) for i, n in enumerate(names)}
        if command == 0x1A:
            return {"credits": from_bcd(d)}
        if command == 0x1F:
            return {
                "game_id": d[0:2].decode("ascii"), "additional_id": d[2:5].decode("ascii"),
                "denomination": d[5], "max_bet": d[6], "progressive_group": d[7],
                "game_options": int.from_bytes(d[8:10], "little"),
                "paytable_id": d[10:16].decode("ascii"), "base_pct": d[16:20].decode("ascii"),
            }  # fmt: skip
        if command == 0x54:
            return {"version": d[1:4].decode("ascii"), "serial": d[4:].decode("ascii")}
        if command == 0x21:
            return {"signature": int.from_bytes(d, "little")}
        if command == 0x57:
            return {"cashout_type": d[0], "amount": from_bcd(d[1:6])}
        if command == 0x58:
            return {"status": d[0]}
        if command == 0x7E:
            return {"date": bcd_digits(d[0:4]), "time": bcd_digits(d[4:7])}
        if command == 0xA0:
            return {"game": from_bcd(d[0:2]), "features": list(d[2:6])}
        if command == 0x4D:
            return {
                "validation_type": d[0], "index": d[1], "date": bcd_digits(d[2:6]),
                "time": bcd_digits(d[6:9]), "validation": bcd_digits(d[9:17]),
                "amount": from_bcd(d[17:22]), "ticket_number": int.from_bytes(d[22:24], "little"),
                "system_id": from_bcd(d[24:25]), "expires": bcd_digits(d[25:29]),
                "pool_id": int.from_bytes(d[29:31], "little"),
            }  # fmt: skip
        if command in (0x70, 0x71):
            body = d[1:]
            status = body[0]
            out: dict[str, Any] = {"status": status}
            if len(body) > 1:
                out.update(amount=from_bcd(body[1:6]), parsing=body[6],
                           validation=bcd_digits(body[7:]))  # fmt: skip
            return out
        if command in (0x2F, 0x6F, 0xAF):
            return {"game": from_bcd(d[1:3]), "meters": _selected(command, d[3:])}
        if command in (0x84, 0x85):
            (win,) = decode_wins(command, d)
            return {"group": win.group, "level": win.level, "amount": win.cents}
        if command == 0x87:
            wins = decode_wins(command, d)
            return {"group": d[1], "wins": [(w.level, w.cents) for w in wins]}
        if command == 0x7B:
            body = d[1:]
            return {"asset": int.from_bytes(body[0:4], "little"),
                    "status_bits": int.from_bytes(body[4:6], "little"),
                    "cashable_expiry": from_bcd(body[6:8]),
                    "restricted_expiry": from_bcd(body[8:10])}  # fmt: skip
    except (BcdError, UnicodeDecodeError, IndexError, ProgressiveMessageError) as exc:
        raise ValueError(f"answer to {command:02X} does not decode: {exc}") from None
    return {"data": d.hex()}


def _selected(command: int, body: bytes) -> dict[int, int]:
    """Meter code -> value of a 2F (code, 4 or 5 BCD by code) or 6F/AF (code, size, BCD)
    answer's meters."""
    out: dict[int, int] = {}
    i = 0
    while i < len(body):
        if command == 0x2F:
            code = body[i]
            size = 5 if code in _FIVE_BYTE_2F else 4
            out[code] = from_bcd(body[i + 1 : i + 1 + size])
            i += 1 + size
        else:
            code = int.from_bytes(body[i : i + 2], "little")
            size = body[i + 2]
            out[code] = from_bcd(body[i + 3 : i + 3 + size])
            i += 3 + size
    return out


#: 2F meter codes reported in 5 BCD bytes (amounts in cents); the others take 4.
_FIVE_BYTE_2F = frozenset((0x0D, 0x0E, 0x0F, 0x10, *range(0x80, 0x94)))


def describe_exception(code: int) -> str:
    """A general poll exception code in words (the ones this project raises or knows)."""
    return EXCEPTION_NAMES.get(code, f"exception {code:02X}")


EXCEPTION_NAMES: dict[int, str] = {
    0x00: "no activity", 0x11: "slot door opened", 0x12: "slot door closed",
    0x17: "AC power applied", 0x18: "AC power lost", 0x1B: "cashbox removed",
    0x1C: "cashbox installed", 0x20: "general tilt", 0x27: "cashbox full",
    0x28: "bill jam", 0x29: "bill acceptor hardware failure", 0x2B: "bill rejected",
    0x32: "memory error (no data recovered)", 0x34: "memory error (data error)",
    0x37: "program error (bad checksum compare)", 0x3C: "operator changed options",
    0x3D: "cash out ticket printed", 0x4F: "bill accepted", 0x51: "handpay pending",
    0x52: "handpay reset", 0x53: "no progressive information for 5 seconds",
    0x54: "progressive win", 0x56: "SAS progressive level hit", 0x57: "system validation request", 0x60: "printer communication error",
    0x61: "printer paper out", 0x67: "ticket inserted", 0x68: "ticket transfer complete",
    0x70: "exception buffer overflow", 0x7A: "soft meters reset (RAM clear)",
    0x7E: "game started", 0x7F: "game ended",
}  # fmt: skip

__all__ = [
    "EXCEPTION_NAMES", "Exchange", "GENERAL_POLL_BIT", "HostStats", "NACK_BIT", "SasHost",
    "decode", "describe_exception",
]  # fmt: skip
