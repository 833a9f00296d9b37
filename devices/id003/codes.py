"""ID-003 command, status, reject and failure codes (the subset this driver uses)."""

from __future__ import annotations

from enum import IntEnum


class Command(IntEnum):
    """Host -> validator command bytes."""

    STATUS_REQUEST = 0x11
    RESET = 0x40
    STACK_1 = 0x41
    STACK_2 = 0x42
    RETURN = 0x43
    HOLD = 0x44
    WAIT = 0x45
    ACK = 0x50
    # setting commands: the validator echoes command and data back
    SET_DENOMINATIONS = 0xC0  # 2 bytes: bit set = denomination inhibited
    SET_SECURITY = 0xC1  # 2 bytes: bit set = high security for that denomination
    SET_COMMUNICATION_MODE = 0xC2  # 1 byte
    SET_INHIBIT = 0xC3  # 1 byte: 0x00 accept, 0x01 inhibit
    SET_DIRECTION = 0xC4  # 1 byte
    SET_OPTIONAL_FUNCTION = 0xC5  # 2 bytes
    SET_BARCODE_FUNCTION = 0xC6  # 2 bytes: barcode type (0x01 = I2of5), character count
    SET_BAR_INHIBIT = 0xC7  # 1 byte: bit0 = bills inhibited, bit1 = tickets inhibited
    # setting status requests: answer with the same code and the current setting
    GET_DENOMINATIONS = 0x80
    GET_SECURITY = 0x81
    GET_COMMUNICATION_MODE = 0x82
    GET_INHIBIT = 0x83
    GET_DIRECTION = 0x84
    GET_OPTIONAL_FUNCTION = 0x85
    GET_BARCODE_FUNCTION = 0x86
    GET_BAR_INHIBIT = 0x87
    VERSION_REQUEST = 0x88
    BOOT_VERSION_REQUEST = 0x89


class Status(IntEnum):
    """Validator -> host status bytes (answers to STATUS_REQUEST, and ACK)."""

    IDLING = 0x11
    ACCEPTING = 0x12
    ESCROW = 0x13  # data: denomination code, or 0x6F + barcode digits
    STACKING = 0x14
    VEND_VALID = 0x15  # repeated until the host sends ACK
    STACKED = 0x16
    REJECTING = 0x17  # data: reject reason
    RETURNING = 0x18
    HOLDING = 0x19
    DISABLED = 0x1A  # inhibited
    INITIALIZE = 0x1B
    POWER_UP = 0x40
    POWER_UP_BILL_IN_ACCEPTOR = 0x41
    POWER_UP_BILL_IN_STACKER = 0x42
    STACKER_FULL = 0x43
    STACKER_OPEN = 0x44
    JAM_IN_ACCEPTOR = 0x45
    JAM_IN_STACKER = 0x46
    PAUSE = 0x47
    CHEATED = 0x48
    FAILURE = 0x49  # data: failure code
    COMMUNICATION_ERROR = 0x4A  # the validator received a frame it could not read
    INVALID_COMMAND = 0x4B
    ACK = 0x50


#: Escrow data byte announcing a barcode ticket; the barcode digits follow in ASCII.
TICKET_ESCROW_CODE = 0x6F

#: Bar inhibit (0xC7) bits.
BAR_INHIBIT_BILLS = 0x01
BAR_INHIBIT_TICKETS = 0x02
#: Barcode function (0xC6) type byte for interleaved 2 of 5.
BARCODE_TYPE_I2OF5 = 0x01

REJECT_REASONS: dict[int, str] = {
    0x71: "insertion error",
    0x72: "magnetic pattern error",
    0x73: "bill remaining in the head",
    0x74: "calibration / magnification error",
    0x75: "conveying error",
    0x76: "denomination discrimination error",
    0x77: "photo pattern error",
    0x78: "photo level error",
    0x79: "returned by inhibit (denomination or direction inhibited, or no answer to escrow)",
    0x7A: "reserved",
    0x7B: "operation error",
    0x7C: "bill remaining at the stacker",
    0x7D: "length error",
    0x7E: "photo pattern error (2)",
    0x7F: "true bill feature error",
}

FAILURE_CODES: dict[int, str] = {
    0xA2: "stack motor failure",
    0xA5: "transport motor speed failure",
    0xA6: "transport motor failure",
    0xA8: "solenoid failure",
    0xA9: "PB unit failure",
    0xAB: "cash box not ready",
    0xAF: "validator head removed",
    0xB0: "boot ROM failure",
    0xB1: "external ROM failure",
    0xB2: "RAM failure",
    0xB3: "external ROM writing failure",
}


def reject_reason(code: int) -> str:
    """Human text for a REJECTING reason code."""
    return REJECT_REASONS.get(code, f"unknown reject reason 0x{code:02X}")


def failure_text(code: int) -> str:
    """Human text for a FAILURE code."""
    return FAILURE_CODES.get(code, f"unknown failure 0x{code:02X}")


def status_name(code: int) -> str:
    """``IDLING`` for 0x11, ``0x99`` for an unknown code."""
    try:
        return Status(code).name
    except ValueError:
        return f"0x{code:02X}"
