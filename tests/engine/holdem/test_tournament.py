"""engine.holdem.tournament: sit-and-go rules, seat controllers, persistence and records."""

from __future__ import annotations

import json
import random

import pytest

from engine.cards import parse_cards
from engine.errors import IllegalActionError
from engine.holdem.actions import Action
from engine.holdem.blinds import BLIND_LEVELS, TABLES, BlindLevel, level_index
from engine.holdem.bots import PERSONALITIES, Bot
from engine.holdem.config import TournamentConfig, seed003_config
from engine.holdem.dealing import deck_for_deal
from engine.holdem.seats import BotSeat, HumanSeat, RemoteSeat, SeatSpec
from engine.holdem.stats import GameSummary, PlayerRecords
from engine.holdem.tournament import Tournament
from engine.rng import SeededRandomSource


def bots(n: int, difficulty: str = "normal") -> list[SeatSpec]:
    return [SeatSpec(f"Bot {i}", "bot", difficulty) for i in range(n)]


def custom(n: int, chips: int = 1500, blinds=(10, 20), every: int | None = 10) -> TournamentConfig:
    return TournamentConfig.for_table(
        "custom", bots(n), starting_chips=chips, starting_blinds=blinds, hands_per_level=every
    )


# --------------------------------------------------------------- tables and presets


def test_six_tables_with_heads_up_and_custom() -> None:
    assert len(TABLES) == 6
    assert "heads_up" in TABLES and "custom" in TABLES
    assert TABLES["heads_up"].players == (2, 2)
    with pytest.raises(ValueError, match="seats 2 to 2"):
        TournamentConfig.for_table("heads_up", bots(3))
    with pytest.raises(ValueError, match="only the Custom table"):
        TournamentConfig.for_table("classic", bots(3), starting_chips=999)
    for spec in TABLES.values():
        assert spec.starting_blinds in BLIND_LEVELS and spec.starting_chips > 0


def test_seed003_preset_six_players_1500_chips_blinds_up_every_5_hands() -> None:
    config = seed003_config("Ann")
    assert [s.name for s in config.seats] == ["Ann", "Ike", "Max", "Rosa", "Jules", "Nina"]
    assert config.seats[0].kind == "human"
    assert [s.personality for s in config.seats[1:]] == ["Ike", "Max", "Rosa", "Jules", "Nina"]
    assert config.starting_chips == 1500 and config.hands_per_level == 5
    t = Tournament(config, rng=SeededRandomSource(3))
    assert t.stacks == [1500] * 6
    assert isinstance(t.controllers[0], HumanSeat)
    ike = t.controllers[1]
    assert isinstance(ike, BotSeat) and ike.bot.personality == PERSONALITIES["Ike"]


def test_blind_levels_every_n_hands_and_stay_at_the_last() -> None:
    """ "With every 10 hands, hands 1–10 are played at the starting blinds, hands 11–20 at
    the next level, and so on; after the last level they stay there." """
    t = Tournament(custom(3, blinds=(10, 20), every=10), rng=SeededRandomSource(1), button=0)
    start = level_index((10, 20))
    assert [t.level_for_hand(h) for h in (1, 10, 11, 20, 21)] == [
        start,
        start,
        start + 1,
        start + 1,
        start + 2,
    ]
    assert t.level_for_hand(10_000) == len(BLIND_LEVELS) - 1
    assert t.blinds == BlindLevel(10, 20) and t.hands_to_next_level == 10
    steady = Tournament(custom(3, every=None), rng=SeededRandomSource(1))
    assert steady.level_for_hand(500) == start and steady.hands_to_next_level is None


def test_hands_to_next_level_counts_down() -> None:
    t = Tournament(custom(2, chips=100_000, every=3), rng=SeededRandomSource(2), button=0)
    seen = []
    for _ in range(4):
        t.start_hand()
        seen.append((t.hand_number, t.blinds.big, t.hands_to_next_level))
        t.run_bots()
    assert seen == [(1, 20, 3), (2, 20, 2), (3, 20, 1), (4, 30, 3)]


# --------------------------------------------------------------- button and eliminations


