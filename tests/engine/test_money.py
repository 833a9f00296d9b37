import pytest

from engine.money import format_cents


@pytest.mark.parametrize(
    ("cents", "text"),
    [(0, "$0.00"), (5, "$0.05"), (123456, "$1,234.56"), (-250, "-$2.50"), (100_000_000, "$1,000,000.00")],
)
def test_format_cents(cents, text):
    assert format_cents(cents) == text
