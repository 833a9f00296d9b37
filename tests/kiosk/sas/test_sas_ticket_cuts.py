"""A system-numbered ticket cut off by a power cut between the printer's print command
and its "done": the machine is a process of its own killed with SIGKILL (the printer
simulator outlives it), the host polls it over the pty transport, and a second machine
on the same host is offered the ticket that came out.  Paid once on the whole floor."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from devices.sas.host import SasHost
from devices.sas.line import PtyPair
from devices.sas.session import HostSession, TicketBook
from devices.sim import TclSimulator
from tests.support.sas_floor import Floor, open_floor, poll_until
from tests.support.sas_rig import wait_for

SCRIPT = Path(__file__).resolve().parents[2] / "support" / "sas_printer_machine.py"


class Child:
    """The machine's process; ``ready`` once it serves."""

    def __init__(self, *args: object) -> None:
        self.p = subprocess.Popen(
            [sys.executable, str(SCRIPT), *map(str, args)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.append(line.rstrip())
            if line.strip() == "ready":
                self.ready.set()

    def wait_ready(self) -> None:
        assert self.ready.wait(60), "\n".join(self.lines[-30:])

    def kill(self) -> None:
        """The power goes: SIGKILL, nothing more written."""
        if self.p.poll() is None:
            os.kill(self.p.pid, signal.SIGKILL)
        self.p.wait(10)


class Machine:
    """Machine A: its process, its printer, its line and the host's session on it."""

    def __init__(self, tmp: Path, book: Path) -> None:
        self.tmp = tmp
        self.printer = TclSimulator(validation_polls=10**6).start()  # stalls before the number
        self.pair = PtyPair()
        self.journal = tmp / "printer-job.json"
        self.session = HostSession(SasHost(self.pair.line, answer_timeout=0.5, silence=0.02), [1],
                                   TicketBook(book))  # fmt: skip
        self.seen: list[int] = []
        self.child: Child | None = None

    def boot(self, cents: int = 0) -> None:
        self.child = Child(self.tmp / "a.db", self.pair.port, self.printer.port, self.journal,
                           *([cents] if cents else []))  # fmt: skip
        self.child.wait_ready()

    def poll(self, code: int, tries: int = 150) -> bool:
        """General polls (acted on by the host) until ``code`` came."""
        for _ in range(tries):
            got = [x.code for x in self.session.cycle()]
            self.seen += got
            if code in got:
                return True
            threading.Event().wait(0.05)
        return False

    def sent_to_printer(self) -> bool:
        """The printer took the job, and the machine's journal (written before the print
        command) says the command went out."""
        if self.printer.job is None:
            return False
        try:
            entry = json.loads(self.journal.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return True  # a machine keeping no journal
        except (OSError, ValueError):
            return False
        return bool(entry.get("sent"))

    def close(self) -> None:
        if self.child is not None:
            self.child.kill()
        self.pair.close()
        self.printer.stop()


def poll_for(floor: Floor, code: int, tries: int = 10) -> bool:
    try:
        poll_until(floor, code, tries, seconds=0.0)
    except AssertionError:
        return False
    return True


def cut_between_send_and_done(a: Machine, cents: int) -> str:
    """A cashes ``cents`` out, the host numbers the ticket, the print command goes out,
    and the power goes before the printer's "done": the ticket's number."""
    a.boot(cents)
    assert a.poll(0x57), a.seen  # the host read 57 and sent 58
    assert wait_for(a.sent_to_printer, 20), "the print command never went out"
    assert a.child is not None
    a.child.kill()
    (number,) = TicketBook(a.session.book.path).tickets
    return number


def test_a_ticket_the_printer_cannot_vouch_for_is_void_at_the_host_before_the_handpay(tmp_path):
    book = tmp_path / "book.json"
    a = Machine(tmp_path, book)
    b = open_floor(tmp_path / "b.db", TicketBook(book), address=9)
    try:
        number = cut_between_send_and_done(a, 4_000)
        a.printer.power_cycle()  # the printer lost power too: its status cannot tell
        a.boot()
        assert a.poll(0x51), a.seen  # handpay pending at machine A
        b.session.book = TicketBook(book)  # the host's book as the other line reads it
        copy = b.game.insert_ticket(1, number)  # the ticket that came out, at machine B
        poll_until(b, 0x67)
        refused = poll_for(b, 0x68) and b.game.escrow_state(1, copy) == "returned"
        if not refused:
            b.settle()  # the host's answer recorded
            b.game.validator_stacked(1, copy)
        assert b.game.meters(1).get("credits", 0) == 0, "paid by hand at A and again at B"
        assert a.seen.index(0x3E) < a.seen.index(0x51)  # the void reported before the handpay
        assert TicketBook(book).state(number) == "void"
        assert not a.printer.printed  # never printed again
    finally:
        a.close()
        b.stop()


def test_a_ticket_the_printer_finished_stands_and_is_paid_once(tmp_path):
    book = tmp_path / "book.json"
    a = Machine(tmp_path, book)
    b = open_floor(tmp_path / "b.db", TicketBook(book), address=9)
    try:
        number = cut_between_send_and_done(a, 4_000)
        with a.printer.lock:  # the printer, still powered, finishes the job
            assert a.printer.job is not None
            a.printer.job.to_validation = 1
        a.boot()
        assert a.poll(0x3D), a.seen  # printed: the host reads its 4D record
        assert 0x51 not in a.seen  # no handpay
        assert TicketBook(book).state(number) == "issued"
        b.session.book = TicketBook(book)
        escrow = b.game.insert_ticket(1, number)
        poll_until(b, 0x67)
        b.settle()  # the host's answer recorded
        b.game.validator_stacked(1, escrow)
        poll_until(b, 0x68)
        assert b.game.meters(1)["credits"] == 4_000
        assert len(a.printer.printed) == 1
    finally:
        a.close()
        b.stop()
