"""engine.holdem.phh: bot-played hands written as PHH and replayed by pokerkit's reader.

1,000 hands of six-handed sit-and-gos between bots (fixed seeds) are written twice --
from the hand's full history and from the tournament's public hand log -- read back
with ``pokerkit.HandHistory.loads`` and replayed; pokerkit's final stacks must be the
engine's.  Two differences between the engines' rules are known (see
``test_holdem_pokerkit.py``) and each is checked to be exactly that:

1. a short big blind: we make the others call the full big blind, pokerkit the short
   amount, so the hand does not replay the same;
2. odd chips: pokerkit merges pots and gives a pot's odd chips to one winner; the stacks
   must then be exactly our pots re-split that way.
"""

from __future__ import annotations

import tomllib
import warnings
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from pokerkit import HandHistory

from engine.cards import parse_cards
from engine.holdem.config import TournamentConfig
from engine.holdem.dealing import deck_for_deal
from engine.holdem.hand import HoldemHand
from engine.holdem.phh import (
    HandInfo,
    dealt_order,
    hand_phh,
    log_phh,
    phhs_text,
    starting_stacks_from_records,
)
from engine.holdem.records import BlindPosted, record_from_dict, record_to_dict
from engine.holdem.seats import SeatSpec
from engine.holdem.tournament import Tournament
from engine.rng import SeededRandomSource

HANDS = 1000
NAMES = ["Ike", "Max", "Rosa", "Jules", "Nina", "You"]


def _bot_hands(count: int) -> list[tuple[HoldemHand, dict, list[str]]]:
    """``count`` finished hands of bot sit-and-gos: (hand, its hand-log entry, names)."""
    out: list[tuple[HoldemHand, dict, list[str]]] = []
    game = 0
    while len(out) < count:
        seats = [
            SeatSpec(NAMES[i], "bot", ("easy", "normal", "hard")[(game + i) % 3], NAMES[i % 5])
            for i in range(6)
        ]
        config = TournamentConfig.for_table("classic", seats)
        t = Tournament(config, rng=SeededRandomSource(1000 + game), bot_samples=0)
        while not t.is_over and len(out) < count:
            hand = t.start_hand()
            t.run_bots()
            assert t.hand_over
            out.append((hand, t.hand_log[-1], t.names))
        game += 1
    return out


