"""The friends game without sockets: seats by name, moves checked when played, the away
timer, Leave the game, the Next hand vote, bad names, and only each seat's own cards in
every message it is sent."""

from __future__ import annotations

import json

import pytest
from support.friends_table import Table

from kiosk.friends.messages import decode
from kiosk.friends.roster import FriendsTimers


def test_friends_take_computer_seats_by_name_and_play_to_the_end_seeing_only_their_cards(small_table, fast_pacing,
                                                                                        truth):
    t = Table(small_table(players=4, chips=200), truth)
    a = t.join(1, "Mia")
    b = t.join(2, "Tom", seat=3)
    assert (a["seat"], b["seat"]) == (1, 3)
    assert t.last(1)["phase"] == "lobby"
    assert [s["name"] for s in t.last(1)["seats"]] == ["Host", "Mia", "Max", "Tom"]
    session = t.game.start()
    truth.watch(session)
    assert session.t.config.seats[1].name == "Mia" and session.t.config.seats[1].kind == "remote"
    moves = 0
    while not t.game.over:
        t.pump(0.05)
        for conn in (1, 2):
            m = t.last(conn)
            if m["phase"] == "play" and m["your_turn"]:
                la = m["legal"]
                action = "check" if la["can_check"] else ("call" if moves % 3 else "allin")
                t.send(conn, {"type": "act", "hand": m["hand"], "seq": m["seq"], "action": action})
                moves += 1
            elif m["phase"] == "hand_over" and m["vote"]["counts"] and not m["vote"]["voted"]:
                t.send(conn, {"type": "next", "hand": m["hand"]})
    assert moves > 0
    t.until(lambda: t.game.finished)
    for conn in (1, 2):
        over = t.last(conn)
        assert over["phase"] == "over" and over["summary"]["players"] == 4
        assert {s["place"] for s in over["standings"]} == {1, 2, 3, 4}
        assert not any(m["type"] == "refused" for m in t.inbox[conn])


def _to_my_turn(t: Table, conn: int) -> dict:
    t.until(lambda: t.my_turn(conn))
    return t.last(conn)


def test_a_move_out_of_turn_stale_or_illegal_is_refused_to_that_player_only_and_they_are_asked_again(
        small_table, fast_pacing):
    t = Table(small_table(players=3))
    t.join(1, "Mia")
    t.join(2, "Tom")
    t.game.start()
    m = _to_my_turn(t, 1)
    history = len(t.game.session.t.hand.history)
    # Tom out of turn
    t.send(2, {"type": "act", "hand": m["hand"], "seq": m["seq"], "action": "fold"})
    assert t.inbox[2][-2]["type"] == "refused" and t.inbox[2][-2]["code"] == "move.turn"
    assert t.inbox[2][-1]["type"] == "state", "the player is shown the table again"
    toms = len(t.inbox[2])
    # Mia: stale hand, stale sequence, illegal amount, amount on a check
    for bad, code in (
        ({"hand": m["hand"] + 1, "seq": m["seq"], "action": "fold"}, "move.stale"),
        ({"hand": m["hand"], "seq": m["seq"] - 1, "action": "fold"}, "move.stale"),
        ({"hand": m["hand"], "seq": m["seq"], "action": "raise", "amount": m["legal"]["min_to"] - 1},
         "move.illegal"),
        ({"hand": m["hand"], "seq": m["seq"], "action": "raise"}, "move.amount"),
        ({"hand": m["hand"], "seq": m["seq"], "action": "check", "amount": 5}, "move.amount"),
    ):
        n = len(t.inbox[1])
        t.send(1, {"type": "act", **bad})
        refusals = [x for x in t.inbox[1][n:] if x["type"] == "refused"]
        assert [r["code"] for r in refusals] == [code], bad
        assert t.inbox[1][-1]["type"] == "state" and t.inbox[1][-1]["your_turn"]
    assert len(t.game.session.t.hand.history) == history, "nothing was played"
    assert not any(x["type"] == "refused" for x in t.inbox[2][toms:]), "Mia's refusals are hers only"
    # the right move at the right time goes through
    la = m["legal"]
    t.send(1, {"type": "act", "hand": m["hand"], "seq": m["seq"], "action": "check" if la["can_check"] else "call"})
    assert len(t.game.session.t.hand.history) > history
    # the same move again is stale
    t.send(1, {"type": "act", "hand": m["hand"], "seq": m["seq"], "action": "fold"})
    assert t.last(1, "refused")["code"] in ("move.stale", "move.turn")


