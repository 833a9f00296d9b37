"""engine.holdem.hand: the rules of seeds 000/001, their worked examples word for word."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.errors import IllegalActionError
from engine.holdem.actions import Action, DealerJob, Street
from engine.holdem.dealing import deck_for_deal
from engine.holdem.hand import HoldemHand
from engine.holdem.records import (
    BlindPosted,
    BoardDealt,
    CardBurned,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Raised,
    UncalledReturned,
)


def deal(stacks, button, holes, board="", sb=10, bb=20, **kw) -> HoldemHand:
    """A hand whose seats get ``holes`` (text per seat, None for empty) and ``board``."""
    cards = [parse_cards(h) if h else None for h in holes]
    deck = deck_for_deal(stacks, button, cards, parse_cards(board) if board else [])
    return HoldemHand(stacks, button, sb, bb, deck=deck, **kw)


def seeded(stacks, button, sb=10, bb=20, seed=1, **kw) -> HoldemHand:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return HoldemHand(stacks, button, sb, bb, deck=deck, **kw)


# --------------------------------------------------------------- seed examples


def test_seed_min_raise_marco_and_ella() -> None:
    """ "Blinds are 10/20. Marco raises to 60 — a raise of 40. If Ella wants to raise again
    she must make it at least 100 (60 + 40). If she makes it 200, that raise is 140, and
    the next one must go to at least 340." """
    MARCO, ELLA, OTHER, BUTTON = 3, 4, 5, 0
    hand = seeded([1000] * 6, button=BUTTON)  # SB seat 1, BB seat 2, Marco first
    assert hand.to_act == MARCO
    rec = hand.raise_to(60, seat=MARCO)
    assert isinstance(rec, Raised) and rec.increment == 40 and rec.full
    assert hand.to_act == ELLA
    assert hand.legal_actions().min_to == 100
    with pytest.raises(IllegalActionError, match="smallest raise is to 100"):
        hand.raise_to(99, seat=ELLA)
    rec = hand.raise_to(200, seat=ELLA)
    assert rec.increment == 140
    assert hand.to_act == OTHER
    assert hand.legal_actions().min_to == 340
    assert not hand.can_raise(339) and hand.can_raise(340)


def _to_flop(hand: HoldemHand) -> None:
    while hand.street == Street.PREFLOP:
        la = hand.legal_actions()
        hand.check() if la.can_check else hand.call()


def test_seed_short_all_in_does_not_reopen_felix_sofia() -> None:
    """ "Blinds 10/20, on the flop. You bet 100 and Felix calls. Sofia goes all in for 150 —
    only 50 more, less than a full raise of 100. You and Felix must each add 50 to call, or
    fold, but neither of you may raise."  And: "Players who have not acted yet in that
    round may still raise as usual, by at least a full raise on top of the all-in." """
    YOU, FELIX, SOFIA, KENJI = 0, 1, 2, 3
    hand = seeded([2000, 2000, 170, 2000], button=KENJI)
    _to_flop(hand)
    assert hand.street == Street.FLOP and hand.to_act == YOU
    assert hand.stacks[SOFIA] == 150
    hand.bet(100, seat=YOU)
    hand.call(seat=FELIX)
    rec = hand.all_in(seat=SOFIA)
    assert isinstance(rec, Raised) and rec.total == 150 and not rec.full and rec.all_in
    # Kenji has not acted: a full raise on top of the all-in, at least 150 + 100
    la = hand.legal_actions()
    assert la.seat == KENJI and la.can_raise and la.min_to == 250
    hand.call(seat=KENJI)
    for seat in (YOU, FELIX):
        la = hand.legal_actions()
        assert la.seat == seat
        assert la.call_amount == 50 and la.can_fold and not la.can_raise
        with pytest.raises(IllegalActionError, match="short all-in does not reopen"):
            hand.raise_to(400, seat=seat)
        with pytest.raises(IllegalActionError, match="short all-in does not reopen"):
            hand.all_in(seat=seat)
        hand.call(seat=seat)
    assert hand.street == Street.TURN


