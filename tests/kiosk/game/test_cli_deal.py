"""``uth deal``: one demo round printed in full, with a checkable deck commitment."""

import re

from engine.cards import parse_cards
from engine.rng import deck_commitment
from kiosk.cli import main


def test_deal_prints_every_card_decision_and_payout(capsys):
    assert main(["deal", "--seed", "3", "--ante", "1000", "--trips", "500"]) == 0
    out = capsys.readouterr().out
    commitment = re.search(r"deck commitment ([0-9a-f]{64})", out).group(1)
    deck = parse_cards(re.search(r"^Deck: (.*)$", out, re.M).group(1))
    assert len(deck) == 52 and deck_commitment(deck) == commitment
    assert "Your cards:" in out and "Dealer:" in out and "Result:" in out
    assert re.search(r"preflop: (check|play_4x|play_3x)", out)
    assert re.search(r"^Net -?\$\d", out, re.M)


def test_deal_rejects_a_bad_paytable(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 1\n")
    assert main(["deal", "--paytable", str(bad)]) == 2
    assert "bad.toml" in capsys.readouterr().out
