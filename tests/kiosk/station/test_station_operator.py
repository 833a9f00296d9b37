"""The operator menu at a player station (the cabinet's one menu over the station's
operator port), driven by a real table host over loopback: a real :class:`Table` on a
SQLite file with operator accounts, its TLS :class:`TableHost`, two other stations as
:class:`RemoteTable` clients, and station 1 as the cabinet's pygame screens (SDL dummy
driver).  Screenshots go to /tmp/shots/station-operator-*.png."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.table_money import credit

from devices.host import DeviceEventKind, make_event

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from support.operator_screens import PEOPLE, cabinet_config
from support.signed_paytables import ship_none, signed  # noqa: E402
from support.station_floor import StationFloor  # noqa: E402

from engine.uth.paytable import PAYTABLE_DIR  # noqa: E402
from kiosk.game import commands as cmd  # noqa: E402
from kiosk.link.messages import OperatorLogin  # noqa: E402
from kiosk.ui.events import Command  # noqa: E402
from kiosk.ui.scenes.operator.confirm import blocker  # noqa: E402
from kiosk.ui.scenes.operator.scene import OperatorScene  # noqa: E402

ANN, TED, _CY = PEOPLE
JAM = "note jammed in the acceptor"


class Floor(StationFloor):
    """A host with stations 1-3 and the operators' accounts; station 1 is the screens,
    whose drawn texts are kept."""

    def __init__(self, tmp_path: Path, size: tuple[int, int]) -> None:
        config = cabinet_config(tmp_path)
        super().__init__(tmp_path, size, config=config, shots="station-operator")
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

    def page(self, name: str):
        """The menu's page ``name``."""
        return self.menu.pages[name]

    def frames(self, until, timeout: float = 10.0) -> None:
        """Step the screens until ``until()`` (see :class:`StationFloor`), then draw."""
        super().frames(until, timeout)
        self.frame()

    def frame(self) -> str:
        """One frame drawn whole (a still screen is otherwise not drawn again); every
        string it drew, one a line."""
        self.texts = []
        self.app.scene.invalidate()
        self.app.step(1 / 30)
        return "\n".join(self.texts)

    def type_pin(self, pin: str) -> None:
        for digit in pin:
            self.press(f"key_{digit}")
        self.press("key_enter")

    def shot(self, name: str) -> Path:
        self.frame()
        return super().shot(name)


