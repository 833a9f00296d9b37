"""The progressive linked through the casino's progressive controller (SAS 6.02 section
10), the machine's side over a real pty: the controller's level broadcasts (80, 86), sent
by the project's host, reach the station's snapshot; another group's, a malformed one
and an amount the paytable does not allow are refused and change nothing; silence for
the time SAS sets suspends play (the tilt, exception 53 once) and the next broadcast
lets it resume.  The configuration that links it is refused when incoherent, with the
file, the field and the reason."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from support.sas_rig import link_read_everything, wait_for
from support.signed_paytables import signed
from support.table_money import credit

from devices.sas.frames import with_crc
from devices.sas.host import SasHost
from devices.sas.line import PtyLine, PtyPair
from devices.sas.progressive import (
    BROADCAST_TIMEOUT_S,
    MULTIPLE_LEVEL_BROADCAST,
    multiple_level_broadcast,
    single_level_broadcast,
)
from engine.rng import RandomSource, SeededRandomSource
from kiosk.config import ConfigError, ProgressiveLink, load_config
from kiosk.game.commands import OperatorLogin, PlaceChip, SetDoor, SetPaytable
from kiosk.game.errors import MachineError
from kiosk.ledger.kinds import EventKind
from kiosk.sas.codes import Exc
from kiosk.sas.game_port import TablePort
from kiosk.sas.process import LinkProcess
from kiosk.sas.service import SasService
from kiosk.sas.wire import BadCall, check_call
from kiosk.service.progressive_link import PROGRESSIVE_LINK_TILT
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "paytables" / "progressive-example.toml"
GROUP, RESET, CEILING = 7, 1_000_000, 100_000_000
TECHNICIAN = "2222"


class Linked:
    """A table of ``stations`` linked to progressive ``GROUP`` level 1, its SAS link on a
    pty, the project's host on the other end."""

    def __init__(
        self,
        tmp_path: Path,
        stations: tuple[int, ...] = (1,),
        *,
        own_process: bool = False,
        host_on_path: bool = False,
        rng: RandomSource | None = None,
        **config: object,
    ) -> None:
        """``host_on_path``: the cabinet on the pty's master end, the pty's path left
        for a host of another process (as ``uth sas serve --pty``)."""
        self.pair = PtyPair()
        config = load_config(
            db_path=tmp_path / "var" / "uth.db",
            sas_port=self.pair.port,
            progressive_link=ProgressiveLink(group=GROUP, level=1),
            **config,
        )
        self.table = Table.open(
            config, stations, rng=rng or SeededRandomSource(3), clock=ManualClock()
        )
        paytable = tmp_path / "progressive-example.toml"
        shutil.copy(EXAMPLE, paytable)
        signed(self.table.ledger.key, paytable)
        self.table.execute(1, SetDoor(True))
        self.table.execute(1, OperatorLogin(TECHNICIAN))
        self.table.execute(1, SetPaytable(str(paytable)))
        self.table.execute(1, SetDoor(False))
        self.service: SasService | None = None
        self.process: LinkProcess | None = None
        if own_process:  # the cabinet's SAS process, over its port's socket
            self.process = LinkProcess(
                lambda: TablePort(self.table), config.db_path, self.pair.port
            )
            self.process.start()
        else:
            self.service = SasService(
                TablePort(self.table), config.db_path,
                (lambda: self.pair.line) if host_on_path else (lambda: PtyLine.open(self.pair.port)),
                1, signer=lambda seed: 0xBEEF,
            )  # fmt: skip
            self.service.start()
        self.host = SasHost(self.pair.line, answer_timeout=0.5, silence=0.02)
        if host_on_path:
            self.host = SasHost(PtyLine.open(self.pair.port), answer_timeout=0.5, silence=0.02)
        self.settle()

    def settle(self) -> None:
        """In one process: the link has read every change; in its own: it answers."""
        if self.service is not None:
            link_read_everything(self.service)
        else:
            assert wait_for(lambda: self.host.general_poll(1).kind == "exception", timeout=20)

    def send(self, message: bytes) -> None:
        """A message to the line with no answer awaited (a broadcast to address 0)."""
        self.pair.line.send(message, wakeup_first=True)

    def meter(self, station: int = 1) -> int | None:
        return self.table.snapshot(station).progressive_meter

    def tilts(self, station: int = 1) -> tuple[str, ...]:
        return tuple(self.table.snapshot(station).tilts)

    def exceptions(self, address: int = 1) -> list[int]:
        self.settle()
        out = []
        for _ in range(60):
            ex = self.host.general_poll(address)
            assert ex.kind == "exception", ex
            self.host.acknowledge()
            if ex.code == 0:
                return out
            out.append(ex.code)
        raise AssertionError(out)

    def stop(self) -> None:
        (self.service or self.process).stop()  # type: ignore[union-attr]
        self.table.close()
        self.pair.close()


@pytest.fixture(params=["in-process", "own-process"])
def linked(tmp_path, request):
    rig = Linked(tmp_path, own_process=request.param == "own-process")
    yield rig
    rig.stop()


def test_the_controllers_broadcast_reaches_the_station_and_nothing_else_moves_it(linked):
    assert linked.meter() is None  # linked: nothing shown before the controller speaks
    linked.send(multiple_level_broadcast(0, GROUP, {1: 1_234_567, 2: 50_000}))
    assert wait_for(lambda: linked.meter() == 1_234_567)
    # the ledger keeps no meter of the linked level: the standalone seed is all it has
    assert linked.table.ledger.meters.get("progressive_contributed", 0) == 0

    # addressed to the machine: an ACK, and the level taken
    ex = linked.host.send_poll(1, single_level_broadcast(1, GROUP, 1, 1_300_000))
    assert ex.answer == b"\x01"
    assert wait_for(lambda: linked.meter() == 1_300_000)

    # another group's broadcast is not this machine's
    linked.send(single_level_broadcast(0, GROUP + 1, 1, 2_000_000))
    # malformed, with a good CRC: a level given twice (NACK when addressed), no BCD
    twice = bytes((1, MULTIPLE_LEVEL_BROADCAST, 13, GROUP, 1)) + bytes.fromhex("0000200000")
    twice += bytes((1,)) + bytes.fromhex("0000300000")
    ex = linked.host.send_poll(1, with_crc(twice))
    assert ex.answer == b"\x81"
    not_bcd = bytearray(single_level_broadcast(0, GROUP, 1, 2_500_000)[:-2])
    not_bcd[-1] = 0xAB
    linked.send(with_crc(bytes(not_bcd)))
    # well formed, but outside the paytable: above its ceiling, below its reset
    linked.send(single_level_broadcast(0, GROUP, 1, CEILING + 1))
    linked.send(single_level_broadcast(0, GROUP, 1, RESET - 1))
    if linked.service is not None:  # the link's own count, in one process
        listener = linked.service.link.shared.progressive
        assert listener is not None
        assert wait_for(lambda: listener.refused == 2)
    linked.settle()
    state = linked.table._state.progressive_link  # noqa: SLF001 - the service's count
    assert state is not None and wait_for(lambda: state.refused == 2)
    assert linked.meter() == 1_300_000  # every refusal left the last amount standing

    # a drop to the reset or above: the controller's reset after a hit on the link
    linked.send(single_level_broadcast(0, GROUP, 1, RESET + 15))
    assert wait_for(lambda: linked.meter() == RESET + 15)


