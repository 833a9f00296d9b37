"""Join a game on a cabinet's screens against the real ``uth tournament host`` process:
the Join screen says why a code gets no seat (no such game, this cabinet locked out
after wrong codes, no host configured); the joined cabinet's lobby counts down to the
deal; and when the host is killed (a power cut) and started again with the same
command, the joined cabinet says so, connects again by itself and takes its seat back
by its token.  Real pygame screens (dummy driver), real sockets, the host a process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.cabinet_screens import CabinetScreens
from support.friends_cli_host import CliHost

from kiosk.friends.codes import CODE_ALPHABET


def _type(cab: CabinetScreens, code: str) -> None:
    for _ in range(8):
        cab.touch("delete")
    for ch in code:
        cab.touch(f"key_{ch}")
    cab.touch("join")


def _to_join_screen(cab: CabinetScreens) -> None:
    cab.run(0.1)
    cab.touch("tournament")
    cab.touch("join")
    assert cab.scene.name == "tournament_join"


@pytest.fixture
def made(tmp_path) -> Iterator[list]:
    things: list = []
    yield things
    for thing in reversed(things):
        if isinstance(thing, CliHost):
            if thing.proc.p.poll() is None:
                thing.kill()
        else:
            thing.close()


@pytest.mark.heavy
def test_the_join_screen_says_when_this_cabinet_is_locked_out_after_wrong_codes(made, tmp_path):
    host = CliHost("--port", "0", "--db", str(tmp_path / "host.db"), "--start-after", "600")
    made.append(host)
    cab = CabinetScreens(tmp_path / "cab", friends_hosts=[f"127.0.0.1:{host.port}"])
    made.append(cab)
    _to_join_screen(cab)
    wrong = [c * 6 for c in CODE_ALPHABET if c * 6 != host.code][:5]
    for code in wrong:
        _type(cab, code)
        assert cab.scene.problem == "code.unknown", code
        assert "No game has this code." in cab.drawn_words()
    _type(cab, host.code)
    assert cab.scene.name == "tournament_join" and cab.ctx.joined is None, "the address is locked out"
    assert cab.scene.problem == "code.locked"
    assert "Too many wrong codes from this cabinet: try again in 15 minutes." in cab.drawn_words()
    # a cabinet with no host to ask is told what to configure
    bare = CabinetScreens(tmp_path / "bare", friends_hosts=[])
    made.append(bare)
    _to_join_screen(bare)
    _type(bare, host.code)
    assert bare.scene.problem == "host.none"
    assert "friends_hosts" in bare.drawn_words()


@pytest.mark.heavy
def test_a_joined_cabinet_comes_back_by_itself_after_a_power_cut_of_the_host(made, tmp_path):
    command = ("--port", "0", "--db", str(tmp_path / "host.db"), "--players", "3", "--start-after", "3",
               "--chips", "20000", "--turn-s", "60", "--speed", "fast")
    host = CliHost(*command)
    made.append(host)
    cab = CabinetScreens(tmp_path / "cab", friends_hosts=[f"127.0.0.1:{host.port}"], shots="friends3")
    made.append(cab)
    _to_join_screen(cab)
    _type(cab, host.code)
    assert cab.scene.name == "tournament_remote"
    client = cab.ctx.joined
    cab.until(lambda: client.welcome is not None and client.state is not None, what="a seat")
    seat, token = client.welcome["seat"], client.welcome["token"]
    if client.state["phase"] == "lobby":
        words = cab.drawn_words()
        assert "The game starts by itself in" in words and "taps Start" not in words, words
    cab.until(lambda: client.state.get("phase") == "play", timeout=30, what="the deal")
    hand = client.state["hand"]
    host.kill()  # the power cut
    cab.until(lambda: cab.scene.lost, what="the lost connection")
    assert "Connection to the host lost: trying again…" in cab.drawn_words()
    assert [b.id for b in cab.scene.buttons()] == ["leave"], "no move on a stale table"
    cab.shot("host-lost")
    host = CliHost(*command, name="host again")
    made.append(host)
    host.proc.wait_line(r"^Resumed game", timeout=30)
    cab.until(lambda: not cab.scene.lost and not client.closed, timeout=30, what="the host back")
    cab.until(lambda: client.welcome is not None and client.state is not None and client.state.get("hand", 0) >= hand,
              timeout=15, what="the table again")
    assert client.welcome["seat"] == seat and client.welcome["token"] == token, "the same seat, by its token"
    assert "Connection to the host lost" not in cab.drawn_words()
    # and the seat plays on: the cabinet's own move reaches the host
    def my_turn() -> bool:
        s = client.state
        if s.get("phase") == "hand_over" and cab.button("next").enabled:
            cab.touch("next")
        return s.get("phase") == "play" and bool(s.get("your_turn"))

    cab.until(my_turn, timeout=60, what="the cabinet's turn")
    decision = (client.state["hand"], client.state["seq"])
    cab.touch("call")
    # the host's turn timer (--turn-s 60) bounds how long the table can wait on any seat
    try:
        cab.until(lambda: (client.state["hand"], client.state.get("seq", 1 << 30)) > decision,
                  timeout=60, what="the move taken")  # fmt: skip
    except AssertionError as exc:
        raise AssertionError(f"{exc}: the host's refusal {client.refused}, its table {client.state}") from None
