"""SAS 6.02's progressive messages, both ends: the controller's level broadcasts, the
machine's win amounts, and the machine's watch on the broadcasts.

The messages (every amount is 5 BCD bytes, in cents, up to 9,999,999,999):

* **80**, single-level progressive broadcast, from the progressive controller:
  ``addr 80 group level amount CRC`` (``addr`` 00: every machine on the line, no answer;
  a machine's own address: ACK or NACK);
* **86**, multiple-level progressive broadcast: ``addr 86 length group (level amount)...
  CRC``, ``length`` 07..C1 (one to 32 levels);
* **84**, send progressive win amount (type R): the answer ``addr 84 group level amount
  CRC``, the last progressive win of this machine;
* **85**, send SAS progressive win amount (type R): the same answer for the oldest SAS
  progressive hit not yet read (its exception 56, "SAS progressive level hit");
* **87**, send multiple SAS progressive win amounts (type R): ``addr 87 length group
  count (level amount)... CRC``, count 00 when no hit is waiting.

A group is 01..FF, a level 01..20 (1-32).  A machine that hears no broadcast of its
group for 5 seconds raises exception 53 ("no progressive information has been received
for 5 seconds") and stops offering the progressive wager until broadcasts come back
(:class:`BroadcastWatch`; the machine's play rule is the game service's).  A malformed
message (bad CRC, length, BCD, group 00, a level outside 01..20 or given twice) is
refused with the reason, never half applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from devices.sas.bcd import BcdError, from_bcd, to_bcd
from devices.sas.crc import crc_ok
from devices.sas.frames import check_address, with_crc, with_length

SINGLE_LEVEL_BROADCAST = 0x80
MULTIPLE_LEVEL_BROADCAST = 0x86
SEND_WIN_AMOUNT = 0x84
SEND_SAS_WIN_AMOUNT = 0x85
SEND_MULTIPLE_SAS_WIN_AMOUNTS = 0x87
#: General poll exceptions of the progressive messages.
NO_BROADCAST_5S, PROGRESSIVE_WIN, SAS_LEVEL_HIT = 0x53, 0x54, 0x56
#: Seconds without a broadcast of the machine's group before exception 53.
BROADCAST_TIMEOUT_S = 5.0
MAX_LEVELS = 32
#: The largest amount 5 BCD bytes carry, cents.
MAX_AMOUNT_CENTS = 9_999_999_999
_LEVEL_BYTES = 1 + 5


class ProgressiveMessageError(ValueError):
    """A progressive message that does not decode: the reason in words."""


@dataclass(frozen=True)
class Broadcast:
    """The amount of each level of progressive ``group`` (cents), as broadcast."""

    group: int
    levels: Mapping[int, int]


@dataclass(frozen=True)
class Win:
    """A progressive win of ``cents`` at ``level`` of ``group``."""

    group: int
    level: int
    cents: int

    def __post_init__(self) -> None:
        check_group(self.group, allow_zero=True)
        check_level(self.level)
        check_amount(self.cents)


def check_group(group: int, *, allow_zero: bool = False) -> int:
    """``group`` if it is a progressive group, 01..FF (00 only in a machine's answer with
    no progressive configured, when ``allow_zero``)."""
    low = 0 if allow_zero else 1
    if isinstance(group, bool) or not isinstance(group, int) or not low <= group <= 0xFF:
        raise ProgressiveMessageError(f"a progressive group is {low}..255, not {group!r}")
    return group


def check_level(level: int) -> int:
    """``level`` if it is a progressive level, 1..32."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= MAX_LEVELS:
        raise ProgressiveMessageError(f"a progressive level is 1..{MAX_LEVELS}, not {level!r}")
    return level


def check_amount(cents: int) -> int:
    """``cents`` if 5 BCD bytes carry it (0..9,999,999,999)."""
    if isinstance(cents, bool) or not isinstance(cents, int) or not 0 <= cents <= MAX_AMOUNT_CENTS:
        raise ProgressiveMessageError(
            f"a progressive amount is 0..{MAX_AMOUNT_CENTS} cents, not {cents!r}"
        )
    return cents


# -- the controller's broadcasts ----------------------------------------------------------
def single_level_broadcast(address: int, group: int, level: int, cents: int) -> bytes:
    """Long poll 80 to ``address`` (0: every machine on the line)."""
    check_address(address, allow_zero=True)
    body = bytes((address, SINGLE_LEVEL_BROADCAST, check_group(group), check_level(level)))
    return with_crc(body + to_bcd(check_amount(cents), 5))


