"""The long-poll codec: a host message in, the machine's answer out.  Pure functions
(no state, no I/O); amounts in cents, meters in credits of one cent.

:func:`parse` checks a whole message (its length by command, its CRC) and returns a
:class:`Request`; a bad CRC is :class:`BadRequest` with ``answer`` None (SAS: say nothing,
the host sends it again), bad data inside a good CRC is :class:`BadRequest` with a NACK.
The ``build_*`` functions make the answers (``addr cmd data CRC``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from devices.sas.bcd import BcdError, from_bcd, to_bcd
from devices.sas.crc import crc_ok
from devices.sas.frames import (
    GENERAL_POLL_BIT,
    NACK_BIT,
    REQUEST_LENGTHS,
    VARIABLE,
    expected_length,
    with_crc,
    with_length,
)
from kiosk.sas.codes import (
    EXTENDED_METER_BYTES,
    FIVE_BYTE_METERS,
    LP,
    cancelled_credits,
    drop,
    meter_value,
)
from kiosk.sas.port import MachineInfo, ValidationRecord

#: ``Request.command`` of a general poll.
GENERAL = -1
#: The SAS version this machine speaks (long poll 54).
SAS_VERSION = b"602"


@dataclass(frozen=True)
class Request:
    """A host message: ``command`` (:data:`GENERAL` for a general poll), ``data`` the
    bytes between the command (or its length byte) and the CRC, ``raw`` the message."""

    address: int
    command: int
    data: bytes
    raw: bytes

    @property
    def broadcast(self) -> bool:
        return self.address == 0


class BadRequest(ValueError):
    """A message that is not answered with data: ``answer`` is what to send (a NACK), or
    None to stay silent."""

    def __init__(self, reason: str, answer: bytes | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.answer = answer


def nack(address: int) -> bytes:
    return bytes((address | NACK_BIT,))


def ack(address: int) -> bytes:
    return bytes((address,))


def busy(address: int) -> bytes:
    return bytes((address, 0x00))


def parse(raw: bytes) -> Request:
    """The request in the whole message ``raw`` (its first byte came with the wakeup bit).
    Raises :class:`BadRequest`."""
    if not raw:
        raise BadRequest("empty message")
    if len(raw) == 1:
        if not raw[0] & GENERAL_POLL_BIT:
            raise BadRequest(f"a lone address byte {raw[0]:02X}")
        return Request(raw[0] & 0x7F, GENERAL, b"", raw)
    address, command = raw[0], raw[1]
    if address & GENERAL_POLL_BIT:
        raise BadRequest(f"a general poll byte {address:02X} followed by more")
    need = expected_length(raw, REQUEST_LENGTHS)
    if need is None:
        raise BadRequest(f"long poll {command:02X} is not one this machine knows")
    if len(raw) != need:
        raise BadRequest(f"long poll {command:02X}: {len(raw)} bytes, {need} expected")
    if need == 2:
        return Request(address, command, b"", raw)
    if not crc_ok(raw):
        raise BadRequest(f"long poll {command:02X}: bad CRC")
    start = 3 if REQUEST_LENGTHS[command] == VARIABLE else 2
    return Request(address, command, raw[start:-2], raw)


def bcd_field(request: Request, start: int, size: int) -> int:
    """A BCD number of the request's data; a NACK when it is not BCD or too short."""
    chunk = request.data[start : start + size]
    if len(chunk) != size:
        raise BadRequest("data too short", nack(request.address))
    try:
        return from_bcd(chunk)
    except BcdError:
        raise BadRequest("data is not BCD", nack(request.address)) from None


# -- meters --------------------------------------------------------------------------------
def _meters4(values: Sequence[int]) -> bytes:
    return b"".join(to_bcd(v, 4) for v in values)


def build_meter_set(
    address: int, command: int, meters: Mapping[str, int], extra: Sequence[int] = ()
) -> bytes:
    """Long polls 0F, 19 and 1C: their fixed lists of 4-byte BCD meters (``extra``: 1C's
    slot door openings and power resets)."""
    m = meters
    base = [m.get("coin_in", 0), m.get("coin_out", 0), drop(m), m.get("jackpot", 0),
            m.get("games_played", 0)]  # fmt: skip
    if command == LP.METERS_10_15:
        values = [cancelled_credits(m), *base]
    elif command == LP.METERS_11_15:
        values = base
    else:
        values = [*base, m.get("games_won", 0), *extra]
    return with_crc(bytes((address, command)) + _meters4(values))