def test_later_full_raise_reopens_betting() -> None:
    YOU, FELIX, SOFIA, KENJI = 0, 1, 2, 3
    hand = seeded([2000, 2000, 170, 2000], button=KENJI)
    _to_flop(hand)
    hand.bet(100, seat=YOU)
    hand.call(seat=FELIX)
    hand.all_in(seat=SOFIA)
    hand.raise_to(250, seat=KENJI)  # a full raise on top of the short all-in
    la = hand.legal_actions()
    assert la.seat == YOU and la.can_raise and la.min_to == 350


def test_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    """TDA reading: facing at least a full raise since you acted reopens the betting."""
    hand = seeded([2000, 2000, 170, 230, 2000], button=4)
    _to_flop(hand)  # stacks of seats 2 and 3 are now 150 and 210
    hand.bet(100, seat=0)
    hand.call(seat=1)
    hand.all_in(seat=2)  # 150: +50
    hand.all_in(seat=3)  # 210: +60, 110 above the 100 seats 0 and 1 acted on
    hand.call(seat=4)
    assert hand.legal_actions().seat == 0 and hand.legal_actions().can_raise


def test_seed_side_pots_sofia_kenji() -> None:
    """ "Sofia goes all in for 300; you and Kenji each put in 1,000. The main pot is 900
    (300 from each of the three of you) and the side pot is 1,400 (the extra 700 from you
    and from Kenji). If Sofia has the best hand she wins the 900, and the 1,400 goes to the
    better of you and Kenji." """
    YOU, KENJI, SOFIA = 0, 1, 2
    hand = deal(
        [2000, 2000, 300],
        button=YOU,
        holes=["KsKd", "QsQd", "AsAd"],
        board="2c7d9h4sJc",
    )
    assert (hand.small_blind_seat, hand.big_blind_seat) == (KENJI, SOFIA)
    hand.raise_to(1000, seat=YOU)
    hand.call(seat=KENJI)
    hand.all_in(seat=SOFIA)
    assert [(p.amount, set(p.eligible)) for p in hand.pots()] == [
        (900, {YOU, KENJI, SOFIA}),
        (1400, {YOU, KENJI}),
    ]
    while not hand.is_over:
        hand.check()
    result = hand.result()
    assert [(p.amount, p.winners) for p in result.pots] == [(900, (SOFIA,)), (1400, (YOU,))]
    assert result.final_stacks == (2400, 1000, 900)


def test_seed_board_plays_and_the_pot_is_split() -> None:
    """ "The board is — a straight to the ace that nobody can beat. Whatever their hole
    cards, everyone still in plays the board and the pot is split." """
    hand = deal([1000] * 3, button=0, holes=["2c3d", "4h5s", "6c7d"], board="AdKcQhJsTd")
    while not hand.is_over:
        la = hand.legal_actions()
        hand.check() if la.can_check else hand.call()
    (pot,) = hand.result().pots
    assert pot.amount == 60 and set(pot.winners) == {0, 1, 2} and pot.shares == (20, 20, 20)
    assert hand.result().final_stacks == (1000, 1000, 1000)


def test_seed_odd_chips_one_at_a_time_from_left_of_button() -> None:
    """ "If the pot cannot be divided evenly, the odd chips go out one at a time to the tied
    winners, starting with the first winner to the left of the button." """
    # blinds 5/10: the small blind (seat 1) folds, 3 x 10 + 5 = 35 = 3 x 11 + 2 odd chips
    hand = deal(
        [1000] * 4,
        button=0,
        holes=["2c3d", "4h5s", "6c7d", "8c9s"],
        board="AdKcQhJsTd",
        sb=5,
        bb=10,
    )
    hand.call(seat=3)
    hand.call(seat=0)
    hand.fold(seat=1)
    hand.check(seat=2)
    while not hand.is_over:
        hand.check()
    (pot,) = hand.result().pots
    assert pot.amount == 35
    assert pot.winners == (2, 3, 0)  # clockwise from the left of the button
    assert pot.shares == (12, 12, 11)