def test_button_moves_left_skipping_players_who_are_out() -> None:
    t = Tournament(custom(4, chips=100_000), rng=SeededRandomSource(5), button=3)
    t.stacks = [100_000, 0, 100_000, 100_000]  # seat 1 is out
    t.places = {1: 4}
    buttons = []
    for _ in range(4):
        t.start_hand()
        buttons.append(t.button)
        t.run_bots()
    assert buttons == [3, 0, 2, 3]


def _force(t: Tournament, holes: list[str | None], board: str) -> None:
    """Deal the first hand of ``t`` with these cards."""
    assert t.hand is None
    cards = [parse_cards(h) if h else None for h in holes]
    t.start_hand(deck=deck_for_deal(t.stacks, t.button, cards, parse_cards(board)))


def test_two_out_in_one_hand_fewer_chips_finishes_lower() -> None:
    """ "If two players go out in the same hand, the one who started that hand with fewer
    chips finishes lower." """
    t = Tournament(custom(4, every=None), rng=SeededRandomSource(1), button=0)
    t.stacks = [3000, 400, 900, 1700]
    _force(t, ["AsAd", "7c2d", "8c3d", "KsKd"], "2h9sJdQc4h")
    while not t.hand_over:  # everybody all in; seat 0's aces cover and win everything
        t.act(t.to_act, Action.all_in() if t.hand.can_all_in() else Action.call())
    # three out in one hand, ranked by the chips they started it with
    assert t.stacks[0] == 6000 and t.is_over and t.champion == 0
    assert t.places == {0: 1, 3: 2, 2: 3, 1: 4}
    assert t.out_order == [1, 2, 3]


def test_champion_when_one_player_holds_every_chip() -> None:
    t = Tournament(custom(2, chips=100, blinds=(50, 100), every=None), rng=SeededRandomSource(9))
    champion = t.play_to_end()
    assert t.is_over and t.places[champion] == 1 and t.stacks[champion] == 200
    with pytest.raises(IllegalActionError, match="tournament is over"):
        t.start_hand()


# --------------------------------------------------------------- controllers


def test_human_seat_waits_for_input() -> None:
    seats = [SeatSpec("Me", "human"), *bots(2)]
    t = Tournament(
        TournamentConfig.for_table("classic", seats), rng=SeededRandomSource(4), button=1
    )  # seat 0 is the small blind... seat 1 the button acts first
    t.start_hand()
    t.run_bots()
    assert t.to_act == 0 and not t.hand_over
    assert t.step() is False
    human = t.controllers[0]
    assert isinstance(human, HumanSeat)
    human.submit(Action.fold() if t.legal_actions().can_fold else Action.check())
    assert t.step() is True


def test_remote_seat_plays_itself_while_away() -> None:
    seats = [SeatSpec("Friend", "remote"), *bots(1)]
    t = Tournament(TournamentConfig.for_table("heads_up", seats), rng=SeededRandomSource(4))
    remote = t.controllers[0]
    assert isinstance(remote, RemoteSeat)
    t.start_hand()
    t.run_bots()
    while not t.hand_over and t.to_act == 0:
        la = t.legal_actions()
        remote.deliver(Action.check() if la.can_check else Action.call())
        t.run_bots()
    remote.set_connected(False)
    t.start_hand()
    t.run_bots()
    assert t.hand_over  # the fallback bot played the seat


def test_act_checks_whose_turn_it_is() -> None:
    t = Tournament(custom(3), rng=SeededRandomSource(2), button=0)
    t.start_hand()
    wrong = (t.to_act + 1) % 3
    with pytest.raises(IllegalActionError, match="turn"):
        t.act(wrong, Action.call())


# --------------------------------------------------------------- persistence


def test_save_after_every_action_and_resume_exactly() -> None:
    rng = random.Random(11)
    actions = 0
    t = Tournament(custom(4, chips=2000, every=3), rng=SeededRandomSource(8), button=2)
    for _ in range(12):
        if t.is_over:
            break
        t.start_hand()
        while not t.hand_over:
            la = t.legal_actions()
            saved = json.loads(json.dumps(t.to_dict()))
            resumed = Tournament.from_dict(saved, rng=SeededRandomSource(0))
            assert resumed.to_dict() == saved
            assert resumed.legal_actions() == la and resumed.to_act == t.to_act
            r = rng.random()
            if la.can_bet_or_raise and r < 0.2:
                act = Action.bet(la.min_to) if la.can_bet else Action.raise_to(la.min_to)
            elif la.can_check:
                act = Action.check()
            else:
                act = Action.call() if la.call_amount < 200 or r < 0.3 else Action.fold()
            seat = t.to_act
            t.act(seat, act)
            resumed.act(seat, act)
            actions += 1
            assert resumed.stacks_now == t.stacks_now
        assert resumed.stacks == t.stacks and resumed.places == t.places
    assert actions >= 30


