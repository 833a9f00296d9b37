"""The friends game's clocks: a friend's turn timer (about 30 s; the computer plays that
move and the seat stays theirs; three in a row make it away) and the host leaving (the
game waits 10 minutes for it, friends see that it waits, then it ends for everyone with
results)."""

from __future__ import annotations

from support.friends_table import Table

from kiosk.friends.roster import FriendsTimers


def _to_my_turn(t: Table, conn: int) -> dict:
    t.until(lambda: t.my_turn(conn))
    return t.last(conn)


def test_a_friend_who_lets_the_clock_run_out_has_the_move_played_for_them_and_keeps_the_seat(
        small_table, fast_pacing):
    t = Table(small_table(players=3, chips=5000), timers=FriendsTimers(next_hand_s=1.0))
    welcome = t.join(1, "Mia")
    t.join(2, "Tom")
    t.game.start()
    session = t.game.session
    seat = welcome["seat"]
    m = _to_my_turn(t, 1)
    assert m["turn_s"] == 30, "the clock is in the table every seat is sent"
    assert t.last(2)["turn_s"] == 30
    t.pump(29.0)
    assert session.t.to_act == seat and t.game.turn_left() is not None and t.game.turn_left() < 1.5
    history = len(session.t.hand.history)
    t.pump(1.1)
    assert len(session.t.hand.history) > history, "the computer played the move"
    assert next(r for r in session.t.hand.history[history:] if getattr(r, "seat", None) == seat)
    assert session.remote.is_remote(seat) and not session.remote.is_away(seat), "the seat is not yet away"
    assert t.last(2)["seats"][seat]["status"] == "friend"


def test_three_moves_out_of_time_in_a_row_make_the_seat_away_and_a_move_of_their_own_resets_the_count(
        small_table, fast_pacing):
    t = Table(small_table(players=2, chips=20000, every=100), timers=FriendsTimers(next_hand_s=0.5, turn_s=5.0))
    welcome = t.join(1, "Mia")
    t.game.start()
    session = t.game.session
    seat = welcome["seat"]
    # one move out of time, then one of her own: the count starts again
    _to_my_turn(t, 1)
    t.pump(5.1)
    m = _to_my_turn(t, 1)
    t.send(1, {"type": "act", "hand": m["hand"], "seq": m["seq"],
               "action": "check" if m["legal"]["can_check"] else "call"})
    assert t.game.turns.expiries.get(seat) is None
    for n in range(3):
        _to_my_turn(t, 1)
        assert not session.remote.is_away(seat), f"away after {n} moves out of time"
        t.pump(5.1)
    assert session.remote.is_away(seat)
    assert t.game.status_of(seat) == "away"
    # opening the link again gives the seat back
    t.connect(3)
    t.send(3, {"type": "resume", "token": welcome["token"]})
    assert not session.remote.is_away(seat)


def test_the_game_waits_ten_minutes_for_the_host_then_ends_for_everyone_with_results(small_table, fast_pacing):
    t = Table(small_table(players=3, chips=5000), host_plays="screen", timers=FriendsTimers(next_hand_s=1.0))
    t.join(1, "Mia")
    t.join(2, "Tom")
    t.game.start()
    session = t.game.session
    t.pump(0.1)
    t.game.host_left()
    t.pump(0.0)
    m = t.last(1)
    assert m["host_wait_s"] == 600, "friends see that the game waits for the host"
    version = session.version
    t.pump(300.0)
    assert session.version == version, "nothing moves while the game waits"
    assert t.last(2)["host_wait_s"] == 300
    if t.my_turn(1):
        m = t.last(1)
        t.send(1, {"type": "act", "hand": m["hand"], "seq": m["seq"], "action": "fold"})
        assert t.last(1, "refused")["code"] == "game.waiting"
    t.pump(300.5)
    assert t.game.over
    for conn in (1, 2):
        over = t.last(conn)
        assert over["phase"] == "over"
        assert sorted(s["place"] for s in over["standings"]) == [1, 2, 3]
    assert session.recorded, "the cabinet's player gets the game in their records"
    t.until(lambda: t.game.finished)


def test_the_host_coming_back_in_time_carries_on(small_table, fast_pacing):
    t = Table(small_table(players=3, chips=5000), host_plays="screen", timers=FriendsTimers(next_hand_s=1.0))
    t.join(1, "Mia")
    t.game.start()
    t.game.host_left()
    t.pump(599.0)
    t.game.host_back()
    t.pump(0.0)
    assert not t.game.over and t.last(1)["host_wait_s"] is None


def test_a_friends_clock_stands_still_while_the_game_waits_for_the_host(small_table, fast_pacing):
    t = Table(small_table(players=3, chips=5000), timers=FriendsTimers(next_hand_s=1.0))
    welcome = t.join(1, "Mia")
    t.game.start()
    session = t.game.session
    m = _to_my_turn(t, 1)
    t.pump(10.0)
    assert 19.5 < t.game.turn_left() <= 20.0
    t.game.host_left()
    t.pump(300.0)
    t.game.host_back()
    t.pump(0.0)
    assert session.t.to_act == welcome["seat"] and (t.last(1)["hand"], t.last(1)["seq"]) == (m["hand"], m["seq"]), \
        "the move is still hers to make"
    assert 19.5 < t.game.turn_left() <= 20.0, "and she has the time she had when the host left"
    t.send(1, {"type": "act", "hand": m["hand"], "seq": m["seq"], "action": "fold"})
    assert session.t.to_act != welcome["seat"] or t.last(1)["seq"] != m["seq"]