def test_seed_uncalled_bet_comes_back() -> None:
    """ "If you bet 500 and the only other player left goes all in for 200, the extra 300
    comes straight back to you: only 200 from each of you goes into the pot." """
    hand = deal([2000, 220], button=0, holes=["AsAd", "KsKd"], board="2c7d9h4sJc")
    hand.call(seat=0)
    hand.check(seat=1)
    hand.check(seat=1)  # after the flop the big blind acts first heads-up
    hand.bet(500, seat=0)
    hand.all_in(seat=1)
    returned = [r for r in hand.history if isinstance(r, UncalledReturned)]
    assert returned == [UncalledReturned(0, 300)]
    assert hand.result().returned == (300, 0)
    assert hand.result().pots[0].amount == 440  # 20 + 20 blinds-called, 200 + 200


def test_seed_folded_chips_stay_in_the_pot() -> None:
    hand = deal([1000, 1000, 1000], button=0, holes=["AsAd", "KsKd", "2c7h"], board="2d7d9h4sJc")
    hand.raise_to(100, seat=0)
    hand.call(seat=1)
    hand.fold(seat=2)  # the big blind's 20 stays in
    while not hand.is_over:
        hand.check()
    (pot,) = hand.result().pots
    assert pot.amount == 220 and pot.eligible == (1, 0) and pot.winners == (0,)


# --------------------------------------------------------------- blinds, order, dealing


def test_blinds_and_first_to_act() -> None:
    hand = seeded([1000] * 4, button=2)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (3, 0)
    assert hand.history[:2] == [
        BlindPosted(3, "small", 10, False),
        BlindPosted(0, "big", 20, False),
    ]
    assert hand.to_act == 1
    _to_flop(hand)
    assert hand.to_act == 3  # first player left of the button


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    hand = seeded([1000, 1000], button=1)
    assert (hand.small_blind_seat, hand.big_blind_seat) == (1, 0)
    assert hand.to_act == 1
    hand.call(seat=1)
    la = hand.legal_actions()
    assert la.seat == 0 and la.can_check and la.can_raise  # the big blind's option
    hand.check(seat=0)
    assert hand.street == Street.FLOP and hand.to_act == 0
    hand.check(seat=0)
    assert hand.to_act == 1


def test_big_blind_option_when_everyone_calls() -> None:
    hand = seeded([1000] * 3, button=0)
    hand.call(seat=0)
    hand.call(seat=1)
    la = hand.legal_actions()
    assert la.seat == 2 and la.can_check and la.can_raise and la.min_to == 40 and not la.can_fold


def test_hole_cards_dealt_one_at_a_time_from_small_blind_and_burns() -> None:
    deck = list(range(52))
    hand = HoldemHand([1000] * 3, 0, 10, 20, deck=deck)
    holes = {r.seat: r.cards for r in hand.history if isinstance(r, HoleCardsDealt)}
    assert holes == {1: (0, 3), 2: (1, 4), 0: (2, 5)}
    _to_flop(hand)
    burns = [r.card for r in hand.history if isinstance(r, CardBurned)]
    boards = [r.cards for r in hand.history if isinstance(r, BoardDealt)]
    assert burns == [6] and boards == [(7, 8, 9)]


def test_minimum_returns_to_one_big_blind_each_round() -> None:
    hand = seeded([5000] * 3, button=0)
    hand.raise_to(300, seat=0)
    hand.raise_to(800, seat=1)
    hand.call(seat=2)
    hand.call(seat=0)
    la = hand.legal_actions()
    assert la.can_bet and la.min_to == 20
    with pytest.raises(IllegalActionError, match="smallest bet is one big blind"):
        hand.bet(19)


