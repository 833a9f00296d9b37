"""The technician's progressive controller (``uth progressive controller``,
:mod:`devices.sas.controller`) over real ptys: its level reaches the snapshots of two
cabinets on two lines, a contribution raises it on both, a progressive win (54, read
with 84) resets the level once however often the same answer is read, and its state
outlives the controller (a power cut of the controller loses nothing)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from support.sas_rig import wait_for
from test_sas_progressive_link import GROUP, RESET, Linked

from devices.sas.controller import ControllerLine, ControllerStore, ProgressiveController
from devices.sas.frames import with_crc
from devices.sas.host import SasHost
from devices.sas.line import PtyLine, PtyPair
from devices.sas.progressive import PROGRESSIVE_WIN, SEND_WIN_AMOUNT, Win, win_amount_answer

ROOT = Path(__file__).resolve().parents[3]


def controller_of(tmp_path: Path, *rigs: Linked) -> tuple[ControllerStore, ProgressiveController]:
    store = ControllerStore(tmp_path / "controller.db", GROUP, {1: RESET})
    lines = [
        ControllerLine(f"line{i}", SasHost(r.pair.line, answer_timeout=0.5, silence=0.02), [1])
        for i, r in enumerate(rigs)
    ]
    return store, ProgressiveController(store, lines)


def test_one_meter_on_two_cabinets_and_a_power_cut_of_the_controller(tmp_path):
    first, second = Linked(tmp_path / "a"), Linked(tmp_path / "b")
    try:
        store, controller = controller_of(tmp_path, first, second)
        controller.cycle()
        assert wait_for(lambda: first.meter() == second.meter() == RESET)
        store.contribute(1, 2_500)
        controller.cycle()
        assert wait_for(lambda: first.meter() == second.meter() == RESET + 2_500)
        store.close()  # the controller's power cut: its file has it all
        store, controller = controller_of(tmp_path, first, second)
        assert store.levels() == {1: RESET + 2_500}
        controller.cycle()
        assert first.meter() == second.meter() == RESET + 2_500
        store.close()
    finally:
        first.stop()
        second.stop()


class WinningMachine:
    """A machine on a pty that raises 54 once and answers 84 with ``win``."""

    def __init__(self, pair: PtyPair, win: Win) -> None:
        self.line = PtyLine.open(pair.port)
        self.win = win
        #: 84 answers sent before the true one: each with a good CRC and a bad amount
        self.garbled = 0
        self.pending = [PROGRESSIVE_WIN]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        message = bytearray()
        while not self.stop.is_set():
            for byte, wakeup in self.line.receive(0.01):
                if wakeup:
                    message = bytearray((byte,))
                else:
                    message.append(byte)
                if bytes(message) == b"\x81":  # general poll of address 1
                    self.line.send(bytes((self.pending.pop(0) if self.pending else 0,)))
                elif bytes(message) == bytes((1, SEND_WIN_AMOUNT)) and self.garbled:
                    self.garbled -= 1
                    body = bytes((1, SEND_WIN_AMOUNT, self.win.group, self.win.level))
                    self.line.send(with_crc(body + b"\xff" * 5))  # not BCD
                elif bytes(message) == bytes((1, SEND_WIN_AMOUNT)):
                    self.line.send(win_amount_answer(1, SEND_WIN_AMOUNT, self.win))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        self.line.close()


def test_a_win_read_with_84_resets_the_level_once(tmp_path):
    pair = PtyPair()
    machine = WinningMachine(pair, Win(GROUP, 1, RESET + 9_000))
    try:
        store = ControllerStore(tmp_path / "controller.db", GROUP, {1: RESET})
        store.contribute(1, 9_000)
        host = SasHost(pair.line, answer_timeout=0.5, silence=0.02)
        controller = ProgressiveController(store, [ControllerLine("line", host, [1])])
        made = controller.cycle()
        assert [(a, w.level, w.cents) for _, a, w in made] == [(1, 1, RESET + 9_000)]
        assert store.levels() == {1: RESET}
        store.contribute(1, 700)
        machine.pending.append(PROGRESSIVE_WIN)  # the same answer again: not a second award
        assert controller.cycle() == []
        assert store.levels() == {1: RESET + 700}
        assert store.awards() == [("line", 1, 1, RESET + 9_000)]
        store.close()
    finally:
        machine.close()
        pair.close()


def test_a_win_above_the_meter_is_refused_and_the_level_left_as_it_was(tmp_path):
    pair = PtyPair()
    machine = WinningMachine(pair, Win(GROUP, 1, RESET + 9_001))  # a cent over the meter
    try:
        store = ControllerStore(tmp_path / "controller.db", GROUP, {1: RESET})
        store.contribute(1, 9_000)
        host = SasHost(pair.line, answer_timeout=0.5, silence=0.02)
        controller = ProgressiveController(store, [ControllerLine("line", host, [1])])
        assert controller.cycle() == []
        assert store.levels() == {1: RESET + 9_000} and store.awards() == []
        assert any("above its meter" in r for r in controller.refused)
        store.close()
    finally:
        machine.close()
        pair.close()


def test_a_garbled_win_answer_is_refused_and_the_win_read_again_once(tmp_path):
    """An 84 answer with a good CRC and an amount that is not BCD is refused and logged;
    the win's reading stays to do, and the next cycle's true answer is awarded once."""
    pair = PtyPair()
    machine = WinningMachine(pair, Win(GROUP, 1, RESET + 500))
    machine.garbled = 1
    try:
        store = ControllerStore(tmp_path / "controller.db", GROUP, {1: RESET})
        store.contribute(1, 500)
        host = SasHost(pair.line, answer_timeout=0.5, silence=0.02)
        controller = ProgressiveController(store, [ControllerLine("line", host, [1])])
        assert controller.cycle() == []
        assert any("not BCD" in r or "does not decode" in r for r in controller.refused)
        assert store.levels() == {1: RESET + 500} and len(store.expected()) == 1
        made = controller.cycle()  # no new exception: the reading left to do
        assert [w.cents for *_, w in made] == [RESET + 500]
        assert store.awards() == [("line", 1, 1, RESET + 500)] and store.expected() == []
        assert controller.cycle() == [] and store.levels() == {1: RESET}
        store.close()
    finally:
        machine.close()
        pair.close()


def test_the_command_broadcasts_to_a_cabinet(tmp_path):
    rig = Linked(tmp_path, host_on_path=True)
    rig.host.line.close()  # the command is the host
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-m", "kiosk.cli", "progressive", "controller", rig.pair.port,
             "--group", str(GROUP), "--level", f"1={RESET + 42}", "--db",
             str(tmp_path / "c.db"), "--seconds", "1.5", "--every", "100"],
            capture_output=True, text=True, timeout=60, cwd=ROOT, env=env,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        dollars, cents = divmod(RESET + 42, 100)
        assert f"group {GROUP}: level 1 {dollars:,}.{cents:02d}" in out.stdout
        assert wait_for(lambda: rig.meter() == RESET + 42)
    finally:
        rig.stop()
