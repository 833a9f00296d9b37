"""The operator menu's Progressive page at a player station, over the link: the table
host's operator service answers the page's figures (typed, :class:`ProgressiveFigures`)
and a manager's adjustment (:class:`OperatorAdjust`, the witness PIN beside it), driven
through the station's pygame screens (SDL dummy driver) against a real table host on
loopback.  Screenshots go to /tmp/shots/station-progressive-*.png."""

from __future__ import annotations

import os

import pytest
from support.operator_screens import PEOPLE, cabinet_config
from support.progressive_table import RESET, write_paytable
from support.signed_paytables import signed

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from support.station_floor import StationFloor  # noqa: E402

from kiosk.game import commands as cmd  # noqa: E402
from kiosk.ledger.kinds import EventKind  # noqa: E402
from kiosk.link.messages import OperatorAdjust, OperatorQuery, OperatorReply  # noqa: E402
from kiosk.ui.events import Command  # noqa: E402
from kiosk.ui.scenes.operator.scene import OperatorScene  # noqa: E402

ANN, TED, CY = PEOPLE


class Floor(StationFloor):
    """A host with stations 1-2, the operators' accounts and the test progressive in
    force; station 1 is the screens, whose drawn texts are kept."""

    def __init__(self, tmp_path, size) -> None:
        super().__init__(
            tmp_path, size, stations=(1, 2), config=cabinet_config(tmp_path), shots="station"
        )
        path = write_paytable(tmp_path)
        signed(self.table.ledger.key, path)
        self.table.execute(2, cmd.SetDoor(True))
        self.table.execute(2, cmd.OperatorLogin(TED[2]))
        self.table.execute(2, cmd.SetPaytable(str(path)))
        self.table.execute(2, cmd.OperatorLogout())
        self.table.execute(2, cmd.SetDoor(False))
        self.texts: list[str] = []
        render = self.app.text.render

        def recording(s: str, px: int, *args, **kw):
            self.texts.append(s)
            return render(s, px, *args, **kw)

        self.app.text.render = recording  # type: ignore[method-assign]

    @property
    def menu(self) -> OperatorScene:
        scene = self.app.scenes["operator"]
        assert isinstance(scene, OperatorScene)
        return scene

    def frame(self) -> str:
        self.texts = []
        self.app.scene.invalidate()
        self.app.step(1 / 30)
        return "\n".join(self.texts)

    def type_digits(self, digits: str) -> None:
        for digit in digits:
            self.press(f"key_{digit}")


@pytest.fixture
def floor(tmp_path, monkeypatch):
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    made: list[Floor] = []

    def make(size):
        made.append(Floor(tmp_path, size))
        return made[-1]

    yield make
    for f in made:
        f.close()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_manager_at_a_station_adjusts_the_tables_meter_over_the_link(floor, size):
    f = floor(size)
    f.controller.execute(cmd.SetDoor(True))  # the station's main door, opened with its key
    f.frames(lambda: f.app.model.snap.door_open)
    f.app.feed(Command("operator_key"))
    f.app.step(1 / 30)
    f.type_digits(CY[2])
    f.press("key_enter")
    f.frames(lambda: f.menu.state == "menu")
    f.press("page_progressive")
    page = f.menu.pages["progressive"]
    f.frames(lambda: page.figures is not None and not f.menu.port.busy)
    assert page.figures.offered and page.figures.meter == RESET
    drawn = f.frame()
    assert "Meter and reserve" in drawn and "$1,000.00" in drawn and "Lifetime" in drawn
    f.shot("progressive")
    f.press("adjust_meter")
    f.type_digits("80000")
    f.press("key_enter")
    assert "New meter: $800.00" in f.frame()
    f.type_digits(ANN[2])
    f.press("key_enter")
    f.frames(lambda: f.menu.result is not None and not f.menu.port.busy)
    assert f.menu.result == ("Progressive meter set to $800.00.", True)
    (down,) = f.table.ledger.events((EventKind.PROGRESSIVE_ADJUSTED_DOWN,))
    assert down.amount == RESET - 80_000 and down.station == 1
    assert (down.detail["operator"], down.detail["witness"]) == (CY[0], ANN[0])
    assert page.figures.meter == 80_000 and page.figures.adjusted_down == RESET - 80_000
    assert f.table.snapshot(2).progressive_meter == 80_000  # every station's meter


def test_the_host_answers_the_progressive_in_typed_records_and_refuses_a_technician(floor):
    f = floor((800, 480))
    service = f.host.operators
    f.table.execute(1, cmd.SetDoor(True))
    f.table.execute(1, cmd.OperatorLogin(TED[2]))
    reply = service.handle(1, OperatorQuery(ref=1, page="progressive"))
    assert isinstance(reply, OperatorReply) and reply.ok and reply.data == {}
    assert reply.progressive is not None and reply.progressive.meter == RESET
    assert reply.progressive.resets == 1 and reply.progressive.reset_cents == RESET
    refused = service.handle(1, OperatorAdjust(ref=2, cents=90_000, witness_pin=ANN[2]))
    assert isinstance(refused, OperatorReply) and not refused.ok
    assert refused.code == "role_required" and refused.progressive is None
    assert not f.table.ledger.events((EventKind.PROGRESSIVE_ADJUSTED_DOWN,))
