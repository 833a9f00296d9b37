"""A host's polling session over one line: the general poll cycle across the machines'
addresses, an exception log, and the host's side of TITO (it issues the validation
numbers of cash-outs, 57 / 58, and validates tickets inserted anywhere on the floor,
67 / 70 / 71 / 68, from its :class:`TicketBook`).

What ``uth sas host`` runs; the tests and the bench use it as the casino's system.
Amounts are cents.

Each exception is logged once (SAS 6.02 section 2, the implied ACK and NACK): a machine
sends an exception again until the host's next poll acknowledges it, and takes the ACK
for good before it answers that next poll.  So the same answer again (code and event
data) is that exception sent again, not a new one, when the host sent the same general
poll again (an implied NACK), or when a poll of that address went unanswered between
(the machine lost power, the line broke: the ACK may not have landed) and no poll after
the ACK had been answered (an answer after it shows the ACK landed).  (SAS exceptions carry no serial number: two
identical exceptions in a row across such an outage, without real-time event data to
tell them apart, are counted as one.)
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from devices.sas.bcd import to_bcd
from devices.sas.host import Exchange, SasHost, decode

#: The host's validation system ID (the first two digits of the numbers it issues).
SYSTEM_ID = 1
#: Seconds a redemption the host authorised (71) waits for the machine's transfer
#: complete (68) before the ticket is redeemable again.
PENDING_S = 120.0

# SAS 6.02 table 15.12b: long poll 71's transfer codes the host answers with.
VALID_CASHABLE = 0x00
NOT_IN_SYSTEM = 0x82
MARKED_PENDING = 0x83
ALREADY_REDEEMED = 0x84
#: SAS 6.02 table 15.13c: the validation types of a 4D record the book acts on.
RECORD_CASHABLE_TICKET = 0x00
RECORD_HANDPAY_NO_RECEIPT = 0x40


@dataclass
class TicketBook:
    """The host's tickets: 18-digit number -> ``{amount, state, ...}``; kept in ``path``
    (JSON) when given and read again before every change, so the host process of
    another line sees the same book.

    A number's states, as a casino's validation system keeps them:

    * ``validated``: given to a machine's cash-out (58); not redeemable until the
      machine reports it printed (its 4D record of a cashable ticket): a ticket cut
      off by a power cut is never honoured on the word of the 58 alone;
    * ``issued``: printed, redeemable anywhere;
    * ``pending``: a machine was told to redeem it (71) and its transfer complete (68)
      has not come: redeemable nowhere else; after ``pending_s`` seconds without a 68
      it is ``issued`` again, and the machine's own 68, whenever it comes, settles it;
    * ``redeemed``: a machine's 68 said it credited it;
    * ``void``: its machine paid the cash-out by hand instead (a 4D record of a
      handpay with this number): never redeemable.
    """

    path: Path | None = None
    tickets: dict[str, dict[str, Any]] = field(default_factory=dict)
    pending_s: float = PENDING_S
    clock: Callable[[], float] = time.time
    #: Redemptions a machine's 68 reported for a ticket already redeemed elsewhere.
    conflicts: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._load()

    def _load(self) -> None:
        if self.path is not None and self.path.exists():
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            for entry in raw.values():
                if "state" not in entry:  # a book written before the states
                    entry["state"] = "redeemed" if entry.pop("redeemed", False) else "issued"
            self.tickets = raw

    def _save(self) -> None:
        if self.path is not None:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.tickets, sort_keys=True), encoding="utf-8")
            tmp.replace(self.path)

    def state(self, number: str) -> str | None:
        """The number's state now (a pending redemption past its time is ``issued``)."""
        self._load()
        t = self.tickets.get(number)
        if t is None:
            return None
        if t["state"] == "pending" and self.clock() - float(t["since"]) > self.pending_s:
            return "issued"
        return str(t["state"])

    def issue(self, amount: int) -> str:
        """A new number for a ticket known printed (``issued``)."""
        return self._new(amount, "issued")

    def validate(self, amount: int) -> str:
        """A new number for a cash-out's 58 (``validated``: printed not yet reported)."""
        return self._new(amount, "validated")

    def _new(self, amount: int, state: str) -> str:
        self._load()
        number = f"{SYSTEM_ID:02d}{secrets.randbelow(10**16):016d}"
        self.tickets[number] = {"amount": amount, "state": state}
        self._save()
        return number

    def record(self, number: str, validation_type: int) -> None:
        """A machine's 4D record of ``number``: a cashable ticket printed makes a
        ``validated`` number ``issued``; a handpay with that number (the cash-out paid
        by hand) makes it ``void`` unless it was redeemed already."""
        state = self.state(number)
        if state is None:
            return
        t = self.tickets[number]
        if validation_type == RECORD_CASHABLE_TICKET and state == "validated":
            t["state"] = "issued"
        elif validation_type == RECORD_HANDPAY_NO_RECEIPT and state in ("validated", "issued"):
            t["state"] = "void"
        else:
            return
        self._save()

    def redeem(self, number: str, address: int = 0) -> tuple[int, int]:
        """Long poll 71's answer for ``number`` inserted at ``address``: (transfer code,
        amount).  A redeemable ticket becomes ``pending`` for that machine."""
        state = self.state(number)
        if state in (None, "void"):
            return NOT_IN_SYSTEM, 0
        if state in ("validated", "pending"):
            return MARKED_PENDING, 0
        if state == "redeemed":
            return ALREADY_REDEEMED, 0
        t = self.tickets[number]
        t.update(state="pending", since=self.clock(), at=address)
        self._save()
        return VALID_CASHABLE, int(t["amount"])

    def complete(self, number: str, credited: bool, address: int = 0) -> None:
        """A machine's 68 for ``number`` (the machine at ``address``): ``credited``
        commits the redemption (even one whose pending time ran out: the machine's
        record decides), else the ticket this machine held pending is redeemable
        again."""
        state = self.state(number)
        if state is None:
            return
        t = self.tickets[number]
        if credited:
            if state == "redeemed":
                self.conflicts.append(number)
                return
            t["state"] = "redeemed"
        elif t["state"] == "pending" and t.get("at", address) == address:
            t["state"] = "issued"
        else:
            return
        t.pop("since", None)
        self._save()

    def release(self, number: str, address: int = 0) -> None:
        """The machine did not take the ticket: it may be redeemed again."""
        self.complete(number, credited=False, address=address)


