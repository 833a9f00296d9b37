"""The cabinet configuration is strict: no coercion, bounded amounts, safe names, RTP
bounds within 75-100%, hostile files refused cleanly; every refusal names the file,
the field and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.cli import main as uth
from kiosk.config import MAX_FILE_BYTES, ConfigError, load_config

INT64_MAX = 2**63 - 1


def refusal(tmp_path: Path, text: str | bytes) -> ConfigError:
    path = tmp_path / "cabinet.toml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    e = err.value
    assert e.file == str(path) and e.field and e.reason
    assert str(e) == f"{path}: {e.field}: {e.reason}"
    return e


@pytest.mark.parametrize(
    ("line", "field", "reason"),
    [
        ("credit_limit_cents = true", "credit_limit_cents", "valid integer"),
        ('credit_limit_cents = "500"', "credit_limit_cents", "valid integer"),
        ("credit_limit_cents = 500.0", "credit_limit_cents", "valid integer"),
        ("credit_limit_cents = 0", "credit_limit_cents", "greater than 0"),
        ("credit_limit_cents = -5", "credit_limit_cents", "greater than 0"),
        (f"credit_limit_cents = {INT64_MAX + 1}", "credit_limit_cents", "less than or equal"),
        ("jackpot_limit_cents = 2000000", "jackpot_limit_cents", "above credit_limit_cents"),
        ("accepted_bills = [100, true]", "accepted_bills.1", "valid integer"),
        ('accepted_bills = [100, "500"]', "accepted_bills.1", "valid integer"),
        ("accepted_bills = [100, 500.0]", "accepted_bills.1", "valid integer"),
        ("accepted_bills = [100, 0]", "accepted_bills.1", "greater than 0"),
        ("accepted_bills = [100, 2000000]", "accepted_bills.1", "above credit_limit_cents"),
        ("accepted_bills = 100", "accepted_bills", "valid tuple"),
        ("ticket_expiry_days = 30.0", "ticket_expiry_days", "valid integer"),
        ('ticket_expiry_days = "30"', "ticket_expiry_days", "valid integer"),
        ("rtp_min_pct = 74.9", "rtp_min_pct", "greater than or equal to 75"),
        ("rtp_max_pct = 100.5", "rtp_max_pct", "less than or equal to 100"),
        ('rtp_max_pct = "99"', "rtp_max_pct", "valid number"),
        ("rtp_max_pct = true", "rtp_max_pct", "valid number"),
        ("rtp_max_pct = nan", "rtp_max_pct", "finite number"),
        ("rtp_min_pct = 99.0\nrtp_max_pct = 98.0", "rtp_min_pct", "above rtp_max_pct"),
        ("demo = 1", "demo", "valid boolean"),
        ('demo = "true"', "demo", "valid boolean"),
        ('casino_name = "Casino\\u202eRoyale"', "casino_name", "U+202E"),
        ('casino_name = "Casino\\u0007"', "casino_name", "U+0007"),
        ('casino_name = "Casino\\u200fRoyale"', "casino_name", "U+200F"),
        ('casino_name = "Casino\\nRoyale"', "casino_name", "U+000A"),
        (f'casino_name = "{"x" * 65}"', "casino_name", "at most 64"),
        ('casino_address = "   "', "casino_address", "blank"),
        ('machine_number = " 0042"', "machine_number", "start or end with a space"),
        ("machine_number = 42", "machine_number", "valid string"),
        ('db_path = ""', "db_path", "must name a file"),
        ('db_path = "var/\\u0000uth.db"', "db_path", "control"),
        ("db_path = 5", "db_path", "valid path"),
        ('printer_port = "COM3"', "printer_port", "device path"),
        ('printer_port = "/dev/tty\\u001b"', "printer_port", "printable"),
        ("colour = 'red'", "colour", "unknown field"),
        ("[operator_pins]\nattendant = '1111'", "operator_pins", "unknown field"),
    ],
)
def test_values_are_not_coerced_and_stay_in_bounds(tmp_path, line, field, reason):
    e = refusal(tmp_path, line + "\n")
    assert e.field == field and reason in e.reason, str(e)


@pytest.mark.parametrize(
    ("text", "field", "reason"),
    [
        ("x = " + "[" * 5000 + "]" * 5000, "(syntax)", "nested too deeply"),
        ("x = " + "{a = " * 3000 + "1" + "}" * 3000, "(syntax)", "nested too deeply"),
        ("a" + ".a" * 200 + " = 1", "(syntax)", "more than 64 dots"),
        ("casino_name = 'x'\n" + "#" * (MAX_FILE_BYTES + 10), "(file)", "more than"),
        (b"casino_name = '\xff'\n", "(file)", "not UTF-8"),
        (b"casino_name = 'a'\x00\n", "(file)", "NUL"),
        ("casino_name = \n", "(syntax)", "Invalid value"),
        ("x = " + "9" * 5000, "(syntax)", "unreadable value"),
    ],
)
def test_hostile_files_give_a_clean_refusal(tmp_path, text, field, reason):
    e = refusal(tmp_path, text)
    assert e.field == field and reason in e.reason, str(e)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "nope.toml")
    assert err.value.file.endswith("nope.toml") and err.value.field == "(file)"


def test_a_valid_file_loads_without_coercion(tmp_path):
    path = tmp_path / "cabinet.toml"
    path.write_text(
        'db_path = "var/uth.db"\nrtp_min_pct = 85\nrtp_max_pct = 99.5\n'
        "accepted_bills = [100, 500]\ncredit_limit_cents = 500000\njackpot_limit_cents = 500000\n"
        'casino_name = "Casino Royale é 日本"\n'
    )
    c = load_config(path)
    assert (c.rtp_min_pct, c.accepted_bills, c.jackpot_limit_cents) == (85.0, (100, 500), 500000)
    assert c.db_path == Path("var/uth.db") and not c.demo


@pytest.mark.parametrize(
    "text", ["x = " + "[" * 5000 + "]" * 5000, "credit_limit_cents = true", "a" + ".a" * 500 + "=1"]
)
def test_uth_refuses_a_bad_configuration_with_exit_2_and_no_traceback(tmp_path, capsys, text):
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    for argv in (["kiosk", "--config", str(path)], ["autoplay", "--rounds", "1", "--config", str(path)]):
        assert uth(argv) == 2
        err = capsys.readouterr().err
        assert str(path) in err and "Traceback" not in err
