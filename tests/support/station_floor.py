"""A table host with its stations for the station screen tests: a real :class:`Table` on
a SQLite file, its TLS :class:`TableHost` on loopback, every other station as a
:class:`RemoteTable` client, and station 1 as the cabinet's pygame screens (SDL dummy
driver) over a :class:`StationController`.  Screenshots go to
``/tmp/shots/<shots>-<name>-<w>x<h>.png``.

    floor = StationFloor(tmp_path, (800, 480), stations=(1, 2, 3), shots="station")
    floor.others[2].execute(PlaceChip("ante", 500))
    floor.frames(lambda: floor.app.model.snap.credits == 5000)
    floor.close()
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from engine.rng import RandomSource, SeededRandomSource
from kiosk.config import CabinetConfig, load_config
from kiosk.link import auth
from kiosk.link.certs import certificate_pem
from kiosk.link.limits import LinkLimits
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.controller import StationController
from kiosk.station.operator_link import OperatorLink
from kiosk.station.operator_remote import RemoteOperator
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost
from kiosk.ui.events import Touch
from kiosk.ui.screen_options import ScreenOptions
from kiosk.ui.station.screens import station_app

SHOTS = Path("/tmp/shots")
FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)


def pair_station(host: HostPairing, n: int) -> StationPairing:
    """Pair station ``n`` (its id ``station-<n>``) with ``host`` directly, no code typed."""
    key = auth.new_station_key()
    host.add(f"station-{n}", n, key)
    pem = certificate_pem(host.identity.certificate_der())
    return StationPairing(f"station-{n}", n, key, host.fingerprint, pem)


class StationFloor:
    """The host of ``stations`` (station 1 is the screens, at ``size`` pixels), dealing
    from a seeded deck (or ``rng``) with the betting window and decision timer of
    ``timing``."""

    def __init__(
        self,
        tmp_path: Path,
        size: tuple[int, int],
        *,
        stations: tuple[int, ...] = (1, 2, 3),
        timing: TableTiming | None = None,
        seed: int = 5,
        rng: RandomSource | None = None,
        config: CabinetConfig | None = None,
        shots: str = "station",
    ) -> None:
        self.config = config or load_config(db_path=tmp_path / "var" / "uth.db")
        self.table = Table.open(
            self.config,
            stations,
            rng=rng or SeededRandomSource(seed),
            timing=timing or TableTiming(30, 20),
        )
        self.pairing = HostPairing(tmp_path / "host")
        self.host = TableHost(self.table, self.pairing, limits=FAST, tick_s=0.05)
        self.port = self.host.start()
        self.serving = True
        self.shots = shots
        self.others = {
            n: RemoteTable(pair_station(self.pairing, n), "127.0.0.1", self.port, limits=FAST)
            for n in stations
            if n != 1
        }
        for other in self.others.values():
            other.start()
        remote = RemoteTable(pair_station(self.pairing, 1), "127.0.0.1", self.port, limits=FAST)
        self.remote = remote
        self.controller = StationController(remote, self.config)
        assert self.controller.start(10.0)
        for other in self.others.values():
            assert other.wait_for(lambda s: True, 10) is not None
        self.app = station_app(
            self.controller,
            RemoteOperator(OperatorLink(remote)),
            ScreenOptions(size=size, sound=False),
            self.config,
        )
        self.app.go("table")

    @property
    def first(self) -> RemoteTable:
        """Station 1's own link (under its screens)."""
        return self.remote

    def stop_host(self) -> None:
        if self.serving:
            self.serving = False
            self.host.stop()

    def close(self) -> None:
        self.app.close()
        self.controller.stop()
        for remote in self.others.values():
            remote.stop()
        self.stop_host()
        self.table.close()

    def frames(self, until: Callable[[], object], timeout: float = 15.0) -> None:
        """Step the screens (1/30 s a frame) until ``until()``, then 3 frames more; fails
        after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, "the station screen never got there"
            self.app.step(1 / 30)
            time.sleep(0.01)
        for _ in range(3):
            self.app.step(1 / 30)

    def touch_design(self, x: float, y: float) -> None:
        """A finger at design point ``(x, y)``, then one frame."""
        self.app.feed(Touch(self.app.layout.pos(x, y)))
        self.app.step(1 / 30)

    def press(self, button_id: str) -> None:
        """A finger on the middle of button ``button_id`` (which must be enabled)."""
        found = {b.id: b for b in self.app.scene.buttons()}
        assert button_id in found, f"no button {button_id!r}: {sorted(found)}"
        button = found[button_id]
        assert button.enabled, f"{button_id} is disabled"
        x, y, w, h = button.rect
        self.touch_design(x + w / 2, y + h / 2)

    def shot(self, name: str) -> Path:
        w, h = self.app.layout.size
        return self.app.screenshot(SHOTS / f"{self.shots}-{name}-{w}x{h}.png")
