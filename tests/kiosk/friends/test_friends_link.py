"""A cabinet joins a friends game over the table's pairing: the seat protocol carried by
the link (TLS, pinned host certificate, the station's key), on real sockets; the whole
game with the joining cabinet as a process of its own (``uth tournament join --link``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.friends import FriendsClient, FriendsGame, FriendsHost, FriendsTimers, JoinRefused
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.codec import MAX_FRAME_BYTES, decode, encode
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import FRIENDS_TEXT_BYTES, FriendsFrame
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.link.testing import FaultProxy, Faults
from kiosk.tournament.store import TournamentStore

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
FAST_LINK = LinkLimits(auth_timeout_s=2.0, ping_s=1.0, backoff_min_s=0.02, backoff_max_s=0.2)


def pair(host: HostPairing, folder: Path, station_id: str, seat: int) -> StationPairing:
    """Pair a station with ``host`` directly (no network) and save its side in ``folder``."""
    key = auth.new_station_key()
    host.add(station_id, seat, key)
    pem = certificate_pem(host.identity.certificate_der())
    pairing = StationPairing(station_id, seat, key, host.fingerprint, pem)
    folder.mkdir(parents=True, exist_ok=True)
    pairing.save(folder)
    return pairing


def wait_for(cond, timeout: float = 10.0, what: str = "condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def hosted(tmp_path, fast_pacing, small_table):
    """A game in the lobby, its host loop on a thread, seating paired cabinets over the
    link; yields ``(host, host_pairing)``."""
    game = FriendsGame(
        small_table(4),
        ai_speed="fast",
        host_plays="bot",
        bot_samples=0,
        timers=FriendsTimers(away_s=0.3, next_hand_s=0.3, finish_s=1.0),
    )
    pairing = HostPairing(tmp_path / "host")
    host = FriendsHost(game, link_pairing=pairing)
    host.start()
    host.run_in_background()
    try:
        yield host, pairing
    finally:
        host.stop()


def seated(client: FriendsClient) -> dict:
    def ready():
        client.poll()
        return client.welcome

    return wait_for(ready, what="a welcome")


def test_a_friends_frame_is_strict_and_fits_one_link_frame() -> None:
    text = '"' * (FRIENDS_TEXT_BYTES // 2 - 1)  # each quote is two bytes once escaped
    frame = encode(FriendsFrame(text=text), 1, 0)
    assert len(frame.encode()) <= MAX_FRAME_BYTES
    assert decode(frame, "host").body == FriendsFrame(text=text)
    assert decode(frame, "station").body == FriendsFrame(text=text)  # both directions
    with pytest.raises(ValueError):
        FriendsFrame(text='"' * (FRIENDS_TEXT_BYTES // 2 + 1))
    with pytest.raises(ValueError):
        FriendsFrame.model_validate({"type": "friends_frame", "text": 5})


def test_a_paired_cabinet_joins_by_code_and_a_wrong_code_is_refused(hosted, tmp_path) -> None:
    host, pairing = hosted
    pair(pairing, tmp_path / "cab", "cab-2", 2)
    port = host.link_seats.port
    with pytest.raises(JoinRefused) as wrong:
        FriendsClient.open_link(tmp_path / "cab", "127.0.0.1", port, "ZZZZZZ", limits=FAST_LINK)
    assert wrong.value.reason == "code.unknown"
    client = FriendsClient.open_link(
        tmp_path / "cab", "127.0.0.1", port, host.game.code.lower(), limits=FAST_LINK
    )
    try:
        client.join("Cab")
        welcome = seated(client)
        assert welcome["code"] == host.game.code
        assert host.call(lambda g: [(f.seat, f.name, f.connected) for f in g.friends()]) == [
            (welcome["seat"], "Cab", True)
        ]
        wait_for(lambda: (client.poll(), (client.state or {}).get("phase"))[1] == "lobby")
    finally:
        client.close()
    wait_for(lambda: host.call(lambda g: not g.friends()[0].connected), what="the seat closed")


def test_an_unpaired_cabinet_and_a_wrong_key_are_refused_and_nothing_reaches_the_game(
    hosted, tmp_path
) -> None:
    host, pairing = hosted
    port = host.link_seats.port
    with pytest.raises(JoinRefused) as none:
        FriendsClient.open_link(tmp_path / "nowhere", "127.0.0.1", port, host.game.code)
    assert none.value.reason == "link.unpaired"
    # paired with another host: this host does not know the station
    stranger = pair(HostPairing(tmp_path / "other-host"), tmp_path / "stranger", "cab-9", 3)
    pem = certificate_pem(pairing.identity.certificate_der())
    StationPairing(stranger.station_id, 3, stranger.key, pairing.fingerprint, pem).save(
        tmp_path / "stranger"
    )
    # paired here, but the key on the cabinet is not the one the host holds
    good = pair(pairing, tmp_path / "forged", "cab-3", 3)
    StationPairing(
        good.station_id, good.seat, auth.new_station_key(), good.fingerprint, good.certificate_pem
    ).save(tmp_path / "forged")
    for folder in ("stranger", "forged"):
        with pytest.raises(JoinRefused) as refused:
            FriendsClient.open_link(
                tmp_path / folder, "127.0.0.1", port, host.game.code, timeout=3.0, limits=FAST_LINK
            )
        assert refused.value.reason == "link.refused", folder
    refusals = host.link_seats.link.stats().refusals
    assert refusals["auth.unpaired"] >= 1 and refusals["auth.bad-key"] >= 1
    assert host.link_seats.opened == 0 and host.link_seats.stations() == {}
    assert host.call(lambda g: g.friends()) == []


def test_bad_frames_from_a_paired_cabinet_are_refused_to_it_alone(hosted, tmp_path) -> None:
    host, pairing = hosted
    pair(pairing, tmp_path / "cab", "cab-2", 2)
    client = FriendsClient.open_link(
        tmp_path / "cab", "127.0.0.1", host.link_seats.port, host.game.code, limits=FAST_LINK
    )
    try:
        for text, code in (
            ("not json", "frame.malformed"),
            (json.dumps({"type": "join", "name": "x" * 3000}), "frame.large"),
            (json.dumps({"type": "act", "hand": 1, "seq": 0, "action": "fold"}), "seat.none"),
        ):
            client.refused = None
            assert client.transport.send(text)
            wait_for(lambda: (client.poll(), client.refused)[1], what=code)
            assert client.refused["code"] == code
        assert host.link_seats.refusals["frame.malformed"] == 1
        assert host.link_seats.refusals["frame.large"] == 1
        assert host.call(lambda g: g.friends()) == []
        client.join("Cab")
        assert seated(client)["seat"] in (1, 2, 3)
    finally:
        client.close()


def test_a_dropped_link_shows_the_seat_away_and_reconnecting_gives_it_back(
    hosted, tmp_path
) -> None:
    host, pairing = hosted
    pair(pairing, tmp_path / "cab", "cab-2", 2)
    proxy = FaultProxy(host.link_seats.port, Faults(cut=1.0))
    proxy.enabled = False  # forwards faithfully until the cable is "pulled"
    proxy.start()
    client = FriendsClient.open_link(
        tmp_path / "cab", "127.0.0.1", proxy.port, host.game.code, limits=FAST_LINK
    )
    try:
        client.join("Cab")
        seat = seated(client)["seat"]
        token = client.welcome["token"]
        host.call(lambda g: g.start())
        proxy.enabled = True  # every new connection is cut at its first bytes
        client.transport.drop_connection()
        wait_for(lambda: host.call(lambda g: g.status_of(seat)) == "away", what="away")
        assert host.call(lambda g: g.friends()[0].connected) is False
        seen: list[dict] = []
        client.trace = seen.append
        proxy.enabled = False
        # the host's hello on the new connection makes the client resume with its token
        welcome = wait_for(
            lambda: (client.poll(), next((m for m in seen if m["type"] == "welcome"), None))[1],
            what="the seat given back",
        )
        kinds = [m["type"] for m in seen]
        assert kinds.index("hello") < kinds.index("welcome")
        assert (welcome["seat"], welcome["token"]) == (seat, token)
        assert host.call(lambda g: g.status_of(seat)) == "friend"
        assert host.call(lambda g: g.friends()[0].connected) is True
        assert proxy.counts["cut"] >= 1
    finally:
        client.close()
        proxy.stop()


def _env() -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(HERE), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.heavy
def test_a_paired_cabinet_process_plays_a_game_over_the_link_to_the_end(tmp_path, truth) -> None:
    pair(HostPairing(tmp_path / "host"), tmp_path / "cab", "cab-2", 2)
    env = _env()
    host = subprocess.Popen(
        [sys.executable, str(HERE / "friends_host_process.py"), str(tmp_path), "1", "17", "--link"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    station = None
    try:
        hello = json.loads(host.stdout.readline())
        db = tmp_path / "cab.db"
        TournamentStore.open(db, create=True).close()
        station = subprocess.run(
            [
                sys.executable,
                "-m",
                "kiosk.cli",
                "tournament",
                "join",
                "--link",
                "--pairing",
                str(tmp_path / "cab"),
                "--host",
                "127.0.0.1",
                "--port",
                str(hello["link_port"]),
                "--code",
                hello["code"],
                "--name",
                "Cab",
                "--autoplay",
                "random",
                "--seed",
                "5",
                "--headless",
                "--db",
                str(db),
                "--trace",
                str(tmp_path / "cab.jsonl"),
                "--timeout",
                "90",
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert station.returncode == 0, station.stdout + station.stderr
        assert host.wait(30) == 0
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    saved = json.loads((tmp_path / "truth.json").read_text())
    truth.holes = {
        int(n): {int(s): set(c) for s, c in seats.items()} for n, seats in saved["holes"].items()
    }
    truth.boards = {int(n): b for n, b in saved["boards"].items()}
    truth.shown = {int(n): set(c) for n, c in saved["shown"].items()}
    assert sorted(saved["places"].values()) == [1, 2, 3, 4] and saved["hands"] >= 2
    lines = [json.loads(line) for line in (tmp_path / "cab.jsonl").read_text().splitlines()]
    seat = next(m["seat"] for m in lines if m["type"] == "welcome")
    assert sum(1 for m in lines if m.get("phase") == "play") > 3
    for m in lines:
        truth.check(seat, m)
    over = [m for m in lines if m.get("phase") == "over"][-1]
    assert over["summary"]["place"] == saved["places"][str(seat)]
    assert f"place {over['summary']['place']} of 4" in station.stdout
    store = TournamentStore.open(db)
    try:
        assert len(store.games(player="Cab")) == 1
    finally:
        store.close()


def test_the_join_command_over_the_link_refuses_an_unpaired_cabinet(tmp_path, capsys) -> None:
    from kiosk.cli import main

    base = ["tournament", "join", "--link", "--host", "127.0.0.1", "--code", "AB3DEF"]
    tail = ["--autoplay", "random", "--headless"]
    assert main([*base, *tail]) == 2
    assert "--link needs --pairing and --port" in capsys.readouterr().out
    assert main([*base, "--pairing", str(tmp_path), "--port", "9", *tail]) == 2
    assert "(link.unpaired)" in capsys.readouterr().out