def multiple_level_broadcast(address: int, group: int, levels: Mapping[int, int]) -> bytes:
    """Long poll 86 to ``address`` (0: every machine on the line) with each of
    ``levels`` (level -> cents), in level order."""
    check_address(address, allow_zero=True)
    if not 1 <= len(levels) <= MAX_LEVELS:
        raise ProgressiveMessageError(f"86 carries 1..{MAX_LEVELS} levels, not {len(levels)}")
    data = bytes((check_group(group),))
    for level in sorted(levels):
        data += bytes((check_level(level),)) + to_bcd(check_amount(levels[level]), 5)
    return with_length(address, MULTIPLE_LEVEL_BROADCAST, data)


def parse_broadcast(message: bytes) -> tuple[int, Broadcast]:
    """The address and the levels of an 80 or 86 long poll (``message``: address to
    CRC).  Raises :class:`ProgressiveMessageError` with the reason."""
    if len(message) < 4 or not crc_ok(message):
        raise ProgressiveMessageError(f"a broadcast with a bad CRC or too short: {message.hex()}")
    address, command = message[0], message[1]
    if command == SINGLE_LEVEL_BROADCAST:
        if len(message) != 2 + _LEVEL_BYTES + 1 + 2:
            raise ProgressiveMessageError(f"80 is 11 bytes, not {len(message)}")
        group, body = message[2], bytes(message[3:-2])
    elif command == MULTIPLE_LEVEL_BROADCAST:
        length = message[2]
        if len(message) != 3 + length + 2:
            raise ProgressiveMessageError(
                f"86's length byte says {length}, the message carries {len(message) - 5}"
            )
        if not 1 + _LEVEL_BYTES <= length <= 1 + MAX_LEVELS * _LEVEL_BYTES:
            raise ProgressiveMessageError(f"86's length is 07..C1, not {length:02X}")
        if (length - 1) % _LEVEL_BYTES:
            raise ProgressiveMessageError(f"86's length {length} is not a whole number of levels")
        group, body = message[3], bytes(message[4:-2])
    else:
        raise ProgressiveMessageError(f"not a progressive broadcast: command {command:02X}")
    check_group(group)
    levels: dict[int, int] = {}
    for at in range(0, len(body), _LEVEL_BYTES):
        level = check_level(body[at])
        if level in levels:
            raise ProgressiveMessageError(f"level {level} given twice")
        try:
            levels[level] = from_bcd(body[at + 1 : at + _LEVEL_BYTES])
        except BcdError as exc:
            raise ProgressiveMessageError(f"level {level}'s amount is not BCD: {exc}") from None
    return address, Broadcast(group, levels)


# -- the machine's answers -------------------------------------------------------------------
def win_amount_answer(address: int, command: int, win: Win) -> bytes:
    """The answer to 84 or 85: ``addr cmd group level amount CRC``."""
    if command not in (SEND_WIN_AMOUNT, SEND_SAS_WIN_AMOUNT):
        raise ProgressiveMessageError(f"84 or 85 answer with one win, not {command:02X}")
    check_address(address)
    return with_crc(bytes((address, command, win.group, win.level)) + to_bcd(win.cents, 5))


def no_win_answer(address: int) -> bytes:
    """The answer to 84 of a machine with no progressive win: group, level and amount 0."""
    check_address(address)
    return with_crc(bytes((address, SEND_WIN_AMOUNT, 0, 0)) + to_bcd(0, 5))


HANDPAY_INFO = 0x1B
#: 1B's level byte of a handpay that is no progressive win, and of no handpay at all.
NOT_PROGRESSIVE_LEVEL = 0x40


def handpay_info_answer(address: int, win: Win | None) -> bytes:
    """The answer to 1B (send handpay information, SAS 6.02): ``win``'s group, level
    and amount (no partial pay, reset by the attendant's key only, 10 unused bytes);
    ``None``: no progressive handpay pending, every field 0."""
    check_address(address)
    group, level, cents = (0, 0, 0) if win is None else (win.group, win.level, win.cents)
    data = bytes((group, level)) + to_bcd(cents, 5) + to_bcd(0, 2) + bytes(1 + 10)
    return with_crc(bytes((address, HANDPAY_INFO)) + data)


def decode_handpay_info(data: bytes) -> Win | None:
    """The progressive win of a 1B answer's data (between the command and the CRC): None
    when it is no progressive handpay (group 0, or a level outside 1..32)."""
    if len(data) != 20:
        raise ProgressiveMessageError(f"1B's data is 20 bytes, not {len(data)}")
    group, level = data[0], data[1]
    if group == 0 or not 1 <= level <= MAX_LEVELS:
        return None
    try:
        return Win(group, level, from_bcd(data[2:7]))
    except BcdError as exc:
        raise ProgressiveMessageError(f"1B's amount is not BCD: {exc}") from None


