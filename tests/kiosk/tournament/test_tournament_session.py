"""kiosk.tournament.session and kiosk.tournament.store, headless: pacing, the raise amounts,
equity in slices, remote seats, saving after every action, resuming after a power cut,
records, export and delete."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time

import pytest

from engine.errors import IllegalActionError
from engine.holdem.actions import Action, ActionKind
from engine.holdem.seats import RemoteSeat
from engine.holdem.stats import GameSummary
from engine.holdem.views import LegalActions
from engine.rng import SeededRandomSource
from kiosk.tournament.session import AI_DELAYS, BOARD_PAUSE, TournamentSession
from kiosk.tournament.settings import TournamentSettings
from kiosk.tournament.store import KEEP_GAMES, TournamentStore, TournamentStoreError
from kiosk.ui.raise_range import RaiseRange


@pytest.fixture
def store(tmp_path):
    s = TournamentStore.open(tmp_path / "uth.db", create=True)
    yield s
    s.close()


def new_session(store=None, seed=3, **settings) -> TournamentSession:
    settings.setdefault("ai_speed", "fast")
    return TournamentSession.start(TournamentSettings(**settings), store=store, rng=SeededRandomSource(seed),
                                   bot_samples=0)


def until(session: TournamentSession, cond, dt: float = 0.05, limit: int = 20_000) -> None:
    for _ in range(limit):
        if cond():
            return
        session.update(dt)
    raise AssertionError("condition never met")


def play_to_end(session: TournamentSession, policy=None) -> None:
    policy = policy or (lambda s: s.check_or_call())
    for _ in range(200_000):
        if session.is_over and session.recorded:
            return
        if session.my_turn:
            policy(session)
        elif session.hand_over and not session.playing_out:
            session.next_hand()
        session.update(0.1)
    raise AssertionError("the tournament did not end")


# -- settings and amounts ------------------------------------------------------------------------
def test_default_settings_are_seed_003s_game():
    s = TournamentSettings()
    config = s.config()
    assert config.table == "seed003" and s.table_key() == "seed003"
    assert [x.name for x in config.seats] == ["You", "Ike", "Max", "Rosa", "Jules", "Nina"]
    assert [x.kind for x in config.seats] == ["human"] + ["bot"] * 5
    assert all(x.personality == x.name for x in config.seats[1:])  # fixed: the same after a resume
    assert (config.starting_chips, config.starting_level, config.hands_per_level) == (1500, 1, 5)


def test_settings_name_the_table_or_custom():
    assert TournamentSettings(players=2, hands_per_level=10).table_key() == "heads_up"
    assert TournamentSettings(players=4, hands_per_level=10).table_key() == "classic"
    assert TournamentSettings(players=6, starting_chips=2000, hands_per_level=None).table_key() == "steady"
    custom = TournamentSettings(players=3, starting_chips=3000, starting_level=4, hands_per_level=15)
    assert custom.table_key() == "custom"
    c = custom.config()
    assert (c.starting_chips, c.starting_level, c.hands_per_level, len(c.seats)) == (3000, 4, 15, 3)
    hard = TournamentSettings().with_strength(2, "hard")
    assert [x.difficulty for x in hard.config().seats[1:]] == ["normal", "normal", "hard", "normal", "normal"]


def legal(min_to=40, max_to=1500, bet=0, call=20, pot=30, can_bet=False, sb=10, bb=20) -> LegalActions:
    return LegalActions(seat=0, can_fold=call > 0, can_check=call == 0, can_call=call > 0, call_amount=call,
                        can_bet=can_bet, can_raise=not can_bet, min_to=min_to, max_to=max_to,
                        current_bet=bet + call, bet=bet, stack=max_to - bet, pot=pot, big_blind=bb,
                        small_blind=sb)


def test_raise_amounts_round_to_the_small_blind_and_read_all_in_at_the_stack():
    rr = RaiseRange.of(legal())
    assert rr.clamp(57) == 60 and rr.clamp(54) == 50 and rr.clamp(3) == 40 and rr.clamp(99_999) == 1500
    assert rr.nudge(40, 1) == 60 and rr.nudge(60, -1) == 40 and rr.nudge(40, -1) == 40
    assert rr.nudge(1490, 1) == 1500
    # pot sizes count the call first: 20 + 0.5 * (30 + 20) = 45 -> 40
    assert (rr.preset("min"), rr.preset("half"), rr.preset("three_quarters"), rr.preset("pot")) == (40, 40, 50, 70)
    assert rr.preset("all_in") == 1500 and rr.at(0) == 40 and rr.at(1) == 1500 and rr.at(0.5) == 770
    assert rr.action(1500) == Action.all_in() == rr.action(1499)  # 1,499 rounds to the whole stack
    assert rr.action(120) == Action.raise_to(120)
    assert rr.action(2000).kind is ActionKind.ALL_IN
    opening = RaiseRange.of(legal(min_to=20, call=0, can_bet=True, pot=60))
    assert opening.action(60) == Action.bet(60)
    odd = RaiseRange.of(legal(min_to=35, max_to=95))  # a minimum off the grid stays allowed
    assert odd.clamp(35) == 35 and odd.nudge(35, 1) == 60 and odd.nudge(95, -1) == 80


# -- pacing, equity, seats -----------------------------------------------------------------------
def test_computer_players_take_their_time_and_the_result_waits_for_next_hand():
    s = new_session(ai_speed="normal")
    assert s.t.hand_number == 1
    if s.my_turn:
        s.check_or_call()
    seat = s.t.to_act
    assert seat is not None and seat != s.human_seat
    history = len(s.t.hand.history)
    s.update(AI_DELAYS["normal"] * 0.5)
    assert len(s.t.hand.history) == history, "a computer player answers only after its delay"
    until(s, lambda: len(s.t.hand.history) > history, dt=0.1)
    until(s, lambda: s.hand_over or s.my_turn, dt=0.1)
    while not s.hand_over:
        if s.my_turn:
            s.fold() if s.legal().can_fold else s.check_or_call()
        s.update(0.1)
    number = s.t.hand_number
    for _ in range(100):
        s.update(0.5)
    assert s.hand_over and s.t.hand_number == number, "the result stays until Next hand"
    assert s.next_hand() and s.t.hand_number == number + 1
    assert BOARD_PAUSE["slow"] > BOARD_PAUSE["fast"] and AI_DELAYS["slow"] > AI_DELAYS["fast"]


def test_illegal_moves_change_nothing():
    s = new_session()
    until(s, lambda: s.my_turn)
    before = s.t.to_dict()
    la = s.legal()
    with pytest.raises(IllegalActionError):
        s.act(Action.raise_to(la.min_to - 1) if la.min_to > la.current_bet + 1 else Action.bet(1))
    with pytest.raises(IllegalActionError):
        s.act(Action.check() if not la.can_check else Action.fold())
    assert s.t.to_dict() == before
    s.check_or_call()
    with pytest.raises(IllegalActionError, match="not your turn"):
        s.check_or_call()


def test_equity_is_computed_in_slices_and_again_when_cards_come_out_or_someone_folds():
    s = new_session(seed=8)
    s.equity_slice = 300
    until(s, lambda: s.my_turn)
    s._eq_job = None  # start over to count the slices
    eq, computing = s.equity()
    assert eq is None
    slices = 0
    while s.equity()[0] is None:
        s._equity_slice()
        slices += 1
    assert slices == 5, "1,500 deals in five slices of 300"
    eq, _ = s.equity()
    assert eq.samples == 1500 and 0 < eq.equity < 1 and eq.opponents == s.view().opponents
    key = s._eq_job.key
    s._equity_slice()
    assert s._eq_job.key == key and s.equity()[0] is eq, "nothing new: not recomputed"
    # after the board comes out or a fold, the key changes and it is worked out again
    s.check_or_call()
    until(s, lambda: s.hand_over or (s._eq_job is not None and s._eq_job.key != key))
    s.set_equity_assist(False)
    assert s.equity() == (None, False)


def test_a_remote_seat_is_played_from_outside_and_by_its_bot_while_away():
    s = new_session(seed=5)
    seat = 3
    remote = s.attach_remote(seat)
    assert isinstance(remote, RemoteSeat) and s.seat_kind(seat) == "remote" and s.seat_kind(0) == "local"
    view = s.view_for(seat)
    assert len(view.hole_cards) == 2 and view.seat == seat  # only its own cards
    # drive to the remote seat's turn
    for _ in range(20_000):
        if s.t.to_act == seat:
            break
        if s.my_turn:
            s.check_or_call()
        elif s.hand_over:
            s.next_hand()
        s.update(0.1)
    assert s.t.to_act == seat
    before = len(s.t.hand.history)
    for _ in range(50):
        s.update(0.5)
    assert len(s.t.hand.history) == before, "a connected remote player is waited for"
    s.deliver(seat, Action.raise_to(10**9))  # refused by the rules: dropped, asked again
    s.update(0.1)
    assert s.t.to_act == seat and len(s.t.hand.history) == before
    la = s.t.legal_actions()
    s.deliver(seat, Action.check() if la.can_check else Action.call())
    s.update(0.01)
    assert s.t.to_act != seat and len(s.t.hand.history) > before
    s.set_connected(seat, False)  # away: its bot plays on
    play_to_end(s)
    assert s.is_over


# -- persistence -----------------------------------------------------------------------------------
def test_saved_after_every_action(store):
    s = new_session(store)
    assert store.saves == 1  # the first deal
    until(s, lambda: s.my_turn)
    n = store.saves
    moves = sum(1 for r in s.t.hand.history if type(r).__name__ in ("Folded", "Checked", "Called", "BetMade",
                                                                      "Raised"))
    assert n == 1 + moves
    s.check_or_call()
    assert store.saves == n + 1
    game_id, state, session = store.load()
    assert game_id == s.game_id and state == json.loads(json.dumps(s.t.to_dict()))
    assert session["human_seat"] == 0 and session["ai_speed"] == "fast"


def copy_db(src, dst) -> None:
    """The files as they are on disk at this instant (a power cut)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal"):
        p = src.with_name(src.name + suffix)
        if p.exists():
            shutil.copyfile(p, dst.with_name(dst.name + suffix))


