"""engine.holdem.bots: Chen formula, decisions from a PlayerView only, strengths and personalities."""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections import Counter

import pytest

from engine.cards import parse_cards
from engine.holdem.actions import Action, ActionKind
from engine.holdem.bots import (
    PERSONALITIES,
    SEED003_PLAYERS,
    Bot,
    Difficulty,
    chen_score,
    opponent_floors,
    quick_equity,
    random_personality,
)
from engine.holdem.dealing import deck_for_deal
from engine.holdem.hand import HoldemHand
from engine.holdem.style import measure_styles
from engine.holdem.views import PlayerView


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("AsAd", 20),
        ("KsKd", 16),
        ("QsQd", 14),
        ("JsJd", 12),
        ("TsTd", 10),
        ("5s5d", 5),
        ("2s2d", 5),
        ("AsKs", 12),
        ("AsKd", 10),
        ("JsTs", 9),
        ("Ts9s", 8),
        ("5s4s", 6),
        ("Qs8d", 3),
        ("7c2d", -1),
        ("As2s", 7),
    ],
)
def test_chen_formula(hand: str, points: int) -> None:
    assert chen_score(*parse_cards(hand)) == points


def test_seed003_personalities() -> None:
    assert SEED003_PLAYERS == ("Ike", "Max", "Rosa", "Jules", "Nina")
    p = PERSONALITIES
    assert p["Jules"].looseness == max(x.looseness for x in p.values())  # plays a lot
    assert p["Rosa"].looseness == min(x.looseness for x in p.values())  # careful
    assert p["Rosa"].caution == max(x.caution for x in p.values())
    assert p["Nina"].bluff == max(x.bluff for x in p.values())  # likes to bluff
    assert p["Max"].aggression == max(x.aggression for x in p.values())  # bold
    a, b = random_personality("X", 1), random_personality("X", 2)
    assert a != b and -1 <= a.looseness <= 1


def test_decide_takes_only_a_player_view() -> None:
    params = list(inspect.signature(Bot.decide).parameters)
    assert params == ["self", "view"]
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert not names & {"deck", "hole_cards_of_others", "_deck"}
    assert "hole_cards" in names  # its own only


def _hand(stacks, button, holes, board="", seed=0) -> HoldemHand:
    cards = [parse_cards(h) if h else None for h in holes]
    return HoldemHand(
        stacks,
        button,
        10,
        20,
        deck=deck_for_deal(stacks, button, cards, parse_cards(board) if board else []),
    )


def test_short_stack_moves_all_in_with_a_strong_hand() -> None:
    hand = _hand([100, 5000, 5000], button=0, holes=["AsAd", "7c2d", "8c3d"])
    action = Bot("hard", rng=1).decide(hand.view(0))
    assert action.kind is ActionKind.ALL_IN


def test_hard_folds_junk_to_a_big_raise_and_raises_aces() -> None:
    hand = _hand([5000, 5000, 5000], button=0, holes=["7c2d", "AsAd", "KsKh"])
    hand.raise_to(600)  # the button raises; the small blind holds aces
    view = hand.view(1)
    assert Bot("hard", rng=1).decide(view).kind in (ActionKind.RAISE, ActionKind.ALL_IN)
    hand2 = _hand([5000, 5000, 5000], button=0, holes=["AsAd", "7c2d", "KsKh"])
    hand2.raise_to(600)
    assert Bot("hard", rng=1).decide(hand2.view(1)).kind is ActionKind.FOLD


def test_facing_a_big_bet_makes_it_careful() -> None:
    rosa, max_ = PERSONALITIES["Rosa"], PERSONALITIES["Max"]
    calls = Counter()
    for seed in range(60):
        for p in (rosa, max_):
            hand = _hand([5000, 5000], button=0, holes=["Ks9d", "2c2d"], board="Kd7c4h8s2h")
            hand.call()
            hand.check()
            hand.bet(200)  # the big blind bets 10x the pot on the flop
            kind = Bot("hard", p, rng=seed).decide(hand.view(0)).kind
            calls[p.name] += kind is not ActionKind.FOLD
    assert calls["Rosa"] <= calls["Max"]


def test_opponent_floors_read_preflop_actions() -> None:
    hand = _hand([5000] * 4, button=0, holes=["AsAd", "KsKd", "QsQd", "JsJd"])
    hand.call()  # seat 3 limps
    hand.raise_to(100)  # seat 0 raises
    hand.call()  # seat 1 (small blind) calls the raise
    hand.call()  # seat 2 (big blind) calls the raise
    hand.call()  # seat 3 calls the raise
    floors = opponent_floors(hand.view(2))
    assert floors == {0: 7.0, 1: 5.0, 3: 5.0}


def test_quick_equity_orders_made_hands() -> None:
    board = parse_cards("Kd7c4h")
    trips = quick_equity(parse_cards("KsKh"), board, 1)
    pair = quick_equity(parse_cards("Ks9d"), board, 1)
    air = quick_equity(parse_cards("2s3d"), board, 1)
    assert trips > pair > air
    assert quick_equity(parse_cards("Ks9d"), board, 3) < pair


