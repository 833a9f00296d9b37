"""The systemd unit, udev rules and install script; the notify protocol and watchdog."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from kiosk.ui import sdnotify

SYSTEMD = Path(__file__).resolve().parents[3] / "systemd"
UNIT = SYSTEMD / "uth-kiosk.service"


def unit_settings() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            k, v = line.split("=", 1)
            out.setdefault(k.strip(), []).append(v.strip())
    return out


def test_unit_is_a_hardened_notify_service_with_watchdog():
    s = unit_settings()
    assert s["Type"] == ["notify"] and s["Restart"] == ["always"]
    assert int(s["WatchdogSec"][0]) > 0
    assert s["User"] == ["uth"]
    assert {"video", "input", "dialout"} <= set(s["SupplementaryGroups"][0].split())
    assert "SDL_VIDEODRIVER=kmsdrm" in s["Environment"]
    assert s["NoNewPrivileges"] == ["yes"] and s["ProtectSystem"] == ["strict"] and s["PrivateTmp"] == ["yes"]
    assert "/var/lib/uth" in s["ReadWritePaths"][0]
    assert "kiosk" in s["ExecStart"][0]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_analyze_verify(tmp_path):
    # verify checks that ExecStart exists: point it at this interpreter for the check
    text = re.sub(r"^ExecStart=\S+", f"ExecStart={os.path.realpath(shutil.which('true') or '/bin/true')}",
                  UNIT.read_text(), flags=re.M)
    unit = tmp_path / UNIT.name
    unit.write_text(text)
    out = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True)
    problems = [line for line in (out.stdout + out.stderr).splitlines() if UNIT.name in line]
    assert out.returncode == 0 and not problems, out.stdout + out.stderr


def test_install_script_parses():
    script = SYSTEMD / "install.sh"
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True)


def test_install_script_signs_the_shipped_tables_with_the_cabinet_key():
    """Every ``uth`` command the installer runs for the cabinet names its configuration
    (without it ``paytable check`` leaves the proofs unsigned and a fresh cabinet knows
    no table's RTP), and the proofs go to the service's PAR cache."""
    script = (SYSTEMD / "install.sh").read_text().replace("\\\n", " ")  # continuation lines joined
    calls = re.findall(r'bin/uth" ((?:audit keygen|paytable check)[^|\n]*)', script)
    assert any(c.startswith("paytable check") for c in calls), calls
    for call in calls:
        assert '--config "$CONF_DIR/cabinet.toml"' in call, call
        if call.startswith("paytable check"):
            assert '--cache-dir "$STATE_DIR/par-cache"' in call, call


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_install_script_passes_shellcheck():
    out = subprocess.run(["shellcheck", str(SYSTEMD / "install.sh")], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def test_udev_rules_give_stable_names():
    rules = [line for line in (SYSTEMD / "99-uth-devices.rules").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    names = set()
    for line in rules:
        for part in (p.strip() for p in line.split(",")):
            assert re.fullmatch(r'[A-Z_]+(\{[\w]+\})?(==|!=|\+=|=|:=)"[^"]*"', part), part
        names.update(re.findall(r'SYMLINK\+="([^"]+)"', line))
    assert {"uth-validator", "uth-printer", "input/uth-touch"} <= names


def listen(tmp_path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(2)
    return sock


def test_sd_notify_sends_datagrams(tmp_path, monkeypatch):
    assert sdnotify.notify("READY=1") is False or os.environ.get("NOTIFY_SOCKET")
    sock = listen(tmp_path)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    assert sdnotify.notify("READY=1")
    assert sock.recv(100) == b"READY=1"
    monkeypatch.setenv("WATCHDOG_USEC", "4000000")
    now = [100.0]
    dog = sdnotify.Watchdog(clock=lambda: now[0])
    assert dog.enabled and dog.interval == 2.0
    dog.ping()
    assert sock.recv(100) == b"WATCHDOG=1"
    now[0] += 1.0
    dog.ping()  # too soon: nothing sent
    now[0] += 1.5
    dog.ping()
    assert sock.recv(100) == b"WATCHDOG=1"
    sock.close()


def test_main_loop_reports_ready_and_pings_the_watchdog(tmp_path, monkeypatch):
    from kiosk.config import load_config
    from kiosk.wiring.cabinet import cabinet_app
    from kiosk.wiring.lone_cabinet import LoneCabinet

    sock = listen(tmp_path)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "20000")  # ping at least every 10 ms
    cabinet = LoneCabinet.open(load_config(None, db_path=str(tmp_path / "uth.db")))
    try:
        app = cabinet_app(cabinet, (800, 480))
        assert app.run(fps=200, max_frames=6) == 0
    finally:
        cabinet.close()
    got = []
    sock.settimeout(0.2)
    try:
        while True:
            got.append(sock.recv(200).decode())
    except TimeoutError:
        pass
    assert got[0].startswith("READY=1")
    assert "WATCHDOG=1" in got and got[-1] == "STOPPING=1"
