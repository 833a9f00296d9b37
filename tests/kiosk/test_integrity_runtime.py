"""The whole program in the digest: the interpreter, the standard library, every file of
every installed distribution (from its RECORD), the entry scripts; the configuration
digested apart; the runtime in a manifest written for an installed image.

A distribution of the test's own (a real ``.dist-info`` with a ``RECORD``) is put in a
site folder on ``sys.path`` for the tests that change a runtime file: the real
environment's files are never touched."""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.integrity import PROGRAM_DIRS, PROGRAM_ROOT, check_program, write_manifest
from kiosk.integrity.digest import parts_digests, program_crc16, program_digest
from kiosk.integrity.runtime import RUNTIME_PARTS, runtime_parts


@pytest.fixture
def site(tmp_path, monkeypatch) -> Path:
    """A site folder first on ``sys.path`` holding a distribution ``labdist`` (a module,
    its dist-info and RECORD) and a ``.pth`` file."""
    folder = tmp_path / "env" / "site-packages"
    (folder / "labdist").mkdir(parents=True)
    (folder / "labdist" / "__init__.py").write_text("ANSWER = 42\n")
    info = folder / "labdist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: labdist\nVersion: 1.0\n")
    (info / "RECORD").write_text(
        "labdist/__init__.py,,\nlabdist/__pycache__/__init__.cpython-311.pyc,,\n"
        "labdist-1.0.dist-info/METADATA,,\nlabdist-1.0.dist-info/RECORD,,\n"
    )
    (folder / "labdist.pth").write_text("import os\n")
    monkeypatch.syspath_prepend(str(folder))
    return folder


def names(part: str) -> list[str]:
    return [f.name for f in runtime_parts()[part]]


def test_the_runtime_holds_the_interpreter_stdlib_distributions_and_scripts():
    parts = runtime_parts()
    assert tuple(parts) == RUNTIME_PARTS
    exe = Path(sys.executable).resolve()
    assert {f.name: f.path for f in parts["interpreter"]}[f"interpreter/{exe.name}"] == exe
    stdlib = {f.name for f in parts["stdlib"]}
    assert {"stdlib/os.py", "stdlib/json/__init__.py", "stdlib/hashlib.py"} <= stdlib
    site = {f.name for f in parts["site"]}
    # third-party distributions, by their RECORDs: compiled modules and their data too
    assert {
        "site/numpy/__init__.py",
        "site/pydantic/__init__.py",
        "site/cryptography/__init__.py",
    } <= site
    assert any(n.startswith("site/numpy/") and n.endswith(".so") for n in site)
    assert any(n.startswith("site/pygame/") for n in site)
    assert any(n.endswith(".dist-info/RECORD") for n in site)
    scripts = {f.name for f in parts["scripts"]}
    assert "scripts/uth" in scripts
    if (Path(sys.prefix) / "pyvenv.cfg").is_file():
        assert "scripts/pyvenv.cfg" in scripts
    every = [f.name for files in parts.values() for f in files]
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in every)
    # the program's own files are in the program part, not twice
    own = {f.path.resolve() for files in parts.values() for f in files}
    assert not any(p.is_relative_to(PROGRAM_ROOT / top) for p in own for top in PROGRAM_DIRS)


@pytest.mark.heavy
def test_a_changed_distribution_file_or_start_up_hook_changes_the_program_digest(site):
    assert "site/labdist/__init__.py" in names("site")
    assert "site/labdist-1.0.dist-info/RECORD" in names("site")
    assert "site/labdist.pth" in names("site")
    seed = b"\x5a"
    before = program_digest(seed)
    crc = program_crc16(0x1234)
    own = program_digest(seed, runtime=False)
    (site / "labdist" / "__init__.py").write_text("ANSWER = 43\n")
    after = program_digest(seed)
    assert after != before and program_crc16(0x1234) != crc
    assert program_digest(seed, runtime=False) == own
    (site / "sitecustomize.py").write_text("print('hello')\n")
    assert "site/sitecustomize.py" in names("site")
    assert program_digest(seed) != after


@pytest.mark.heavy
def test_verify_program_prints_each_part_and_the_configuration_apart(tmp_path, capsys):
    config = tmp_path / "cabinet.toml"
    config.write_text('db_path = "var/uth.db"\nmachine_number = "0042"\n')
    assert main(["verify", "program", "--seed", "0123abcd", "--config", str(config),
                 "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert list(out["parts"]) == ["program", *RUNTIME_PARTS]
    parts = {"program": None, **runtime_parts()}
    from kiosk.integrity.files import program_files

    parts["program"] = program_files()
    each, whole = parts_digests(parts, bytes.fromhex("0123abcd"))
    assert out["digest"] == whole == program_digest(bytes.fromhex("0123abcd"))
    assert {k: v["digest"] for k, v in out["parts"].items()} == each
    assert out["configuration"]["files"] == ["configuration/cabinet.toml"]
    first = out["configuration"]["digest"]
    config.write_text('db_path = "var/uth.db"\nmachine_number = "0043"\n')
    assert main(["verify", "program", "--seed", "0123abcd", "--config", str(config),
                 "--json"]) == 0  # fmt: skip
    again = json.loads(capsys.readouterr().out)
    assert again["configuration"]["digest"] != first
    assert again["digest"] == out["digest"]  # the configuration is not the program
    assert main(["verify", "program", "--seed", "00", "--config", str(config)]) == 0
    text = capsys.readouterr().out
    for part in ("program", *RUNTIME_PARTS):
        assert f"  {part} " in text
    assert "configuration: " in text and "cabinet.toml" in text


@pytest.mark.heavy
def test_a_manifest_written_for_an_image_records_and_checks_the_runtime(site, tmp_path):
    root = tmp_path / "program"
    for top in PROGRAM_DIRS:
        shutil.copytree(PROGRAM_ROOT / top, root / top,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))  # fmt: skip
    write_manifest(
        root, version="9.9.9", runtime=True, key=PROGRAM_ROOT / "keys/release-dev.ed25519"
    )
    recorded = json.loads((root / "kiosk/integrity/manifest.json").read_text())["runtime"]
    assert "site/labdist/__init__.py" in recorded["files"]
    assert f"interpreter/{Path(sys.executable).resolve().name}" in recorded["files"]
    check = check_program(root, bound_s=120.0)
    assert check.ok and check.runtime_checked, check.problems
    (site / "labdist" / "__init__.py").write_text("ANSWER = 43\n")
    check = check_program(root, bound_s=120.0)
    assert not check.ok and "changed site/labdist/__init__.py" in check.problems
    (site / "labdist.pth").unlink()
    assert "missing site/labdist.pth" in check_program(root, bound_s=120.0).problems


@pytest.mark.heavy
def test_the_stdlib_part_is_the_whole_standard_library_folder():
    base = Path(sysconfig.get_paths()["stdlib"])
    stdlib = names("stdlib")
    count = sum(
        1
        for folder, dirs, files in os.walk(base)
        if not {"__pycache__", "site-packages", "dist-packages"} & set(Path(folder).parts)
        for f in files
        if not f.endswith((".pyc", ".pyo"))
    )
    assert len(stdlib) == count
