"""The cabinet's link driven by a host written outside the project: ``sas-comm-py``
(PyPI, MIT), over the pty transport.

What had to be adapted:

* framing: sas-comm-py writes raw bytes to a serial port and marks a message's start by
  writing a ``0x80`` byte before the address (it counts on a UART set to even parity to
  carry nothing of the wakeup bit).  :class:`Bridge` sits between its pseudo-terminal
  and ours: a ``0x80`` at the start of a host message becomes the wakeup bit of the byte
  after it (``FF 00 addr`` on our line), any other ``FF`` is doubled, and the machine's
  answer is decoded back to plain bytes;
* its ``SlotMachine`` constructor calls a ``get_serial_number`` method the package does
  not define (version 0.1.0): :class:`AdaptedSlotMachine` defines it;
* it has no general poll: one is sent through its ``write`` with the general poll byte
  (``0x80 | address``) as the address and a one-byte answer; the implied ACK (the general
  poll of address 0, which nobody answers) is written to its port directly, since its
  ``write`` always waits for an answer and fails on none.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty

import sas_comm_py  # the test extra installs it: a missing outside host fails, never skips

from devices.sas.bcd import from_bcd
from devices.sas.marks import encode
from kiosk.game.commands import SetDoor


class AdaptedSlotMachine(sas_comm_py.SlotMachine):
    def get_serial_number(self) -> str:  # called by the package's constructor, missing in it
        return ""


class Bridge:
    """sas-comm-py's raw bytes <-> our (byte, wakeup) pty transport."""

    def __init__(self, line) -> None:  # noqa: ANN001 - a PtyLine
        self.line = line
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if ready:
                chunk = os.read(self.master, 4096)
                wake = chunk[:1] == b"\x80" and len(chunk) > 1
                body = chunk[1:] if wake else chunk
                self.line.write_raw(encode((b, wake and i == 0) for i, b in enumerate(body)))
            items = self.line.receive(0)
            if items:
                os.write(self.master, bytes(b for b, _ in items))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self.master, self.slave):
            os.close(fd)


def _bcd(values: list[str]) -> int:
    return from_bcd(bytes(int(v, 16) for v in values))


def test_sas_comm_py_reads_the_cabinets_meters_identity_and_exceptions(rig):
    rig.play_round()
    rig.machine.station.execute(SetDoor(True))
    rig.settle()
    bridge = Bridge(rig.pair.line)
    try:
        sm = AdaptedSlotMachine(bridge.port, address=1)
        meters = rig.machine.table.read(lambda a: a.meters())
        credits = sm.write_type_R(0x1A, length_to_read=4)
        assert credits and _bcd(credits.data) == meters["credits"]
        m0f = sm.write_type_R(0x0F, length_to_read=24)
        assert _bcd(m0f.data[4:8]) == meters["coin_in"]
        assert _bcd(m0f.data[20:24]) == meters["games_played"] == 1
        info = sm.write_type_R(0x1F, length_to_read=20)
        assert bytes(int(v, 16) for v in info.data[:2]) == b"UT"
        version = sm.write_type_R(0x54, following_length=True)
        assert bytes(int(v, 16) for v in version.data[1:4]) == b"602"
        sm.wakeup_bit_and_address = [0x80, 0x81]  # a general poll of address 1
        codes = []
        for _ in range(8):
            gp = sm.write(0, response_type="ack_nack")
            codes.append(gp.ack_nack[0])
            sm.port.write(b"\x80\x80")  # the general poll of address 0: the implied ACK
            time.sleep(0.03)  # one host message per read of the bridge
            if codes[-1] == 0:
                break
        assert codes[-3:] == [0x7F, 0x11, 0x00] and 0x7E in codes
        sm.wakeup_bit_and_address = [0x80, 0x01]
        ack = sm.write(0x01, poll_type="S", response_type="ack_nack")  # shutdown, with its CRC
        assert ack.ack_nack == b"\x01"
        sm.port.close()
    finally:
        bridge.close()
