"""The shipped unit, read as a file (the booted test runs it): it writes only the ledger
and key folders (the installer adds the second medium), never runs in a writable data
folder, and keeps its sandbox's exposure score at most 2.0."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "uth-kiosk.service"


def settings(name: str) -> list[str]:
    return [
        line.split("=", 1)[1]
        for line in UNIT.read_text().splitlines()
        if line.startswith(f"{name}=")
    ]


def test_the_unit_writes_only_the_ledger_and_key_folders():
    assert settings("ProtectSystem") == ["strict"]
    assert [set(v.split()) for v in settings("ReadWritePaths")] == [
        {"/var/lib/uth", "/etc/uth/key"}
    ]


def test_the_working_folder_is_not_a_data_folder():
    assert settings("WorkingDirectory") == ["/"]


def test_the_sandbox_exposure_score_is_at_most_2():
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package)")
    out = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(UNIT)],
        capture_output=True, text=True, timeout=60, check=False,
    ).stdout  # fmt: skip
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", out)
    assert found, out[-2000:]
    assert float(found.group(1)) <= 2.0, out
