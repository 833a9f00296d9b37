"""Each rule of a strict paytable, with a file that breaks it; the shipped tables keep them."""

import hashlib
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from engine.hands.categories import HandCategory
from engine.hands.evaluator import category_floors
from engine.uth.paytable import (
    Limits,
    Pay,
    PaytableError,
    load_paytable,
    parse_paytable,
    shipped_paytables,
)
from engine.uth.paytable_rules import (
    INT64_MAX,
    MAX_AMOUNT,
    MAX_PAY_NUMERATOR,
    MAX_PAY_UNIT,
    worst_seat_return,
)
from engine.uth.settlement import settle

ROOT = Path(__file__).resolve().parents[3]
STANDARD = ROOT / "paytables" / "standard.toml"

#: The identity of the shipped tables: ledgers and PAR caches name them by these digests.
SHIPPED_SHA256 = {
    "standard": "1a0bfbb67830ae1d646478493a545befe576c8f95c2c8b5dec42db3e12773d5f",
    "trips-50-40-20-7-6-5-3": "a17477f5d05fba50d73040f628b1d0e8e0e2ef04e63af3214de5be83c2c43ea5",
    "trips-50-40-30-8-6-5-3": "38f0caba11ddb32c59575867a217a327b355e5e8139dde9720ecb94fccbed10e",
    "trips-50-40-30-9-7-4-3": "89371ab4c4be604a691e7846fa3f4c68ee72d7d6210cfb82c0952f8dd86c1340",
}


def _edit(*pairs: str) -> str:
    text = STANDARD.read_text()
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert old in text
        text = text.replace(old, new, 1)
    return text


def _refusal(text: str) -> PaytableError:
    with pytest.raises(PaytableError) as err:
        parse_paytable(text, "rule.toml")
    assert err.value.file == "rule.toml"
    assert err.value.field and err.value.reason
    assert str(err.value) == f"rule.toml: {err.value.field}: {err.value.reason}"
    return err.value


def test_shipped_tables_pass_and_keep_their_sha256():
    found = {p.stem: p for p in shipped_paytables()}
    assert set(found) == set(SHIPPED_SHA256)
    for stem, path in found.items():
        table = load_paytable(path)
        assert table.sha256 == SHIPPED_SHA256[stem]
        assert table.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
        assert table.source_name == str(path)
    load_paytable(ROOT / "tests" / "data" / "altered-blind-flush.toml")


AMOUNT = "limits.ante_min"


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        ("ante_min = true", "valid integer (found True)"),
        ('ante_min = "500"', "valid integer (found '500')"),
        ("ante_min = 500.0", "valid integer (found 500.0)"),
        ("ante_min = 5e2", "valid integer"),
        ("ante_min = nan", "valid integer"),
        ("ante_min = [500]", "valid integer"),
        ("ante_min = {cents = 500}", "valid integer"),
        ("ante_min = 1979-05-27", "valid integer"),
        ("ante_min = 0", "greater than 0"),
        ("ante_min = -500", "greater than 0"),
        ("ante_min = 100000000100", "less than or equal to 100000000000"),
        ("ante_min = 9223372036854775807", "less than or equal to 100000000000"),
        ("ante_min = 99999999999999999999999", "less than or equal to 100000000000"),
    ],
)
def test_an_amount_is_a_whole_number_of_cents_within_bounds(new, reason):
    err = _refusal(_edit("ante_min = 500", new))
    assert err.field == AMOUNT
    assert reason in err.reason


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("ante_max = 50000", 'ante_max = "50000"', "limits.ante_max"),
        ("ante_step = 100", "ante_step = 1.0e2", "limits.ante_step"),
        ("trips_min = 100", "trips_min = false", "limits.trips_min"),
        ("trips_max = 25000", "trips_max = 25000.0", "limits.trips_max"),
        ("chips = [100, 500, 2500, 10000]", "chips = [100, true]", "limits.chips.1"),
        ("chips = [100, 500, 2500, 10000]", 'chips = ["100"]', "limits.chips.0"),
        ("chips = [100, 500, 2500, 10000]", "chips = [100, 500.0]", "limits.chips.1"),
        ("chips = [100, 500, 2500, 10000]", "chips = 100", "limits.chips"),
        ("chips = [100, 500, 2500, 10000]", "chips = [100, 0]", "limits.chips.1"),
    ],
)
def test_every_limit_and_chip_is_strict(old, new, field):
    assert _refusal(_edit(old, new)).field == field


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        ("chips = [150, 500]", "chip 150 is not a multiple of ante_step 100"),
        ("chips = [100, 100000]", "chip 100000 is above ante_max 50000"),
        ("chips = []", "at least 1 item"),
        (f"chips = [{', '.join(str(100 * k) for k in range(1, 18))}]", "at most 16 items"),
    ],
)
def test_chips_fit_the_ante_limits(new, reason):
    err = _refusal(_edit("chips = [100, 500, 2500, 10000]", new))
    assert err.field.startswith("limits.chips")
    assert reason in err.reason