def test_power_cut_mid_hand_resumes_exactly_and_play_continues(tmp_path, store):
    s = new_session(store, seed=21)
    # mid-hand, after the flop, the human to act
    for _ in range(20_000):
        if s.my_turn and s.t.hand is not None and len(s.t.hand.board) >= 3:
            break
        if s.my_turn:
            s.check_or_call()
        elif s.hand_over:
            s.next_hand()
        s.update(0.1)
    assert s.my_turn and len(s.t.hand.board) >= 3
    snapshot = json.loads(json.dumps(s.t.to_dict()))
    session_state = s.state.to_dict()
    copy_db(store.path, tmp_path / "after" / "uth.db")
    # a fresh process: a new store on the copied files
    store2 = TournamentStore.open(tmp_path / "after" / "uth.db")
    try:
        r = TournamentSession.resume(store2, rng=SeededRandomSource(99), bot_samples=0)
        assert r is not None and r.game_id == s.game_id
        assert json.loads(json.dumps(r.t.to_dict())) == snapshot
        assert r.state.to_dict() == session_state
        assert r.my_turn and r.legal() == s.legal()
        assert r.view().hole_cards == s.view().hole_cards and r.history() == s.history()
        play_to_end(r)
        assert store2.records().totals()["games"] == 1 and not store2.has_saved_game()
    finally:
        store2.close()


def test_a_finished_game_is_recorded_once_and_its_save_deleted(store):
    s = new_session(store, seed=4)
    play_to_end(s)
    assert s.recorded and not store.has_saved_game()
    recs = store.records()
    (game,) = recs.games
    me = s.t.stats[0]
    assert game.place == s.t.places[0] and game.players == 6 and game.table == "seed003"
    assert (game.hands_played, game.hands_won, game.biggest_pot, game.best_hand, game.vpip_hands) == (
        me.hands_played, me.hands_won, me.biggest_pot, me.best_hand, me.vpip_hands)
    assert game.ai_strengths == ["normal"] and game.duration_s > 0
    assert store.finish(s.game_id, s.summary) is False  # a second time: already there
    assert len(store.records().games) == 1
    totals = recs.totals()
    assert totals["games"] == 1 and totals["wins"] == (1 if game.place == 1 else 0)
    assert totals["by_table"]["seed003"]["games"] == 1 and "normal" in totals["by_ai_strength"]


def summary(place: int, table: str = "classic", hands: int = 10) -> GameSummary:
    return GameSummary(table=table, players=6, place=place, hands_played=hands, hands_won=hands // 3,
                       vpip_hands=hands // 2, biggest_pot=100 * place, best_hand=5000 + place,
                       ai_strengths=["easy", "hard"], duration_s=60.0, finished_at=time.time())


def test_latest_60_games_kept_export_and_delete_all(tmp_path, store):
    for i in range(KEEP_GAMES + 5):
        store.finish(f"g{i}", summary(1 + i % 6, hands=i + 1))
    games = store.records().games
    assert len(games) == KEEP_GAMES and games[0].hands_played == 6  # the five oldest dropped
    data = json.loads(store.export_json())
    assert len(data["games"]) == KEEP_GAMES and data["totals"]["games"] == KEEP_GAMES
    assert data["totals"]["by_ai_strength"]["hard"]["games"] == KEEP_GAMES
    path = store.export_to(tmp_path / "usb")
    assert json.loads(path.read_text(encoding="utf-8"))["games"] == data["games"]
    s = new_session(store)  # a game in progress survives Delete all
    assert store.delete_all() == KEEP_GAMES
    assert store.records().games == [] and store.has_saved_game()
    s.abandon()
    assert not store.has_saved_game() and store.records().games == []  # abandoned: not recorded


def test_the_store_never_creates_the_cabinet_database(tmp_path):
    with pytest.raises(TournamentStoreError, match="does not exist"):
        TournamentStore.open(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
    s = TournamentStore.open(tmp_path / "x.db", create=True)
    conn = sqlite3.connect(tmp_path / "x.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"tournament_save", "tournament_hands", "tournament_games", "tournament_meta"} <= tables
    conn.close()
    assert s.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    s.close()


def test_a_new_game_replaces_the_saved_one(store):
    a = new_session(store, seed=1)
    until(a, lambda: a.t.hand_number >= 1 and a.my_turn)
    b = new_session(store, seed=2)
    game_id, _state, _session = store.load()
    assert game_id == b.game_id != a.game_id
    count = store.conn.execute("SELECT COUNT(DISTINCT game_id) FROM tournament_hands").fetchone()[0]
    assert count <= 1
