"""Join a game on the screen of a cabinet paired with the host: the Join screen takes the
seat over the table link; a cabinet whose pairing the host refuses, or that has none, is
told so on the screen and takes no seat.  Real pygame screens (dummy driver), real
sockets."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kiosk.config import load_config
from kiosk.friends import FriendsGame, FriendsHost, FriendsTimers
from kiosk.friends.context import TournamentContext
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.ui.events import Touch
from kiosk.wiring.cabinet import cabinet_app
from kiosk.wiring.lone_cabinet import LoneCabinet


@pytest.fixture
def hosted(tmp_path, fast_pacing, small_table):
    game = FriendsGame(
        small_table(4),
        ai_speed="fast",
        host_plays="bot",
        bot_samples=0,
        timers=FriendsTimers(next_hand_s=0.3),
    )
    pairing = HostPairing(tmp_path / "host")
    host = FriendsHost(game, link_pairing=pairing)
    host.start()
    host.run_in_background()
    yield host, pairing
    host.stop()


class Cabinet:
    """The joining cabinet, driven through its own input events."""

    def __init__(self, folder: Path, pairing: Path, link_port: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        config = load_config(None, db_path=str(folder / "uth.db"))
        self.cabinet = LoneCabinet.open(config)
        self.app = cabinet_app(
            self.cabinet, (800, 480), tournament=TournamentContext(config.db_path)
        )
        self.ctx = self.app.tournament
        self.ctx.friends_link_pairing = pairing
        self.ctx.friends_link_hosts = [f"127.0.0.1:{link_port}"]
        self.app.step(0.02)

    def run(self, seconds: float = 0.05, dt: float = 0.025) -> None:
        for _ in range(max(1, round(seconds / dt))):
            self.app.step(dt, draw=False)
        time.sleep(0.005)

    def touch(self, bid: str) -> None:
        b = next(b for b in self.app.scene.buttons() if b.id == bid)
        assert b.enabled, f"{bid} is disabled"
        self.app.feed(Touch(self.app.layout.rect(*b.rect).center))
        self.run(0.05)

    def join(self, code: str) -> None:
        self.run(0.1)
        self.touch("tournament")
        self.touch("join")
        for ch in code:
            self.touch(f"key_{ch}")
        self.touch("join")

    def close(self) -> None:
        self.ctx.close()
        self.cabinet.close()


def _pair(host: HostPairing, folder: Path, key: bytes | None = None) -> None:
    real = auth.new_station_key()
    host.add("cab-2", 2, real)
    pem = certificate_pem(host.identity.certificate_der())
    StationPairing("cab-2", 2, key or real, host.fingerprint, pem).save(folder)


def test_a_paired_cabinet_joins_over_the_link_from_the_join_screen(hosted, tmp_path) -> None:
    host, pairing = hosted
    (tmp_path / "cab").mkdir()
    _pair(pairing, tmp_path / "cab")
    cab = Cabinet(tmp_path / "st", tmp_path / "cab", host.link_seats.port)
    try:
        cab.join(host.game.code)
        assert cab.app.scene.name == "tournament_remote"
        end = time.monotonic() + 10
        while cab.ctx.joined.welcome is None:
            assert time.monotonic() < end, "no seat"
            cab.run(0.05)
        assert host.link_seats.opened == 1 and list(host.link_seats.stations()) == ["cab-2"]
        assert host.call(lambda g: [f.name for f in g.friends()]) == ["Guest"]
    finally:
        cab.close()


@pytest.mark.parametrize("case", ["wrong-key", "unpaired"])
def test_a_refused_or_unpaired_cabinet_is_told_on_the_join_screen(hosted, tmp_path, case) -> None:
    host, pairing = hosted
    (tmp_path / "cab").mkdir()
    if case == "wrong-key":
        _pair(pairing, tmp_path / "cab", key=auth.new_station_key())
    cab = Cabinet(tmp_path / "st", tmp_path / "cab", host.link_seats.port)
    try:
        cab.join(host.game.code)
        scene = cab.app.scene
        assert scene.name == "tournament_join" and cab.ctx.joined is None
        assert scene.problem == ("link.refused" if case == "wrong-key" else "link.unpaired")
        cab.app.step(0.02)  # the refusal is drawn
        assert host.link_seats.opened == 0 and host.call(lambda g: g.friends()) == []
    finally:
        cab.close()
