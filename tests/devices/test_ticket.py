"""Cash-out ticket data: amounts in words, validation numbers, the I2of5 barcode."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from devices import validation
from devices.errors import TicketDataError
from devices.itf import itf_decode, itf_modules, itf_pattern
from devices.ticket import TicketData, amount_in_words, format_cents
from devices.validation import (
    check_validation_number,
    format_validation_number,
    new_validation_number,
)


@pytest.mark.parametrize(
    ("cents", "words"),
    [
        (12345, "ONE HUNDRED TWENTY-THREE DOLLARS AND 45 CENTS"),
        (100, "ONE DOLLAR AND 00 CENTS"),
        (1, "ZERO DOLLARS AND 01 CENTS"),
        (0, "ZERO DOLLARS AND 00 CENTS"),
        (2000, "TWENTY DOLLARS AND 00 CENTS"),
        (1999, "NINETEEN DOLLARS AND 99 CENTS"),
        (10500, "ONE HUNDRED FIVE DOLLARS AND 00 CENTS"),
        (100000, "ONE THOUSAND DOLLARS AND 00 CENTS"),
        (
            123456789,
            "ONE MILLION TWO HUNDRED THIRTY-FOUR THOUSAND FIVE HUNDRED SIXTY-SEVEN "
            "DOLLARS AND 89 CENTS",
        ),
        (100101507, "ONE MILLION ONE THOUSAND FIFTEEN DOLLARS AND 07 CENTS"),
        (9_000_000_000_00, "NINE BILLION DOLLARS AND 00 CENTS"),
    ],
)
def test_amount_in_words(cents: int, words: str) -> None:
    assert amount_in_words(cents) == words


@pytest.mark.parametrize("bad", [-1, 1.5, True, "100", 10**14])
def test_amount_in_words_rejects_non_cents(bad: object) -> None:
    with pytest.raises(TicketDataError):
        amount_in_words(bad)  # type: ignore[arg-type]


def test_format_cents() -> None:
    assert format_cents(123456) == "$1,234.56"
    assert format_cents(5) == "$0.05"


def test_validation_number_is_18_digits_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    numbers = {new_validation_number() for _ in range(2000)}
    assert len(numbers) == 2000
    assert all(len(n) == 18 and n.isdigit() for n in numbers)
    assert {n[0] for n in numbers} == set("0123456789")  # leading zeros are kept, not skipped
    monkeypatch.setattr(validation.secrets, "randbelow", lambda n: 42)
    assert new_validation_number() == "000000000000000042"


def test_validation_number_avoids_taken_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter([7, 7, 8])
    monkeypatch.setattr(validation.secrets, "randbelow", lambda n: next(draws))
    taken = {"000000000000000007"}
    assert new_validation_number(taken.__contains__) == "000000000000000008"
    monkeypatch.setattr(validation.secrets, "randbelow", lambda n: 7)
    with pytest.raises(RuntimeError):
        new_validation_number(taken.__contains__, max_attempts=3)


def test_validation_number_format_and_check() -> None:
    assert format_validation_number("123456789012345678") == "12-3456-7890-1234-5678"
    for bad in (
        "12345678901234567",
        "12345678901234567x",
        "１２３４５６７８９０１２３４５６７８",
        12,
    ):
        with pytest.raises(TicketDataError):
            check_validation_number(bad)  # type: ignore[arg-type]


def test_itf_known_pattern_and_width() -> None:
    # start NNNN; "1" (WNNNW) in the bars, "2" (NWNNW) in the spaces; stop WNN
    assert itf_pattern("12") == (1, 1, 1, 1, 3, 1, 1, 3, 1, 1, 1, 1, 3, 3, 3, 1, 1)
    assert itf_pattern("12", wide=2)[4] == 2
    pattern = itf_pattern("123456789012345678")
    assert len(pattern) == 4 + 9 * 10 + 3 and sum(pattern) == 4 + 9 * 18 + 5
    modules = itf_modules("00")
    assert (
        modules.startswith("1010")
        and modules.endswith("11101")
        and len(modules) == sum(itf_pattern("00"))
    )


@given(
    st.text(alphabet="0123456789", min_size=1, max_size=15).map(lambda s: s * 2),
    st.sampled_from([2, 3]),
)
def test_itf_round_trip(digits: str, wide: int) -> None:
    assert itf_decode(itf_pattern(digits, wide)) == digits


@pytest.mark.parametrize("bad", ["", "123", "12a4", "١٢"])
def test_itf_rejects_odd_or_non_digit_data(bad: str) -> None:
    with pytest.raises(ValueError):
        itf_pattern(bad)


def make_ticket(**changes: object) -> TicketData:
    fields: dict[str, object] = dict(
        casino_name="GOLDEN NUGGET",
        address="129 E FREMONT ST, LAS VEGAS NV",
        machine_number="0042",
        issued_at=datetime(2026, 5, 8, 21, 15, 3),
        amount_cents=12345,
        sequence_number=17,
        validation_number="123456789012345678",
        expires_on=date(2026, 8, 6),
    )
    fields.update(changes)
    return TicketData(**fields)  # type: ignore[arg-type]


def test_ticket_data_derived_text() -> None:
    t = make_ticket()
    assert t.amount_words == "ONE HUNDRED TWENTY-THREE DOLLARS AND 45 CENTS"
    assert t.amount_figures == "$123.45"
    assert t.expiry_text == "VOID AFTER 08/06/2026"
    assert make_ticket(expires_on=None).expiry_text == "DOES NOT EXPIRE"
    assert t.ticket_type == "CASHOUT TICKET"


@pytest.mark.parametrize(
    "changes",
    [
        {"amount_cents": 0},
        {"amount_cents": 12.5},
        {"validation_number": "123"},
        {"sequence_number": -1},
        {"casino_name": " "},
        {"issued_at": "today"},
    ],
)
def test_ticket_data_is_validated(changes: dict) -> None:
    with pytest.raises(TicketDataError):
        make_ticket(**changes)
