"""A TCL ticket printer simulator speaking the real byte protocol on a pty.

Implements the command subset of :mod:`devices.tcl.commands`: ENQ / ``^S|^`` status,
``^C|^`` clear, region and template definition and deletion in RAM (validated: a bad
definition sets DATA ERROR), ``^P|...|^`` printing (fields unescaped; wrong field count,
unknown template or a bad barcode sets DATA ERROR), ``^r|^`` reset.

A print job moves one step per status request, like the validator simulator::

    ^P accepted: BUSY set, VALIDATION DONE and TOP OF FORM cleared
    after ``validation_polls`` polls: VALIDATION DONE set (the ticket is recorded printed)
    after ``complete_polls`` more: BUSY cleared;  one more: TOP OF FORM set

Faults (``set_fault``) are physical conditions shown in the status flags; a print command
sent while one stands is refused (COMMAND ERROR).  ``fail_next_print`` stops the next job
part-way with a fault before its validation number is printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from devices.itf import itf_pattern
from devices.sim.faults import FaultInjectingDevice
from devices.tcl.commands import BARCODE_I2OF5, check_id, parse_command, unescape_field
from devices.tcl.status import PrinterStatus, StatusFlag, format_status

ENQ = 0x05
ESC = 0x1B
TEMPLATE_MODE = b"\x1b[^]\x1b"

#: Fault names accepted by :meth:`TclSimulator.set_fault` and the flags they raise.
FAULTS: dict[str, StatusFlag] = {
    "paper_low": StatusFlag.PAPER_LOW,
    "paper_out": StatusFlag.PAPER_OUT,
    "head_up": StatusFlag.HEAD_UP,
    "printer_jam": StatusFlag.PAPER_JAM,
    "chassis_open": StatusFlag.CHASSIS_OPEN,
    "busy": StatusFlag.BUSY,
    "head_error": StatusFlag.HEAD_ERROR,
    "voltage_error": StatusFlag.VOLTAGE_ERROR,
    "temperature_error": StatusFlag.TEMPERATURE_ERROR,
}
_BLOCKING = (
    StatusFlag.PAPER_OUT
    | StatusFlag.HEAD_UP
    | StatusFlag.PAPER_JAM
    | (StatusFlag.CHASSIS_OPEN | StatusFlag.HEAD_ERROR | StatusFlag.VOLTAGE_ERROR)
    | StatusFlag.TEMPERATURE_ERROR
    | StatusFlag.BUSY
)
#: counted damage to the status answers, first served first
_DAMAGE_ORDER = ("garbage", "partial")
#: TCL has no checksum, so a flipped flag bit that keeps the frame well formed cannot be
#: detected by any host: chaos does not flip bits
_CHAOS_DAMAGE = ("garbage", "partial", "drop", "noise")
_NOISE = bytes(b for b in range(256) if b != ord("*"))
_CLEARED_BY_C = (
    StatusFlag.DATA_ERROR
    | StatusFlag.COMMAND_ERROR
    | StatusFlag.RESET
    | StatusFlag.BUFFER_OVERFLOW
    | StatusFlag.JOB_MEMORY_OVERFLOW
)


@dataclass(frozen=True, slots=True)
class PrintedTicket:
    """A ticket the simulator printed (or started): template id and each region's text."""

    template_id: str
    fields: tuple[tuple[str, str], ...]  # (region id, unescaped text)
    barcode_region: str = ""
    barcode: tuple[int, ...] = ()  # ITF element widths (bar first) of the barcode region

    def text(self, region_id: str) -> str:
        """The text printed in ``region_id``."""
        return dict(self.fields)[region_id]

    def render(self) -> str:
        """The ticket as plain text, the barcode drawn with ``#`` bars."""
        lines = []
        for region_id, text in self.fields:
            if region_id == self.barcode_region:
                bars = "".join(("#" if i % 2 == 0 else " ") * w for i, w in enumerate(self.barcode))
                lines.append(bars)
            lines.append(text)
        return "\n".join(lines)


@dataclass(slots=True)
class _Job:
    ticket: PrintedTicket
    to_validation: int
    to_complete: int
    fail_with: str | None = None
    fail_after: int = 0
    polls: int = 0
    validated: bool = False


@dataclass(slots=True)
class _Region:
    parts: list[str]
    font: str
    da_start: int
    pa_start: int
    da_len: int
    pa_len: int


