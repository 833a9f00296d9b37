"""The :class:`~kiosk.sas.port.GamePort` carried between two processes: the link's
process asks, the game service's process answers (:mod:`kiosk.sas.process`,
:mod:`kiosk.sas.remote`).

A message is a 4-byte big-endian length and that many bytes of UTF-8 JSON, on a
stream socket.  The link sends calls ``{"id": n, "call": name, "args": [...]}``; the
game side answers each ``{"id": n, "ok": value}``, ``{"id": n, "refused": reason}``
(:class:`~kiosk.sas.port.PortRefused`) or ``{"id": n, "error": text}``, and pushes
``{"changed": true}`` after a change of the game (the port's subscription).

The game side trusts nothing it reads: :func:`check_call` accepts only the port's own
methods (:data:`CALLS`), each argument of its exact JSON type and range (a station of
the port's, an 18-digit validation number, cents from 0), and raises
:class:`BadCall` otherwise; the game service's own checks then apply as for a link in
its own process.  Text becomes a value here, once: :func:`decode_result` turns an
answer into the port's typed records on the link's side.
"""

from __future__ import annotations

import dataclasses
import json
import socket
import struct
from collections.abc import Callable, Mapping
from typing import Any

from kiosk.sas.port import (
    Capabilities,
    GameEvent,
    LinkedProgressive,
    LinkedWin,
    MachineInfo,
    PendingCashout,
    Redemption,
    RedemptionState,
    RoundRow,
    TicketInEscrow,
    ValidationRecord,
)

#: A call's message is small; a result may carry a thousand ledger events.
MAX_CALL_BYTES = 64 * 1024
MAX_RESULT_BYTES = 64 * 1024 * 1024
#: The largest cents a host may name (a ticket): 10 digits of SAS BCD amounts.
MAX_CENTS = 9_999_999_999
#: The most rows one call may ask for.
MAX_LIMIT = 10_000
_HEADER = struct.Struct(">I")


