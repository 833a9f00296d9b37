"""``uth devices probe`` and ``uth devices simulate``."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tty
from pathlib import Path

import pytest

from devices.probe import probe
from devices.sim import Id003Simulator, TclSimulator
from kiosk.commands import devices as cli

ROOT = Path(__file__).resolve().parents[2]


def test_register_adds_devices_subcommands() -> None:
    parser = argparse.ArgumentParser(prog="uth")
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["devices", "probe", "/dev/ttyUSB9"])
    assert args.func is cli.cmd_probe and args.port == "/dev/ttyUSB9"
    assert parser.parse_args(["devices", "simulate", "printer"]).func is cli.cmd_simulate


def test_probe_identifies_the_validator(capsys: pytest.CaptureFixture[str]) -> None:
    with Id003Simulator() as sim:
        assert cli.main(["probe", sim.port]) == 0
        result = probe(sim.port)
    out = capsys.readouterr().out
    assert "ID-003" in out and sim.version in out and "POWER_UP" in out
    assert result is not None and result.protocol == "ID-003"
    assert sim.state.name == "POWER_UP"  # probing does not reset or configure


def test_probe_identifies_the_printer(capsys: pytest.CaptureFixture[str]) -> None:
    with TclSimulator() as sim:
        assert cli.main(["probe", sim.port]) == 0
    out = capsys.readouterr().out
    assert "TCL" in out and "GURSIM-01" in out


def test_probe_on_a_silent_port_fails(capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        assert cli.main(["probe", os.ttyname(slave), "--timeout", "0.1"]) == 1
    finally:
        os.close(master)
        os.close(slave)
    assert "no ID-003 or TCL device" in capsys.readouterr().out
    assert cli.main(["probe", "/nonexistent/port"]) == 2


@pytest.mark.parametrize(("device", "protocol"), [("validator", "ID-003"), ("printer", "TCL")])
def test_simulate_prints_the_pty_and_stops_on_ctrl_c(device: str, protocol: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk.commands.devices", "simulate", device],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        assert port.startswith("/dev/")
        result = probe(port)
        assert result is not None and result.protocol == protocol
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_simulator_console_commands() -> None:
    with Id003Simulator() as sim:
        assert cli._handle_line(sim, "validator", "bill 20") == "ok"
        assert cli._handle_line(sim, "validator", "ticket 001234567890123456") == "ok"
        assert cli._handle_line(sim, "validator", "fault stacker_open") == "ok"
        assert "stacker_open" in sim.faults and len(sim.queue) == 2
        assert cli._handle_line(sim, "validator", "fault nonsense").startswith("error")
        assert "bill <dollars>" in cli._handle_line(sim, "validator", "help")
    with TclSimulator() as psim:
        assert cli._handle_line(psim, "printer", "fault paper_low") == "ok"
        assert cli._handle_line(psim, "printer", "printed") == "nothing printed"
