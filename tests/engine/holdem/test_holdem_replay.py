"""engine.holdem.replay and ``uth holdem replay``."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from engine.cards import format_cards
from engine.holdem.actions import Action
from engine.holdem.hand import HoldemHand
from engine.holdem.replay import parse_hands, replay_hand
from kiosk.cli import main

HAND = {
    "stacks": [1000, 1000, 1000],
    "blinds": [10, 20],
    "button": 0,
    "hole_cards": ["AsKd", "2c2d", "7h8h"],
    "board": "Jc3d5cTs2h",
    "actions": [
        ["raise", 60],
        ["call"],
        ["fold"],
        ["check"],
        ["bet", 100],
        ["call"],
        ["check"],
        ["check"],
        ["check"],
        ["check"],
    ],
}


def test_replay_one_hand() -> None:
    out = replay_hand(HAND)
    # seat 1 (small blind) makes trips with 2c2d; the big blind's 20 stays in the pot
    assert out == {
        "stacks": [840, 1180, 980],
        "pots": [{"amount": 340, "eligible": [1, 0], "winners": [1]}],
        "returned": [0, 0, 0],
    }


def test_replay_seed_side_pots() -> None:
    hand = {
        "stacks": [2000, 2000, 300],
        "blinds": [10, 20],
        "button": 0,
        "hole_cards": ["KsKd", "QsQd", "AsAd"],
        "board": "2c7d9h4sJc",
        "actions": [
            ["raise", 1000],
            ["call"],
            ["allin"],
            ["check"],
            ["check"],
            ["check"],
            ["check"],
            ["check"],
            ["check"],
        ],
    }
    assert replay_hand(hand) == {
        "stacks": [2400, 1000, 900],
        "pots": [
            {"amount": 900, "eligible": [1, 2, 0], "winners": [2]},
            {"amount": 1400, "eligible": [1, 0], "winners": [0]},
        ],
        "returned": [0, 0, 0],
    }


@pytest.mark.parametrize(
    ("change", "error", "index"),
    [
        ({"actions": [["raise", 30]]}, "smallest raise is to 40", 0),
        ({"actions": [["raise", 60], ["raise", 90]]}, "smallest raise is to 100", 1),
        ({"actions": [["check"]]}, "cannot check facing a bet", 0),
        ({"actions": [["shove"]]}, "unknown action 'shove'", 0),
        ({"actions": [["raise"]]}, "needs a whole-number amount", 0),
        ({"actions": [["call"], ["call"]]}, "actions stop before the hand is over", 2),
        ({"actions": [["fold"], ["fold"], ["call"]]}, "the hand is already over", 2),
        ({"hole_cards": ["AsKd", "AsQd", "7h8h"]}, "card appears twice", None),
        ({"hole_cards": ["AsKd", "Xx2d", "7h8h"]}, "bad card", None),
        ({"board": "AsJc3d"}, "card appears twice", None),
        ({"board": "Jc3d5c"}, "the board gives 3 card(s) but the hand reaches the turn", 5),
        ({"stacks": [1000]}, "one entry per seat", None),
        ({"blinds": [10]}, "small blind, big blind", None),
        ({"button": 7}, "not a seat", None),
    ],
)
def test_replay_errors_name_the_rule(change: dict, error: str, index: int | None) -> None:
    out = replay_hand({**HAND, **change})
    assert error in out["error"] and out["action_index"] == index


def test_input_formats() -> None:
    one = json.dumps(HAND, indent=2)
    assert list(parse_hands(one)) == [HAND]
    assert list(parse_hands(json.dumps([HAND, HAND]))) == [HAND, HAND]
    lines = json.dumps(HAND) + "\n\n" + "{oops\n" + json.dumps(HAND) + "\n"
    parsed = list(parse_hands(lines))
    assert parsed[0] == HAND and parsed[2] == HAND and isinstance(parsed[1], ValueError)


def test_cli_replays_and_returns_2_on_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(HAND, indent=1))
    assert main(["holdem", "replay", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["stacks"] == [840, 1180, 980]
    mixed = tmp_path / "mixed.jsonl"
    bad = {**HAND, "actions": [["check"]]}
    mixed.write_text("\n".join([json.dumps(HAND), "not json", json.dumps(bad), json.dumps(HAND)]))
    assert main(["holdem", "replay", str(mixed)]) == 2
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 4
    assert lines[0]["stacks"] == lines[3]["stacks"] == [840, 1180, 980]
    assert lines[1]["action_index"] is None and "bad JSON on line 2" in lines[1]["error"]
    assert lines[2] == {"error": "you cannot check facing a bet: 20 to call", "action_index": 0}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(HAND)))
    assert main(["holdem", "replay", "-"]) == 0


def _random_hand_json(seed: int) -> tuple[dict, dict]:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    stacks = [
        rng.choice([0, rng.randint(1, 3000)]) if i else rng.randint(1, 3000) for i in range(n)
    ]
    if sum(1 for s in stacks if s) < 2:
        stacks = [1000] * n
    button = rng.choice([i for i, s in enumerate(stacks) if s])
    deck = list(range(52))
    rng.shuffle(deck)
    hand = HoldemHand(stacks, button, 10, 20, deck=deck)
    actions = []
    while not hand.is_over:
        la = hand.legal_actions()
        r = rng.random()
        if la.can_bet_or_raise and r < 0.25:
            to = rng.randint(la.min_to, la.max_to)
            action = Action.bet(to) if la.can_bet else Action.raise_to(to)
        elif la.can_fold and r < 0.4:
            action = Action.fold()
        elif hand.can_all_in() and r < 0.45:
            action = Action.all_in()
        else:
            action = Action.check() if la.can_check else Action.call()
        hand.act(action)
        actions.append(action.to_list())
    holes = [format_cards(c, "") if c else None for c in hand.hole_cards]
    data = {
        "stacks": stacks,
        "blinds": [10, 20],
        "button": button,
        "hole_cards": holes,
        "board": format_cards(hand.board, ""),
        "actions": actions,
    }
    return data, hand.result().to_dict()


def test_thousands_of_hands_in_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pairs = [_random_hand_json(seed) for seed in range(2000)]
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(json.dumps(d) for d, _ in pairs))
    assert main(["holdem", "replay", str(path)]) == 0
    answers = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert answers == [expected for _, expected in pairs]
