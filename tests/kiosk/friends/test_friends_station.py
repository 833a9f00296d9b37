"""The burn-in seat: random moves are always legal amounts, a wrong code is refused by
the command with exit code 2, and a joined game's result is recorded once."""

from __future__ import annotations

import random

import pytest

from engine.holdem.stats import GameSummary
from kiosk.cli import main
from kiosk.friends.joined import joined_game_id, record_joined, summary_from
from kiosk.friends.station import RandomPlayer
from kiosk.tournament.store import TournamentStore


def _legal(rng: random.Random) -> dict:
    can_check = rng.random() < 0.4
    min_to = rng.choice((20, 40, 100))
    max_to = rng.choice((min_to, min_to + 5, 3000))
    can_raise = rng.random() < 0.7
    return {
        "can_fold": True,
        "can_check": can_check,
        "can_call": not can_check,
        "call_amount": 0 if can_check else 20,
        "can_bet": can_check and can_raise,
        "can_raise": not can_check and can_raise,
        "min_to": min_to,
        "max_to": max_to,
    }


def test_random_moves_are_legal_and_reproducible_by_seed() -> None:
    rng = random.Random(3)
    tables = [_legal(rng) for _ in range(2000)]
    a, b = RandomPlayer(11), RandomPlayer(11)
    moves = [a.move(la) for la in tables]
    assert moves == [b.move(la) for la in tables]
    kinds = {kind for kind, _ in moves}
    assert kinds == {"fold", "check", "call", "bet", "raise", "allin"}
    for la, (kind, amount) in zip(tables, moves, strict=True):
        if kind in ("bet", "raise"):
            assert la["can_bet" if kind == "bet" else "can_raise"]
            assert la["min_to"] <= amount < la["max_to"]
        elif kind == "allin":
            assert la["can_bet"] or la["can_raise"]
        elif kind == "check":
            assert la["can_check"] and amount is None
        elif kind == "fold":
            assert not la["can_check"]


def test_a_wrong_code_is_refused_with_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "tournament",
                "join",
                "--host",
                "127.0.0.1:9",
                "--code",
                "ZZZZ",
                "--autoplay",
                "random",
                "--headless",
            ]
        )
        == 2
    )
    assert "cannot join" in capsys.readouterr().out
    assert (
        main(
            [
                "tournament",
                "join",
                "--host",
                "127.0.0.1:9",
                "--code",
                "ZZZZ",
                "--autoplay",
                "random",
            ]
        )
        == 2
    )


def test_a_joined_result_is_recorded_once_under_the_players_name(tmp_path) -> None:
    over = {
        "type": "state",
        "phase": "over",
        "you": 2,
        "code": "AB3D",
        "table": "custom",
        "hands": 40,
        "standings": [],
        "summary": {
            "place": 2,
            "players": 6,
            "hands_played": 40,
            "hands_won": 7,
            "vpip_hands": 11,
            "biggest_pot": 900,
            "best_hand": {"cat": 3, "ranks": [9]},
            "best_strength": 4000,
            "duration_s": 300,
        },
    }
    store = TournamentStore.open(tmp_path / "uth.db", create=True)
    try:
        assert record_joined(store, over, player="Cab1", token="t0k")
        assert not record_joined(store, over, player="Cab1", token="t0k")  # the same game again
        games = store.games(player="Cab1")
        assert len(games) == 1 and joined_game_id("AB3D", "t0k") != joined_game_id("AB3D", "other")
        g: GameSummary = games[0][1]
        assert (g.place, g.players, g.hands_won, g.vpip_hands, g.best_hand, g.online) == (
            2,
            6,
            7,
            11,
            4000,
            True,
        )
        assert (
            store.records(player="Cab1").games[0].place == 2 and store.games(player="Other") == []
        )
        assert summary_from(over).biggest_pot == 900
    finally:
        store.close()