@pytest.fixture
def floor(tmp_path):
    made: list[Floor] = []

    def make(size: tuple[int, int]) -> Floor:
        made.append(Floor(tmp_path, size))
        return made[-1]

    yield make
    for f in made:
        f.close()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_operator_key_a_pin_and_the_table_status_of_every_station(floor, size):
    f = floor(size)
    f.table.device_report(3, make_event("validator", DeviceEventKind.ACCEPTOR_JAM, JAM))
    credit(f.table, 2, 2000)
    f.table.execute(2, cmd.CashOut())
    f.app.feed(Command("operator_key"))
    f.app.step(1 / 30)
    assert f.app.scene is f.menu and f.menu.state == "pin"
    assert "Enter your PIN" in f.frame()
    f.type_pin(TED[2])
    f.frames(lambda: f.menu.state == "menu")
    assert f.menu.person == (TED[0], "technician")
    assert TED[0] in f.frame()
    f.shot("menu")
    f.press("page_status")
    f.frames(
        lambda: (
            f.page("status").status is not None
            and len(f.page("status").status.stations) == 3
            and not f.menu.port.busy
        )  # the page's own request answered, not an earlier one
    )
    drawn = f.frame()
    for n in (1, 2, 3):
        assert f"Station {n}" in drawn
    assert f"validator: {JAM}" in drawn
    assert "Handpay pending: $20.00" in drawn
    assert "$0.00" in drawn  # station 1's credits
    f.shot("status")
    # an attendant's actions at other stations, by touch, answered by the host
    f.press("clear_3")
    f.frames(lambda: not f.table.tilt_texts(3) and not f.menu.port.busy)
    f.press("handpay_2")
    f.frames(lambda: f.table.statuses()[1].payout_pending == 0 and not f.menu.port.busy)
    acts = f.table.ledger.events(("operator_action",))
    assert [(a.station, a.detail["action"], a.detail["at_station"]) for a in acts] == [
        (3, "clear_tilt", 1),
        (2, "handpay_reset", 1),
    ]
    assert all(a.detail["operator"] == TED[0] for a in acts)
    f.frames(lambda: "Ready" in f.frame())
    # the key again closes the menu and logs the person out at the host
    f.app.feed(Command("operator_key"))
    assert f.app.scene.name == "table"
    assert f.menu.port.wait(5.0)
    assert f.host.operators.operator(1) is None
    assert f.table.ledger.events(("operator_logout",))[-1].detail["operator"] == TED[0]


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_meters_recall_and_limits_pages_at_a_station(floor, size):
    f = floor(size)
    f.controller.remote.insert_note(5000, 10)
    f.app.feed(Command("operator_key"))
    f.app.step(1 / 30)
    f.type_pin(TED[2])
    f.frames(lambda: f.menu.state == "menu")
    f.press("page_meters")
    f.frames(lambda: f.page("meters").readings is not None)
    drawn = f.frame()
    scopes = {b.label for b in f.menu.buttons()}  # whose meters: the page's own buttons
    assert "This station" in scopes and "Table" in scopes and "$50.00" in drawn
    f.shot("meters")
    f.press("menu")
    f.press("page_recall")
    f.frames(lambda: f.page("recall").recalled is not None)
    assert "No rounds played yet." in f.frame()  # the one menu's words for no rounds
    f.press("menu")
    f.press("page_limits")
    f.frames(lambda: bool(f.page("limits").draft) and not f.menu.port.busy)
    before = f.table.limits.ante_max
    f.press("ante_max_minus")
    f.press("apply_limits")  # the door shut: the reason, no confirmation (the one menu's rule)
    f.frames(lambda: f.menu.result is not None)
    ok, text = f.menu.result[1], f.menu.result[0]
    assert not ok and "door" in text and f.table.limits.ante_max == before  # door shut
    f.shot("limits")
    f.controller.execute(cmd.SetDoor(True))  # the station's door switch, to the host
    f.frames(lambda: f.table.statuses()[0].door_open)
    assert f.app.model.snap.door_open  # the station's screens know their door
    f.table.execute(1, cmd.CashOut())
    f.table.execute(1, cmd.HandpayReset())
    f.frames(lambda: blocker(f.menu) is None)  # the station's screens know it is quiet
    f.press("apply_limits")  # the change, for confirmation
    drawn = f.frame()
    assert "Change the table limits?" in drawn and "Ante maximum\n$500\n$200" in drawn
    assert sorted(b.id for b in f.app.scene.buttons()) == ["cancel_limits", "confirm_limits"]
    f.shot("limits-confirm")
    f.press("cancel_limits")
    assert f.menu.port.wait(5.0) and f.table.limits.ante_max == before  # nothing sent
    f.press("apply_limits")
    f.press("confirm_limits")
    f.frames(lambda: f.table.limits.ante_max < before and not f.menu.port.busy)
    assert f.menu.result == ("Limits changed.", True)


def test_a_page_opened_while_the_port_is_busy_asks_once_the_port_is_free(floor):
    f = floor((800, 480))
    f.app.feed(Command("operator_key"))
    f.app.step(1 / 30)
    f.type_pin(TED[2])
    f.frames(lambda: f.menu.state == "menu")
    port = f.menu.port
    answers = []
    assert port.meters(port.station, answers.append)  # a request in flight: the port is busy
    assert port.busy
    f.press("page_recall")  # its request is not taken now
    f.frames(lambda: f.page("recall").recalled is not None)
    assert answers and "No rounds played yet." in f.frame()
    f.press("menu")
    assert port.meters(port.station, answers.append)
    f.press("page_paytable")
    f.frames(lambda: f.page("paytable").listing is not None)
    assert len(answers) == 2


