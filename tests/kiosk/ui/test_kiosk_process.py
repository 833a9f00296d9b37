"""``uth kiosk`` as a process, the way the README starts it: the demo cabinet's scripted
player, SIGTERM, and the technician's exit chord."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from kiosk.ui.events import Command, Key
from kiosk.ui.input import translate
from kiosk.ui.shortcuts import EXIT_COMMAND

KIOSK = [sys.executable, "-m", "kiosk", "kiosk", "--headless", "--window", "800x480", "--no-sound"]


def _kinds(db: Path) -> list[str]:
    """The kinds of the ledger's events, oldest first, as ``uth audit events`` prints them."""
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "audit", "events", "--db", str(db), "--json"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    return [e["kind"] for e in json.loads(out)]


@pytest.mark.heavy
def test_the_scripted_player_plays_its_rounds_through_the_screens_and_the_kiosk_ends():
    proc = subprocess.run([*KIOSK, "--autoplay", "random", "--rounds", "3", "--seed", "5"],
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    db = Path.cwd() / "var" / "uth.db"  # the demo's default, in this test's own folder
    verify = subprocess.run([sys.executable, "-m", "kiosk.cli", "audit", "verify", "--db", str(db)],
                            capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0 and "OK: 3 rounds" in verify.stdout, verify.stdout + verify.stderr
    kinds = _kinds(db)
    assert kinds.count("bill_in") >= 1  # the notes went through the simulated validator
    assert kinds[-1] == "power_down"


@pytest.mark.heavy
def test_sigterm_ends_the_kiosk_with_an_orderly_power_down():
    proc = subprocess.Popen(KIOSK, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 60
        for line in proc.stderr:  # the devices are up once the driver says so
            if "devices started" in line or time.monotonic() > deadline:
                break
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    assert _kinds(Path.cwd() / "var" / "uth.db")[-1] == "power_down"


@pytest.mark.parametrize("mod,expected", [
    (pygame.KMOD_CTRL | pygame.KMOD_SHIFT, [Command(EXIT_COMMAND)]),
    (pygame.KMOD_CTRL, []),
    (pygame.KMOD_NONE, [Key("q", "q", False)]),
])
def test_ctrl_shift_q_is_the_exit_chord(mod, expected):
    pygame.init()
    event = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=mod, unicode="q")
    assert translate(event, (800, 480)) == expected