def test_silence_suspends_play_once_and_the_next_broadcast_resumes_it(linked):
    credit(linked.table, 1, 10_000)
    linked.send(single_level_broadcast(0, GROUP, 1, 1_500_000))
    assert wait_for(lambda: linked.meter() == 1_500_000)
    linked.table.execute(1, PlaceChip("ante", 500))  # heard: play goes on, the bet with it
    linked.table.execute(1, PlaceChip("progressive", 100))
    assert linked.table.snapshot(1).pending.progressive == 100
    assert PROGRESSIVE_LINK_TILT not in linked.tilts()
    assert Exc.NO_PROGRESSIVE_5S not in linked.exceptions()  # the note's 4F, nothing else

    # the controller falls silent: after the time SAS sets, play is suspended
    assert wait_for(
        lambda: PROGRESSIVE_LINK_TILT in linked.tilts(), timeout=BROADCAST_TIMEOUT_S + 3
    )
    with pytest.raises(MachineError):
        linked.table.execute(1, PlaceChip("ante", 500))
    time.sleep(1.0)  # still silent: one loss, one tilt, one exception 53
    assert linked.exceptions() == [Exc.NO_PROGRESSIVE_5S]
    tilts = linked.table.ledger.events((EventKind.TILT,))
    assert [e.detail["code"] for e in tilts].count(PROGRESSIVE_LINK_TILT) == 1

    # the controller is back: the tilt is cleared (recorded), play resumes
    linked.send(single_level_broadcast(0, GROUP, 1, 1_500_000))
    assert wait_for(lambda: PROGRESSIVE_LINK_TILT not in linked.tilts())
    cleared = linked.table.ledger.events((EventKind.TILT_CLEARED,))
    assert [e.detail["code"] for e in cleared] == [PROGRESSIVE_LINK_TILT]
    linked.table.execute(1, PlaceChip("ante", 500))
    assert linked.exceptions() == []


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "field", "reason"),
    [
        ("[progressive_link]\ngroup = 7\n", "progressive_link", "needs sas_port"),
        ('sas_port = "/dev/pts/9"\n[progressive_link]\ngroup = 0\n', "progressive_link.group", "greater than or equal to 1"),
        ('sas_port = "/dev/pts/9"\n[progressive_link]\ngroup = 256\n', "progressive_link.group", "less than or equal to 255"),
        ('sas_port = "/dev/pts/9"\n[progressive_link]\ngroup = 7\nlevel = 33\n', "progressive_link.level", "less than or equal to 32"),
        ('sas_port = "/dev/pts/9"\n[progressive_link]\ngroup = "7"\n', "progressive_link.group", "integer"),
        ('sas_port = "/dev/pts/9"\n[progressive_link]\nlevel = 1\n', "progressive_link.group", "required"),
        ('sas_port = "/dev/pts/9"\n[progressive_link]\ngroup = 7\nlevels = [1]\n', "progressive_link.levels", "unknown field"),
    ],
)  # fmt: skip
def test_an_incoherent_link_is_refused_with_file_field_and_reason(tmp_path, text, field, reason):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert err.value.file.endswith("cabinet.toml")
    assert err.value.field == field
    assert reason in err.value.reason.lower()


def test_a_coherent_link_loads(tmp_path):
    config = load_config(
        write(tmp_path, 'sas_port = "/dev/pts/9"\n[progressive_link]\ngroup = 7\n')
    )
    assert config.progressive_link == ProgressiveLink(group=7, level=1)


def test_every_station_of_a_table_on_one_line_shows_the_level_and_stops_without_it(tmp_path):
    rig = Linked(tmp_path, stations=(1, 2, 3))
    try:
        rig.send(multiple_level_broadcast(0, GROUP, {1: 2_000_000}))
        assert wait_for(lambda: all(rig.meter(n) == 2_000_000 for n in (1, 2, 3)))
        assert wait_for(
            lambda: all(PROGRESSIVE_LINK_TILT in rig.tilts(n) for n in (1, 2, 3)),
            timeout=BROADCAST_TIMEOUT_S + 3,
        )
        for address in (1, 2, 3):  # each station's address raises its 53, once
            assert rig.exceptions(address).count(Exc.NO_PROGRESSIVE_5S) == 1
        rig.send(single_level_broadcast(0, GROUP, 1, 2_000_100))
        assert wait_for(lambda: all(not rig.tilts(n) for n in (1, 2, 3)))
        assert all(rig.meter(n) == 2_000_100 for n in (1, 2, 3))
    finally:
        rig.stop()


@pytest.mark.parametrize(
    "levels",
    [
        [],
        [[0, 100]],
        [[33, 100]],
        [[1, -1]],
        [[1, 10**10]],
        [[1, 5], [1, 6]],
        [[1]],
        "1",
        [[True, 1]],
    ],
)
def test_the_link_process_hands_the_game_only_well_formed_levels(levels):
    call = {"id": 1, "call": "progressive_levels", "args": [GROUP, levels, "sas-progressive"]}
    with pytest.raises(BadCall):
        check_call(call, (1,))
    good = {**call, "args": [GROUP, [[1, 1_000_000], [2, 5]], "sas-progressive"]}
    assert check_call(good, (1,))[2][1] == [(1, 1_000_000), (2, 5)]
