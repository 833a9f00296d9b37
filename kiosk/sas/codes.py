"""SAS 6.02's closed vocabulary as this machine uses it: general poll exception codes,
the long polls it answers (and those it refuses), meter codes and how each is made of
the ledger's meters, bill denomination codes.  Money meters are cents (the accounting
denomination is one cent, so a credit is a cent)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import IntEnum


class Exc(IntEnum):
    """General poll exception codes raised here (SAS Appendix A)."""

    NO_ACTIVITY = 0x00
    SLOT_DOOR_OPENED = 0x11
    SLOT_DOOR_CLOSED = 0x12
    AC_POWER_APPLIED = 0x17
    AC_POWER_LOST = 0x18
    CASHBOX_REMOVED = 0x1B
    CASHBOX_INSTALLED = 0x1C
    GENERAL_TILT = 0x20
    CASHBOX_FULL = 0x27
    BILL_JAM = 0x28
    BILL_ACCEPTOR_FAILURE = 0x29
    MEMORY_NO_DATA = 0x32  # the ledger cannot be read: nothing recovered
    MEMORY_DATA_ERROR = 0x34  # the ledger cannot record
    PROGRAM_BAD_CHECKSUM = 0x37  # the program does not match its manifest
    OPTIONS_CHANGED = 0x3C
    TICKET_PRINTED = 0x3D
    HANDPAY_VALIDATED = 0x3E  # a ticket's validation number paid by hand instead (4D type 40)
    BILL_ACCEPTED = 0x4F
    HANDPAY_PENDING = 0x51
    HANDPAY_RESET = 0x52
    NO_PROGRESSIVE_5S = 0x53  # no progressive broadcast of the group for 5 seconds
    PROGRESSIVE_WIN = 0x54  # a win on the linked level credited (cashout device/credit paid)
    SYSTEM_VALIDATION_REQUEST = 0x57
    PRINTER_COMM_ERROR = 0x60
    PRINTER_PAPER_OUT = 0x61
    TICKET_INSERTED = 0x67
    TICKET_TRANSFER_COMPLETE = 0x68
    BUFFER_OVERFLOW = 0x70
    METERS_RESET = 0x7A
    GAME_STARTED = 0x7E
    GAME_ENDED = 0x7F


#: Exceptions about an interactive exchange with the host: never queued, raised from the
#: state they report and sent before the queue (SAS 2.2.1 "priority exceptions").
PRIORITY = frozenset(
    {Exc.SYSTEM_VALIDATION_REQUEST, Exc.TICKET_INSERTED, Exc.TICKET_TRANSFER_COMPLETE}
)


class LP(IntEnum):
    """The long polls this machine answers."""

    SHUTDOWN = 0x01
    STARTUP = 0x02
    ENABLE_BILL_ACCEPTOR = 0x06
    DISABLE_BILL_ACCEPTOR = 0x07
    CONFIGURE_BILLS = 0x08
    REAL_TIME_EVENTS = 0x0E
    METERS_10_15 = 0x0F
    METERS_11_15 = 0x19
    CREDITS = 0x1A
    METERS = 0x1C
    MACHINE_INFO = 0x1F
    ROM_SIGNATURE = 0x21
    SELECTED_METERS = 0x2F
    ENHANCED_VALIDATION = 0x4D
    SAS_VERSION = 0x54
    PENDING_CASHOUT = 0x57
    RECEIVE_VALIDATION = 0x58
    EXTENDED_METERS = 0x6F
    TICKET_VALIDATION_DATA = 0x70
    REDEEM_TICKET = 0x71
    EXTENDED_VALIDATION_STATUS = 0x7B
    EXTENDED_TICKET_DATA = 0x7C
    DATE_TIME = 0x7E
    SET_DATE_TIME = 0x7F
    PROGRESSIVE_BROADCAST = 0x80  # single-level progressive broadcast
    MULTIPLE_PROGRESSIVE_BROADCAST = 0x86
    HANDPAY_INFO = 0x1B  # send handpay information: the linked level's hand-paid win
    PROGRESSIVE_WIN_AMOUNT = 0x84  # send progressive win amount: the last linked win
    ENABLED_FEATURES = 0xA0
    EXTENDED_METERS_ALT = 0xAF


#: Long polls refused for now (legacy bonus 8A, AFT 72-74): ignored like every poll not
#: in :class:`LP` (SAS 4.4: no ACK, no NACK), and reported off in long poll A0.
REFUSED = frozenset({0x8A, 0x72, 0x73, 0x74})

# -- meters -------------------------------------------------------------------------------
Meters = Mapping[str, int]
MeterRule = Callable[[Meters], int]


def _m(*names: str) -> MeterRule:
    return lambda meters: sum(meters.get(n, 0) for n in names)


#: SAS meter code (Table C-7) -> how it is made of the ledger's meters.
METER_RULES: dict[int, MeterRule] = {
    0x00: _m("coin_in"),
    0x01: _m("coin_out"),
    0x02: _m("jackpot"),
    0x03: _m("handpay"),
    0x04: _m("handpay", "tickets_out"),
    0x05: _m("games_played"),
    0x06: _m("games_won"),
    0x07: _m("games_lost"),
    0x0B: _m("bills_in"),
    0x0C: _m("credits"),
    0x0D: _m("tickets_in"),
    0x0E: _m("tickets_out"),
    0x11: _m("tickets_in_count"),
    0x12: _m("tickets_out_count"),
    0x15: _m("tickets_in"),
    0x16: _m("tickets_out"),
    0x22: _m("coin_out", "jackpot"),
    0x23: _m("handpay", "jackpot"),
    0x1D: lambda m: m.get("progressive_paid", 0) - m.get("progressive_hand_paid", 0),
    0x20: _m("progressive_hand_paid"),
    0x24: _m("bills_in", "tickets_in"),
    0x28: _m("tickets_in"),
    0x29: _m("tickets_in"),
    0x2C: _m("tickets_out"),
    0x35: _m("tickets_in_count"),
    0x38: _m("tickets_out_count"),
    0x80: _m("tickets_in"),
    0x81: _m("tickets_in_count"),
    0x86: _m("tickets_out"),
    0x87: _m("tickets_out_count"),
}
#: This cabinet's own meter code (SAS 6.02's Table C-7 has none for it; read with the
#: extended meter polls 6F / AF, which carry 2-byte codes): the contributions of the
#: station's progressive wagers to the casino controller's linked level, cents.  The
#: controller adds what it grew by since its last reading to the level.
LINK_CONTRIBUTED_METER = 0x1000
METER_RULES[LINK_CONTRIBUTED_METER] = _m("progressive_link_contributed")
#: Bill denominations (cents) of the "number of bills accepted" meters 40..57.
BILL_METERS: dict[int, int] = {
    0x40: 100, 0x41: 200, 0x42: 500, 0x43: 1_000, 0x44: 2_000, 0x45: 2_500, 0x46: 5_000,
    0x47: 10_000, 0x48: 20_000, 0x49: 25_000, 0x4A: 50_000, 0x4B: 100_000,
    0x4C: 200_000, 0x4D: 250_000, 0x4E: 500_000, 0x4F: 1_000_000,
}  # fmt: skip
for _code, _cents in BILL_METERS.items():
    METER_RULES[_code] = _m(f"bill.{_cents}")

#: 2F meters sent in 5 BCD bytes (amounts in cents); the others take 4.
FIVE_BYTE_METERS = frozenset((0x0D, 0x0E, 0x0F, 0x10, *range(0x80, 0x94)))
#: BCD bytes of every meter in long polls 6F / AF (16 digits).
EXTENDED_METER_BYTES = 8


def meter_value(code: int, meters: Meters) -> int | None:
    """The value of SAS meter ``code`` from the ledger ``meters`` (None: not kept here)."""
    rule = METER_RULES.get(code)
    return None if rule is None else rule(meters)


def drop(meters: Meters) -> int:
    """Total drop: what went into the box (bills and tickets), cents."""
    return meters.get("bills_in", 0) + meters.get("tickets_in", 0)


def cancelled_credits(meters: Meters) -> int:
    """Credits cashed out (handpay or ticket), cents."""
    return meters.get("handpay", 0) + meters.get("tickets_out", 0)


#: Bill denomination codes (SAS Table C-5) by cents, for the bill accepted event.
BILL_CODES: dict[int, int] = {
    100: 0x00, 200: 0x01, 500: 0x02, 1_000: 0x03, 2_000: 0x04, 2_500: 0x05, 5_000: 0x06,
    10_000: 0x07, 20_000: 0x08, 25_000: 0x09, 50_000: 0x0A, 100_000: 0x0B,
}  # fmt: skip
#: The bill acceptor country code (SAS Table C-6) of US dollars.
COUNTRY_US = 0x37
