"""Settlement, one test per line of the rules (seeds 002 and 004), plus invariants."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.hands.evaluator import evaluate
from engine.uth.paytable import load_paytable
from engine.uth.settlement import Outcome, settle

TABLE = load_paytable(Path(__file__).resolve().parents[3] / "paytables" / "standard.toml")


def deal(player: str, dealer: str, board: str):
    """Strengths of player and dealer from hole cards and the board, in card notation."""
    b = parse_cards(board)
    p, d = parse_cards(player), parse_cards(dealer)
    assert len(set(b + p + d)) == 9, "a card appears twice"
    return evaluate(p + b), evaluate(d + b)


def one(player, dealer, board, ante=1000, play=0, trips=0, folded=False):
    ps, ds = deal(player, dealer, board)
    s = settle(ante, play, trips, folded, ps, ds, TABLE)
    return {k: int(getattr(s, k)) for k in (
        "outcome", "ante_return", "blind_return", "play_return", "trips_return",
        "breakage", "staked", "returned", "net", "dealer_qualifies")}


def test_dealer_not_qualifying_player_wins_with_flush():
    # Dealer ace high does not qualify; the player's flush wins:
    # Ante pushes, Blind pays 3:2, Play pays 1:1.
    r = one("Ah 9h", "Kc 8d", "2h 5h Jh 7c 3s", ante=1000, play=4000)
    assert r["dealer_qualifies"] == 0
    assert r["outcome"] == Outcome.WIN
    assert r["ante_return"] == 1000
    assert r["blind_return"] == 1000 + 1500
    assert r["play_return"] == 8000


def test_player_wins_dealer_qualifies_ante_pays_even_money():
    r = one("Ks Kd", "Qc Qd", "2h 5h 9c 7c 3s", ante=1000, play=4000)
    assert r["dealer_qualifies"] == 1 and r["outcome"] == Outcome.WIN
    assert r["ante_return"] == 2000
    assert r["blind_return"] == 1000  # a pair is below a straight: the Blind pushes
    assert r["play_return"] == 8000


def test_play_pays_even_money_whatever_the_dealer_holds():
    r = one("Ks 2d", "Qc 8d", "2h 5h 9c 7c 3s", ante=500, play=500)
    assert r["dealer_qualifies"] == 0 and r["play_return"] == 1000


@pytest.mark.parametrize(
    ("player", "board", "pay"),
    [
        ("6d 4c", "2h 3h 5s 9c Kd", (1, 1)),  # straight 1:1
        ("Ah 9h", "2h 5h Jh 7c 3s", (3, 2)),  # flush 3:2
        ("9d 9s", "9c 5h 5s 7c 3s", (3, 1)),  # full house 3:1
        ("9d 9s", "9c 9h 5s 7c 3s", (10, 1)),  # four of a kind 10:1
        ("6h 4h", "2h 3h 5h 9c Kd", (50, 1)),  # straight flush 50:1
        ("Ah Kh", "Qh Jh Th 2c 3d", (500, 1)),  # royal flush 500:1
    ],
)
def test_blind_pays_by_its_table_when_the_player_wins(player, board, pay):
    r = one(player, "8c 8d", board, ante=1000, play=1000)
    assert r["outcome"] == Outcome.WIN
    assert r["blind_return"] == 1000 + 1000 * pay[0] // pay[1]


def test_dealer_wins_ante_blind_and_play_lose():
    r = one("Kd 8c", "Ac Ad", "2h 5h 9c 7c 3s", ante=1000, play=3000, trips=500)
    assert r["outcome"] == Outcome.LOSS
    assert r["ante_return"] == r["blind_return"] == r["play_return"] == 0
    assert r["trips_return"] == 0
    assert r["net"] == -(1000 + 1000 + 3000 + 500)


def test_dealer_not_qualifying_returns_the_ante_even_when_the_dealer_wins():
    # Dealer king high (no pair) beats the player's queen high: the Ante is returned
    # because the dealer did not qualify; Blind and Play lose.
    r = one("Qd 8c", "Kc 6d", "2h 5h 9c 7c 3s", ante=1000, play=1000)
    assert r["dealer_qualifies"] == 0 and r["outcome"] == Outcome.LOSS
    assert r["ante_return"] == 1000
    assert r["blind_return"] == 0 and r["play_return"] == 0
    assert r["net"] == -2000


def test_dealer_not_qualifying_does_not_save_a_folded_ante():
    r = one("Qd 8c", "Kc 6d", "2h 5h 9c 7c 3s", ante=1000, folded=True)
    assert r["ante_return"] == 0 and r["net"] == -2000


def test_dealer_wins_even_when_player_has_a_blind_hand():
    r = one("6d 4c", "6h 7h", "2h 3h 5s 9h Kh", ante=1000, play=1000)  # straight vs flush
    assert r["outcome"] == Outcome.LOSS and r["blind_return"] == 0


def test_tie_pushes_ante_blind_and_play():
    r = one("2c 3d", "2d 3c", "As Ks Qs Jd 9h", ante=1000, play=4000)  # the board plays
    assert r["outcome"] == Outcome.PUSH
    assert (r["ante_return"], r["blind_return"], r["play_return"]) == (1000, 1000, 4000)
    assert r["net"] == 0


def test_tie_with_a_straight_still_only_pushes_the_blind():
    r = one("2c 3d", "2d 3c", "Ts Js Qd Kh Ac", ante=1000, play=1000)
    assert r["outcome"] == Outcome.PUSH and r["blind_return"] == 1000


def test_fold_loses_ante_and_blind():
    r = one("7c 2d", "3c 4d", "As Ks Qs 9d 8h", ante=1000, folded=True)
    assert r["outcome"] == Outcome.FOLD
    assert r["ante_return"] == r["blind_return"] == r["play_return"] == 0
    assert r["net"] == -2000


def test_trips_pays_after_a_fold_and_whatever_the_dealer_holds():
    r = one("7c 7d", "Ac Ad", "7h As Ks 9d 8h", ante=1000, trips=500, folded=True)
    assert r["trips_return"] == 500 + 3 * 500
    r = one("7c 7d", "Ac Ad", "7h As Ks 9d 8h", ante=1000, play=1000, trips=500)
    assert r["outcome"] == Outcome.LOSS and r["trips_return"] == 2000


@pytest.mark.parametrize(
    ("player", "board", "mult"),
    [
        ("7c 7d", "7h As Ks 9d 8h", 3),  # three of a kind 3:1
        ("6d 4c", "2h 3h 5s 9c Kd", 4),  # straight 4:1
        ("Ah 9h", "2h 5h Jh 7c 3s", 7),  # flush 7:1
        ("9d 9s", "9c 5h 5s 7c 3s", 8),  # full house 8:1
        ("9d 9s", "9c 9h 5s 7c 3s", 30),  # four of a kind 30:1
        ("6h 4h", "2h 3h 5h 9c Kd", 40),  # straight flush 40:1
        ("Ah Kh", "Qh Jh Th 2c 3d", 50),  # royal 50:1
        ("Kh Kd", "Qh Qd Th 2c 3d", -1),  # two pair loses
    ],
)
def test_trips_table(player, board, mult):
    r = one(player, "8c 8d", board, trips=1000, folded=True)
    assert r["trips_return"] == (0 if mult < 0 else 1000 + 1000 * mult)


def test_odd_blind_on_a_flush_rounds_down_and_reports_breakage():
    r = one("Ah 9h", "Kc 8d", "2h 5h Jh 7c 3s", ante=501, play=501)
    assert r["blind_return"] == 501 + 751  # 751.5 rounds down
    assert r["breakage"] == 1  # half a cent, in units of 1/2 cent


def test_folded_spot_with_play_is_refused():
    with pytest.raises(ValueError):
        settle(100, 100, 0, True, 10, 20, TABLE)


cents = st.integers(min_value=0, max_value=10**7)
strengths = st.integers(min_value=1, max_value=7462)


@settings(max_examples=400, deadline=None)
@given(ante=cents, mult=st.sampled_from([0, 1, 2, 3, 4]), trips=cents, folded=st.booleans(),
       ps=strengths, ds=strengths)
def test_invariants(ante, mult, trips, folded, ps, ds):
    play = 0 if folded else mult * ante
    s = settle(ante, play, trips, folded, ps, ds, TABLE)
    returned = int(s.returned)
    assert returned == int(s.ante_return + s.blind_return + s.play_return + s.trips_return)
    assert int(s.staked) == 2 * ante + play + trips
    assert returned == int(s.staked) + int(s.net)
    if folded:
        assert int(s.ante_return) == int(s.blind_return) == 0
    if not folded and ps == ds:
        assert int(s.ante_return) == ante and int(s.blind_return) == ante and int(s.play_return) == play
    if not folded and ds < 1278:  # below a pair: the dealer does not qualify
        assert int(s.ante_return) >= ante
    for spot, stake in (("ante_return", ante), ("blind_return", ante), ("play_return", play)):
        assert int(getattr(s, spot)) in (0, stake) or int(getattr(s, spot)) >= 2 * stake
    assert 0 <= int(s.breakage) < 2 * s.unit


def test_arrays_and_scalars_agree():
    rng = np.random.default_rng(4)
    n = 5000
    ante = rng.integers(1, 100, n) * 100
    folded = rng.random(n) < 0.2
    play = np.where(folded, 0, ante * rng.integers(1, 5, n))
    trips = rng.integers(0, 3, n) * 100
    ps, ds = rng.integers(1, 7463, n), rng.integers(1, 7463, n)
    batch = settle(ante, play, trips, folded, ps, ds, TABLE)
    for i in range(0, n, 97):
        one_ = settle(int(ante[i]), int(play[i]), int(trips[i]), bool(folded[i]), int(ps[i]), int(ds[i]), TABLE)
        assert int(one_.returned) == int(batch.returned[i])
        assert int(one_.breakage) == int(batch.breakage[i])
        assert int(one_.outcome) == int(batch.outcome[i])