def build_credits(address: int, meters: Mapping[str, int]) -> bytes:
    return with_crc(bytes((address, LP.CREDITS)) + to_bcd(meters.get("credits", 0), 4))


def build_selected_meters(
    address: int, game: int, codes: bytes, meters: Mapping[str, int]
) -> bytes:
    """Long poll 2F: each known meter code with its value (4 BCD, 5 for cents meters);
    codes not kept here are left out."""
    body = bytearray(to_bcd(game, 2))
    for code in codes[:10]:
        value = meter_value(code, meters)
        if value is None:
            continue
        body.append(code)
        body += to_bcd(value, 5 if code in FIVE_BYTE_METERS else 4)
    return with_length(address, LP.SELECTED_METERS, bytes(body))


def build_extended_meters(
    address: int, command: int, game: int, codes: Sequence[int], meters: Mapping[str, int]
) -> bytes:
    """Long polls 6F / AF: each meter code (2 bytes binary) with its size and value
    (:data:`EXTENDED_METER_BYTES` BCD bytes); a code not kept here is sent with size 0."""
    body = bytearray(to_bcd(game, 2))
    for code in codes[:12]:
        value = meter_value(code, meters)
        body += code.to_bytes(2, "little")
        if value is None:
            body.append(0)
        else:
            body.append(EXTENDED_METER_BYTES)
            body += to_bcd(value, EXTENDED_METER_BYTES)
    return with_length(address, command, bytes(body))


# -- identity -------------------------------------------------------------------------------
def _ascii(text: str, size: int, fill: str = " ") -> bytes:
    clean = "".join(c if 32 <= ord(c) < 127 else "?" for c in text)[:size]
    return clean.ljust(size, fill).encode("ascii")


def build_machine_info(address: int, info: MachineInfo) -> bytes:
    """Long poll 1F: game ID, additional ID, denomination (01: one cent), max bet
    (credits, FF above 255), progressive group 0, game options 0, paytable ID, base %."""
    max_bet = min(info.max_bet, 0xFF)
    body = (
        _ascii(info.game_id, 2) + _ascii(info.additional_id, 3, "0") + bytes((0x01, max_bet, 0))
        + b"\x00\x00" + _ascii(info.paytable_id, 6) + to_bcd(info.base_pct, 2).hex().encode()
    )  # fmt: skip
    return with_crc(bytes((address, LP.MACHINE_INFO)) + body)


def build_version(address: int, info: MachineInfo) -> bytes:
    """Long poll 54: SAS version and serial number (ASCII, at most 40)."""
    return with_length(address, LP.SAS_VERSION, SAS_VERSION + _ascii(info.serial, 40).rstrip())


def build_features(address: int, game: int, *, validation: bool, redemption: bool) -> bytes:
    """Long poll A0: features 1 (validation extensions and style: system; ticket
    redemption), 2 (meter model: metered when played), 3 and 4 clear, reserved 0000.
    Legacy bonus and AFT bits are clear: those polls are refused."""
    f1 = (0x10 | 0x20) if validation else 0x00
    if redemption:
        f1 |= 0x80
    return with_crc(
        bytes((address, LP.ENABLED_FEATURES)) + to_bcd(game, 2) + bytes((f1, 0x02, 0, 0, 0, 0))
    )


def build_date_time(address: int, now: datetime) -> bytes:
    """Long poll 7E: MMDDYYYY and HHMMSS in BCD."""
    digits = now.strftime("%m%d%Y%H%M%S")
    return with_crc(bytes((address, LP.DATE_TIME)) + bytes.fromhex(digits))


def parse_date_time(request: Request) -> datetime:
    """The date and time of a 7F poll; a NACK when they are not a real date."""
    try:
        text = request.data[:7].hex()
        return datetime.strptime(text, "%m%d%Y%H%M%S")
    except ValueError:
        raise BadRequest("7F: not a date and time", nack(request.address)) from None


def build_rom_signature(address: int, signature: int) -> bytes:
    return with_crc(bytes((address, LP.ROM_SIGNATURE)) + signature.to_bytes(2, "little"))


def build_event(address: int, code: int, data: bytes) -> bytes:
    """A real-time event message: ``addr FF code data CRC``."""
    return with_crc(bytes((address, 0xFF, code)) + data)