class TclSimulator(FaultInjectingDevice):
    """Simulated TCL printer."""

    def __init__(
        self,
        *,
        firmware: str = "GURSIM-01",
        unit_address: str = "0",
        validation_polls: int = 2,
        complete_polls: int = 1,
        seed: int | None = None,
    ) -> None:
        super().__init__(_DAMAGE_ORDER, _CHAOS_DAMAGE, seed)
        self.firmware = firmware
        self.unit_address = unit_address
        self.validation_polls = validation_polls
        self.complete_polls = complete_polls
        self._buf = bytearray()
        self.flags = StatusFlag.RESET | StatusFlag.TOP_OF_FORM
        self.faults: set[str] = set()
        self.regions: dict[str, _Region] = {}
        self.templates: dict[str, tuple[str, ...]] = {}
        self.last_template = " "
        self.job: _Job | None = None
        self.printed: list[PrintedTicket] = []
        self.aborted: list[PrintedTicket] = []
        self.commands: list[bytes] = []
        self.status_requests = 0
        self._fail_next: tuple[str, int] | None = None

    # ------------------------------------------------------------------ scenario API

    def set_fault(self, name: str, active: bool = True) -> None:
        """Raise or clear a physical condition (see :data:`FAULTS`)."""
        if name not in FAULTS:
            raise ValueError(f"unknown fault {name!r}; known: {sorted(FAULTS)}")
        with self.lock:
            (self.faults.add if active else self.faults.discard)(name)

    def clear_fault(self, name: str) -> None:
        """Clear one condition."""
        self.set_fault(name, active=False)

    def fail_next_print(self, fault: str, after_polls: int = 1) -> None:
        """Make the next job stop with ``fault`` after ``after_polls`` status polls, before
        its validation number is printed."""
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}")
        with self.lock:
            self._fail_next = (fault, after_polls)

    def power_cycle(self) -> None:
        """Lose power: RAM regions and templates and any job are lost; RESET flag set."""
        with self.lock:
            if self.job is not None and not self.job.validated:
                self.aborted.append(self.job.ticket)
            self.job = None
            self.regions.clear()
            self.templates.clear()
            self.flags = StatusFlag.RESET | StatusFlag.TOP_OF_FORM
            self._buf.clear()

    @property
    def status(self) -> PrinterStatus:
        """What the next status request would report."""
        with self.lock:
            flags = self.flags
            for name in self.faults:
                flags |= FAULTS[name]
            return PrinterStatus(self.unit_address, self.firmware, flags, self.last_template)

    # ------------------------------------------------------------------ protocol

    def on_bytes(self, data: bytes) -> None:
        buf = self._buf
        buf += data
        while buf:
            first = buf[0]
            if first == ENQ:
                del buf[0]
                self._on_status_request()
            elif first == ESC:
                if buf[: len(TEMPLATE_MODE)] == TEMPLATE_MODE:
                    del buf[: len(TEMPLATE_MODE)]
                elif TEMPLATE_MODE.startswith(bytes(buf)):
                    return  # wait for the rest
                else:
                    del buf[0]
            elif first == ord("^"):
                end = buf.find(b"^", 1)
                enq = buf.find(bytes((ENQ,)), 1)
                if enq != -1 and (end == -1 or enq < end):
                    self.flags |= StatusFlag.COMMAND_ERROR  # command cut short
                    del buf[:enq]
                    continue
                if end == -1:
                    return  # incomplete command: wait
                raw = bytes(buf[: end + 1])
                del buf[: end + 1]
                self.commands.append(raw)
                self._on_command(raw)
            else:
                del buf[0]  # line-mode text and noise are ignored in template mode

    def _on_status_request(self) -> None:
        self.status_requests += 1
        scripted = self._scripted()
        if scripted is not None:
            self.write(scripted)
            return
        response = format_status(self.status)
        damage = self._next_damage()
        self.write(response if damage is None else self._mutate(response, damage))
        self._advance_job()

    def _mutate(self, response: bytes, mutation: str) -> bytes:
        rng = self.rng
        if mutation == "garbage":  # never contains '*', so it cannot pass for a status
            return bytes(rng.choice(_NOISE) for _ in range(len(response)))
        if mutation == "partial":
            return response[: len(response) // 2]
        if mutation == "drop":
            return b""
        return bytes(rng.choice(_NOISE) for _ in range(rng.randrange(1, 8))) + response

    def _advance_job(self) -> None:
        job = self.job
        if job is None:
            if not self.flags & StatusFlag.BUSY and not self.flags & StatusFlag.TOP_OF_FORM:
                self.flags |= StatusFlag.TOP_OF_FORM
            return
        job.polls += 1
        if job.fail_with is not None and not job.validated and job.polls >= job.fail_after:
            self.faults.add(job.fail_with)
            self.flags &= ~StatusFlag.BUSY
            self.aborted.append(job.ticket)
            self.job = None
            return
        if not job.validated:
            job.to_validation -= 1
            if job.to_validation <= 0:
                job.validated = True
                self.flags |= StatusFlag.VALIDATION_DONE
                self.printed.append(job.ticket)
            return
        job.to_complete -= 1
        if job.to_complete <= 0:
            self.flags &= ~StatusFlag.BUSY
            self.last_template = job.ticket.template_id
            self.job = None

    def _on_command(self, raw: bytes) -> None:
        try:
            parts = parse_command(raw)
        except ValueError:
            self.flags |= StatusFlag.COMMAND_ERROR
            return
        letter, args = parts[0], parts[1:]
        if letter == "S":
            self._on_status_request()
        elif letter == "C":
            self.flags &= ~_CLEARED_BY_C
        elif letter == "R":
            self._on_region(args)
        elif letter == "T":
            self._on_template(args)
        elif letter == "P":
            self._on_print(args)
        elif letter == "r":
            self.power_cycle()
        elif letter in ("f", "F", "j"):
            pass
        else:
            self.flags |= StatusFlag.COMMAND_ERROR

    def _on_region(self, args: list[str]) -> None:
        if args[1:] == ["DR"]:
            if args[0] == "$":
                self.regions.clear()
            else:
                self.regions.pop(args[0], None)
            return
        try:
            if len(args) != 15 or args[1] != "R":
                raise ValueError(f"region needs 15 fields, got {args}")
            rid = check_id(args[0])
            da_start, pa_start, da_len, pa_len = (int(v) for v in args[2:6])
            rot, just, mul_1, mul_2 = int(args[7]), int(args[8]), int(args[10]), int(args[11])
            if min(da_start, pa_start) < 0 or min(da_len, pa_len) <= 0:
                raise ValueError("bad geometry")
            if rot not in range(4) or just not in range(3) or min(mul_1, mul_2) < 1:
                raise ValueError("bad rotation, justification or multiplier")
            if not args[9]:
                raise ValueError("no font / object id")
        except ValueError:
            self.flags |= StatusFlag.DATA_ERROR
            return
        self.regions[rid] = _Region(args, args[9], da_start, pa_start, da_len, pa_len)

    def _on_template(self, args: list[str]) -> None:
        if args[1:] == ["DR"]:
            self.templates.pop(args[0], None)
            return
        try:
            if len(args) < 5 or args[1] != "R":
                raise ValueError(f"bad template {args}")
            tid = check_id(args[0])
            da_dim, pa_dim = int(args[2]), int(args[3])
            region_ids = tuple(args[4:])
            for r in region_ids:
                region = self.regions[r]
                if (
                    region.da_start + region.da_len > da_dim
                    or region.pa_start + region.pa_len > pa_dim
                ):
                    raise ValueError(f"region {r} outside template {tid}")
        except (ValueError, KeyError):
            self.flags |= StatusFlag.DATA_ERROR
            return
        self.templates[tid] = region_ids

    def _on_print(self, args: list[str]) -> None:
        status = self.status
        if self.job is not None or status.flags & _BLOCKING:
            self.flags |= StatusFlag.COMMAND_ERROR
            return
        try:
            if len(args) < 2:
                raise ValueError("print needs a template and a copy count")
            tid, copies = args[0], int(args[1])
            region_ids = self.templates[tid]
            texts = [unescape_field(f) for f in args[2:]]
            if copies != 1 or len(texts) != len(region_ids):
                raise ValueError(f"{len(texts)} fields for {len(region_ids)} regions")
            barcode: tuple[int, ...] = ()
            barcode_region = ""
            for rid, text in zip(region_ids, texts, strict=True):
                if self.regions[rid].font == BARCODE_I2OF5:
                    barcode = itf_pattern(text)  # ValueError unless an even digit count
                    barcode_region = rid
        except (ValueError, KeyError):
            self.flags |= StatusFlag.DATA_ERROR
            return
        fields = tuple(zip(region_ids, texts, strict=True))
        ticket = PrintedTicket(tid, fields, barcode_region, barcode)
        job = _Job(ticket, self.validation_polls, self.complete_polls)
        if self._fail_next is not None:
            job.fail_with, job.fail_after = self._fail_next
            self._fail_next = None
        self.job = job
        self.flags |= StatusFlag.BUSY
        self.flags &= ~(StatusFlag.VALIDATION_DONE | StatusFlag.TOP_OF_FORM)