class BadCall(ValueError):
    """A call the game side refuses to run: ``reason`` says what was wrong with it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class WireClosed(ConnectionError):
    """The other process closed its end (or died)."""


# -- framing ----------------------------------------------------------------------------
def send_message(sock: socket.socket, message: Mapping[str, Any]) -> None:
    """Write ``message`` as one frame (whole)."""
    body = json.dumps(message, separators=(",", ":")).encode()
    try:
        sock.sendall(_HEADER.pack(len(body)) + body)
    except OSError as exc:
        raise WireClosed(str(exc)) from None


def _read_exact(sock: socket.socket, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        try:
            chunk = sock.recv(n - len(out))
        except OSError as exc:
            raise WireClosed(str(exc)) from None
        if not chunk:
            raise WireClosed("end of file")
        out += chunk
    return bytes(out)


def read_message(sock: socket.socket, limit: int) -> dict[str, Any]:
    """The next frame as a JSON object; :class:`BadCall` when it is longer than ``limit``
    bytes or not a JSON object, :class:`WireClosed` at the end of the stream."""
    (length,) = _HEADER.unpack(_read_exact(sock, _HEADER.size))
    if length > limit:
        raise BadCall(f"a message of {length} bytes (at most {limit})")
    try:
        message = json.loads(_read_exact(sock, length))
    except ValueError as exc:
        raise BadCall(f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise BadCall("a message is a JSON object")
    return message


# -- the calls the game side accepts ------------------------------------------------------
Check = Callable[[object, tuple[int, ...]], object]


def _int(lo: int, hi: int) -> Check:
    def check(v: object, _stations: tuple[int, ...]) -> object:
        if type(v) is not int or not lo <= v <= hi:
            raise BadCall(f"{v!r} is not a whole number in {lo}..{hi}")
        return v

    return check


def _station(v: object, stations: tuple[int, ...]) -> object:
    if type(v) is not int or v not in stations:
        raise BadCall(f"{v!r} is not a station of this port {stations}")
    return v


def _bool(v: object, _stations: tuple[int, ...]) -> object:
    if type(v) is not bool:
        raise BadCall(f"{v!r} is not true or false")
    return v


def _text(most: int) -> Check:
    def check(v: object, _stations: tuple[int, ...]) -> object:
        if type(v) is not str or not 0 < len(v) <= most or not v.isprintable():
            raise BadCall(f"{v!r} is not printable text of 1..{most} characters")
        return v

    return check


def _validation(v: object, _stations: tuple[int, ...]) -> object:
    if v is None:
        return None
    if type(v) is not str or len(v) != 18 or not v.isascii() or not v.isdigit():
        raise BadCall(f"{v!r} is not an 18-digit validation number")
    return v


def _levels(v: object, _stations: tuple[int, ...]) -> object:
    """A broadcast's levels: 1..32 pairs [level 1..32, cents 0..9,999,999,999], each
    level once."""
    if type(v) is not list or not 1 <= len(v) <= 32:
        raise BadCall(f"{v!r} is not a list of 1..32 levels")
    out: list[tuple[int, int]] = []
    for pair in v:
        if type(pair) is not list or len(pair) != 2:
            raise BadCall(f"{pair!r} is not a pair [level, cents]")
        level, cents = pair
        _int(1, 32)(level, _stations)
        _int(0, 9_999_999_999)(cents, _stations)
        out.append((level, cents))
    if len({level for level, _ in out}) != len(out):
        raise BadCall(f"a level given twice in {v!r}")
    return out


_LIMIT = _int(1, MAX_LIMIT)
_ID = _int(0, 2**63 - 1)
_REF = _text(64)

#: Each method of the port and the checks of its arguments, in order.
CALLS: dict[str, tuple[Check, ...]] = {
    "stations": (),
    "machine_info": (),
    "capabilities": (),
    "meters": (_station,),
    "events_after": (_ID, _LIMIT),
    "rounds_after": (_ID, _LIMIT),
    "set_enabled": (_station, _bool, _text(32)),
    "set_note_acceptance": (_station, _bool, _text(32)),
    "pending_cashout": (_station,),
    "deliver_validation": (_station, _REF, _validation),
    "validation_records": (_station, _LIMIT),
    "ticket_in_escrow": (_station,),
    "redeem_ticket": (_station, _REF, _int(0, MAX_CENTS), _bool),
    "refuse_ticket": (_station, _REF, _int(0, 0xFF)),
    "redemption": (_station, _REF),
    "progressive_link": (),
    "progressive_levels": (_int(1, 0xFF), _levels, _text(32)),
    "progressive_lost": (_int(1, 0xFF), _text(32)),
    "progressive_win": (_station,),
}


def check_call(
    message: Mapping[str, Any], stations: tuple[int, ...]
) -> tuple[int, str, list[object]]:
    """``(id, method, arguments)`` of a call message, every argument checked; raises
    :class:`BadCall` for anything else."""
    call_id, name, args = message.get("id"), message.get("call"), message.get("args")
    if type(call_id) is not int or call_id < 0:
        raise BadCall(f"call id {call_id!r}")
    if not isinstance(name, str) or name not in CALLS:
        raise BadCall(f"{name!r} is not a method of the port")
    checks = CALLS[name]
    if not isinstance(args, list) or len(args) != len(checks):
        raise BadCall(f"{name} takes {len(checks)} argument(s), not {args!r}")
    return call_id, name, [check(a, stations) for check, a in zip(checks, args, strict=True)]


# -- results ----------------------------------------------------------------------------
def encode_result(value: object) -> object:
    """A port method's result as JSON values (records as objects, enums as values)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode_result(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, RedemptionState):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): encode_result(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode_result(v) for v in value]
    return value


def _optional(build: Callable[[dict[str, Any]], object]) -> Callable[[Any], object]:
    return lambda v: None if v is None else build(v)


def _many(build: Callable[[dict[str, Any]], object]) -> Callable[[Any], object]:
    return lambda v: [build(d) for d in v]


def _redemption(d: dict[str, Any]) -> Redemption:
    return Redemption(**{**d, "state": RedemptionState(d["state"])})


_DECODE: dict[str, Callable[[Any], object]] = {
    "stations": lambda v: tuple(int(s) for s in v),
    "machine_info": lambda v: MachineInfo(**v),
    "capabilities": lambda v: Capabilities(**v),
    "meters": lambda v: {str(k): int(n) for k, n in v.items()},
    "events_after": _many(lambda d: GameEvent(**d)),
    "rounds_after": _many(lambda d: RoundRow(**d)),
    "pending_cashout": _optional(lambda d: PendingCashout(**d)),
    "validation_records": _many(lambda d: ValidationRecord(**d)),
    "ticket_in_escrow": _optional(lambda d: TicketInEscrow(**d)),
    "redemption": _optional(_redemption),
    "progressive_link": _optional(lambda d: LinkedProgressive(**d)),
    "progressive_win": _optional(lambda d: LinkedWin(**d)),
}


def decode_result(name: str, value: object) -> object:
    """The typed result of method ``name`` from its JSON ``value``."""
    decode = _DECODE.get(name)
    return None if decode is None else decode(value)
