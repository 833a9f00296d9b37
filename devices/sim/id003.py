"""A JCM ID-003 bill validator simulator speaking the real byte protocol on a pty.

The simulated unit moves on only when it answers a STATUS REQUEST, so scenarios are
deterministic however loaded the machine is::

    IDLING -(note queued)-> ACCEPTING -> ESCROW (waits for STACK-1/STACK-2/RETURN/HOLD)
    STACK  -> STACKING -> VEND VALID (repeated until ACK) -ACK-> STACKED -> IDLING
    RETURN -> RETURNING -> IDLING
    refused at ACCEPTING -> REJECTING(reason) -> IDLING

Transient states (ACCEPTING, STACKING, STACKED, REJECTING, RETURNING) are reported for
``hold_polls`` answers, so a driver that retries a garbled poll still sees them.
It powers up in POWER UP and waits for RESET, then spends ``init_polls`` polls in
INITIALIZE, then goes IDLING or DISABLED according to the INHIBIT setting (0xC3).  Setting
commands 0xC0..0xC7 are echoed, 0x80..0x87 read back, 0x88 answers the version.

Faults (``set_fault``) take over the status answer until cleared.  Fault injection damages
the *responses* (bad CRC, garbage, partial frame, noise, silence), answers COMMUNICATION
ERROR, ignores the host's ACK, or power-cycles the unit mid-transaction.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from devices.id003.codes import TICKET_ESCROW_CODE, Command, Status
from devices.id003.denominations import USD_ASSIGNMENT, DenominationTable, enabled_codes
from devices.id003.frame import Frame, FrameDecoder, encode_frame
from devices.sim.faults import FaultInjectingDevice


@dataclass(frozen=True, slots=True)
class Bill:
    """A note inserted into the simulator.  ``reject_reason`` forces a rejection."""

    cents: int
    reject_reason: int | None = None


@dataclass(frozen=True, slots=True)
class Ticket:
    """A barcode ticket inserted into the simulator (the barcode is sent as ASCII)."""

    barcode: str


Item = Bill | Ticket

#: Fault names accepted by :meth:`Id003Simulator.set_fault`, in reporting priority order.
FAULTS: dict[str, Status] = {
    "failure": Status.FAILURE,
    "cheated": Status.CHEATED,
    "jam_stacker": Status.JAM_IN_STACKER,
    "jam_acceptor": Status.JAM_IN_ACCEPTOR,
    "stacker_open": Status.STACKER_OPEN,
    "stacker_full": Status.STACKER_FULL,
    "pause": Status.PAUSE,
}

_SETTING_LENGTHS = {0xC0: 2, 0xC1: 2, 0xC2: 1, 0xC3: 1, 0xC4: 1, 0xC5: 2, 0xC6: 2, 0xC7: 1}
_DEFAULT_SETTINGS = {
    0xC0: b"\x00\x00",
    0xC1: b"\x00\x00",
    0xC2: b"\x00",
    0xC3: b"\x01",
    0xC4: b"\x00",
    0xC5: b"\x00\x00",
    0xC6: b"\x01\x12",
    0xC7: b"\xfc",
}
_IN_ACCEPTOR = {
    Status.ACCEPTING,
    Status.ESCROW,
    Status.HOLDING,
    Status.REJECTING,
    Status.RETURNING,
    Status.POWER_UP_BILL_IN_ACCEPTOR,
}
_IN_STACKER = {Status.STACKING, Status.VEND_VALID, Status.POWER_UP_BILL_IN_STACKER}
_TRANSIENT = {
    Status.ACCEPTING,
    Status.STACKING,
    Status.STACKED,
    Status.REJECTING,
    Status.RETURNING,
}
#: counted damage to the answers, first served first
_DAMAGE_ORDER = ("partial", "crc", "garbage", "noise_before")
_CHAOS_DAMAGE = ("flip", "truncate", "garbage", "drop", "noise_before", "noise_after")


class Id003Simulator(FaultInjectingDevice):
    """Simulated ID-003 validator.  ``currency`` is the unit's escrow-code assignment."""

    def __init__(
        self,
        *,
        currency: DenominationTable = USD_ASSIGNMENT,
        version: str = "SIM(USA)100-SS ID003-05V200-00 01JAN26",
        init_polls: int = 1,
        hold_polls: int = 2,
        seed: int | None = None,
    ) -> None:
        super().__init__(_DAMAGE_ORDER, _CHAOS_DAMAGE, seed)
        self.hold_polls = hold_polls
        self.currency = currency
        self.version = version
        self.init_polls = init_polls
        self._decoder = FrameDecoder()
        self.state: Status = Status.POWER_UP
        self.item: Item | None = None
        self.reject_code = 0
        self.queue: deque[Item] = deque()
        self.faults: dict[str, int | None] = {}
        self.settings: dict[int, bytes] = dict(_DEFAULT_SETTINGS)
        self.cashbox: list[Item] = []
        self.returned: list[Item] = []
        self.received: list[Frame] = []
        self.acks_received = 0
        self.acks_ignored = 0
        self.vend_valid_reports = 0
        self._init_left = 0
        self._held = 0
        self._triggers: list[tuple[Status, Callable[[], None]]] = []
        self._paused_state: Status | None = None

    # ------------------------------------------------------------------ scenario API

    def insert_bill(self, cents: int, reject_reason: int | None = None) -> None:
        """Queue a note worth ``cents``; it enters when the unit is idle and polled."""
        with self.lock:
            self.queue.append(Bill(cents, reject_reason))

    def insert_ticket(self, barcode: str) -> None:
        """Queue a barcode ticket."""
        with self.lock:
            self.queue.append(Ticket(barcode))

    def set_fault(self, name: str, active: bool = True, code: int = 0xA2) -> None:
        """Raise or clear a fault (see :data:`FAULTS`); ``code`` is the failure code."""
        if name not in FAULTS:
            raise ValueError(f"unknown fault {name!r}; known: {sorted(FAULTS)}")
        with self.lock:
            if active:
                if name == "pause" and self._paused_state is None:
                    self._paused_state = self.state
                self.faults[name] = code if name == "failure" else None
            elif self.faults.pop(name, "absent") != "absent":
                self._after_fault_cleared(name)

    def clear_fault(self, name: str) -> None:
        """Clear one fault."""
        self.set_fault(name, active=False)

    def power_cycle(self, bill_in: str | None = None, item: Item | None = None) -> None:
        """Power the unit off and on.

        ``bill_in`` is ``"acceptor"``, ``"stacker"`` or None to infer it from where the
        current note is (the "reset mid-transaction" case).  ``item`` places a note there.
        """
        with self.lock:
            if item is not None:
                self.item = item
            if bill_in is None and self.item is not None:
                if self.state in _IN_STACKER:
                    bill_in = "stacker"
                elif self.state in _IN_ACCEPTOR:
                    bill_in = "acceptor"
            if bill_in is not None and self.item is None:
                self.item = Bill(100)
            self.state = {
                None: Status.POWER_UP,
                "acceptor": Status.POWER_UP_BILL_IN_ACCEPTOR,
                "stacker": Status.POWER_UP_BILL_IN_STACKER,
            }[bill_in]
            if bill_in is None:
                self.item = None
            self.settings = dict(_DEFAULT_SETTINGS)
            self._decoder.reset()
            self._paused_state = None

    def reset_now(self) -> None:
        """Lose power right now, wherever the current note is."""
        self.power_cycle(None)

    def on_state(self, state: Status, action: Callable[[], None]) -> None:
        """Run ``action`` once, on the simulator thread, the moment the unit enters
        ``state`` (e.g. ``sim.on_state(Status.STACKING, sim.reset_now)``): scenarios hit
        the exact state however the driver's polls and retries are timed."""
        with self.lock:
            self._triggers.append((state, action))

    def corrupt_next_crc(self, count: int = 1) -> None:
        """Send the next ``count`` responses with a wrong CRC."""
        self._inject("crc", count)

    def send_noise_first(self, count: int = 1) -> None:
        """Prefix the next ``count`` responses with line noise."""
        self._inject("noise_before", count)

    def reply_comm_error(self, count: int = 1) -> None:
        """Answer the next ``count`` commands with COMMUNICATION ERROR (as if they arrived
        garbled) without acting on them."""
        self._inject("comm_error", count)

    def drop_acks(self, count: int = 1) -> None:
        """Ignore the host's next ``count`` ACKs, so VEND VALID is reported again."""
        self._inject("drop_ack", count)

    @property
    def inhibited(self) -> bool:
        """True when the host has set INHIBIT (0xC3 01) or not enabled the unit yet."""
        return self.settings[0xC3] != b"\x00"

    # ------------------------------------------------------------------ protocol

    def on_bytes(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, Frame):
                self._on_frame(item)
            elif item.reason != "noise":
                self._reply(Status.COMMUNICATION_ERROR)

    def _reply(self, command: int, data: bytes = b"") -> None:
        self._send(encode_frame(command, data))

    def _on_frame(self, frame: Frame) -> None:
        self.received.append(frame)
        cmd, data = frame.command, frame.data
        if cmd == Command.ACK:
            self._on_ack()
            return
        if self._take("comm_error"):
            self._reply(Status.COMMUNICATION_ERROR)
            return
        if cmd == Command.STATUS_REQUEST:
            self._on_status_request()
        elif cmd == Command.RESET:
            self._reply(Status.ACK)
            self._do_reset()
        elif cmd in (Command.STACK_1, Command.STACK_2):
            self._operation(Status.STACKING)
        elif cmd == Command.RETURN:
            self._operation(Status.RETURNING)
        elif cmd == Command.HOLD:
            self._operation(Status.HOLDING)
        elif cmd == Command.WAIT:
            self._reply(Status.ACK if self.state is Status.ESCROW else Status.INVALID_COMMAND)
        elif cmd in _SETTING_LENGTHS and len(data) == _SETTING_LENGTHS[cmd]:
            self.settings[cmd] = data
            self._reply(cmd, data)
            if cmd == Command.SET_INHIBIT and self.state in (Status.IDLING, Status.DISABLED):
                self._enter(self._idle_state())
        elif cmd + 0x40 in _SETTING_LENGTHS and not data:
            self._reply(cmd, self.settings[cmd + 0x40])
        elif cmd == Command.VERSION_REQUEST:
            self._reply(cmd, self.version.encode("ascii"))
        elif cmd == Command.BOOT_VERSION_REQUEST:
            self._reply(cmd, b"SIM-BOOT 1.00")
        else:
            self._reply(Status.INVALID_COMMAND)

    def _on_ack(self) -> None:
        self.acks_received += 1
        if self.state is not Status.VEND_VALID or self.faults:
            return
        if self._take("drop_ack"):
            self.acks_ignored += 1
            return
        if self.item is not None:
            self.cashbox.append(self.item)
        self._enter(Status.STACKED)

    def _operation(self, target: Status) -> None:
        allowed = self.state in (Status.ESCROW, Status.HOLDING) and not self.faults
        if target is Status.HOLDING:
            allowed = allowed and self.state is Status.ESCROW
        if allowed:
            self._reply(Status.ACK)
            self._enter(target)
        else:
            self._reply(Status.INVALID_COMMAND)

    def _unload_item(self) -> None:
        """The current note ends where it is: in the cashbox if in the stacker path,
        returned if in the acceptor."""
        if self.item is not None:
            if self.state in _IN_STACKER:
                self.cashbox.append(self.item)
            elif self.state in _IN_ACCEPTOR:
                self.returned.append(self.item)
        self.item = None

    def _do_reset(self) -> None:
        self._unload_item()
        self._enter(Status.INITIALIZE)
        self._init_left = self.init_polls
        self._paused_state = None

    def _enter(self, state: Status) -> None:
        self.state = state
        self._held = 0
        for trigger in [t for t in self._triggers if t[0] is state]:
            self._triggers.remove(trigger)
            trigger[1]()

    def _idle_state(self) -> Status:
        return Status.DISABLED if self.inhibited else Status.IDLING

    def _status_frame(self) -> tuple[int, bytes]:
        for name, status in FAULTS.items():
            if name in self.faults:
                code = self.faults[name]
                return status, bytes((code,)) if code is not None else b""
        if self.state is Status.ESCROW and self.item is not None:
            return self.state, self._escrow_data(self.item)
        if self.state is Status.REJECTING:
            return self.state, bytes((self.reject_code,))
        return self.state, b""

    def _escrow_data(self, item: Item) -> bytes:
        if isinstance(item, Ticket):
            return bytes((TICKET_ESCROW_CODE,)) + item.barcode.encode("ascii", errors="replace")
        code = self.currency.code_for(item.cents)
        return bytes((code if code is not None else 0x60,))

    def _on_status_request(self) -> None:
        scripted = self._scripted()
        if scripted is not None:
            self._send(scripted)
            return
        status, data = self._status_frame()
        self._reply(status, data)
        if status is Status.VEND_VALID:
            self.vend_valid_reports += 1
        if not self.faults:
            self._advance()

    def _advance(self) -> None:
        state = self.state
        if state in _TRANSIENT and self._held < self.hold_polls - 1:
            self._held += 1  # shown for hold_polls answers, so a retried poll cannot skip it
            return
        if state is Status.INITIALIZE:
            self._init_left -= 1
            if self._init_left <= 0:
                self._enter(self._idle_state())
        elif state in (Status.IDLING, Status.DISABLED) and self.queue:
            self.item = self.queue.popleft()
            if state is Status.DISABLED:
                self._reject(0x79)
            else:
                self._enter(Status.ACCEPTING)
        elif state is Status.ACCEPTING and self.item is not None:
            reason = self._check(self.item)
            if reason:
                self._reject(reason)
            else:
                self._enter(Status.ESCROW)
        elif state is Status.STACKING:
            self._enter(Status.VEND_VALID)
        elif state is Status.STACKED:
            self.item = None
            self._enter(self._idle_state())
        elif state in (Status.REJECTING, Status.RETURNING):
            if self.item is not None:
                self.returned.append(self.item)
            self.item = None
            self._enter(self._idle_state())

    def _reject(self, reason: int) -> None:
        self.reject_code = reason
        self._enter(Status.REJECTING)

    def _check(self, item: Item) -> int:
        """Reject reason for ``item`` (0 = acceptable) under the current settings."""
        bar_inhibit = self.settings[0xC7][0]
        if isinstance(item, Ticket):
            if bar_inhibit & 0x02:
                return 0x79
            if len(item.barcode) != self.settings[0xC6][1] or not item.barcode.isascii():
                return 0x7D
            return 0
        if item.reject_reason:
            return item.reject_reason
        code = self.currency.code_for(item.cents)
        if code is None:
            return 0x76
        if bar_inhibit & 0x01 or code not in enabled_codes(self.settings[0xC0]):
            return 0x79
        return 0

    def _after_fault_cleared(self, name: str) -> None:
        if name == "pause":
            if self._paused_state is not None and not self.faults:
                self._enter(self._paused_state)
            self._paused_state = None
            return
        if self.faults:
            return
        self._unload_item()
        if self.state not in (Status.POWER_UP, Status.INITIALIZE):
            self._enter(self._idle_state())

    # ------------------------------------------------------------------ damage

    def _random_bytes(self, n: int) -> bytes:
        while True:
            data = bytes(self.rng.randrange(256) for _ in range(n))
            if not any(isinstance(x, Frame) for x in FrameDecoder().feed(data)):
                return data

    def _send(self, data: bytes) -> None:
        damage = self._next_damage()
        self.write(data if damage is None else self._mutate(data, damage))

    def _mutate(self, data: bytes, mutation: str) -> bytes:
        rng = self.rng
        if mutation == "crc":
            return data[:-1] + bytes((data[-1] ^ 0x5A,))
        if mutation == "flip":
            pos = rng.randrange(len(data))
            return data[:pos] + bytes((data[pos] ^ (1 << rng.randrange(8)),)) + data[pos + 1 :]
        if mutation == "partial":
            return data[: len(data) // 2]
        if mutation == "truncate":
            return data[: rng.randrange(1, len(data))]
        if mutation == "garbage":
            return self._random_bytes(len(data))
        if mutation == "drop":
            return b""
        noise = self._random_bytes(rng.randrange(1, 7))
        return noise + data if mutation == "noise_before" else data + noise
