"""Hostile paytable files: deep nesting, huge files, bad encodings, duplicate keys.

Each gives a clean :class:`PaytableError` naming the file, fast, and ``uth paytable
check`` exits 2 with the message and no traceback.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.uth.paytable import PaytableError, load_paytable, parse_paytable, parse_paytable_bytes
from engine.uth.paytable_rules import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parents[3]
STANDARD = ROOT / "paytables" / "standard.toml"
TEXT = STANDARD.read_text()

DEEP = {
    "nested arrays": "a = " + "[" * 10_000 + "]" * 10_000,
    "nested inline tables": "a = " + "{b = " * 10_000 + "1" + "}" * 10_000,
    "nested pay": TEXT.replace('flush = "3:2"', "flush = " + "[" * 10_000 + "]" * 10_000),
    "dotted header": "[" + "a." * 20_000 + "b]",
    "dotted key": "a." * 30_000 + "b = 1",
    "dotted inline key": "a = {" + "b." * 30_000 + "c = 1}",
    "dotted limits": TEXT.replace("[limits]", "[limits." + "a." * 20_000 + "b]"),
}


@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP.keys())
def test_deep_nesting_is_a_clean_error(text):
    t0 = time.perf_counter()
    with pytest.raises(PaytableError) as err:
        parse_paytable(text, "deep.toml")
    assert time.perf_counter() - t0 < 1.0
    assert err.value.file == "deep.toml" and err.value.field and err.value.reason
    assert len(str(err.value)) < 400


def test_moderately_dotted_keys_are_still_read():
    with pytest.raises(PaytableError) as err:
        parse_paytable(TEXT + "[" + "a." * 60 + "b]\n", "x")
    assert (err.value.field, err.value.reason) == ("a", "unknown field")
    strings = 'version = "' + "." * 500 + '"\n# ' + "." * 500 + "\n"
    with pytest.raises(PaytableError) as err:
        parse_paytable(TEXT.replace('version = "1.0"\n', strings), "x")
    assert err.value.field == "version" and "characters long" in err.value.reason


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as f:
        f.truncate(50 * 2**20)  # 50 MiB
    with pytest.raises(PaytableError) as err:
        load_paytable(huge)
    assert (err.value.file, err.value.field) == (str(huge), "(file)")
    assert f"{MAX_FILE_BYTES:,} bytes" in err.value.reason


def test_an_endless_stream_is_read_only_up_to_the_cap():
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    with pytest.raises(PaytableError) as err:
        load_paytable("/dev/zero")
    assert err.value.field == "(file)" and "bytes" in err.value.reason


def test_text_and_bytes_over_the_cap_are_refused():
    padding = "#" * MAX_FILE_BYTES + "\n"
    for call in (
        lambda: parse_paytable(TEXT + padding, "big.toml"),
        lambda: parse_paytable_bytes((TEXT + padding).encode(), "big.toml"),
    ):
        with pytest.raises(PaytableError) as err:
            call()
        assert (err.value.file, err.value.field) == ("big.toml", "(file)")
    parse_paytable(TEXT + "#" * (MAX_FILE_BYTES - len(TEXT) - 2) + "\n", "just-fits.toml")


@pytest.mark.parametrize(
    ("raw", "field", "reason"),
    [
        (TEXT.encode().replace(b"Standard", b"Stan\xffdard"), "(file)", "not UTF-8 text (byte "),
        (TEXT.encode().replace(b"Standard", b"Stan\xed\xa0\x80dard"), "(file)", "not UTF-8"),
        (TEXT.encode()[:-3] + b"\xe2\x82", "(file)", "not UTF-8"),
        (TEXT.encode().replace(b"Standard", b"Stan\x00dard"), "(file)", "NUL character (line 2)"),
        (TEXT.encode().replace(b"# The", b"# \x00The"), "(file)", "NUL character (line 1)"),
        (TEXT.encode() + b'\nname = "again"\n', "trips.name", "unknown field"),
        (TEXT.encode().replace(b"[limits]", b'name = "again"\n[limits]'), "(syntax)", "overwrite"),
        (TEXT.encode() + b"\n[limits]\nante_min = 500\n", "(syntax)", "twice"),
        (
            TEXT.encode().replace(b"ante_min = 500", b"ante_min = 500\nante_min = 600"),
            "(syntax)",
            "",
        ),
        (b"\xef\xbb\xbf" + TEXT.encode(), "(syntax)", ""),
        (
            TEXT.encode().replace(b"ante_min = 500", b"ante_min = " + b"9" * 5000),
            "(syntax)",
            "digits",
        ),
        (TEXT.encode().replace(b"Standard", b"Stan\x07dard"), "(syntax)", "Illegal character"),
        (b"", "name", "line is missing"),
        (b"\n\n\n", "name", "line is missing"),
        (b"[", "(syntax)", ""),
    ],
)
def test_bad_bytes_give_clean_errors(raw, field, reason):
    with pytest.raises(PaytableError) as err:
        parse_paytable_bytes(raw, "bytes.toml")
    assert err.value.file == "bytes.toml"
    assert err.value.field == field
    assert reason in err.value.reason
    assert err.value.reason and err.value.reason.isprintable()


def test_a_string_that_is_not_unicode_text_is_refused():
    with pytest.raises(PaytableError) as err:
        parse_paytable(TEXT.replace("Standard", "Stan\udcffdard"), "s.toml")
    assert (err.value.field, err.value.reason[:12]) == ("(file)", "not UTF-8 te")


def test_line_ends_are_read_as_read_text_reads_them(tmp_path):
    crlf = tmp_path / "crlf.toml"
    crlf.write_bytes(TEXT.encode().replace(b"\n", b"\r\n"))
    assert load_paytable(crlf).sha256 == load_paytable(STANDARD).sha256
    assert load_paytable(crlf).sha256 == parse_paytable(crlf.read_text(), "x").sha256


def test_paths_that_are_not_files_are_clean_errors(tmp_path):
    for path in (tmp_path, tmp_path / "missing.toml", f"{tmp_path}/a\0b.toml"):
        with pytest.raises(PaytableError) as err:
            load_paytable(path)
        assert err.value.field == "(file)" and err.value.reason


HOSTILE = {
    "deep": ("a = " + "[" * 10_000 + "]" * 10_000).encode(),
    "nul": TEXT.encode().replace(b"Standard", b"Stan\x00dard"),
    "latin1": TEXT.encode().replace(b"Standard", b"Stan\xe9dard"),
    "coerced": TEXT.encode().replace(b"ante_min = 500", b'ante_min = "500"'),
    "bidi": TEXT.replace("Standard", "Stan\u202edard").encode(),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_cli_check_exits_2_with_the_message(name, tmp_path, capsys):
    from kiosk.cli import main

    bad = tmp_path / f"{name}.toml"
    bad.write_bytes(HOSTILE[name])
    assert main(["paytable", "check", str(bad)]) == 2
    out = capsys.readouterr().out
    assert out.startswith(f"error: {bad}: ")
    assert out.isprintable() or out.rstrip("\n").isprintable()


def test_cli_check_of_a_huge_nested_file_prints_no_traceback(tmp_path):
    bad = tmp_path / "huge.toml"
    with bad.open("wb") as f:
        f.write(b"a = " + b"[" * 60_000)
        f.truncate(50 * 2**20)
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from kiosk.cli import main; sys.exit(main())",
         "paytable", "check", str(bad)],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )  # fmt: skip
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert f"error: {bad}: (file): " in proc.stdout
