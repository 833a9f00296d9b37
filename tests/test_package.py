"""The package carries the whole program: a wheel built from this tree and installed into
a fresh virtual environment outside the checkout verifies itself and plays a round.

The wheel is built from a copy of the tree (``pip wheel --no-build-isolation``: no
download, no ``build/`` folder in the checkout) with its manifest written for that copy,
then installed with ``--no-deps`` into a venv made without pip.  The venv reaches the
third-party packages (pygame, numpy, pydantic ...) through a ``.pth`` line naming the test
interpreter's site-packages: a plain path, so the checkout's editable hook there is not
run, and the venv's own site-packages (the installed program) comes first on
``sys.path``.  Every command runs with its working folder outside the checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from kiosk.integrity.digest import parse_seed, program_digest
from kiosk.integrity.files import PROGRAM_DIRS, program_files
from kiosk.integrity.manifest import MANIFEST_NAME, write_manifest

pytestmark = pytest.mark.heavy

ROOT = Path(__file__).resolve().parents[1]


def _copy_tree(dest: Path) -> Path:
    """The files a wheel is built from: the program folders, pyproject.toml, README."""
    dest.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo")
    for top in PROGRAM_DIRS:
        shutil.copytree(ROOT / top, dest / top, ignore=skip)
    return dest


def _run(cmd: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("package")
    src = _copy_tree(base / "src")
    write_manifest(src, key=ROOT / "keys" / "release-dev.ed25519")
    dist = base / "dist"
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "--wheel-dir", str(dist), str(src)],
        cwd=base,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("uth_cabinet-*.whl")
    venv = base / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=base)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    done = _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-index", str(wheel)],
        cwd=base,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    site = Path(
        _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
             cwd=base).stdout.strip()
    )  # fmt: skip
    (site / "_uth_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return {"src": src, "wheel": wheel, "venv": venv, "site": site}


def test_the_wheel_holds_every_program_file(installed: dict[str, Path]) -> None:
    """Every file the program digest covers in the tree is in the wheel, and no other
    file under the program folders (the manifest aside, which records them)."""
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    shipped = {n for n in names if n.split("/")[0] in PROGRAM_DIRS and n != MANIFEST_NAME}
    tree = {f.name for f in program_files(installed["src"])}
    assert sorted(tree - shipped) == []
    assert sorted(shipped - tree) == []
    assert "assets/fonts/NotoSansUTH-Regular.ttf" in shipped


def test_the_installed_program_verifies_itself_with_the_trees_digest(
    installed: dict[str, Path], tmp_path: Path
) -> None:
    uth = str(installed["venv"] / "bin" / "uth")
    where = _run([str(installed["venv"] / "bin" / "python"), "-c",
                  "import kiosk; print(kiosk.__file__)"], cwd=tmp_path)  # fmt: skip
    assert Path(where.stdout.strip()).is_relative_to(installed["site"]), where
    program = _run([uth, "verify", "program", "--seed", "00", "--json"], cwd=tmp_path)
    assert program.returncode == 0, program.stdout + program.stderr
    parts = json.loads(program.stdout)["parts"]
    expected = program_digest(parse_seed("00"), root=installed["src"], runtime=False)
    assert parts["program"]["digest"] == expected
    assert list(parts) == ["program", "interpreter", "stdlib", "site", "scripts"]
    assert all(part["files"] > 0 for part in parts.values())
    own = _run([uth, "verify", "program", "--seed", "00", "--program-only"], cwd=tmp_path)
    assert f"program: {expected}" in own.stdout
    manifest = _run([uth, "verify", "manifest"], cwd=tmp_path)
    assert manifest.returncode == 0, manifest.stdout + manifest.stderr
    assert "matches its manifest" in manifest.stdout


def test_the_installed_cabinet_plays_a_round_on_its_screens(
    installed: dict[str, Path], tmp_path: Path
) -> None:
    uth = str(installed["venv"] / "bin" / "uth")
    played = _run([uth, "kiosk", "--headless", "--autoplay", "random", "--rounds", "1"],
                  cwd=tmp_path)  # fmt: skip
    output = played.stdout + played.stderr
    assert played.returncode == 0, output
    assert "NotoSans" not in output  # no font failed to load
    assert "tilt" not in output.lower(), output
    audit = _run([uth, "audit", "verify"], cwd=tmp_path)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "OK: 1 rounds" in audit.stdout
    assert os.path.isfile(tmp_path / "var" / "uth.db")
