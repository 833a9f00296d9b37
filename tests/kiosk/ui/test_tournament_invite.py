"""Invite a friend on the cabinet: the invitation screen (QR code, game code, seed 003's
words, the friends who joined, Start once one has), then the hosted game on the
cabinet's table: friends' names, "Computer playing" on an away seat, the friend's clock,
Next hand as the cabinet's vote.  Real pygame screens (dummy driver), a real game server
on loopback and friends as real socket clients.  Screenshots go to /tmp/shots/.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.cabinet_screens import CabinetScreens
from support.friend_client import FriendClient

import kiosk.tournament.session as session_module
from engine.rng import SeededRandomSource
from kiosk.friends.roster import FriendsTimers
from kiosk.ui.events import Key

SEED003_INVITE = ("Send this link to up to five friends. Each takes a computer player’s seat, with its chips; "
                  "the computer plays any seats left.")


@pytest.fixture(autouse=True)
def fast_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(session_module.AI_DELAYS, "fast", 0.01)
    monkeypatch.setitem(session_module.BOARD_PAUSE, "fast", 0.0)


def _hosting_cabinet(
    folder: Path, size: tuple[int, int] = (800, 480), timers: FriendsTimers | None = None
) -> CabinetScreens:
    """A cabinet with a tournament database, its games dealt from a fixed seed."""
    cab = CabinetScreens(folder, size, shots="friends2")
    cab.ctx.rng = SeededRandomSource(11)
    cab.ctx.bot_samples = 0
    cab.ctx.friends_timers = timers or FriendsTimers(next_hand_s=0.5, finish_s=0.2)
    return cab


@pytest.fixture
def host(tmp_path):
    made: list[CabinetScreens] = []

    def make(folder: str | None = None, **kwargs) -> CabinetScreens:
        h = _hosting_cabinet(tmp_path / (folder or f"cab{len(made)}"), **kwargs)
        made.append(h)
        return h

    yield make
    for h in made:
        h.close()


def _to_invite(h: CabinetScreens) -> None:
    h.run(0.1)
    h.touch("tournament")
    assert h.scene.name == "tournament_setup"
    h.touch("speed_fast")
    h.touch("invite")
    assert h.scene.name == "tournament_invite"


def _until(h: CabinetScreens, predicate, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        h.run(0.05)
        time.sleep(0.01)


def test_the_invitation_shows_the_code_and_starts_once_a_friend_has_joined(host) -> None:
    h = host()
    _to_invite(h)
    f = h.ctx.friends
    assert f is not None and f.link.endswith("/g/" + f.code)
    words = h.drawn_words()
    assert f"Game {f.code}" in words and SEED003_INVITE in words and "Waiting…" in words
    assert not h.button("start").enabled, "Start waits for a friend"
    mia = FriendClient(f.link)
    try:
        mia.join("Mia")
        mia.wait_for(lambda c: c.welcome is not None, pump=h.run)
        h.run(0.1)
        assert "• Mia" in h.drawn_words()
        assert h.button("start").enabled
        h.touch("start")
        assert h.scene.name == "tournament"
        s = h.ctx.session
        seat = mia.welcome["seat"]
        assert s is h.ctx.friends.session and s.remote.is_remote(seat)
        assert s.remote.display_name(seat) == "Mia"
        assert all(s.seat_kind(i) == "bot" for i in range(1, 6) if i != seat), "the computer plays the rest"
    finally:
        mia.close()


def test_back_closes_the_invitation(host) -> None:
    h = host()
    _to_invite(h)
    link = h.ctx.friends.link
    h.touch("back")
    assert h.scene.name == "tournament_setup" and h.ctx.friends is None
    with pytest.raises(OSError):
        FriendClient(link)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_hosted_game_runs_on_the_cabinet_with_a_friend_and_an_away_seat(host, size) -> None:
    h = host(size=size, timers=FriendsTimers(away_s=0.3, next_hand_s=0.5, finish_s=0.2))
    _to_invite(h)
    link = h.ctx.friends.link
    mia, leo = FriendClient(link), FriendClient(link)
    try:
        mia.join("Mia")
        leo.join("Leo")
        mia.wait_for(lambda c: c.welcome is not None, pump=h.run)
        leo.wait_for(lambda c: c.welcome is not None, pump=h.run)
        h.touch("start")
        s = h.ctx.session
        leo_seat, mia_seat = leo.welcome["seat"], mia.welcome["seat"]
        leo.close()
        _until(h, lambda: s.remote.is_away(leo_seat))
        assert s.remote.is_away(leo_seat) and not s.remote.is_away(mia_seat)
        votes = 0
        for _ in range(4000):
            h.run(0.025)
            mia.poll()
            mia.play()
            mia.vote()
            if s.my_turn and s.t.hand_number >= 2:
                break
            if s.my_turn:
                h.app.feed(Key("c", "c"))
            elif s.hand_over:
                votes += bool(h.ctx.friends.game.vote is not None)
                h.app.feed(Key("space", " "))
        assert s.t.hand_number >= 2 and s.my_turn, "the cabinet's Next hand tap and Mia's vote deal the next hand"
        assert votes > 0
        words = h.drawn_words()
        assert "Mia" in words and "Computer playing" in words
        assert h.shot("hosted-game").exists()
    finally:
        mia.close()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_screenshots_of_the_invitation(host, size) -> None:
    h = host(size=size)
    _to_invite(h)
    f = h.ctx.friends
    mia = FriendClient(f.link)
    try:
        mia.join("Mia")
        mia.wait_for(lambda c: c.welcome is not None, pump=h.run)
        h.run(0.1)
        assert h.shot("invite").exists()
    finally:
        mia.close()


def test_the_cabinet_leaving_makes_the_game_wait_and_continue_picks_the_hosted_game_up_again(host) -> None:
    h = host(folder="cab")
    _to_invite(h)
    f = h.ctx.friends
    link = f.link
    mia = FriendClient(link)
    try:
        mia.join("Mia")
        mia.wait_for(lambda c: c.welcome is not None, pump=h.run)
        seat, token = mia.welcome["seat"], mia.welcome["token"]
        h.touch("start")
        h.app.feed(Key("m", "m"))
        h.run(0.05)
        h.touch("menu_leave")
        assert h.scene.name == "attract" and f.waiting_for_host
        state = mia.wait_for(lambda c: c.state is not None and c.state.get("host_wait_s") is not None)
        assert state["host_wait_s"] == 600, "the friend sees that the game waits for the host"
        h.touch("tournament")
        h.touch("continue")
        assert h.scene.name == "tournament" and not f.waiting_for_host
        mia.wait_for(lambda c: c.state.get("host_wait_s") is None, pump=h.run)
    finally:
        mia.close()
    hand = h.ctx.session.t.hand_number
    h.close()  # the cabinet goes off: its server closes
    h2 = host(folder="cab")
    h2.run(0.1)
    h2.touch("tournament")
    h2.touch("continue")
    assert h2.scene.name == "tournament"
    f2 = h2.ctx.friends
    assert f2 is not None and f2.link == link, "the friends' links work again"
    again = FriendClient(link)
    try:
        again.wait_for(lambda c: bool(c.messages), pump=h2.run)
        again.resume(token)
        again.wait_for(lambda c: c.welcome is not None and c.state is not None, pump=h2.run)
        assert again.welcome["seat"] == seat and h2.ctx.session.t.hand_number == hand
        assert h2.ctx.session.remote.display_name(seat) == "Mia"
    finally:
        again.close()
