"""TCL syntax: field escaping, status responses, command bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devices.errors import StatusFormatError, TicketDataError
from devices.tcl import (
    CASHOUT_LAYOUT,
    PrinterStatus,
    Region,
    StatusFlag,
    Template,
    escape_field,
    format_status,
    parse_status,
    print_command,
    unescape_field,
)
from devices.tcl.commands import build_command, parse_command

printable = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60)


def test_syntax_characters_are_escaped() -> None:
    assert escape_field("A|B^C~D") == "A~124B~094C~126D"
    assert unescape_field("A~124B~094C~126D") == "A|B^C~D"
    assert escape_field("~124") == "~126124"  # a literal escape-looking text survives


@given(printable)
def test_escape_round_trip_and_no_raw_syntax(text: str) -> None:
    escaped = escape_field(text)
    assert "|" not in escaped and "^" not in escaped
    assert unescape_field(escaped) == text


@pytest.mark.parametrize("bad", ["line\nbreak", "tab\t", "caf\u00e9", "\x05", "\x7f"])
def test_unprintable_field_text_is_rejected(bad: str) -> None:
    with pytest.raises(TicketDataError):
        escape_field(bad)


@pytest.mark.parametrize("bad", ["a|b", "a^b", "~12", "~", "~031"])
def test_unescape_rejects_malformed_fields(bad: str) -> None:
    with pytest.raises(ValueError):
        unescape_field(bad)


def test_command_bytes() -> None:
    assert build_command("C") == b"^C|^"
    assert print_command("C", ["A|B", "12"]) == b"^P|C|1|A~124B|12|^"
    assert parse_command(b"^P|C|1|A~124B|12|^") == ["P", "C", "1", "A~124B", "12"]
    region = Region("5", 260, 20, 160, 480, "l", 18, mul_1=2, mul_2=3)
    assert region.command() == b"^R|5|R|260|20|160|480||0|1|l|2|3|0|0||^"
    assert len(parse_command(region.command())) == 16
    assert Template("C", 1248, 520, ("1", "2")).command() == b"^T|C|R|1248|520|1|2|^"
    with pytest.raises(ValueError):
        build_command("P", "a|b")
    with pytest.raises(ValueError):
        Template("|", 1, 1, ()).command()
    for bad in (b"^P|^x", b"P|1|^", b"^P|\xff|^", b"^^|^"):
        with pytest.raises(ValueError):
            parse_command(bad)


def test_cashout_layout_is_consistent() -> None:
    ids = [r.region_id for r in CASHOUT_LAYOUT.regions]
    assert list(CASHOUT_LAYOUT.template.region_ids) == ids and len(set(ids)) == len(ids)
    assert [r for r in CASHOUT_LAYOUT.regions if r.is_barcode][0].max_chars == 18


def test_status_wire_format() -> None:
    status = PrinterStatus("0", "GURSIM-01", StatusFlag.BUSY | StatusFlag.PAPER_LOW, "C")
    raw = format_status(status)
    assert raw == b"*S|0|GURSIM-01|`|@|@|A|@|PC|*"
    assert len(raw) == 29  # the GEN2 length with a 9-character firmware id
    assert parse_status(raw) == status


def test_flag_byte_equal_to_separator_parses() -> None:
    flags = StatusFlag.PAPER_OUT | StatusFlag.HEAD_UP | StatusFlag.SYSTEM_ERROR | StatusFlag.BUSY
    raw = format_status(PrinterStatus("0", "FW", flags))
    assert raw[len(b"*S|0|FW|")] == ord("|")
    assert parse_status(raw).flags == flags


@given(
    st.integers(0, (1 << 40) - 1).map(lambda v: v & 0x3F3F3F3F3F), st.sampled_from([" ", "C", "0"])
)
def test_status_round_trip(bits: int, template: str) -> None:
    status = PrinterStatus("0", "GURXX-123", StatusFlag(bits), template)
    assert parse_status(format_status(status)) == status


@given(st.binary(max_size=60))
@settings(max_examples=300)
def test_status_parser_raises_only_status_format_error(data: bytes) -> None:
    try:
        parse_status(data)
    except StatusFormatError:
        pass


@pytest.mark.parametrize(
    "bad",
    [
        b"*S|0|FW|@|@|@|@|*",
        b"*S|0|FW|@|@|@|@|\x01|P |*",
        b"*S|0|FW|@@|@|@|@|P |*",
        b"S|0|FW|@|@|@|@|@|P |*",
    ],
)
def test_status_parser_rejects_malformed(bad: bytes) -> None:
    with pytest.raises(StatusFormatError):
        parse_status(bad)
