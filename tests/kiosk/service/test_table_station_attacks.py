"""A tampered station over the real TLS link: test credits keyed in without a
technician, and the operator menu's recall of another station's round still in play.
A real :class:`Table` on a SQLite file, its :class:`TableHost` on loopback and
:class:`RemoteTable` stations (the project's own client) sending the messages."""

from __future__ import annotations

import pytest
from support.table_money import credit
from test_table_operator import ANN, TED, Rig

from engine.uth.round import Action
from kiosk.game import commands as cmd


@pytest.fixture
def rig(tmp_path):
    made = Rig(tmp_path)
    yield made
    made.close()


def test_test_credits_need_burn_in_mode_and_a_technician_logged_in_at_the_station(rig):
    remote = rig.remotes[1]
    ack = remote.test_credits(90_000, 10.0)  # an installed table, nobody logged in
    assert ack is not None and not ack.accepted and "demo or burn-in" in ack.reason
    assert rig.table.credits(1) == 0 and rig.events("test_credits_in") == []
    rig.host.burn_in = True  # uth table serve --burn-in
    ack = remote.test_credits(90_000, 10.0)
    assert ack is not None and not ack.accepted and "technician" in ack.reason
    assert rig.login(1, ANN[2]).accepted  # an attendant is not enough
    ack = remote.test_credits(90_000, 10.0)
    assert ack is not None and not ack.accepted and rig.table.credits(1) == 0
    assert rig.login(2, TED[2]).accepted  # a technician at another station neither
    ack = remote.test_credits(90_000, 10.0)
    assert ack is not None and not ack.accepted and rig.table.credits(1) == 0
    assert rig.login(1, TED[2]).accepted
    ack = remote.test_credits(90_000, 10.0)
    assert ack is not None and ack.accepted, ack
    assert rig.table.credits(1) == 90_000
    (event,) = rig.events("test_credits_in")
    assert (event.station, event.detail["operator"], event.detail["role"]) == (
        1,
        TED[0],
        "technician",
    )


def test_an_open_round_is_shown_to_no_operator_until_it_settles(rig):
    credit(rig.table, 1, 5000)
    rig.table.execute(1, cmd.PlaceChip("ante", 500))
    rig.table.execute(1, cmd.Deal())
    assert rig.table.snapshot(1).round_open
    assert rig.login(2, ANN[2]).accepted
    recall = rig.ask(2, "recall", 1)  # station 1's round, asked at station 2
    assert recall.ok and recall.data["rounds"] == [], recall.data
    for action in (Action.CHECK, Action.CHECK, Action.FOLD):
        rig.table.execute(1, cmd.Decide(action))
    (played,) = rig.ask(2, "recall", 1).data["rounds"]  # settled: now it is shown
    assert played["state"] == "settled" and len(played["player_hole"]) == 2