def test_a_wrong_pin_at_a_station_is_refused_with_the_hosts_reason(floor):
    f = floor((800, 480))
    f.app.feed(Command("operator_key"))
    f.app.step(1 / 30)
    f.type_pin("111222")
    f.frames(lambda: f.menu.result is not None)
    # the one rule for a refusal: its message and the host's reason ("wrong PIN"), which
    # the message already says
    assert f.menu.state == "pin" and f.menu.result == ("Wrong PIN.", False)
    assert "wrong pin" in f.menu.result[0].lower()  # the host's reason is shown
    assert "Wrong PIN." in f.frame()
    assert f.host.operators.lockout.failures == 1
    f.shot("wrong-pin")
    f.press("logout")  # CANCEL
    assert f.app.scene.name == "table"


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_paytable_page_lists_the_hosts_tables_and_changes_one_after_confirmation(
    floor, size, tmp_path, monkeypatch
):
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    ship_none(monkeypatch)  # tables proven by this key alone
    f = floor(size)
    new = signed(f.table.ledger.key, PAYTABLE_DIR / "trips-50-40-30-9-7-4-3.toml")
    old = f.table.paytable
    f.app.feed(Command("operator_key"))
    f.app.step(1 / 30)
    f.type_pin(TED[2])
    f.frames(lambda: f.menu.state == "menu")
    f.press("page_paytable")
    f.frames(lambda: f.page("paytable").listing is not None and not f.menu.port.busy)
    drawn = f.frame()
    assert "Standard 1.0  ✓ in force" in drawn
    assert "Main game 99.470%  ·  Trips 96.500%" in drawn  # the signed table's RTP
    assert "RTP not known yet" in drawn  # the others'
    ids = {b.id: b for b in f.app.scene.buttons()}
    assert not ids["table_standard"].enabled  # the one in force
    f.shot("paytables")
    f.press("table_trips-50-40-30-9-7-4-3")  # the door shut: the reason, no confirmation
    f.frames(lambda: f.menu.result is not None and not f.menu.port.busy)
    assert f.menu.result[1] is False and "door" in f.menu.result[0]  # the door is shut
    assert f.table.paytable == old
    f.controller.execute(cmd.SetDoor(True))
    f.frames(lambda: f.table.statuses()[0].door_open and f.app.model.snap.door_open)
    f.press("table_trips-50-40-30-9-7-4-3")
    drawn = f.frame()
    assert "Put this paytable in force?" in drawn and f"{new.name} {new.version}" in drawn
    assert sorted(b.id for b in f.app.scene.buttons()) == ["apply_table", "cancel_table"]
    f.shot("paytable-confirm")
    f.press("apply_table")
    f.frames(lambda: f.table.paytable.sha256 == new.sha256 and not f.menu.port.busy)
    f.frames(lambda: f.page("paytable").listing.in_force == new.sha256)
    assert f.menu.result == ("Paytable changed.", True)
    assert f"{new.name} {new.version}  ✓ in force" in f.frame()
    f.frames(lambda: getattr(f.controller.remote.paytable, "sha256", "") == new.sha256)
    f.frames(lambda: getattr(f.others[2].paytable, "sha256", "") == new.sha256)
    assert f.app.model.snap.paytable.sha256 == new.sha256  # what the screens show
    (change,) = f.table.ledger.events(("paytable_changed",))
    assert change.station == 1 and change.detail["operator"] == TED[0]


def test_a_station_with_its_door_open_lifts_the_tables_pin_locks_on_its_keypad(floor):
    f = floor((800, 480))
    for i in range(5):  # another station's guesses lock the table's PIN pad
        f.host.operators.handle(2, OperatorLogin(ref=1, pin=f"51515{i}"))
    f.app.feed(Command("operator_key"))
    f.app.step(1 / 30)
    assert "lift" not in {b.id for b in f.menu.buttons()}  # the door is closed
    f.controller.execute(cmd.SetDoor(True))  # the station's main door, opened with its key
    f.frames(lambda: "lift" in {b.id for b in f.menu.buttons()})
    f.press("lift")
    assert "a manager's or technician's PIN" in f.frame()
    f.type_pin(TED[2])
    assert "a second person's PIN" in f.frame()
    f.type_pin(ANN[2])
    f.frames(lambda: f.menu.result is not None)
    assert f.menu.result == (f"{TED[0]} lifted the PIN locks.", True)
    f.type_pin(ANN[2])
    f.frames(lambda: f.menu.state == "menu")
    assert f.menu.person == (ANN[0], "attendant")
