import pytest

from engine.cards import CardParseError, card_name, format_cards, make_card, parse_card, parse_cards


def test_card_numbering_is_four_rank_plus_suit():
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("As") == 51
    assert parse_card("Td") == 4 * 8 + 1
    assert make_card(12, 2) == parse_card("Ah")


def test_every_card_round_trips():
    names = [card_name(c) for c in range(52)]
    assert len(set(names)) == 52
    assert parse_cards(" ".join(names)) == list(range(52))
    assert format_cards(parse_cards("As Kd 7h")) == "As Kd 7h"


def test_run_together_and_lower_case_ranks():
    assert parse_cards("AsKd") == parse_cards("As Kd")
    assert parse_cards("ts") == parse_cards("Ts")


@pytest.mark.parametrize(
    ("text", "token"),
    [("Ax", "Ax"), ("10h", "10h"), ("As Zd", "Zd"), ("As As", "As"), ("AsK", "AsK"), ("A", "A")],
)
def test_bad_text_names_the_bad_token(text, token):
    with pytest.raises(CardParseError) as err:
        parse_cards(text)
    assert err.value.token == token
    assert token in str(err.value)
    assert isinstance(err.value, ValueError)
