"""The Ultimate Texas Hold'em round: phases, legal actions, records, settlement, replay."""

from pathlib import Path

import pytest

from engine.cards import parse_cards
from engine.errors import IllegalActionError
from engine.rng import SeededRandomSource, shuffled_deck
from engine.uth.paytable import load_paytable
from engine.uth.round import (
    BOARD_POSITIONS,
    DEALER_POSITIONS,
    HOLE_POSITIONS,
    Action,
    BetsPlaced,
    BoardDealt,
    Decision,
    HoleCardsDealt,
    Phase,
    RoundSettled,
    UthRound,
)
from engine.uth.settlement import Outcome

TABLE = load_paytable(Path(__file__).resolve().parents[3] / "paytables" / "standard.toml")


def stacked_deck(
    seats: list[str], dealer: str, board: str, seat_numbers: tuple[int, ...] | None = None
) -> list[int]:
    """A deck that deals the given hole cards (to ``seat_numbers``, default 1, 2, ...),
    dealer cards and board."""
    placed: dict[int, int] = {}
    numbers = seat_numbers or tuple(range(1, len(seats) + 1))
    for seat, text in zip(numbers, seats, strict=True):
        for pos, card in zip(HOLE_POSITIONS[seat], parse_cards(text), strict=True):
            placed[pos] = card
    for pos, card in zip(DEALER_POSITIONS, parse_cards(dealer), strict=True):
        placed[pos] = card
    for pos, card in zip(BOARD_POSITIONS, parse_cards(board), strict=True):
        placed[pos] = card
    rest = iter(c for c in range(52) if c not in placed.values())
    return [placed[i] if i in placed else next(rest) for i in range(52)]


def new_round(seed=1) -> UthRound:
    return UthRound(TABLE, shuffled_deck(SeededRandomSource(seed)))


def test_phases_and_legal_actions():
    r = new_round()
    assert r.phase == Phase.BETTING and r.legal_actions(1) == ()
    r.place_bets(1, 1000, 500)
    r.deal()
    assert r.phase == Phase.PREFLOP and r.board() == ()
    assert r.legal_actions(1) == (Action.PLAY_4X, Action.PLAY_3X, Action.CHECK)
    r.act(1, Action.CHECK)
    assert r.phase == Phase.FLOP and len(r.board()) == 3
    assert r.legal_actions(1) == (Action.PLAY_2X, Action.CHECK)
    r.act(1, Action.CHECK)
    assert r.phase == Phase.RIVER and len(r.board()) == 5
    assert r.legal_actions(1) == (Action.PLAY_1X, Action.FOLD)
    r.act(1, Action.PLAY_1X)
    assert r.phase == Phase.SETTLED
    assert r.outcome() is not None


def test_playing_early_skips_the_remaining_decisions():
    r = new_round()
    r.place_bets(1, 1000)
    r.deal()
    d = r.act(1, Action.PLAY_4X)
    assert d.play == 4000
    assert r.phase == Phase.SETTLED
    kinds = [type(h) for h in r.history]
    assert kinds == [BetsPlaced, HoleCardsDealt, Decision, BoardDealt, BoardDealt, RoundSettled]


def test_flop_raise_is_twice_the_ante():
    r = new_round()
    r.place_bets(1, 700)
    r.deal()
    r.act(1, "check")
    assert r.act(1, "play_2x").play == 1400
    assert r.phase == Phase.SETTLED