# -- TITO ---------------------------------------------------------------------------------
def build_pending_cashout(address: int, amount: int | None, restricted: bool = False) -> bytes:
    """Long poll 57: cashout type (00 cashable, 01 restricted, 80 not waiting) and amount."""
    kind = 0x80 if amount is None else (0x01 if restricted else 0x00)
    return with_crc(bytes((address, LP.PENDING_CASHOUT, kind)) + to_bcd(amount or 0, 5))


def build_validation_status(address: int, status: int) -> bytes:
    """Long poll 58's answer: 00 acknowledged, 80 not in cashout, 81 number rejected."""
    return with_crc(bytes((address, LP.RECEIVE_VALIDATION, status)))


def build_validation_record(address: int, record: ValidationRecord | None, index: int) -> bytes:
    """Long poll 4D: a printed ticket (type 00 cashable ticket) or a ticket's number paid
    by hand (type 40), or all zeros."""
    if record is None:
        body = bytes(31)
    else:
        at = datetime.strptime(record.at[:19], "%Y-%m-%dT%H:%M:%S")
        expires = (
            bytes(4)
            if not record.expires_on
            else bytes.fromhex(datetime.strptime(record.expires_on, "%Y-%m-%d").strftime("%m%d%Y"))
        )
        body = (
            bytes((record.validation_type, index)) + bytes.fromhex(at.strftime("%m%d%Y%H%M%S"))
            + bytes.fromhex(record.validation[2:]) + to_bcd(record.amount, 5)
            + (record.sequence % 0x10000).to_bytes(2, "little")
            + bytes.fromhex(record.validation[:2]) + expires + b"\x00\x00"
        )  # fmt: skip
    return with_crc(bytes((address, LP.ENHANCED_VALIDATION)) + body)


def build_ticket_data(address: int, validation: str | None) -> bytes:
    """Long poll 70: ticket status 00 with amount 0, parsing code 00 and the 18 digits, or
    FF (no ticket in escrow)."""
    if validation is None:
        return with_length(address, LP.TICKET_VALIDATION_DATA, b"\xff")
    body = b"\x00" + bytes(5) + b"\x00" + bytes.fromhex(validation)
    return with_length(address, LP.TICKET_VALIDATION_DATA, body)


def build_redeem_status(
    address: int, status: int, amount: int = 0, validation: str | None = None
) -> bytes:
    """Long poll 71's answer: machine status, and (except for C0 and FF) the amount,
    parsing code 00 and the validation number."""
    body = bytes((status,))
    if status not in (0xC0, 0xFF):
        body += to_bcd(amount, 5) + b"\x00" + bytes.fromhex(validation or "0" * 18)
    return with_length(address, LP.REDEEM_TICKET, body)


@dataclass(frozen=True)
class RedeemRequest:
    """A 71 poll: ``code`` the transfer code (00/01/02 valid, 80.. refused, FF status),
    ``amount`` cents, ``validation`` 18 digits (empty for a status request)."""

    code: int
    amount: int
    validation: str


def parse_redeem(request: Request) -> RedeemRequest:
    d = request.data
    if not d:
        raise BadRequest("71: no transfer code", nack(request.address))
    if d[0] == 0xFF and len(d) < 16:
        return RedeemRequest(0xFF, 0, "")
    if len(d) < 16 or d[6] != 0x00:
        raise BadRequest("71: too short or not BCD validation data", nack(request.address))
    amount = bcd_field(request, 1, 5)
    try:
        validation = d[7:16].hex()
        from_bcd(d[7:16])
    except BcdError:
        raise BadRequest("71: validation data not BCD", nack(request.address)) from None
    return RedeemRequest(d[0], amount, validation)


def build_extended_validation_status(
    address: int, asset: int, status_bits: int, cashable_days: int, restricted_days: int
) -> bytes:
    """Long poll 7B's answer: asset number, status bits, expirations (days, 2 BCD)."""
    body = (
        asset.to_bytes(4, "little") + status_bits.to_bytes(2, "little")
        + to_bcd(cashable_days, 2) + to_bcd(restricted_days, 2)
    )  # fmt: skip
    return with_length(address, LP.EXTENDED_VALIDATION_STATUS, body)


def build_ticket_data_ack(address: int) -> bytes:
    """Long poll 7C's answer: flag 00 (ticket data as configured on the machine: the
    casino's name and address are printed from its configuration)."""
    return with_crc(bytes((address, LP.EXTENDED_TICKET_DATA, 0x00)))