@pytest.mark.parametrize("samples", [0, None])
def test_bots_always_choose_legal_actions_and_are_reproducible(samples: int | None) -> None:
    def play(seed: int) -> list:
        rng = random.Random(seed)
        n = rng.randint(2, 6)
        stacks = [rng.randint(1, 3000) for _ in range(n)]
        deck = list(range(52))
        rng.shuffle(deck)
        hand = HoldemHand(stacks, rng.randrange(n), 10, 20, deck=deck)
        bots = [
            Bot(
                rng.choice(list(Difficulty)),
                rng.choice([None, *PERSONALITIES]),
                rng=seed * 10 + i,
                samples=samples,
            )
            for i in range(n)
        ]
        taken = []
        while not hand.is_over:
            seat = hand.to_act
            action = bots[seat].decide(hand.view(seat))
            assert isinstance(action, Action)
            hand.act(action, seat=seat)  # raises if illegal
            taken.append(action)
        return taken

    for seed in range(60 if samples is None else 300):
        assert play(seed) == play(seed)


def test_personalities_differ_in_vpip() -> None:
    def vpip(name: str) -> float:
        hands = 0
        volunteered = 0
        bot = Bot("normal", name, rng=1, samples=0)
        others = [Bot("normal", rng=i, samples=0) for i in range(5)]
        for h in range(400):
            hand = HoldemHand(
                [3000] * 6, h % 6, 10, 20, deck=random.Random(h).sample(range(52), 52)
            )
            while not hand.is_over:
                seat = hand.to_act
                player = bot if seat == 0 else others[seat - 1]
                hand.act(player.decide(hand.view(seat)), seat=seat)
            hands += 1
            volunteered += hand.voluntary[0]
        return volunteered / hands

    assert vpip("Jules") > vpip("Ike") > vpip("Rosa")


def _z_proportions(k1: int, n1: int, k2: int, n2: int) -> float:
    """z of the difference of two proportions k1/n1 - k2/n2 (pooled standard error)."""
    p = (k1 + k2) / (n1 + n2)
    se = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return (k1 / n1 - k2 / n2) / se if se else 0.0


def _z_rates(k1: int, n1: int, k2: int, n2: int) -> float:
    """z of the difference of two Poisson rates k1/n1 - k2/n2 (events per hand)."""
    se = (k1 / n1**2 + k2 / n2**2) ** 0.5
    return (k1 / n1 - k2 / n2) / se if se else 0.0


Z = 2.0  # each ordering holds with about 97.7% confidence (one-sided)
STYLE_HANDS = 3000


@pytest.mark.heavy
def test_personalities_show_in_the_figures() -> None:
    """Seed 003's players, at a six-handed Normal table (3,000 hands, fixed seeds): Rosa
    the tightest and the likeliest to fold to a bet over half the pot, Jules the loosest,
    Max the most aggressive, Nina the most bluffs, Ike never first or last.  Each lead
    over the runner-up is at least two standard errors (z >= 2)."""
    players = [(n, Bot("normal", n, rng=70 + i)) for i, n in enumerate(SEED003_PLAYERS)]
    counts = measure_styles(players, STYLE_HANDS, seed=7).counts
    c = {n: counts[n] for n in SEED003_PLAYERS}
    others = lambda name: [x for x in SEED003_PLAYERS if x != name]  # noqa: E731

    def aggressive(x):  # the aggression factor as a share: (bets + raises) / all of them
        return x.bets_raises, x.bets_raises + x.calls

    for name in others("Rosa"):
        assert (
            _z_proportions(c[name].vpip_hands, c[name].hands, c["Rosa"].vpip_hands, c["Rosa"].hands)
            >= Z
        ), (name, c)
        assert (
            _z_proportions(
                c["Rosa"].big_bets_folded,
                c["Rosa"].big_bets_faced,
                c[name].big_bets_folded,
                c[name].big_bets_faced,
            )
            >= Z
        ), (name, c)
    for name in others("Jules"):
        assert (
            _z_proportions(
                c["Jules"].vpip_hands, c["Jules"].hands, c[name].vpip_hands, c[name].hands
            )
            >= Z
        ), (name, c)
    for name in others("Max"):
        assert _z_proportions(*aggressive(c["Max"]), *aggressive(c[name])) >= Z, (name, c)
    for name in others("Nina"):
        assert _z_rates(c["Nina"].bluffs, c["Nina"].hands, c[name].bluffs, c[name].hands) >= Z
    figures = [
        lambda x: x.vpip,
        lambda x: x.pfr,
        lambda x: x.aggression_factor,
        lambda x: x.fold_to_big_bet,
        lambda x: x.bluffs_per_100,
    ]
    for figure in figures:
        values = sorted(figure(c[n]) for n in SEED003_PLAYERS)
        assert values[0] < figure(c["Ike"]) < values[-1], c
