"""Which exceptions a ledger event or a round row raises, and at which station.

Pure functions of the rows (:class:`~kiosk.sas.port.GameEvent`,
:class:`~kiosk.sas.port.RoundRow`): the link feeds them every row after its cursor, so
each exception is raised by the event that causes it, once.  Real-time event data (game
start, game end, bill accepted) is built here too, from the row and the station's
meters at the time it is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from devices.sas.bcd import to_bcd
from kiosk.game.vocabulary import HOST_SHUTDOWN_TILT as HOST_SHUTDOWN
from kiosk.ledger.kinds import EventKind
from kiosk.sas.codes import BILL_CODES, COUNTRY_US, Exc
from kiosk.sas.port import GameEvent, RoundRow
from kiosk.service.progressive_link import PROGRESSIVE_LINK_TILT

#: The tilt of a host shutdown: no exception of its own.
HOST_SHUTDOWN_TILT = HOST_SHUTDOWN


@dataclass(frozen=True)
class Raised:
    """An exception for ``station``; ``data`` the real-time event data (may be empty)."""

    station: int
    code: int
    data: bytes = b""


_DEVICE_CODES: dict[str, int] = {
    "validator:stacker_full": Exc.CASHBOX_FULL,
    "validator:stacker_open": Exc.CASHBOX_REMOVED,
    "validator:acceptor_jam": Exc.BILL_JAM,
    "validator:stacker_jam": Exc.BILL_JAM,
    "validator:failure": Exc.BILL_ACCEPTOR_FAILURE,
    "validator:comm_error": Exc.BILL_ACCEPTOR_FAILURE,
    "printer:paper_out": Exc.PRINTER_PAPER_OUT,
    "printer:comm_error": Exc.PRINTER_COMM_ERROR,
}
_TILT_CODES: dict[str, int] = {
    "ledger": Exc.MEMORY_NO_DATA,
    "ledger_write": Exc.MEMORY_DATA_ERROR,
    "program": Exc.PROGRAM_BAD_CHECKSUM,
    "jackpot": Exc.HANDPAY_PENDING,
    PROGRESSIVE_LINK_TILT: Exc.NO_PROGRESSIVE_5S,
}
#: Events meaning an operator changed the game's options.
_OPTION_EVENTS = frozenset(
    {EventKind.PAYTABLE_CHANGED, EventKind.LIMITS_CHANGED, EventKind.COACH_CHANGED}
)


def tilt_code(code: str) -> int | None:
    """The exception of a tilt raised with ``code`` (None: the link's own)."""
    if code == HOST_SHUTDOWN_TILT:
        return None
    if code.startswith("device:"):
        return _DEVICE_CODES.get(code.removeprefix("device:"), Exc.GENERAL_TILT)
    return _TILT_CODES.get(code, Exc.GENERAL_TILT)


def event_exceptions(event: GameEvent, meters: Mapping[str, int]) -> list[Raised]:
    """The exceptions ``event`` raises (``meters``: its station's meters now, for the
    bill accepted event's count)."""
    st, kind, detail = event.station, event.kind, event.detail
    if kind == EventKind.DOOR_OPEN:
        return [Raised(st, Exc.SLOT_DOOR_OPENED)]
    if kind == EventKind.DOOR_CLOSED:
        return [Raised(st, Exc.SLOT_DOOR_CLOSED)]
    if kind == EventKind.POWER_UP:
        lost = not detail.get("clean_shutdown", True) and not detail.get("created", False)
        return [Raised(st, Exc.AC_POWER_LOST)] * lost + [Raised(st, Exc.AC_POWER_APPLIED)]
    if kind == EventKind.POWER_DOWN:
        return [Raised(st, Exc.AC_POWER_LOST)]
    if kind == EventKind.TILT:
        code = tilt_code(str(detail.get("code", "")))
        return [] if code is None else [Raised(st, code)]
    if kind == EventKind.TILT_CLEARED:
        cleared = str(detail.get("code", ""))
        if cleared == "jackpot":
            return [Raised(st, Exc.HANDPAY_RESET)]
        if cleared == "device:validator:stacker_open":
            return [Raised(st, Exc.CASHBOX_INSTALLED)]
        return []
    if kind == EventKind.CASHOUT_HANDPAY and detail.get("validation"):
        # the ticket's number is void and the cash-out paid by hand: the host hears of
        # it (3E, then its 4D record) before the handpay (see kiosk.sas.game_port)
        return [Raised(st, Exc.HANDPAY_VALIDATED), Raised(st, Exc.HANDPAY_PENDING)]
    if (
        kind == EventKind.CASHOUT
        and detail.get("method") == "handpay"
        or kind == EventKind.CASHOUT_HANDPAY
    ):
        return [Raised(st, Exc.HANDPAY_PENDING)]
    if kind == EventKind.HANDPAY:
        return [Raised(st, Exc.HANDPAY_RESET)]
    if kind == EventKind.TICKET_OUT:
        return [Raised(st, Exc.TICKET_PRINTED)]
    if kind == EventKind.BILL_IN:
        count = meters.get(f"bill.{event.amount}", 0)
        code = BILL_CODES.get(event.amount, 0xFF)
        data = bytes((COUNTRY_US, code)) + to_bcd(count, 4)
        return [Raised(st, Exc.BILL_ACCEPTED, data)]
    if kind == EventKind.PROGRESSIVE_LINK_WIN and not detail.get("hand_paid", False):
        # credited: 54, the win read with 84; a hand-paid one is the jackpot tilt's 51,
        # its win read with 1B (see kiosk.sas.egm)
        return [Raised(st, Exc.PROGRESSIVE_WIN)]
    if kind == EventKind.RAM_CLEAR:
        return [Raised(st, Exc.METERS_RESET)]
    if kind in _OPTION_EVENTS:
        return [Raised(st, Exc.OPTIONS_CHANGED)]
    return []


def game_started(row: RoundRow, coin_in: int) -> Raised:
    """Exception 7E for ``row``: its event data is the wager (credits, 2 BCD, capped at
    9999), the coin in meter (4 BCD), wager type 0 and progressive group 0."""
    data = to_bcd(min(row.staked, 9999), 2) + to_bcd(coin_in, 4) + b"\x00\x00"
    return Raised(row.station, Exc.GAME_STARTED, data)


def game_ended(row: RoundRow) -> Raised:
    """Exception 7F for ``row``: its event data is the game's win (credits, 4 BCD)."""
    return Raised(row.station, Exc.GAME_ENDED, to_bcd(row.paid + row.jackpot, 4))
