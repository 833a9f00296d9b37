"""A friend never sees the cabinet player's "You": a cabinet player who typed no name is
sent without one (the page shows the Host in the friend's language) in the lobby, at
the table and in the final standings, so a friend's results cannot say both "You came
5th" and "6. You"; a name the cabinet player typed is sent as typed."""

from __future__ import annotations

from dataclasses import replace

from support.friends_table import Table

from kiosk.tournament.settings import DEFAULT_NAME


def _named(config, name: str):
    return replace(config, seats=(replace(config.seats[0], name=name), *config.seats[1:]))


def _names(message: dict, key: str = "seats") -> list[str]:
    return [s["name"] for s in message[key]]


def test_the_cabinet_player_without_a_name_is_never_you_on_a_friends_phone(
    small_table, fast_pacing
):
    t = Table(_named(small_table(players=3, chips=60), DEFAULT_NAME), host_plays="bot")
    t.join(1, "Mia")
    assert _names(t.last(1))[0] == ""  # the lobby: shown as the Host
    t.game.start()
    t.until(lambda: t.last(1)["phase"] == "play")
    assert _names(t.last(1))[0] == "" and DEFAULT_NAME not in _names(t.last(1))
    while not t.game.finished:
        t.pump(0.05)
        m = t.last(1)
        if m["phase"] == "play" and m["your_turn"]:
            t.send(
                1,
                {
                    "type": "act",
                    "hand": m["hand"],
                    "seq": m["seq"],
                    "action": "allin"
                    if m["legal"]["can_raise"] or m["legal"]["can_bet"]
                    else "call"
                    if m["legal"]["can_call"]
                    else "check",
                },
            )
        elif m["phase"] == "hand_over" and m["vote"]["counts"] and not m["vote"]["voted"]:
            t.send(1, {"type": "next", "hand": m["hand"]})
    t.until(lambda: t.last(1)["phase"] == "over")
    standings = _names(t.last(1), "standings")
    assert DEFAULT_NAME not in standings and "" in standings and "Mia" in standings


def test_a_name_the_cabinet_player_typed_is_shown_as_typed(small_table, fast_pacing):
    t = Table(_named(small_table(players=3), "Ada"))
    t.join(1, "Mia")
    assert _names(t.last(1)) == ["Ada", "Mia", "Max"]
