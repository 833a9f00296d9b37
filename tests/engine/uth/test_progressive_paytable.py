"""The ``[progressive]`` section of a paytable: read, and refused when incoherent."""

from pathlib import Path

import pytest

from engine.hands.categories import HandCategory
from engine.uth.paytable import PaytableError, load_paytable, parse_paytable, shipped_paytables

DATA = Path(__file__).resolve().parents[2] / "data" / "paytables"
EXAMPLE = DATA / "progressive-example.toml"
STANDARD = Path(__file__).resolve().parents[3] / "paytables" / "standard.toml"


def test_the_example_reads_with_its_lines():
    p = load_paytable(EXAMPLE).progressive
    assert p is not None
    assert (p.wager, p.contribution_bp, p.reserve_bp, p.reset, p.ceiling, p.split) == (
        100,
        2000,
        200,
        1_000_000,
        100_000_000,
        "share",
    )
    lines = p.awards.lines()
    assert list(lines) == [
        HandCategory.ROYAL_FLUSH,
        HandCategory.STRAIGHT_FLUSH,
        HandCategory.FOUR_OF_A_KIND,
        HandCategory.FULL_HOUSE,
        HandCategory.FLUSH,
        HandCategory.STRAIGHT,
        HandCategory.THREE_OF_A_KIND,
    ]
    assert lines[HandCategory.ROYAL_FLUSH].meter_bp == 10_000
    assert lines[HandCategory.FOUR_OF_A_KIND].cents == 30_000
    assert (p.meter_contribution, p.reserve_contribution) == (20, 2)
    assert p.top == HandCategory.ROYAL_FLUSH


def test_a_paytable_without_it_is_unchanged():
    for path in shipped_paytables():
        assert load_paytable(path).progressive is None
    standard = parse_paytable(STANDARD.read_text(), "standard.toml")
    built = standard.model_copy(update={"name": "Built"})
    # A table built in code hashes as it did before the section existed (the digest
    # the program gave such a table then).
    assert built.sha256 == "3106c0b0ff8a536444e3cb6dcde9bf8d4f870d823e1c6715db86b86f32f717b2"
    with_it = built.model_copy(update={"progressive": load_paytable(EXAMPLE).progressive})
    assert with_it.sha256 != built.sha256


def _edit(old: str, new: str) -> str:
    text = EXAMPLE.read_text()
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        (
            "contribution_bp = 2000",
            "contribution_bp = 9900",
            "progressive.reserve_bp",
            "contributions of 101% of the wager are over 100%",
        ),
        (
            "contribution_bp = 2000",
            "contribution_bp = 10001",
            "progressive.contribution_bp",
            "less than or equal to 10000",
        ),
        (
            "contribution_bp = 2000",
            "contribution_bp = 0",
            "progressive.contribution_bp",
            "nothing would feed the meter",
        ),
        (
            "contribution_bp = 2000",
            "contribution_bp = 2050",
            "progressive.contribution_bp",
            "not a whole number of cents",
        ),
        (
            "reserve_bp = 200",
            "reserve_bp = 250",
            "progressive.reserve_bp",
            "not a whole number of cents",
        ),
        (
            "reserve_bp = 200",
            "reserve_bp = -1",
            "progressive.reserve_bp",
            "greater than or equal to 0",
        ),
        (
            "four_of_a_kind = { cents = 30000 }",
            "four_of_a_kind = { cents = 1000001 }",
            "progressive.awards.four_of_a_kind.cents",
            "fixed award 1000001 is above the reset 1000000",
        ),
        (
            "flush = { cents = 4000 }",
            "flush = { cents = 6000 }",
            "progressive.awards.flush.cents",
            "above the full_house award 5000",
        ),
        (
            "ceiling = 100000000",
            "ceiling = 999999",
            "progressive.ceiling",
            "ceiling 999999 is below the reset 1000000",
        ),
        ("wager = 100", "wager = 0", "progressive.wager", "greater than 0"),
        ("wager = 100", 'wager = "100"', "progressive.wager", "valid integer"),
        ("wager = 100", "wager = 100.0", "progressive.wager", "valid integer"),
        ("reset = 1000000", "reset = true", "progressive.reset", "valid integer"),
        ('cards = "first_five"', 'cards = "seven"', "progressive.cards", "'seven' is not offered"),
        ('cards = "first_five"', 'cards = "six"', "progressive.cards", "unknown cards"),
        (
            'split = "share"',
            'split = "winner_takes_all"',
            "progressive.split",
            "'share' or 'sequential'",
        ),
        (
            "royal_flush = { meter_bp = 10000 }",
            "royal_flush = { meter_bp = 10001 }",
            "progressive.awards.royal_flush.meter_bp",
            "less than or equal to 10000",
        ),
        (
            "royal_flush = { meter_bp = 10000 }",
            "royal_flush = { meter_bp = 0 }",
            "progressive.awards.royal_flush.meter_bp",
            "greater than 0",
        ),
        (
            "royal_flush = { meter_bp = 10000 }",
            "royal_flush = { meter_bp = 10000, cents = 5 }",
            "progressive.awards.royal_flush",
            "either meter_bp",
        ),
        (
            "royal_flush = { meter_bp = 10000 }",
            "royal_flush = {}",
            "progressive.awards.royal_flush",
            "either meter_bp",
        ),
        (
            "royal_flush = { meter_bp = 10000 }",
            'royal_flush = "100%"',
            "progressive.awards.royal_flush",
            "valid dictionary",
        ),
        (
            "three_of_a_kind = { cents = 900 }",
            "two_pair = { cents = 900 }",
            "progressive.awards.two_pair",
            "unknown field",
        ),
        ("split = ", "jackpot_limit = 5\nsplit = ", "progressive.jackpot_limit", "unknown field"),
        ("reset = 1000000\n", "", "progressive.reset", "line is missing"),
    ],
)
def test_an_incoherent_progressive_is_refused(old, new, field, reason):
    with pytest.raises(PaytableError) as err:
        parse_paytable(_edit(old, new), "p.toml")
    assert err.value.file == "p.toml"
    assert err.value.field == field
    assert reason in err.value.reason


def test_a_table_without_a_meter_line_is_refused():
    text = _edit("royal_flush = { meter_bp = 10000 }", "royal_flush = { cents = 1000000 }")
    text = text.replace(
        "straight_flush = { meter_bp = 1000 }", "straight_flush = { cents = 500000 }"
    )
    with pytest.raises(PaytableError) as err:
        parse_paytable(text, "p.toml")
    assert (err.value.field, err.value.reason) == (
        "progressive.awards",
        "no line pays a share of the meter",
    )


def test_a_table_without_any_line_is_refused():
    head, _, _ = EXAMPLE.read_text().partition("[progressive.awards]")
    with pytest.raises(PaytableError) as err:
        parse_paytable(head + "[progressive.awards]\n", "p.toml")
    assert (err.value.field, err.value.reason) == ("progressive.awards", "no award line")


def test_the_top_award_is_the_largest_share_of_the_meter():
    text = _edit("royal_flush = { meter_bp = 10000 }", "royal_flush = { meter_bp = 500 }")
    assert parse_paytable(text).progressive.top == HandCategory.STRAIGHT_FLUSH