def test_operator_narrowed_limits_may_leave_chips_above_the_ante_max():
    limits = load_paytable(STANDARD).limits
    narrowed = Limits.model_validate({**limits.model_dump(), "ante_max": 5000})
    assert narrowed.ante_max == 5000 and max(narrowed.chips) == 10000
    with pytest.raises(ValidationError):
        Limits.model_validate({**limits.model_dump(), "ante_max": "5000"})


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        ('flush = "1:999999937"', "denominator is above 1,000"),
        ('flush = "3:1001"', "denominator is above 1,000"),
        ('flush = "1000001:1"', "numerator is above 1,000,000"),
        ("flush = 1000001", "numerator is above 1,000,000"),
        ("flush = 99999999999999999999", "numerator is above 1,000,000"),
        ('flush = "3:2000000000000000000000000000000000000"', "not of the form"),
        ("flush = true", "N:D"),
        ("flush = 1.5", "N:D"),
        ('flush = "\u0663:\u0662"', "not of the form"),  # Arabic-Indic digits
        ('flush = "3:2:1"', "not of the form"),
        ('flush = {numerator = "3", denominator = 2}', "whole numbers"),
        ("flush = {numerator = 3, denominator = true}", "whole numbers"),
        ("flush = {numerator = 3, denominator = 2, bonus = 1}", "N:D"),
        ('flush = "3:0"', "must be positive"),
    ],
)
def test_pays_are_bounded_exact_ratios(new, reason):
    err = _refusal(_edit('flush = "3:2"', new))
    assert err.field == "blind.flush"
    assert reason in err.reason


def test_pay_denominators_share_a_small_breakage_unit():
    text = _edit(
        'flush = "3:2"', 'flush = "3:997"', 'straight = "4:1"', 'straight = "4:991"'
    )  # 997 * 991 = 988,027: within the unit bound
    assert parse_paytable(text, "x").pay_denominator == 997 * 991 <= MAX_PAY_UNIT
    text = text.replace('three_of_a_kind = "3:1"', 'three_of_a_kind = "3:983"')
    err = _refusal(text)
    assert err.field == "trips.three_of_a_kind"
    assert "least common multiple" in err.reason and "1,000,000" in err.reason


def test_a_pay_built_in_code_keeps_the_bounds():
    with pytest.raises(ValidationError):
        Pay(numerator=1, denominator=999_999_937)
    with pytest.raises(ValidationError):
        Pay(numerator=True, denominator=1)
    table = load_paytable(STANDARD)
    huge = Pay(numerator=1, denominator=997)
    blind = table.blind.model_copy(update={"flush": huge})
    trips = table.trips.model_copy(
        update={
            "flush": Pay(numerator=1, denominator=991),
            "straight": Pay(numerator=1, denominator=983),
        }
    )
    with pytest.raises(ValidationError, match="least common multiple"):
        table.model_copy(update={"blind": blind, "trips": trips})


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        ('name = "Stan\u202edard"', "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ('name = "Stan\u202adard"', "U+202A"),
        ('name = "Stan\u2066dard"', "U+2066"),
        ('name = "Stan\u2069dard"', "U+2069"),
        ('name = "Stan\u200fdard"', "U+200F"),
        ('name = "Stan\u200edard"', "U+200E"),
        ('name = "Stan\u200ddard"', "U+200D"),
        ('name = "Stan\\u0007dard"', "U+0007"),
        ('name = "Stan\\tdard"', "U+0009"),
        ('name = "Stan\\u2028dard"', "U+2028"),
        ('name = "Stan\u00addard"', "U+00AD"),
        ('name = "Stan\\ue000dard"', "U+E000"),
        ('name = "Stan\u00a0dard"', "U+00A0"),
        (f'name = "{"S" * 65}"', "65 characters long; at most 64"),
        ('name = ""', "blank"),
        ('name = "   "', "blank"),
        ('name = " Standard"', "start or end with a space"),
        ("name = 1", "valid string (found 1)"),
        ("name = true", "valid string"),
        ('name = ["Standard"]', "valid string"),
    ],
)
def test_names_are_printable_and_short(new, reason):
    err = _refusal(_edit('name = "Standard"', new))
    assert err.field == "name"
    assert reason in err.reason
    assert err.reason.isprintable()


