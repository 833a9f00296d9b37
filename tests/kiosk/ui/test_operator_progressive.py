"""The operator menu's Progressive page at a lone cabinet (the one menu over the
in-process operator port), driven by the app's own input events with the SDL dummy
driver: the meter, the reserve and the lifetime meters, and a manager's adjustment typed
on the keypad and countersigned by a second person's PIN, recorded; a refusal shown with
its reason; the button disabled for an attendant.  Screenshots go to
/tmp/shots/operator-progressive-*.png."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from support.operator_screens import PEOPLE, OperatorScreens  # noqa: E402
from support.progressive_table import RESET, write_paytable  # noqa: E402
from support.signed_paytables import signed  # noqa: E402

from kiosk.game import commands as cmd  # noqa: E402
from kiosk.ledger.kinds import EventKind  # noqa: E402
from kiosk.ui.events import Key  # noqa: E402

ANN, TED, CY = PEOPLE
SHOTS = Path("/tmp/shots")


def with_progressive(s: OperatorScreens, folder: Path) -> None:
    """A technician puts the test progressive in force at the cabinet (door open)."""
    table = s.cabinet.table
    path = write_paytable(folder)
    signed(table.ledger.key, path)
    table.execute(1, cmd.SetDoor(True))
    table.execute(1, cmd.OperatorLogin(TED[2]))
    table.execute(1, cmd.SetPaytable(str(path)))
    table.execute(1, cmd.OperatorLogout())
    s.frame()


def type_digits(s: OperatorScreens, digits: str) -> None:
    s.feed(*(Key(d, d) for d in digits))


@pytest.fixture
def screens(tmp_path, monkeypatch):
    monkeypatch.setenv("UTH_PAR_CACHE", str(tmp_path / "par"))
    made: list[OperatorScreens] = []

    def make(size: tuple[int, int]) -> OperatorScreens:
        folder = tmp_path / f"cab-{len(made)}"
        folder.mkdir()
        made.append(OperatorScreens(folder, size))
        with_progressive(made[-1], tmp_path)
        return made[-1]

    yield make
    for s in made:
        s.close()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_progressive_page_shows_the_meter_and_a_manager_adjusts_it(screens, size):
    s = screens(size)
    s.login(CY[2])
    assert s.scene.state == "menu"
    s.touch("page_progressive")
    drawn = s.drawn()
    for text in ("Meter and reserve", "Lifetime", "Reserve (hidden)", "Adjustments"):
        assert text in drawn, text
    assert "$1,000.00" in drawn  # the meter at its reset, seeded at the change
    assert "Awards won" in drawn and "Jackpots hand-paid" in drawn
    SHOTS.mkdir(exist_ok=True)
    s.shot(SHOTS / f"operator-progressive-{size[0]}x{size[1]}.png")

    s.touch("adjust_meter")
    assert "Step 1 of 2" in s.drawn()
    s.touch("adjust_reason")  # correction -> transfer
    type_digits(s, "250000")
    assert "$2,500.00" in s.drawn()  # the amount typed, shown as money
    s.key("return")
    drawn = s.drawn()
    assert "Step 2 of 2" in drawn and "New meter: $2,500.00" in drawn
    s.shot(SHOTS / f"operator-progressive-witness-{size[0]}x{size[1]}.png")
    type_digits(s, ANN[2])
    assert ANN[2] not in s.drawn()  # the PIN is masked
    s.key("return")
    assert s.scene.result == ("Progressive meter set to $2,500.00.", True)
    ledger = s.cabinet.table.ledger
    (up,) = ledger.events((EventKind.PROGRESSIVE_ADJUSTED_UP,))
    assert up.amount == 250_000 - RESET
    assert (up.detail["operator"], up.detail["witness"]) == (CY[0], ANN[0])
    assert up.detail["reason"] == "transfer" and up.detail["after"] == 250_000
    (action,) = ledger.events((EventKind.OPERATOR_ACTION,))
    assert action.detail["action"] == "adjust_progressive" and action.detail["new"] == 250_000
    s.frame()
    page = s.scene.pages["progressive"]
    assert page.figures.meter == 250_000 and page.figures.adjustments == 1
    assert "$2,500.00" in s.drawn() and "$1,500.00" in s.drawn()  # the meter, adjusted up

    # the manager's own PIN as the witness: refused with the reason, nothing recorded
    s.touch("adjust_meter")
    type_digits(s, "100")
    s.key("return")
    type_digits(s, CY[2])
    s.key("return")
    text, ok = s.scene.result
    assert not ok and "The second PIN must be another operator's." in text
    assert len(ledger.events((EventKind.PROGRESSIVE_ADJUSTED_DOWN,))) == 0
    assert page.figures.meter == 250_000


def test_an_attendant_sees_the_page_but_may_not_adjust(screens):
    s = screens((800, 480))
    s.login(ANN[2])
    s.touch("page_progressive")
    assert "Lifetime" in s.drawn()
    assert not s.buttons()["adjust_meter"].enabled


def test_the_door_shut_disables_the_adjustment_and_says_why(screens):
    s = screens((800, 480))
    s.cabinet.table.execute(1, cmd.SetDoor(False))
    s.login(CY[2], door=False)
    s.touch("page_progressive")
    assert not s.buttons()["adjust_meter"].enabled
    assert "Open the main door" in s.drawn()
