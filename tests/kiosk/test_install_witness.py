"""``systemd/install.sh`` puts the ledger's anchor and marker on a second medium it is
told of, and refuses one on the ledger's own filesystem before it changes anything."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "systemd" / "install.sh"


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "UTH_STATE_DIR": str(tmp_path / "state")}
    return subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=30
    )


def test_the_installer_needs_a_second_medium(tmp_path):
    out = run(tmp_path, "--no-start")
    assert out.returncode == 2 and "--witness-dir" in out.stderr


def test_the_installer_refuses_a_witness_on_the_ledger_filesystem(tmp_path):
    out = run(tmp_path, "--witness-dir", str(tmp_path / "boot" / "uth"), "--no-start")
    assert out.returncode == 2 and "same filesystem" in out.stderr
    assert not (tmp_path / "boot").exists() and not (tmp_path / "state").exists()


def test_the_configuration_it_writes_names_the_witness_files():
    text = SCRIPT.read_text()
    assert "installed = true" in text
    assert 'anchor_path = "$WITNESS_DIR/uth.anchor"' in text
    assert 'install_marker = "$WITNESS_DIR/uth.install"' in text


def test_without_python3_the_installer_still_refuses_the_ledger_filesystem(tmp_path):
    """A minimal root has no python3 before the packages step: the installer falls back
    to comparing filesystems (power-up checks the disks)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "sed", "dirname", "stat", "id", "cat"):
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    env = {"PATH": str(bin_dir), "UTH_STATE_DIR": str(tmp_path / "state")}
    out = subprocess.run(
        [str(bin_dir / "bash"), str(SCRIPT), "--witness-dir", str(tmp_path / "boot"), "--no-start"],
        capture_output=True, text=True, env=env, timeout=30,
    )  # fmt: skip
    assert out.returncode == 2 and "same filesystem" in out.stderr, out.stderr