@dataclass
class Logged:
    """One exception the host recorded."""

    address: int
    code: int


class HostSession:
    """Polls ``addresses`` on ``host``'s line; answers the TITO exceptions when ``tito``."""

    def __init__(self, host: SasHost, addresses: list[int], book: TicketBook | None = None,
                 *, tito: bool = True) -> None:  # fmt: skip
        self.host = host
        self.addresses = addresses
        self.book = book or TicketBook()
        self.tito = tito
        self.log: list[Logged] = []
        self.exchanges: list[Exchange] = []
        self.repeats = 0  # exceptions sent again after an outage, not logged twice
        self._next = 0
        self._last: dict[int, bytes] = {}  # address -> the last exception's answer
        self._outage: set[int] = set()  # addresses that left a poll unanswered since
        self._unacked: set[int] = set()  # addresses whose exception no poll followed yet

    def cycle(self) -> list[Logged]:
        """One general poll of the next address; its exception recorded, acted on and
        (polling one address) acknowledged.  Returns what was recorded."""
        address = self.addresses[self._next % len(self.addresses)]
        self._next += 1
        got = self.poll(address)
        if len(self.addresses) == 1:
            self.acknowledge()
        return got

    def poll(self, address: int) -> list[Logged]:
        """One general poll of ``address``: its exception recorded and acted on, not
        acknowledged (the next poll of this or another address does that; the same
        general poll again is an implied NACK).  Returns what was recorded."""
        nack = address in self._unacked  # the same poll again, nothing between
        self._unacked &= {address}  # this poll acknowledges the other addresses' answers
        ex = self.host.general_poll(address)
        got: list[Logged] = []
        if ex.start_s is None:
            self._outage.add(address)
            return got
        if ex.kind not in ("exception", "event"):
            return got  # busy, or a ROM signature: nothing of the queue
        code = ex.code if ex.kind == "exception" else ex.answer[2]
        again = (nack or address in self._outage) and self._last.get(address) == ex.answer
        self._outage.discard(address)
        if not code:
            self._last.pop(address, None)
            self._unacked.discard(address)
            return got
        self._last[address] = ex.answer
        self._unacked.add(address)
        if again:
            self.repeats += 1
        else:
            got.append(Logged(address, code))
            self.log.append(got[-1])
        if self.tito and (not again or code in (0x57, 0x67, 0x68)):
            self._act(address, code)  # a request for action is acted on again
            self._unacked.discard(address)  # its long polls acknowledged it
            if self.exchanges and self.exchanges[-1].start_s is not None:
                self._last.pop(address, None)  # answered after the ACK: it landed
        return got

    def acknowledge(self) -> None:
        """The general poll of address 0: the implied ACK of every machine's answer."""
        self.host.acknowledge()
        self._unacked.clear()

    def long_poll(self, address: int, command: int, data: bytes = b"") -> Exchange:
        """A long poll of ``address`` (it acknowledges that address's last answer)."""
        self._unacked &= {address}
        ex = self.host.long_poll(address, command, data)
        self._unacked.discard(address)
        if ex.start_s is not None:  # answered after the ACK: it landed for good
            self._last.pop(address, None)
        return ex

    def last_code(self, address: int) -> int | None:
        """The exception ``address`` answered last (None: no activity, or nothing yet)."""
        answer = self._last.get(address)
        if answer is None:
            return None
        return answer[0] if len(answer) == 1 else answer[2]

    def quiet(self, address: int) -> bool:
        """Whether ``address`` answered its last poll, with no activity."""
        return address not in self._last and address not in self._outage

    def _act(self, address: int, code: int) -> None:
        h = self.host
        if code == 0x57:
            pending = h.long_poll(address, 0x57)
            self.exchanges.append(pending)
            if pending.kind != "data":
                return
            info = decode(0x57, pending.answer)
            if info["cashout_type"] == 0x80:
                return
            number = self.book.validate(int(info["amount"]))
            data = to_bcd(int(number[:2]), 1) + bytes.fromhex(number[2:])
            self.exchanges.append(h.long_poll(address, 0x58, data))
        elif code in (0x3D, 0x3E):  # a ticket printed, a handpay validated: its 4D record
            self._read_records(address)
        elif code == 0x67:
            ticket = h.long_poll(address, 0x70)
            self.exchanges.append(ticket)
            if ticket.kind != "data":
                return
            info = decode(0x70, ticket.answer)
            if info["status"] != 0x00:
                return
            number = str(info["validation"])
            code71, amount = self.book.redeem(number, address)
            data = bytes((code71,)) + to_bcd(amount, 5) + b"\x00" + bytes.fromhex(number)
            data += bytes(4) + b"\x00\x00"  # no restricted expiration, pool 0
            self.exchanges.append(h.long_poll(address, 0x71, data))
        elif code == 0x68:
            status = h.long_poll(address, 0x71, b"\xff")
            self.exchanges.append(status)
            if status.kind == "data":
                info = decode(0x71, status.answer)
                if "validation" in info:
                    credited = info["status"] in (0x00, 0x01, 0x02)
                    self.book.complete(str(info["validation"]), credited, address)

    def _read_records(self, address: int) -> None:
        """Read the machine's unread 4D validation records (function 00) into the book."""
        for _ in range(32):
            answer = self.host.long_poll(address, 0x4D, b"\x00")
            self.exchanges.append(answer)
            if answer.kind != "data":
                return
            rec = decode(0x4D, answer.answer)
            if rec["index"] == 0:
                return
            number = f"{int(rec['system_id']):02d}{rec['validation']}"
            self.book.record(number, int(rec["validation_type"]))
            self.host.acknowledge()  # the record read: the next 00 reads the next one