def test_next_hand_is_dealt_when_everyone_still_in_taps_or_after_the_timeout(small_table, fast_pacing):
    t = Table(small_table(players=3, chips=1000), timers=FriendsTimers(next_hand_s=5.0))
    t.join(1, "Mia")
    t.join(2, "Tom")
    t.game.start()
    session = t.game.session

    def play_hand():
        while not session.hand_over:
            t.pump(0.05)
            for conn in (1, 2):
                if t.my_turn(conn):
                    m = t.last(conn)
                    t.send(conn, {"type": "act", "hand": m["hand"], "seq": m["seq"], "action": "fold"
                                  if not m["legal"]["can_check"] else "check"})
        t.pump(0.0)

    play_hand()
    hand = session.t.hand_number
    vote = t.last(1)["vote"]
    assert vote["counts"] and sorted(vote["waiting"]) == [1, 2], "the host's computer player has voted"
    t.send(1, {"type": "next", "hand": hand})
    t.pump(1.0)
    assert session.hand_over and session.t.hand_number == hand, "Tom has not tapped yet"
    assert t.last(2)["vote"]["waiting"] == [2]
    t.send(2, {"type": "next", "hand": hand})
    assert session.t.hand_number == hand + 1, "everyone tapped: dealt at once"
    # a vote for a hand that is not on the table is refused
    t.send(1, {"type": "next", "hand": hand})
    assert t.last(1, "refused")["code"] == "next.stale"
    # nobody taps: dealt by itself after the timeout
    play_hand()
    hand = session.t.hand_number
    t.pump(4.0)
    assert session.t.hand_number == hand
    t.pump(1.1)
    assert session.t.hand_number == hand + 1


def test_a_friend_away_for_45_s_is_played_by_the_computer_and_gets_the_seat_back_with_the_link(
        small_table, fast_pacing):
    t = Table(small_table(players=3, chips=5000))
    welcome = t.join(1, "Mia")
    t.join(2, "Tom")
    t.game.start()
    session = t.game.session
    seat = welcome["seat"]
    _to_my_turn(t, 1)
    t.game.disconnect(1)
    t.pump(29.0)
    assert session.t.to_act == seat and not session.remote.is_away(seat), "her clock has a second left"
    history = len(session.t.hand.history)
    t.pump(1.1)
    assert any(getattr(r, "seat", None) == seat for r in session.t.hand.history[history:]), \
        "the clock ran out while she was disconnected: the computer played that move"
    assert not session.remote.is_away(seat) and t.last(2)["seats"][seat]["status"] == "friend"
    t.pump(15.5)
    assert session.remote.is_away(seat), "45 s without a connection: the seat is away"
    assert t.last(2)["seats"][seat]["status"] == "away"
    t.until(lambda: session.t.to_act != seat)
    assert session.t.to_act != seat, "the computer plays the seat"
    # opening the link again: the same seat, by its token
    t.connect(5)
    t.send(5, {"type": "resume", "token": welcome["token"]})
    assert t.last(5, "welcome")["seat"] == seat
    assert not session.remote.is_away(seat)
    assert t.last(2)["seats"][seat]["status"] == "friend"
    # a token nobody was given
    t.connect(6)
    t.send(6, {"type": "resume", "token": "x" * 24})
    assert t.last(6, "refused")["code"] == "seat.unknown"


def test_leave_the_game_hands_the_seat_to_the_computer_for_good(small_table, fast_pacing):
    t = Table(small_table(players=3))
    welcome = t.join(1, "Mia")
    t.join(2, "Tom")
    t.game.start()
    session = t.game.session
    t.send(1, {"type": "leave"})
    assert 1 in t.closed and t.last(1, "closed")["reason"] == "left"
    assert not session.remote.is_remote(welcome["seat"])
    assert t.last(2)["seats"][welcome["seat"]]["status"] == "left"
    assert t.last(2)["seats"][welcome["seat"]]["name"] == "Mia"
    t.connect(3)
    t.send(3, {"type": "resume", "token": welcome["token"]})
    assert t.last(3, "refused")["code"] == "seat.unknown"


@pytest.mark.parametrize(("name", "code"), [
    ("", "name.empty"), ("   ", "name.empty"), ("A" * 17, "name.long"), ("bad\x07bell", "name.control"),
    ("tab\tname", "name.control"), ("rtl\u202eoverride", "name.control"),
])
def test_names_with_control_characters_or_too_long_are_refused(small_table, name, code):
    t = Table(small_table(players=3))
    t.connect(1)
    t.send(1, {"type": "join", "name": name})
    assert t.last(1, "refused")["code"] == code
    assert t.game.friends() == []


def test_a_200_character_name_is_refused_before_it_reaches_the_game(small_table):
    from kiosk.friends.messages import Refusal
    with pytest.raises(Refusal) as info:
        decode(json.dumps({"type": "join", "name": "N" * 200}))
    assert info.value.code == "frame.malformed"


def test_at_most_five_friends_and_never_the_hosts_seat_nor_a_seventh(small_table):
    t = Table(small_table(players=6))
    seats = [t.join(i, f"P{i}")["seat"] for i in range(1, 6)]
    assert sorted(seats) == [1, 2, 3, 4, 5]
    t.connect(6)
    t.send(6, {"type": "join", "name": "Six"})
    assert t.last(6, "refused")["code"] == "seat.full"
    t2 = Table(small_table(players=3))
    t2.connect(1)
    t2.send(1, {"type": "join", "name": "Mia", "seat": 0})
    assert t2.last(1, "refused")["code"] == "seat.taken"
    from kiosk.friends.messages import Refusal
    with pytest.raises(Refusal):
        decode(json.dumps({"type": "join", "name": "Mia", "seat": 6}))
