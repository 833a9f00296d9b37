"""The station's and the dealer display's commands as real processes over loopback:
``uth kiosk --station N`` (the station's window), ``uth table display`` (fed by a real
host) and ``uth table demo`` (a host, three stations and the display), all on the SDL
dummy driver."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import Deal, PlaceChip
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import PassRound
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.display_link import DisplayFeed
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

ROOT = Path(__file__).resolve().parents[3]
SHOTS = Path("/tmp/shots")
FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "UTH_HEADLESS": "1"}


def uth(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def pair(host: HostPairing, station_id: str, seat: int, folder: Path) -> StationPairing:
    key = auth.new_station_key()
    host.add(station_id, seat, key)
    pem = certificate_pem(host.identity.certificate_der())
    pairing = StationPairing(station_id, seat, key, host.fingerprint, pem)
    pairing.save(folder)
    return pairing


@pytest.fixture
def host(tmp_path):
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    table = Table.open(config, (1, 2, 3), rng=SeededRandomSource(9), timing=TableTiming(60, 60))
    service = TableHost(
        table,
        HostPairing(tmp_path / "host"),
        limits=FAST,
        tick_s=0.05,
        displays=HostPairing(tmp_path / "host" / "displays"),
    )
    service.start()
    yield service
    service.stop()
    table.close()


@pytest.mark.heavy
def test_the_display_process_shows_every_seat_of_a_round_in_play(host, tmp_path):
    remotes = {}
    for n in (1, 2, 3):
        pairing = pair(host.pairing, f"station-{n}", n, tmp_path / f"station-{n}")
        remotes[n] = RemoteTable(pairing, "127.0.0.1", host.port, limits=FAST)
        remotes[n].start()
    assert host.displays is not None
    display = pair(host.displays.pairing, "display-1", 1, tmp_path / "display")
    feed = DisplayFeed(display, "127.0.0.1", host.display_port or 0, limits=FAST)
    feed.start()
    try:
        for remote in remotes.values():
            assert remote.insert_note(10_000, 10).accepted
            assert remote.wait_for(lambda s: s.credits == 10_000, 10)
        for n, remote in remotes.items():
            remote.execute(PlaceChip("ante", 500 * n))
            remote.execute(Deal())
        view = feed.wait_for(lambda v: v.round_open and all(s.in_round for s in v.seats), 10)
        assert view is not None, (feed.view(), [r.errors for r in remotes.values()])
        assert [s.ante for s in view.seats] == [500, 1000, 1500]
        assert view.results == () and view.dealer == ()  # no seat's cards before settlement
        # a display only shows: what it sends is refused, nothing changes
        feed.link.send(PassRound(round_id=1))
        shot = SHOTS / "station-display-process-800x480.png"
        done = uth(
            "table", "display", "--host", "127.0.0.1", "--port", str(host.display_port),
            "--folder", str(tmp_path / "display"), "--window", "800x480", "--headless",
            "--frames", "20", "--screenshot", str(shot),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        image = pygame.image.load(str(shot))
        assert image.get_size() == (800, 480)
        assert host.refusals >= 1
        assert feed.view() is not None and feed.view().round_open  # type: ignore[union-attr]
    finally:
        feed.stop()
        for remote in remotes.values():
            remote.stop()


@pytest.mark.heavy
def test_the_station_window_process_connects_and_shows_the_table(host, tmp_path):
    pair(host.pairing, "station-1", 1, tmp_path / "station-1")
    shot = SHOTS / "station-window-process-800x480.png"
    done = uth(
        "kiosk", "--station", "1", "--host", "127.0.0.1", "--port", str(host.port),
        "--pairing", str(tmp_path / "station-1"), "--window", "800x480", "--headless",
        "--no-sound", "--frames", "30", "--screenshot", str(shot),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert pygame.image.load(str(shot)).get_size() == (800, 480)
    unpaired = uth(
        "kiosk", "--station", "2", "--host", "127.0.0.1", "--port", str(host.port),
        "--pairing", str(tmp_path / "nobody"), "--window", "800x480", "--headless",
    )  # fmt: skip
    assert unpaired.returncode == 2 and "pair first" in unpaired.stderr


@pytest.mark.heavy
def test_the_demo_plays_three_stations_and_the_display_then_exits(tmp_path):
    shot = SHOTS / "station-demo-display-1280x720.png"
    done = uth(
        "table", "demo", "--stations", "3", "--headless", "--rounds", "1",
        "--betting-seconds", "2", "--decision-seconds", "2", "--folder", str(tmp_path / "t"),
        "--display-screenshot", str(shot),
        timeout=90,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "stations exited [0, 0, 0]" in done.stdout
    assert done.stdout.count('"rounds": 1') == 3
    assert pygame.image.load(str(shot)).get_size() == (1280, 720)


@pytest.mark.heavy
def test_ctrl_c_stops_the_demo_and_every_window_it_opened(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "table", "demo", "--stations", "2", "--headless",
         "--folder", str(tmp_path / "t")],
        env=ENV, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("table host on 127.0.0.1:")
        children = _children_of(proc.pid)
        deadline = time.monotonic() + 20
        while len(children) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
            children = _children_of(proc.pid)
        assert len(children) == 3  # two stations and the display
        time.sleep(2.0)  # the windows are up
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        assert not [pid for pid in children if Path(f"/proc/{pid}").exists()]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def _children_of(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []
