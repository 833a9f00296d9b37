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
from dataclasses import dataclass, field
from pathlib import Path

from devices.sas.bcd import to_bcd
from devices.sas.host import Exchange, SasHost, decode

#: The host's validation system ID (the first two digits of the numbers it issues).
SYSTEM_ID = 1


@dataclass
class TicketBook:
    """The tickets the host validated: 18-digit number -> {amount, redeemed}; kept in
    ``path`` (JSON) when given, so another host process (another machine's line) sees
    them."""

    path: Path | None = None
    tickets: dict[str, dict[str, int | bool]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.path is not None and self.path.exists():
            self.tickets = json.loads(self.path.read_text(encoding="utf-8"))

    def issue(self, amount: int) -> str:
        number = f"{SYSTEM_ID:02d}{secrets.randbelow(10**16):016d}"
        self.tickets[number] = {"amount": amount, "redeemed": False}
        self._save()
        return number

    def redeem(self, number: str) -> int | None:
        """The amount of an unredeemed ticket (marked redeemed now), else None."""
        t = self.tickets.get(number)
        if t is None or t["redeemed"]:
            return None
        t["redeemed"] = True
        self._save()
        return int(t["amount"])

    def release(self, number: str) -> None:
        """The machine did not take the ticket: it may be redeemed again."""
        t = self.tickets.get(number)
        if t is not None:
            t["redeemed"] = False
            self._save()

    def _save(self) -> None:
        if self.path is not None:
            self.path.write_text(json.dumps(self.tickets, sort_keys=True), encoding="utf-8")


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
            number = self.book.issue(int(info["amount"]))
            data = to_bcd(int(number[:2]), 1) + bytes.fromhex(number[2:])
            self.exchanges.append(h.long_poll(address, 0x58, data))
        elif code == 0x67:
            ticket = h.long_poll(address, 0x70)
            self.exchanges.append(ticket)
            if ticket.kind != "data":
                return
            info = decode(0x70, ticket.answer)
            if info["status"] != 0x00:
                return
            number = str(info["validation"])
            amount = self.book.redeem(number)
            code71 = 0x00 if amount is not None else 0x82  # not in the system
            data = bytes((code71,)) + to_bcd(amount or 0, 5) + b"\x00" + bytes.fromhex(number)
            data += bytes(4) + b"\x00\x00"  # no restricted expiration, pool 0
            self.exchanges.append(h.long_poll(address, 0x71, data))
        elif code == 0x68:
            status = h.long_poll(address, 0x71, b"\xff")
            self.exchanges.append(status)
            if status.kind == "data":
                info = decode(0x71, status.answer)
                if info["status"] not in (0x00, 0x01, 0x02) and "validation" in info:
                    self.book.release(str(info["validation"]))