def multiple_wins_answer(address: int, group: int, wins: Iterable[Win]) -> bytes:
    """The answer to 87: the SAS progressive hits of ``group`` not yet read, oldest
    first (none: a count of 0)."""
    check_address(address)
    wins = list(wins)
    if len(wins) > MAX_LEVELS:
        raise ProgressiveMessageError(f"87 carries at most {MAX_LEVELS} wins, not {len(wins)}")
    data = bytes((check_group(group, allow_zero=True), len(wins)))
    for win in wins:
        if win.group != group:
            raise ProgressiveMessageError(f"a win of group {win.group} in 87 of group {group}")
        data += bytes((win.level,)) + to_bcd(win.cents, 5)
    return with_length(address, SEND_MULTIPLE_SAS_WIN_AMOUNTS, data)


def decode_wins(command: int, data: bytes) -> list[Win]:
    """The wins of an 84, 85 or 87 answer's data (between the command byte and the CRC;
    for 87 the length byte included)."""
    try:
        if command in (SEND_WIN_AMOUNT, SEND_SAS_WIN_AMOUNT):
            if len(data) != 2 + 5:
                raise ProgressiveMessageError(f"{command:02X}'s data is 7 bytes, not {len(data)}")
            return [Win(data[0], data[1], from_bcd(data[2:7]))]
        if command == SEND_MULTIPLE_SAS_WIN_AMOUNTS:
            length, group, count = data[0], data[1], data[2]
            if length != len(data) - 1 or length != 2 + count * _LEVEL_BYTES:
                raise ProgressiveMessageError(f"87's length {length} does not fit {count} wins")
            body = data[3:]
            return [
                Win(group, body[at], from_bcd(body[at + 1 : at + _LEVEL_BYTES]))
                for at in range(0, len(body), _LEVEL_BYTES)
            ]
    except (BcdError, IndexError) as exc:
        raise ProgressiveMessageError(f"{command:02X}'s answer does not decode: {exc}") from None
    raise ProgressiveMessageError(f"not a progressive win answer: {command:02X}")


# -- the machine's watch on the broadcasts -----------------------------------------------
class BroadcastWatch:
    """What a machine of progressive ``group`` last heard from its controller.

    :meth:`heard` takes each broadcast (another group's is ignored: a machine keeps only
    its own group's levels); :meth:`lost` says whether the progressive may be offered
    (not before the first broadcast, nor :data:`BROADCAST_TIMEOUT_S` after the last);
    :meth:`check` returns True exactly once at each loss, counted from the last broadcast
    or, before any, from ``started`` (a power-up): the moment to raise exception 53.
    Times are the caller's monotonic seconds (a clock passed in, so tests and a restarted
    process decide alike)."""

    def __init__(self, group: int, started: float, timeout_s: float = BROADCAST_TIMEOUT_S) -> None:
        self.group = check_group(group)
        self.timeout_s = timeout_s
        self.levels: dict[int, int] = {}
        self._started = started
        self._last: float | None = None
        self._lost_reported = False

    def heard(self, broadcast: Broadcast, now: float) -> bool:
        """Take ``broadcast`` heard at ``now``; whether it was this machine's group."""
        if broadcast.group != self.group:
            return False
        self.levels.update(broadcast.levels)
        self._last = now
        self._lost_reported = False
        return True

    def lost(self, now: float) -> bool:
        """Whether the progressive is off: no broadcast of the group yet, or none in the
        last ``timeout_s``."""
        return self._last is None or now - self._last >= self.timeout_s

    def check(self, now: float) -> bool:
        """True once per loss of the broadcasts (raise 53 then); False otherwise."""
        since = self._started if self._last is None else self._last
        if now - since < self.timeout_s or self._lost_reported:
            return False
        self._lost_reported = True
        return True


__all__ = [
    "BROADCAST_TIMEOUT_S", "Broadcast", "BroadcastWatch", "MAX_AMOUNT_CENTS", "MAX_LEVELS",
    "MULTIPLE_LEVEL_BROADCAST", "NO_BROADCAST_5S", "PROGRESSIVE_WIN", "ProgressiveMessageError",
    "SAS_LEVEL_HIT", "SEND_MULTIPLE_SAS_WIN_AMOUNTS", "SEND_SAS_WIN_AMOUNT", "SEND_WIN_AMOUNT",
    "SINGLE_LEVEL_BROADCAST", "Win", "check_amount", "check_group", "check_level",
    "HANDPAY_INFO", "NOT_PROGRESSIVE_LEVEL", "decode_handpay_info", "decode_wins",
    "handpay_info_answer", "multiple_level_broadcast", "no_win_answer", "multiple_wins_answer", "parse_broadcast",
    "single_level_broadcast", "win_amount_answer",
]  # fmt: skip
