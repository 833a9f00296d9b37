"""Each refused bet says its own reason, never the generic credit line: the smallest
bet's cost with too few credits, the 1x Play kept for the river when Trips would eat
it, what a rebet needs, and that a deal needs an Ante; REPEAT is not lit with no
previous bet or at $0."""

from __future__ import annotations

from test_ui import WIN, Kiosk, start_round

from kiosk.game.errors import BetOutOfLimits, InsufficientCredits
from kiosk.ui.machine_messages import describe

GENERIC_CREDITS = "Not enough credits for that bet."




def note(k: Kiosk) -> str:
    n = k.app.model.current_note()
    assert n is not None, "no message on screen"
    return n.text


def test_touching_ante_with_too_few_credits_says_what_the_smallest_bet_needs(kiosks):
    k = kiosks()
    k.app.go("table")
    k.key("2", "2")  # $5
    k.touch("chip_500")
    k.key("a")
    assert k.snap.bet_ante == 0
    assert note(k) == "The smallest bet needs $15.00: Ante, Blind and the 1x Play."


def test_a_trips_chip_that_eats_the_play_reserve_names_the_1x_play(kiosks):
    k = kiosks()
    k.app.go("table")
    k.key("3", "3")  # $10
    k.key("2", "2")  # $15
    k.touch("chip_500")
    k.key("a")  # $5 Ante: $15 with Blind and 1x Play
    k.touch("chip_100")
    k.key("s")  # $1 Trips: $16 needed
    assert k.snap.bet_trips == 0
    text = note(k)
    assert text != GENERIC_CREDITS
    assert "$16.00" in text and "1x Play" in text and "$15.00" in text


def test_repeat_with_too_little_says_what_a_rebet_needs(kiosks):
    k = kiosks(WIN)
    start_round(k)  # a $100 bill, $5 Ante
    k.key("p")
    k.settle()
    credits = k.snap.credits
    # a big Ante leaves too little for its rebet: play a $25 round next from $100+
    assert credits > 0
    k.touch("chip_2500")
    for _ in range(20):
        k.key("a")
        if k.snap.bet_ante * 3 > credits - 7500:
            break
    ante = k.snap.bet_ante
    k.touch("deal")
    k.settle()
    for key in ("k", "k", "f"):  # check, check, fold at the river
        k.key(key)
        k.settle()
    assert 0 < k.snap.credits < 3 * ante
    assert k.button("repeat").enabled
    k.touch("repeat")
    assert note(k) == f"A rebet needs ${3 * ante / 100:,.2f}: Ante, Blind and the 1x Play."


def test_deal_with_no_ante_says_to_place_one():
    exc = BetOutOfLimits("place an Ante first", params={"rule": "no_ante"})
    assert describe(exc) == "Place an Ante first: choose a chip, then touch ANTE."
    low = BetOutOfLimits("the Ante minimum is $5.00", params={"rule": "ante_min", "cents": 500})
    assert describe(low) == "The Ante minimum is $5.00."
    short = InsufficientCredits("x", params={"needed": 1600, "credits": 1500})
    assert "$16.00" in describe(short) and "1x Play" in describe(short) and "$15.00" in describe(short)


def test_deal_touched_with_trips_only_says_an_ante_is_needed(kiosks):
    k = kiosks()
    k.app.go("table")
    k.key("6", "6")  # $100
    k.touch("chip_500")
    k.key("s")  # Trips only
    deal = k.button("deal")
    assert not deal.enabled or deal.style == "unlit"
    from kiosk.game.commands import Deal
    k.app.model.send(Deal())
    assert note(k) == "Place an Ante first: choose a chip, then touch ANTE."


def test_repeat_is_not_lit_with_no_previous_bet_or_at_zero(kiosks):
    k = kiosks()
    k.app.go("table")
    assert not k.button("repeat").enabled  # $0, no previous bet
    k.key("6", "6")
    assert not k.button("repeat").enabled  # credits, still no previous bet