def test_short_blinds_post_all_in_and_others_call_the_full_big_blind() -> None:
    hand = seeded([5, 12, 1000, 1000], button=3)
    sb, bb = hand.history[0], hand.history[1]
    assert sb == BlindPosted(0, "small", 5, True) and bb == BlindPosted(1, "big", 12, True)
    la = hand.legal_actions()
    assert la.seat == 2 and la.call_amount == 20 and la.min_to == 40
    hand.call(seat=2)
    hand.call(seat=3)
    assert hand.street == Street.FLOP and hand.to_act == 2
    assert [(p.amount, p.eligible) for p in hand.pots()] == [
        (20, (0, 1, 2, 3)),
        (21, (1, 2, 3)),
        (16, (2, 3)),
    ]


def test_short_big_blind_pots() -> None:
    hand = deal(
        [1000, 5, 12, 1000], button=0, holes=["3c4d", "AsAd", "KsKd", "3d4h"], board="9c9dTh8s2h"
    )
    hand.call(seat=3)
    hand.call(seat=0)
    while not hand.is_over:
        hand.check()
    result = hand.result()
    assert [(p.amount, p.eligible) for p in result.pots] == [
        (20, (1, 2, 3, 0)),
        (21, (2, 3, 0)),
        (16, (3, 0)),
    ]
    assert [p.winners for p in result.pots] == [(1,), (2,), (3, 0)]
    assert sum(result.final_stacks) == 2017


def test_heads_up_short_big_blind_nobody_acts() -> None:
    hand = deal([1000, 5], button=0, holes=["2c3d", "AsAd"], board="9c9dTh8s2h")
    assert hand.is_over  # the small blind's 10 covers the 5: nothing left to decide
    result = hand.result()
    assert result.returned == (5, 0) and result.final_stacks == (995, 10)


def test_everyone_folds_hand_ends_at_once() -> None:
    hand = seeded([1000] * 3, button=0)
    hand.raise_to(60, seat=0)
    hand.fold(seat=1)
    hand.fold(seat=2)
    assert hand.is_over and hand.board == []
    result = hand.result()
    assert not result.showdown and not result.shown
    assert result.returned == (40, 0, 0)
    assert result.final_stacks == (1030, 990, 980)


def test_all_in_runs_out_the_board_at_once() -> None:
    hand = seeded([1000, 500, 1000], button=0)
    hand.all_in(seat=0)
    hand.fold(seat=1)
    hand.all_in(seat=2)
    assert hand.is_over and len(hand.board) == 5
    assert sum(hand.result().final_stacks) == 2500


def test_no_raise_when_everyone_else_is_all_in() -> None:
    hand = seeded([1000, 300, 1000], button=0)
    hand.fold(seat=0)
    hand.all_in(seat=1)
    la = hand.legal_actions()
    assert la.seat == 2 and not la.can_raise and la.call_amount == 280
    with pytest.raises(IllegalActionError, match="every other player is all in"):
        hand.raise_to(700)


# --------------------------------------------------------------- API contract


def test_illegal_actions_change_nothing_and_name_the_rule() -> None:
    hand = seeded([1000] * 3, button=0)
    before = json.dumps(hand.to_dict())
    cases = [
        (lambda: hand.check(), "cannot check facing a bet"),
        (lambda: hand.bet(100), "big blind is the opening bet"),
        (lambda: hand.raise_to(5000), "only 1000"),
        (lambda: hand.raise_to(30), "smallest raise"),
        (lambda: hand.call(seat=1), "seat 0's turn"),
        (lambda: hand.post_blinds(), "seat 0 is to act"),
        (lambda: hand.act(Action(Action.call().kind, 5)), "takes no amount"),
    ]
    for func, reason in cases:
        with pytest.raises(IllegalActionError, match=reason):
            func()
        assert json.dumps(hand.to_dict()) == before
    hand.call()
    hand.call()
    with pytest.raises(IllegalActionError, match="nothing to call: check instead of folding"):
        hand.fold()


def test_can_x_mirrors_verify_x() -> None:
    hand = seeded([1000] * 3, button=0)
    assert hand.can_call() and hand.can_fold() and not hand.can_check()
    assert hand.can_raise(40) and not hand.can_raise(39) and hand.can_raise(1000)
    assert hand.can_act(Action.all_in()) and not hand.can_bet(40)


