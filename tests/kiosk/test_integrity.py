"""Program verification: the seeded digests, the CRC-16 ROM signature, the manifest and
the power-up check, on a copy of the real program tree."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import shutil
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.config import load_config
from kiosk.game.vocabulary import SEAT
from kiosk.integrity import (
    ALGORITHMS,
    PROGRAM_DIRS,
    PROGRAM_ROOT,
    PROGRAM_TILT,
    ProgramTreeError,
    build_manifest,
    check_program,
    crc16_kermit,
    parse_seed,
    program_crc16,
    program_digest,
    program_files,
    startup_check,
    write_manifest,
)
from kiosk.integrity.files import program_stream
from kiosk.integrity.signing import release_fingerprint
from kiosk.wiring.lone_cabinet import LoneCabinet

#: The development release key (public: see keys/README.md).
DEV_KEY = PROGRAM_ROOT / "keys" / "release-dev.ed25519"

#: Every kind of file the program holds, by suffix (code, tables, paytables, catalogues,
#: fonts, sounds, the phones' web page, the fonts' licence), read from the program itself
#: so a new kind is covered as soon as it ships.
KINDS = tuple(
    sorted(
        {
            "." + f.name.rsplit(".", 1)[-1]
            for f in program_files(PROGRAM_ROOT)
            if "." in f.name.rsplit("/", 1)[-1]
        }
    )
)


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A copy of the whole program tree with its manifest written for the copy."""
    root = tmp_path_factory.mktemp("program")
    for top in PROGRAM_DIRS:
        shutil.copytree(
            PROGRAM_ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    write_manifest(root, version="9.9.9", key=DEV_KEY)
    return root


@pytest.fixture
def copy(tree, tmp_path) -> Path:
    root = tmp_path / "copy"
    shutil.copytree(tree, root)
    return root


def flip(path: Path, offset: int | None = None) -> None:
    data = bytearray(path.read_bytes())
    at = len(data) // 2 if offset is None else offset
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def one_of_kind(root: Path, suffix: str) -> Path:
    return next(f.path for f in program_files(root) if f.name.endswith(suffix))


def test_the_file_set_holds_every_kind_and_no_bytecode(tree):
    names = [f.name for f in program_files(tree)]
    assert {".py", ".npz", ".toml", ".mo", ".po", ".ttf", ".otf", ".wav", ".html"} <= set(KINDS)
    for suffix in KINDS:
        assert any(n.endswith(suffix) for n in names), suffix
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert "kiosk/integrity/manifest.json" not in names
    assert names == sorted(names, key=lambda n: n.encode("utf-8"))
    assert {"paytables/standard.toml", "kiosk/locale/fr/LC_MESSAGES/uth.mo"} <= set(names)


def test_canonical_order_is_by_utf8_bytes_not_by_the_file_system(tmp_path):
    for top in PROGRAM_DIRS:
        (tmp_path / top).mkdir()
    for name in ("b.py", "B.py", "_x.py", "a/z.py", "a.py"):
        (tmp_path / "engine" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "engine" / name).write_text(name)
    assert [f.name for f in program_files(tmp_path)] == [
        "engine/B.py",
        "engine/_x.py",
        "engine/a.py",
        "engine/a/z.py",
        "engine/b.py",
    ]


@pytest.mark.parametrize("suffix", KINDS)
def test_a_flipped_byte_in_each_kind_of_file_changes_every_digest(tree, copy, suffix):
    seed = bytes.fromhex("0badcafe")
    before = {a: program_digest(seed, a, copy, runtime=False) for a in ALGORITHMS}
    crc_before = program_crc16(0x1234, copy, runtime=False)
    assert before == {a: program_digest(seed, a, tree, runtime=False) for a in ALGORITHMS}
    flip(one_of_kind(copy, suffix))
    after = {a: program_digest(seed, a, copy, runtime=False) for a in ALGORITHMS}
    assert all(after[a] != before[a] for a in ALGORITHMS)
    assert program_crc16(0x1234, copy, runtime=False) != crc_before
    check = check_program(copy, bound_s=60)  # the finding, not the power-up's time bound
    assert not check.ok and any(
        p.startswith("changed ") and p.endswith(suffix) for p in check.problems
    )


def test_the_algorithms_are_the_documented_ones(tree):
    seed = b"\x01\x02"
    stream = b"".join(program_stream(program_files(tree)))
    own = {"root": tree, "runtime": False}
    assert program_digest(seed, "sha256", **own) == hashlib.sha256(seed + stream).hexdigest()
    assert program_digest(seed, "sha1", **own) == hashlib.sha1(seed + stream).hexdigest()
    assert program_digest(seed, "hmac-sha1", **own) == hmac.new(seed, stream, "sha1").hexdigest()
    assert program_digest(b"\x01\x03", "sha256", **own) != program_digest(seed, "sha256", **own)
    assert build_manifest(tree)["digest"] == hashlib.sha256(stream).hexdigest()


def test_crc16_kermit_is_the_standard_one_and_chains():
    assert crc16_kermit(b"123456789") == 0x2189
    assert crc16_kermit(b"") == 0
    assert crc16_kermit(b"56789", crc16_kermit(b"1234")) == 0x2189

    def bitwise(data: bytes, crc: int) -> int:
        for byte in data:
            crc ^= byte
            for _ in range(8):
                crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        return crc

    for seed in (0, 1, 0xFFFF, 0xBEEF):
        assert crc16_kermit(b"ROM signature", seed) == bitwise(b"ROM signature", seed)


def test_crc16_seed_is_sixteen_bits_and_changes_the_signature(tree):
    assert program_crc16(0, tree, runtime=False) != program_crc16(1, tree, runtime=False)
    with pytest.raises(ValueError, match="16-bit"):
        program_crc16(0x10000, tree)


def test_a_renamed_added_or_removed_file_is_found(tree, copy):
    assert check_program(copy, bound_s=60).ok
    (copy / "engine" / "extra.py").write_text("x = 1\n")
    (copy / "paytables" / "standard.toml").rename(copy / "paytables" / "standard2.toml")
    problems = check_program(copy, bound_s=60).problems
    assert "extra file engine/extra.py" in problems
    assert "missing paytables/standard.toml" in problems
    assert "extra file paytables/standard2.toml" in problems


def test_a_missing_or_broken_manifest_or_tree_is_a_failed_check(copy, tmp_path):
    manifest = copy / "kiosk" / "integrity" / "manifest.json"
    manifest.write_text("{not json")
    assert not check_program(copy, bound_s=60).ok and "unreadable" in check_program(copy, bound_s=60).problems[0]
    manifest.unlink()
    assert "no manifest" in check_program(copy, bound_s=60).problems[0]
    with pytest.raises(ProgramTreeError, match="assets/ is missing"):
        program_files(tmp_path / "nothing")


def test_the_check_is_bounded_in_time(copy):
    ticks = iter(range(1000))
    check = check_program(copy, bound_s=3, clock=lambda: next(ticks))
    assert not check.ok and check.problems == ("not finished within 3 s",)


def test_the_whole_program_matches_a_manifest_written_for_it(tree):
    """(Its time is measured by bench/integrity.py, not here.)"""
    check = check_program(tree, bound_s=60.0)
    assert check.ok, check.problems
    assert check.version == "9.9.9"
    assert (
        check.digest == json.loads((tree / "kiosk/integrity/manifest.json").read_text())["digest"]
    )


def test_the_shipped_manifest_matches_this_program():
    """A change to a program file comes with its manifest (``uth verify manifest --write``):
    otherwise the demo warns at every start and an installed cabinet tilts."""
    check = check_program(PROGRAM_ROOT, bound_s=60.0)
    assert check.ok, f"run uth verify manifest --write: {check.problems}"


def test_the_shipped_manifest_is_packaged_and_readable():
    data = json.loads((PROGRAM_ROOT / "kiosk/integrity/manifest.json").read_text())
    assert data["format"] == 2 and data["algorithm"] == "sha256"
    assert data["signature"]["key"] == release_fingerprint()
    assert "kiosk/integrity/manifest.py" in data["files"]
    pyproject = (PROGRAM_ROOT / "pyproject.toml").read_text()
    assert "integrity/manifest.json" in pyproject


def test_an_installed_cabinet_tilts_and_a_demo_warns(copy, tmp_path, caplog):
    flip(one_of_kind(copy, ".toml"))
    machine = LoneCabinet.open(load_config(db_path=tmp_path / "inst.db", demo=False))
    try:
        result = startup_check(machine.table, SEAT, demo=False, root=copy)
        assert not result.ok
        tilts = {t.code: t.message for t in machine.station.snapshot().tilts}
        assert PROGRAM_TILT in tilts and "changed paytables/" in tilts[PROGRAM_TILT]
    finally:
        machine.close()
    demo = LoneCabinet.open(load_config(db_path=tmp_path / "demo.db"))
    try:
        with caplog.at_level(logging.WARNING, logger="kiosk.integrity.startup"):
            assert not startup_check(demo.table, SEAT, demo=True, root=copy).ok
        assert PROGRAM_TILT not in {t.code for t in demo.station.snapshot().tilts}
        assert "does not match its manifest" in caplog.text
    finally:
        demo.close()


def test_a_matching_program_does_not_tilt(tree, tmp_path):
    machine = LoneCabinet.open(load_config(db_path=tmp_path / "ok.db", demo=False))
    try:
        assert startup_check(machine.table, SEAT, demo=False, root=tree).ok
        assert PROGRAM_TILT not in {t.code for t in machine.station.snapshot().tilts}
    finally:
        machine.close()


def test_parse_seed_refuses_what_is_not_hex():
    assert parse_seed("0x0A0b") == b"\x0a\x0b" and parse_seed("") == b""
    for bad in ("abc", "zz", "12 34x"):
        with pytest.raises(ValueError):
            parse_seed(bad)


def test_the_commands(tree, copy, capsys):
    own = ["--root", str(tree), "--program-only"]
    assert main(["verify", "program", "--seed", "00ff", *own, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["digest"] == program_digest(b"\x00\xff", "sha256", tree, runtime=False)
    assert main(["verify", "program", "--seed", "00ff", "--algorithm", "hmac-sha1", *own]) == 0
    assert program_digest(b"\x00\xff", "hmac-sha1", tree, False) in capsys.readouterr().out
    assert main(["verify", "program", "--seed", "xyz", *own]) == 2
    assert "hex" in capsys.readouterr().err
    assert main(["verify", "crc16", "--seed", "1234", *own]) == 0
    assert capsys.readouterr().out.strip() == f"{program_crc16(0x1234, tree, False):04X}"
    assert main(["verify", "manifest", "--root", str(tree)]) == 0
    flip(one_of_kind(copy, ".py"))
    assert main(["verify", "manifest", "--root", str(copy)]) == 1
    assert "does not match" in capsys.readouterr().out
    assert main(["verify", "manifest", "--write", "--root", str(copy), "--key", str(DEV_KEY)]) == 0
    assert main(["verify", "manifest", "--root", str(copy)]) == 0