def _replay(text: str, hand: HoldemHand) -> list[int]:
    """pokerkit's final stacks per engine seat after replaying ``text``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state = list(HandHistory.loads(text))[-1]
    assert not state.status
    stacks = [0] * hand.n_seats
    for i, seat in enumerate(dealt_order(hand.starting_stacks, hand.button)):
        stacks[seat] = state.stacks[i]
    return stacks


def _short_big_blind(hand: HoldemHand) -> bool:
    return any(
        isinstance(r, BlindPosted) and r.blind == "big" and r.amount < hand.big_blind
        for r in hand.history
    )


@pytest.mark.heavy
def test_phh_round_trip_of_1000_bot_hands(
    pokerkit_hand_cache: None, pokerkit_split: Callable[[HoldemHand], list[int]]
) -> None:
    stats: Counter = Counter()
    at = datetime(2024, 5, 17, 21, 4, 9, tzinfo=UTC)
    for hand, entry, names in _bot_hands(HANDS):
        full = hand_phh(hand, HandInfo(names=names, number=entry["hand"], table="classic", at=at))
        public = log_phh(entry, HandInfo(names=names))
        stats["hands"] += 1
        stats["showdown"] += hand.result().showdown
        stats["side pots"] += len(hand.result().pots) > 1
        stats["players " + str(len(hand.players))] += 1
        assert "????" not in full
        for text in (full, public):
            try:
                theirs = _replay(text, hand)
            except (ValueError, AssertionError):
                assert _short_big_blind(hand), (entry, text)  # difference 1
                stats["short big blind: not replayed"] += 1
                continue
            if theirs == list(hand.stacks):
                stats["same final stacks"] += 1
            elif _short_big_blind(hand):
                stats["short big blind: other stacks"] += 1  # difference 1
            else:
                assert theirs == pokerkit_split(hand), (entry, text, theirs)  # difference 2
                stats["odd chips one at a time"] += 1
    print(dict(stats))
    assert stats["hands"] == HANDS
    assert stats["same final stacks"] >= 2 * HANDS * 0.97
    assert stats["showdown"] >= 200 and stats["side pots"] >= 10
    assert all(stats[f"players {n}"] > 0 for n in range(2, 7))


def test_phh_fields_and_actions() -> None:
    stacks, button = [1500, 0, 1500, 800], 0
    holes = [parse_cards("AsKd"), None, parse_cards("7c2d"), parse_cards("QhQs")]
    deck = deck_for_deal(stacks, button, holes, parse_cards("Jc3d5cTs2h"))
    hand = HoldemHand(stacks, button, 10, 20, deck=deck)
    hand.call()  # the button (seat 0) calls; seat 2 is the small blind, seat 3 the big
    hand.fold()
    hand.check()
    hand.bet(40)
    hand.call()
    hand.check()
    hand.check()
    hand.check()
    hand.check()
    at = datetime(2024, 5, 17, 23, 4, 9, tzinfo=UTC)
    text = hand_phh(hand, HandInfo(names=["You", "-", "Ike", "Max"], number=7, level=2, at=at))
    data = tomllib.loads(text)
    assert data["variant"] == "NT"
    assert data["blinds_or_straddles"] == [10, 20, 0]
    assert data["antes"] == [0, 0, 0] and data["min_bet"] == 20
    assert data["starting_stacks"] == [1500, 800, 1500]  # p1 = small blind, button last
    assert data["seats"] == [3, 4, 1] and data["seat_count"] == 4
    assert data["players"] == ["Ike", "Max", "You"]
    assert data["hand"] == 7 and data["level"] == 2
    assert (data["year"], data["month"], data["day"]) == (2024, 5, 17)
    assert str(data["time"]) == "23:04:09" and data["time_zone"] == "UTC"
    assert data["actions"][:3] == ["d dh p1 7c2d", "d dh p2 QhQs", "d dh p3 AsKd"]
    assert data["actions"][3:] == [
        "p3 cc",
        "p1 f",
        "p2 cc",
        "d db Jc3d5c",
        "p2 cbr 40",
        "p3 cc",
        "d db Ts",
        "p2 cc",
        "p3 cc",
        "d db 2h",
        "p2 cc",
        "p3 cc",
        "p2 sm QhQs",
        "p3 sm AsKd",
    ]
    assert data["finishing_stacks"] == [1490, 870, 1440]  # queens win the pot of 130
    hh = HandHistory.loads(text)
    assert hh.players == ["Ike", "Max", "You"]


def test_public_log_hides_unshown_cards_and_knows_the_starting_stacks() -> None:
    t = Tournament(
        TournamentConfig.for_table("classic", [SeatSpec(n) for n in NAMES[:3]]),
        rng=SeededRandomSource(5),
        bot_samples=0,
    )
    hand = t.start_hand()
    t.run_bots()
    entry = t.hand_log[-1]
    records = [record_from_dict(r) for r in entry["records"]]
    assert [record_to_dict(r) for r in records] == entry["records"]
    start = starting_stacks_from_records(records, entry["result"]["stacks"])
    assert list(start) == entry["stacks"] == list(hand.starting_stacks)
    text = log_phh(entry, known_cards={0: hand.hole_cards[0]})
    shown = {r.seat for r in records if type(r).__name__ == "HandShown"}
    for i, seat in enumerate(dealt_order(hand.starting_stacks, hand.button)):
        line = next(a for a in tomllib.loads(text)["actions"] if a.startswith(f"d dh p{i + 1} "))
        assert line.endswith("????") == (seat != 0 and seat not in shown)


def test_phhs_file_holds_every_hand() -> None:
    hands = _bot_hands(12)
    text = phhs_text(log_phh(e, HandInfo(names=n)) for _h, e, n in hands)
    loaded = list(HandHistory.loads_all(text))
    assert len(loaded) == 12
    assert [h.hand for h in loaded] == [e["hand"] for _h, e, _n in hands]


@pytest.mark.parametrize("bad", [{"type": "Nope"}, {"type": "Folded"}, ["Folded"]])
def test_record_from_dict_rejects_malformed(bad: object) -> None:
    with pytest.raises(ValueError):
        record_from_dict(bad)  # type: ignore[arg-type]
