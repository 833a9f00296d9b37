"""The code base passes its linters: ruff everywhere, mypy on the pure engine."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(ROOT / ".venv" / "bin")) or shutil.which("ruff")
    assert ruff, "ruff is part of the test extra"
    result = _run(ruff, "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_on_engine():
    result = _run(sys.executable, "-m", "mypy", "engine", "--ignore-missing-imports")
    assert result.returncode == 0, result.stdout + result.stderr
