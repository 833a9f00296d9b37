"""Join a game from a second cabinet: the setup screen's Join a game, the game code on
the keypad, then this cabinet's player takes a seat in the game another cabinet hosts
(its game server on loopback) and plays through the same server, seeing only its own
cards; a wrong code is refused; Leave the game hands the seat to the computer.  Real
pygame screens (dummy driver), real sockets.  Screenshots go to /tmp/shots/.
"""

from __future__ import annotations

import time

import pytest
from support.cabinet_screens import CabinetScreens

import kiosk.tournament.session as session_module
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec
from engine.rng import SeededRandomSource
from kiosk.friends.game import FriendsGame
from kiosk.friends.host import FriendsHost
from kiosk.friends.roster import FriendsTimers
from kiosk.ui.events import Key


@pytest.fixture(autouse=True)
def fast_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(session_module.AI_DELAYS, "fast", 0.01)
    monkeypatch.setitem(session_module.BOARD_PAUSE, "fast", 0.0)


@pytest.fixture
def hosted():
    """The host cabinet's game server (its own seat played by the computer), serving."""
    seats = [SeatSpec("Host", kind="human")] + [SeatSpec(n, "bot", "easy", n) for n in ("Ike", "Max", "Rosa")]
    game = FriendsGame(TournamentConfig("custom", tuple(seats), 600, 1, 3), ai_speed="fast", host_plays="bot",
                       rng=SeededRandomSource(5), bot_samples=0, timers=FriendsTimers(next_hand_s=0.4))
    host = FriendsHost(game)
    host.start()
    host.run_in_background(0.01)
    yield host
    host.stop()


@pytest.fixture
def station(tmp_path, hosted):
    made: list[CabinetScreens] = []

    def make(size: tuple[int, int] = (800, 480)) -> CabinetScreens:
        hosts = [f"127.0.0.1:{hosted.port}"]
        s = CabinetScreens(tmp_path / f"st{len(made)}", size, shots="friends2", friends_hosts=hosts)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def _type_code(st: CabinetScreens, code: str) -> None:
    st.run(0.1)
    st.touch("tournament")
    st.touch("join")
    assert st.scene.name == "tournament_join"
    for ch in code:
        st.touch(f"key_{ch}")


def test_a_wrong_code_is_refused_on_the_join_screen(station, hosted) -> None:
    st = station()
    wrong = next(c for c in ("AAAAAA", "BBBBBB") if c != hosted.game.code)
    _type_code(st, wrong)
    st.touch("join")
    assert st.scene.name == "tournament_join" and st.scene.problem == "code.unknown"
    assert st.ctx.joined is None


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_second_cabinet_joins_by_code_and_plays_seeing_only_its_own_cards(station, hosted, size) -> None:
    st = station(size)
    code = hosted.game.code
    _type_code(st, code)
    assert st.shot("join").exists()
    st.touch("join")
    assert st.scene.name == "tournament_remote"
    client = st.ctx.joined
    st.until(lambda: client.welcome is not None)
    seat = client.welcome["seat"]
    assert hosted.call(lambda g: [f.name for f in g.friends()]) == ["Guest"]
    hosted.call(lambda g: g.start())
    st.until(lambda: client.state is not None and client.state.get("phase") in ("play", "hand_over"))
    seen: list[dict] = []
    moves = 0
    end = time.monotonic() + 60
    while time.monotonic() < end and moves < 6:
        st.run(0.05)
        m = client.state
        if m is None:
            continue
        seen.append(m)
        if m.get("phase") == "over":
            break
        if m.get("phase") == "play" and m.get("your_turn"):
            if moves == 1:
                assert st.shot("remote-table").exists()
            st.touch("call")
            moves += 1
            seq = m["seq"]
            st.until(lambda seq=seq: not client.state.get("your_turn") or client.state.get("seq") != seq)
        elif m.get("phase") == "hand_over" and st.button("next").enabled:
            st.touch("next")
    assert moves >= 2, "the cabinet's player moved through the host's server"
    for m in seen:
        if m.get("phase") == "play":
            assert len(m["cards"]) in (0, 2)
            assert all(s["cards"] is None for s in m["seats"] if s["seat"] != seat), "only its own cards"
    # Leave the game: the computer plays the seat for good
    st.touch("leave")
    st.touch("confirm_leave")
    assert st.scene.name == "attract" and st.ctx.joined is None
    end = time.monotonic() + 10
    while not hosted.call(lambda g: g.status_of(seat) == "left"):
        assert time.monotonic() < end
        time.sleep(0.05)
    st.app.feed(Key("escape"))
