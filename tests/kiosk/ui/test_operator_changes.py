"""The operator menu's changes, driven through the app's input events: export to a USB
stick chosen from the mounted media with a file name typed on the on-screen keyboard;
limits stepped on a 1-2-5 ladder; paytable and limits changes confirmed first, and a
refused change keeps the edit."""

from __future__ import annotations

import json

import pytest
from support.cabinet import cash_out, insert_note
from support.operator_screens import OperatorScreens

from kiosk.ui.events import Touch
from kiosk.ui.scenes.operator.limits import ladder, step


@pytest.fixture
def screens(tmp_path):
    made: list[OperatorScreens] = []

    def make(**kw) -> OperatorScreens:
        folder = tmp_path / f"s{len(made)}"
        folder.mkdir()
        s = OperatorScreens(folder, **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


@pytest.fixture
def stick(tmp_path):
    """A folder standing for a USB stick, and a mounts file that lists it."""
    media = tmp_path / "media" / "usb0"
    media.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text(
        "/dev/mmcblk0p2 / ext4 rw,relatime 0 0\n"
        "/dev/mmcblk0p1 /boot vfat rw,relatime 0 0\n"
        f"/dev/sda1 {media} vfat rw,nosuid,nodev 0 0\n"
    )
    return media, mounts


def open_export(s: OperatorScreens, mounts) -> None:
    s.scene.pages["export"].mounts_file = mounts
    s.touch("page_export")


def test_export_goes_to_the_stick_chosen_with_a_name_typed_on_screen(screens, stick):
    media, mounts = stick
    s = screens()
    s.login("135790", door=False)  # technician
    open_export(s, mounts)
    buttons = s.buttons()
    assert buttons["medium_0"].label == "usb0" and buttons["medium_0"].style == "selected"
    assert buttons["medium_1"].label == "This cabinet"
    assert "medium_2" not in buttons  # /boot and the root file system are not media
    s.touch("rename")
    assert set(s.buttons()) >= {"osk_a", "osk_1", "osk_-", "osk_done", "osk_cancel"}
    assert "menu" not in s.buttons() and "export" not in s.buttons()  # the keyboard is modal
    for _ in range(80):
        s.feed(Touch(s.app.layout.rect(*s.buttons()["osk_delete"].rect).center))
    for ch in "night-1":
        s.touch(f"osk_{ch}")
    s.key("escape")  # Esc cancels: the name stays as it was
    assert s.scene.pages["export"].name.startswith("uth-ledger-")
    s.touch("rename")
    for _ in range(80):
        s.touch("osk_delete")
    assert not s.buttons()["osk_done"].enabled  # an empty name cannot be done
    for ch in "night-1":
        s.touch(f"osk_{ch}")
    s.touch("osk_done")
    s.touch("export")
    text, ok = s.scene.result
    assert ok, text
    out = media / "night-1.json"
    assert str(out) in text
    doc = json.loads(out.read_text())
    assert doc["ledger_id"] == s.cabinet.table.read(lambda a: a.ledger_id()) and "events" in doc


def test_a_stick_pulled_out_is_not_written_to(screens, stick):
    media, mounts = stick
    s = screens()
    s.login("135790", door=False)
    open_export(s, mounts)
    mounts.write_text("/dev/mmcblk0p2 / ext4 rw 0 0\n")  # the stick is pulled out
    s.touch("export")
    text, ok = s.scene.result
    assert not ok and "no longer" in text
    assert list(media.iterdir()) == []
    assert s.buttons()["medium_0"].label == "This cabinet"
    assert not s.buttons()["export"].enabled


def test_limit_steps_follow_a_1_2_5_ladder():
    assert ladder(500, 50000, 100) == [500, 1000, 2000, 5000, 10000, 20000, 50000]
    assert ladder(100, 25000) == [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 25000]
    assert step(500, 1, 500, 50000, 100) == 1000
    assert step(500, -1, 500, 50000, 100) == 500  # the paytable's minimum is the floor
    assert step(1500, -1, 500, 50000, 100) == 1000  # an amount off the ladder steps onto it
    assert step(20000, 1, 100, 25000) == 25000


def test_limits_change_after_confirmation_and_a_refusal_keeps_the_edit(screens):
    s = screens()
    insert_note(s.cabinet, 2000)  # credits on the meter: a change is refused
    s.login("135790", door=True)
    s.touch("page_limits")
    assert not s.buttons()["apply_limits"].enabled  # nothing changed yet
    assert not s.buttons()["ante_min_minus"].enabled  # $5 is the paytable's minimum
    s.touch("ante_min_plus")
    s.touch("ante_min_plus")
    s.touch("trips_max_minus")
    page = s.scene.pages["limits"]
    assert page.draft["ante_min"] == 2000 and page.draft["trips_max"] == 20000
    assert s.snap.limits.ante_min == 500  # not yet in force
    s.touch("apply_limits")  # credits on the meter: no dialog, the reason instead
    assert "confirm_limits" not in s.buttons()
    text, ok = s.scene.result
    assert not ok and text == "Cash out or hand pay the credits first: a change needs zero credits (now $20.00)."
    assert "(" not in text.replace("(now $20.00)", "")  # one reason, nothing nested
    assert s.snap.limits.ante_min == 500
    assert page.draft["ante_min"] == 2000 and s.buttons()["apply_limits"].enabled  # the edit is kept
    cash_out(s.cabinet, s.printer)  # the credits leave (a hand pay), then the attendant pays it
    s.touch("menu")
    s.touch("page_handpay")
    s.touch("handpay")
    s.touch("menu")
    s.touch("page_limits")
    for name in ("ante_min_plus", "ante_min_plus", "trips_max_minus", "apply_limits"):
        s.touch(name)
    assert set(s.buttons()) == {"confirm_limits", "cancel_limits"}  # the dialog is modal
    assert "$20" in s.drawn() and "Change the table limits?" in s.drawn()
    s.key("a", "a")  # a player key does nothing behind the dialog
    s.key("escape")  # Esc cancels the dialog, not the page
    assert s.scene.state == "page" and s.snap.limits.ante_min == 500
    s.touch("apply_limits")
    s.touch("confirm_limits")
    assert s.scene.result == ("Limits changed.", True)
    assert s.snap.limits.ante_min == 2000 and s.snap.limits.trips_max == 20000


def test_a_paytable_change_is_confirmed_first_and_cancel_changes_nothing(screens):
    s = screens()
    s.login("135790", door=True)
    s.touch("page_paytable")
    buttons = s.buttons()
    assert not buttons["table_standard"].enabled  # the table in force
    other = next(b for b in buttons if b.startswith("table_") and b != "table_standard")
    s.touch(other)
    assert set(s.buttons()) == {"apply_table", "cancel_table"}
    digest = s.snap.paytable.sha256  # the full fingerprint of the table in force, in four lines
    assert [digest[i:i + 16] in s.drawn().split("\n") for i in range(0, 64, 16)] == [True] * 4
    s.key("return")  # Enter does not confirm
    s.key("escape")
    assert s.snap.paytable.name == "Standard" and s.scene.result is None
    assert s.buttons()[other].style == "selected"
    s.touch("review_table")
    s.touch("cancel_table")
    assert s.snap.paytable.name == "Standard"
