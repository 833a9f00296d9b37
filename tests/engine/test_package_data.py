"""The installed package carries its data: the shipped paytables and the evaluator tables."""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import paytables
from engine.uth.paytable import PAYTABLE_DIR, shipped_paytables

ROOT = Path(__file__).resolve().parents[2]
TABLES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "engine").glob("*/data/*.npz"))
DATA = TABLES + sorted(f"paytables/{p.name}" for p in (ROOT / "paytables").glob("*.toml"))
SOURCES = ("pyproject.toml", "README.md", "engine", "kiosk", "devices", "paytables")


def test_the_paytable_folder_is_the_paytables_package():
    assert PAYTABLE_DIR == Path(paytables.__file__).resolve().parent
    assert [p.name for p in shipped_paytables()] == sorted(n.split("/")[-1] for n in DATA[len(TABLES) :])
    assert "paytables/standard.toml" in DATA


def test_package_data_names_every_data_file():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    include = setuptools["packages"]["find"]["include"]
    assert any(fnmatch.fnmatch("paytables", pattern) for pattern in include)
    covered = {
        f"{package}/{path.relative_to(ROOT / package).as_posix()}"
        for package, patterns in setuptools["package-data"].items()
        for pattern in patterns
        for path in (ROOT / package).glob(pattern)
    }
    assert set(DATA) <= covered


@pytest.mark.heavy
def test_the_wheel_ships_the_paytables_and_the_evaluator_tables(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        else:
            shutil.copy2(path, src / name)
    out = tmp_path / "wheel"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (wheel,) = out.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(DATA) | {"paytables/__init__.py", "engine/uth/paytable.py"} <= names
