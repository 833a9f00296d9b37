"""A host's polling session over one line: the general poll cycle across the machines'
addresses, an exception log, and the host's side of TITO (it issues the validation
numbers of cash-outs, 57 / 58, and validates tickets inserted anywhere on the floor,
67 / 70 / 71 / 68, from its :class:`TicketBook`).

What ``uth sas host`` runs; the tests and the bench use it as the casino's system.
Amounts are cents.

Each exception is logged once (SAS 6.02 section 2, the implied ACK and NACK): a machine
sends an exception again until the host's next poll acknowledges it, and takes the ACK
for good before it answers that next poll.  So after a poll of an address went
unanswered (the machine lost power, the line broke), the same answer again (code and
event data) as the first thing that address says is that exception sent again, not a
new one: the ACK of it had not landed.  (SAS exceptions carry no serial number: two
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

    def cycle(self) -> list[Logged]:
        """One general poll of the next address; its exception recorded and acknowledged
        (and acted on).  Returns what was recorded."""
        address = self.addresses[self._next % len(self.addresses)]
        self._next += 1
        ex = self.host.general_poll(address)
        got: list[Logged] = []
        if ex.start_s is None:
            self._outage.add(address)
            return got
        code = ex.code
        if ex.kind == "event":
            code = ex.answer[2]
        again = address in self._outage and self._last.get(address) == ex.answer
        self._outage.discard(address)
        if code is None or code == 0:
            self._last.pop(address, None)
            return got
        self._last[address] = ex.answer
        if again:
            self.repeats += 1
        else:
            got.append(Logged(address, code))
            self.log.append(got[-1])
        if self.tito and (not again or code in (0x57, 0x67, 0x68)):
            self._act(address, code)  # a request for action is acted on again
        if len(self.addresses) == 1:
            self.host.acknowledge()
        return got

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
