"""How the cabinet-less host and the tests touch a game whose loop runs on its own
thread (:meth:`FriendsHost.call`): a loop held up by a slow save is waited for (the game
goes on for everyone), and a loop that is not running is said at once."""

from __future__ import annotations

import sqlite3
import time

import pytest
from support.friend_client import FriendClient

from engine.rng import SeededRandomSource
from kiosk.friends.game import FriendsGame
from kiosk.friends.host import FriendsHost, HostLoopStopped
from kiosk.tournament.store import TournamentStore


@pytest.mark.heavy
def test_a_call_waits_for_a_loop_held_up_by_a_slow_save_and_the_game_goes_on(
    tmp_path, small_table, fast_pacing
):
    db = tmp_path / "uth.db"
    store = TournamentStore.open(db, create=True)
    game = FriendsGame(
        small_table(players=3),
        ai_speed="fast",
        host_plays="bot",
        store=store,
        bot_samples=0,
        rng=SeededRandomSource(5),
    )
    host = FriendsHost(game)
    host.start()
    host.run_in_background(0.01)
    mia = FriendClient(host.link)
    try:
        mia.join("Mia")
        mia.wait_for(lambda c: c.welcome is not None)
        # another writer holds the database: every save of the deal waits its busy
        # timeout (5 s) on the loop's thread, as on a disk that takes seconds to sync
        blocker = sqlite3.connect(db, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            began = time.monotonic()
            started = host.call(lambda g: g.start() is not None)
            held = time.monotonic() - began
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert started and held > 5.0, held
        table = mia.wait_for(
            lambda c: c.state is not None and c.state["type"] == "state" and c.state.get("hand")
        )
        assert table["phase"] in ("play", "hand_over") and table["hand"] >= 1
        assert host.call(lambda g: g.started and not g.finished)
    finally:
        mia.close()
        host.stop()
        store.close()


def test_a_call_on_a_loop_that_is_not_running_says_so_at_once(small_table):
    host = FriendsHost(FriendsGame(small_table(players=3), host_plays="bot", bot_samples=0))
    began = time.monotonic()
    with pytest.raises(HostLoopStopped, match="not running"):
        host.call(lambda g: g.started)
    assert time.monotonic() - began < 2.0