@pytest.mark.parametrize(
    ("phase_actions", "bad", "reason"),
    [
        ([], Action.PLAY_2X, "not allowed on the preflop"),
        ([Action.CHECK], Action.PLAY_4X, "not allowed on the flop"),
        ([Action.CHECK], Action.FOLD, "not allowed on the flop"),
        ([Action.CHECK, Action.CHECK], Action.CHECK, "not allowed on the river"),
        ([], "raise", "unknown action"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(phase_actions, bad, reason):
    r = UthRound(TABLE, shuffled_deck(SeededRandomSource(2)))
    r.place_bets(1, 1000)
    r.place_bets(2, 1000)
    r.deal()
    for a in phase_actions:
        r.act(1, a)
        r.act(2, a)
    before = (r.phase, len(r.history), r.to_act())
    with pytest.raises(IllegalActionError, match=reason):
        r.act(1, bad)
    assert (r.phase, len(r.history), r.to_act()) == before
    assert not r.can_act(1, bad)


def test_a_seat_cannot_decide_twice_or_after_playing():
    r = new_round()
    r.place_bets(1, 1000)
    r.place_bets(2, 1000)
    r.deal()
    r.act(1, Action.PLAY_3X)
    with pytest.raises(IllegalActionError, match="already"):
        r.act(1, Action.CHECK)
    r.act(2, Action.CHECK)
    assert r.phase == Phase.FLOP and r.to_act() == (2,)
    with pytest.raises(IllegalActionError, match="already made its Play"):
        r.act(1, Action.PLAY_2X)
    with pytest.raises(IllegalActionError, match="not in this round"):
        r.act(5, Action.CHECK)


@pytest.mark.parametrize(
    ("seat", "ante", "trips", "reason"),
    [
        (1, 400, 0, "between 500 and 50000"),
        (1, 50100, 0, "between 500 and 50000"),
        (1, 550, 0, "multiple of 100"),
        (1, 1000, 50, "Trips must be 0 or between"),
        (8, 1000, 0, "does not exist"),
    ],
)
def test_bets_outside_the_limits_are_refused(seat, ante, trips, reason):
    r = new_round()
    with pytest.raises(IllegalActionError, match=reason):
        r.place_bets(seat, ante, trips)
    assert r.seats == () and r.history == []


def test_betting_rules():
    r = new_round()
    with pytest.raises(IllegalActionError, match="no seat"):
        r.deal()
    r.place_bets(3, 500)
    with pytest.raises(IllegalActionError, match="already placed"):
        r.place_bets(3, 500)
    r.deal()
    with pytest.raises(IllegalActionError, match="before the cards"):
        r.place_bets(4, 500)
    with pytest.raises(IllegalActionError, match="already been dealt"):
        r.deal()


def test_deal_order_and_what_a_seat_sees():
    deck = stacked_deck(["As Ad", "2c 7d"], "Kc Kd", "Qh Jh Th 3s 4s", seat_numbers=(1, 4))
    r = UthRound(TABLE, deck)
    r.place_bets(1, 1000)
    r.place_bets(4, 1000)
    r.deal()
    assert r.view(1).hole == tuple(parse_cards("As Ad"))
    assert r.view(4).hole == tuple(parse_cards("2c 7d"))
    assert r.view(1).board == ()
    r.act(1, Action.CHECK)
    r.act(4, Action.CHECK)
    assert r.view(4).board == tuple(parse_cards("Qh Jh Th"))
    r.act(1, Action.PLAY_2X)
    r.act(4, Action.CHECK)
    assert r.to_act() == (4,)
    r.act(4, Action.FOLD)
    res = r.outcome()
    assert res.dealer_hole == tuple(parse_cards("Kc Kd"))
    assert res.board == tuple(parse_cards("Qh Jh Th 3s 4s"))


def test_settlement_of_a_stacked_round_two_seats():
    deck = stacked_deck(["Ah 9h", "7c 2d"], "Kc 8d", "2h 5h Jh 7s 3s")
    r = UthRound(TABLE, deck)
    r.place_bets(1, 1000, 500)
    r.place_bets(2, 1000, 500)
    r.deal()
    r.act(1, Action.PLAY_4X)
    r.act(2, Action.CHECK)
    r.act(2, Action.CHECK)
    r.act(2, Action.FOLD)
    res = r.outcome()
    assert not res.dealer_qualifies and res.dealer_hand_name == "High card, king"
    s1, s2 = res.seat(1), res.seat(2)
    assert s1.hand_name == "Flush, ace high" and s1.outcome == Outcome.WIN
    assert (s1.ante_return, s1.blind_return, s1.play_return, s1.trips_return) == (1000, 2500, 8000, 4000)
    assert s2.outcome == Outcome.FOLD and s2.returned == 0 and s2.net == -2500
    assert sorted(s1.best_five) == sorted(parse_cards("Ah 9h 2h 5h Jh"))


def test_replaying_the_history_rebuilds_the_same_round():
    deck = shuffled_deck(SeededRandomSource(99))
    r = UthRound(TABLE, deck)
    r.place_bets(1, 1500, 300)
    r.place_bets(6, 800)
    r.deal()
    r.act(1, Action.CHECK)
    r.act(6, Action.PLAY_3X)
    r.act(1, Action.CHECK)
    r.act(1, Action.PLAY_1X)
    again = UthRound(TABLE, deck)
    for rec in r.history:
        if isinstance(rec, BetsPlaced):
            again.place_bets(rec.seat, rec.ante, rec.trips)
        elif isinstance(rec, HoleCardsDealt):
            again.deal()
        elif isinstance(rec, Decision):
            again.act(rec.seat, rec.action)
    assert again.history == r.history
    assert again.outcome() == r.outcome()


def test_bad_decks_are_refused():
    with pytest.raises(ValueError):
        UthRound(TABLE, list(range(51)))
    with pytest.raises(ValueError):
        UthRound(TABLE, [0] * 52)


def test_seven_seats_play_a_round():
    r = new_round(7)
    for seat in range(1, 8):
        r.place_bets(seat, 500 * seat, 100)
    r.deal()
    for seat in range(1, 8):
        r.act(seat, Action.CHECK)
    for seat in range(1, 8):
        r.act(seat, Action.CHECK)
    for seat in range(1, 8):
        r.act(seat, Action.PLAY_1X if seat % 2 else Action.FOLD)
    res = r.outcome()
    assert len(res.seats) == 7
    cards = [c for s in res.seats for c in s.hole] + list(res.dealer_hole) + list(res.board)
    assert len(set(cards)) == 7 * 2 + 2 + 5


def test_each_seat_is_dealt_from_fixed_deck_positions_whoever_else_bets():
    deck = shuffled_deck(SeededRandomSource(4))
    alone = {}
    for seat in range(1, 8):
        r = UthRound(TABLE, deck)
        r.place_bets(seat, 500)
        r.deal()
        alone[seat] = r.view(seat).hole
        assert alone[seat] == tuple(deck[i] for i in HOLE_POSITIONS[seat])
    full = UthRound(TABLE, deck)
    for seat in (7, 2, 5, 1):
        full.place_bets(seat, 500)
    full.deal()
    for seat in (1, 2, 5, 7):
        assert full.view(seat).hole == alone[seat]
    for action in (Action.CHECK, Action.CHECK, Action.PLAY_1X):
        for seat in (1, 2, 5, 7):
            full.act(seat, action)
    res = full.outcome()
    assert res.dealer_hole == tuple(deck[i] for i in DEALER_POSITIONS)
    assert res.board == tuple(deck[i] for i in BOARD_POSITIONS)
    used = [p for seat in range(1, 8) for p in HOLE_POSITIONS[seat]]
    used += [*DEALER_POSITIONS, *BOARD_POSITIONS]
    assert sorted(used) == list(range(21))