def test_names_may_use_printable_unicode_up_to_64_characters():
    t = parse_paytable(_edit('name = "Standard"', f'name = "Éstándar 標準 ♠♥ {"x" * 49}"'), "x")
    assert len(t.name) == 64


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ('version = "1.0"', "version = 1.0", "version", "valid string"),
        ('version = "1.0"', 'version = "1.0\u202e"', "version", "U+202E"),
        ('currency = "USD"', 'currency = "usd"', "currency", "three capital letters"),
        ('currency = "USD"', 'currency = "US$"', "currency", "three capital letters"),
        ('currency = "USD"', 'currency = "DOLLARS"', "currency", "three capital letters"),
        ('currency = "USD"', 'currency = "\uff35SD"', "currency", "three capital letters"),
        ('qualifies_with = "pair"', "qualifies_with = 2", "dealer.qualifies_with", "valid string"),
        (
            'qualifies_with = "pair"',
            f'qualifies_with = "{"x" * 10000}"',
            "dealer.qualifies_with",
            "unknown hand",
        ),
    ],
)
def test_other_texts_are_strict(old, new, field, reason):
    err = _refusal(_edit(old, new))
    assert err.field == field
    assert reason in err.reason
    assert len(err.reason) < 300


@pytest.mark.parametrize("name", ["source_sha256", "source_name"])
def test_internal_fields_are_not_accepted_from_a_file(name):
    err = _refusal(_edit('name = "Standard"', f'name = "Standard"\n{name} = "{"0" * 64}"'))
    assert err.field == name
    assert "set by the loader" in err.reason


@pytest.mark.parametrize(
    ("new", "field"),
    [
        ('name = "Standard"\nsha256 = "00"', "sha256"),
        ('name = "Standard"\npay_denominator = 2', "pay_denominator"),
        ('name = "Standard"\n"bonus\u202e" = 1', "'bonus\\u202e'"),
    ],
)
def test_unknown_fields_are_refused_and_named_safely(new, field):
    err = _refusal(_edit('name = "Standard"', new))
    assert (err.field, err.reason) == (field, "unknown field")


def test_unknown_fields_inside_sections_are_refused():
    assert _refusal(_edit("ante_min = 500", "ante_min = 500\nante_hint = 1")).field == (
        "limits.ante_hint"
    )
    assert _refusal(_edit('flush = "3:2"', 'flush = "3:2"\npair = "1:1"')).field == "blind.pair"


def test_one_seat_at_the_bounds_fits_an_int64():
    assert 40 * worst_seat_return(MAX_AMOUNT, MAX_AMOUNT, MAX_PAY_NUMERATOR) < INT64_MAX
    assert 10**6 * MAX_PAY_UNIT * (MAX_PAY_NUMERATOR + 1) < INT64_MAX


def test_the_most_extreme_accepted_table_settles_exactly():
    big = MAX_AMOUNT
    text = _edit(
        "ante_min = 500", f"ante_min = {big}",
        "ante_max = 50000", f"ante_max = {big}",
        "trips_max = 25000", f"trips_max = {big}",
        "chips = [100, 500, 2500, 10000]", f"chips = [100, {big}]",
        'royal_flush = "500:1"', f'royal_flush = "{MAX_PAY_NUMERATOR}:997"',
        'royal_flush = "50:1"', f'royal_flush = "{MAX_PAY_NUMERATOR}:997"',
    )  # fmt: skip
    table = parse_paytable(text, "extreme")
    floors = category_floors()
    strengths = np.array([floors[c] for c in HandCategory], np.int64)
    n = len(strengths)
    res = settle(
        np.full(n, big), np.full(n, 4 * big), np.full(n, big), np.zeros(n, bool), strengths,
        np.zeros(n, np.int64), table,
    )  # fmt: skip
    royal = int(HandCategory.ROYAL_FLUSH)
    assert int(res.blind_return[royal]) == big + big * MAX_PAY_NUMERATOR // 997
    assert int(res.trips_return[royal]) == big + big * MAX_PAY_NUMERATOR // 997
    assert int(res.returned.max()) < INT64_MAX // 40
    assert np.all(res.net == res.returned - res.staked)