def test_manual_dealer_jobs() -> None:
    hand = HoldemHand([1000] * 2, 0, 10, 20, deck=list(range(52)), automate=False)
    assert hand.pending_job is DealerJob.POST_BLINDS and hand.to_act is None
    with pytest.raises(IllegalActionError, match="post blinds first"):
        hand.deal_hole()
    hand.post_blinds()
    hand.deal_hole()
    hand.call()
    hand.check()
    assert hand.pending_job is DealerJob.BURN_CARD
    hand.burn_card()
    hand.deal_board()
    assert hand.board == [5, 6, 7] and hand.to_act == 1
    hand.automate = True
    hand.fold() if hand.can_fold() else hand.check()
    hand.run_dealer()
    assert hand.to_act == 0


def test_view_hides_other_cards_and_deck() -> None:
    hand = seeded([1000] * 3, button=0)
    view = hand.view(1)
    assert view.hole_cards == hand.hole_cards[1]
    assert view.legal is None and hand.view(0).legal == hand.legal_actions()
    assert not any(isinstance(r, HoleCardsDealt | CardBurned) for r in view.actions)
    assert not hasattr(view, "deck") and not hasattr(view, "_deck")
    text = repr(view)
    for seat in (0, 2):
        assert repr(hand.hole_cards[seat]) not in text
    assert hand.public_history(viewer=1) == [
        r
        for r in hand.history
        if not isinstance(r, CardBurned) and not (isinstance(r, HoleCardsDealt) and r.seat != 1)
    ]


def test_to_dict_round_trip_mid_hand() -> None:
    hand = seeded([1000, 800, 1200], button=1, seed=7)
    hand.raise_to(60)
    hand.call()
    hand.call()
    hand.bet(50)
    saved = json.loads(json.dumps(hand.to_dict()))
    again = HoldemHand.from_dict(saved)
    assert again.legal_actions() == hand.legal_actions()
    assert again.history == hand.history
    for h in (hand, again):
        h.raise_to(150)
        while not h.is_over:
            la = h.legal_actions()
            h.check() if la.can_check else h.call()
    assert again.result() == hand.result()


def test_pot_fraction_buttons() -> None:
    hand = seeded([5000] * 3, button=0)
    la = hand.legal_actions()
    # pot 30, call 20: pot-size raise = 20 + (30 + 20) = 70 -> rounded to the small blind
    assert la.pot_fraction_to(1.0) == 70
    assert la.pot_fraction_to(0.5) == 40  # 20 + 25 = 45 -> 40
    assert la.pot_fraction_to(100.0) == 5000


# --------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(
    stacks=st.lists(st.integers(0, 3000), min_size=2, max_size=6),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_hands_conserve_chips_and_settle(stacks: list[int], seed: int) -> None:
    if sum(1 for s in stacks if s > 0) < 2:
        return
    rng = random.Random(seed)
    button = rng.choice([i for i, s in enumerate(stacks) if s > 0])
    hand = seeded(stacks, button, seed=seed)
    while not hand.is_over:
        la = hand.legal_actions()
        assert sum(hand.stacks) + hand.pot_total == sum(stacks)
        r = rng.random()
        if la.can_bet_or_raise and r < 0.3:
            to = rng.randint(la.min_to, la.max_to)
            hand.act(Action.bet(to) if la.can_bet else Action.raise_to(to))
        elif la.can_fold and r < 0.45:
            hand.fold()
        elif r < 0.5 and hand.can_all_in():
            hand.all_in()
        else:
            hand.check() if la.can_check else hand.call()
    result = hand.result()
    assert sum(result.final_stacks) == sum(stacks)
    assert sum(p.amount for p in result.pots) == sum(result.won)
    for pot in result.pots:
        assert sum(pot.shares) == pot.amount and set(pot.winners) <= set(pot.eligible)
        assert max(pot.shares) - min(pot.shares) <= 1
    shown = {r.seat for r in hand.history if isinstance(r, HandShown)}
    awarded = {w for r in hand.history if isinstance(r, PotAwarded) for w in r.winners}
    assert not shown or awarded <= shown