# --------------------------------------------------------------- records


def test_stats_and_records() -> None:
    t = Tournament(custom(3, chips=400, every=2), rng=SeededRandomSource(21), button=0)
    t.play_to_end()
    records = PlayerRecords(keep=2)
    summaries = [t.summary(seat, duration_s=60.0) for seat in range(3)]
    for s in summaries:
        assert s.hands_played >= s.hands_won and s.vpip_hands <= s.hands_played
        assert s.best_hand is None or isinstance(s.best_hand_name, str)
    assert sorted(s.place for s in summaries) == [1, 2, 3]
    for s in summaries:
        records.add(s)
    assert len(records.games) == 2  # keeps the latest
    totals = records.totals()
    assert totals["games"] == 2 and totals["play_time_s"] == 120.0
    again = PlayerRecords.from_dict(json.loads(json.dumps(records.to_dict())))
    assert again.games == records.games
    exported = json.loads(records.export_json())
    assert exported["totals"]["games"] == 2
    assert GameSummary(**exported["games"][0]) == records.games[0]


# --------------------------------------------------------------- bot-only tournaments


@pytest.mark.heavy
@pytest.mark.slow
def test_1000_bot_only_tournaments_conserve_chips_and_crown_one_champion() -> None:
    """1,000 sit-and-gos of fast bots (made-hand heuristic instead of Monte Carlo; the
    same decision code otherwise), 2 to 6 players, short stacks and quick blinds."""
    hands = 0
    for i in range(1000):
        r = random.Random(i)
        n = r.randint(2, 6)
        seats = [
            SeatSpec(
                f"P{j}",
                "bot",
                r.choice(["easy", "normal", "hard"]),
                r.choice([None, *PERSONALITIES]),
            )
            for j in range(n)
        ]
        config = TournamentConfig.for_table(
            "custom",
            seats,
            starting_chips=r.choice([200, 300, 500]),
            starting_blinds=(10, 20),
            hands_per_level=3,
        )
        t = Tournament(config, rng=SeededRandomSource(i), bot_samples=0)
        total = sum(t.stacks)
        while not t.is_over:
            t.start_hand()
            t.run_bots()
            assert t.hand_over
            assert sum(t.stacks) == total
            assert sum(t.hand.result().won) == sum(p.amount for p in t.hand.result().pots)
            hands += 1
            assert t.hand_number < 2000
        champions = [s for s, p in t.places.items() if p == 1]
        assert len(champions) == 1 and t.stacks[champions[0]] == total
        assert sorted(t.places.values()) == list(range(1, n + 1))
    assert hands > 10_000


def test_real_monte_carlo_bots_finish_tournaments() -> None:
    for i in range(3):
        seats = [SeatSpec(f"P{j}", "bot", d) for j, d in enumerate(["easy", "normal", "hard"])]
        config = TournamentConfig.for_table(
            "custom", seats, starting_chips=300, starting_blinds=(10, 20), hands_per_level=2
        )
        t = Tournament(config, rng=SeededRandomSource(100 + i))
        assert t.play_to_end() in range(3)


def test_bot_seat_uses_only_the_view() -> None:
    calls = []

    class Spy(Bot):
        def decide(self, view):  # noqa: ANN001, ANN201
            calls.append(view)
            return super().decide(view)

    t = Tournament(
        custom(3),
        rng=SeededRandomSource(1),
        controllers={i: BotSeat(Spy("hard", rng=i)) for i in range(3)},
    )
    t.start_hand()
    t.run_bots()
    assert calls
    for view in calls:
        others = [c for s, c in enumerate(t.hand.hole_cards) if s != view.seat]
        assert all(repr(tuple(c)) not in repr(view) for c in others if c)
