"""The operator pages in an attendant's words: a change the cabinet would refuse says
why instead of offering a confirmation, one reason never nested in another, the RAM
clear's three steps numbered 1, 2, 3, the hold report's columns explained, the editor
asking before its draft is dropped, and F9 (the demo's door) working in the menu."""

from __future__ import annotations

import re

import pytest
from support.cabinet import insert_note
from support.operator_screens import OperatorScreens

from kiosk.ui.events import Key

MANAGER = "975310"  # Cy Young (support.operator_screens.PEOPLE)
ATTENDANT = "246810"


@pytest.fixture
def screens(tmp_path):
    made: list[OperatorScreens] = []

    def make(**kw) -> OperatorScreens:
        folder = tmp_path / f"s{len(made)}"
        folder.mkdir()
        made.append(OperatorScreens(folder, **kw))
        return made[-1]

    yield make
    for s in made:
        s.close()


def nested(text: str) -> bool:
    """True when a parenthesis opens inside another."""
    depth = 0
    for ch in text:
        depth += ch == "("
        if depth > 1:
            return True
        depth -= ch == ")"
    return False


def test_a_paytable_change_with_credits_says_why_instead_of_asking(screens):
    s = screens()
    for cents in (5000, 1000, 100):
        insert_note(s.cabinet, cents)
    s.login(MANAGER, door=True)
    s.touch("page_paytable")
    other = next(b for b in s.buttons() if b.startswith("table_") and s.buttons()[b].enabled)
    s.touch(other)
    assert "apply_table" not in s.buttons()  # no confirmation for a change that cannot be made
    text, ok = s.scene.result
    assert not ok and text == "Cash out or hand pay the credits first: a change needs zero credits (now $61.00)."
    assert not nested(text)


def test_a_refusal_reads_as_sentences_never_one_inside_another(screens):
    s = screens()
    insert_note(s.cabinet, 2000)
    s.feed(Key("f12"))  # not the demo: the key switch is the operator_key command
    from kiosk.ui.events import Command

    s.feed(Command("operator_key"))
    s.type_pin(MANAGER)
    s.touch("page_ramclear")
    s.type_pin(ATTENDANT)  # the door is closed: refused
    text, ok = s.scene.result
    assert not ok and "main door" in text and not nested(text)
    assert re.fullmatch(r"[^()]*(\([^()]*\))?[^()]*", text), text


def test_the_ram_clear_steps_are_numbered_one_two_three(screens):
    s = screens()
    s.login(MANAGER, door=True)
    s.touch("page_ramclear")
    steps = [line for line in s.drawn().split("\n") if line.startswith("Step")]
    assert steps == ["Step 1 of 3: a second operator types their PIN on the keypad."]
    s.type_pin(ATTENDANT)
    assert s.scene.result == ("Countersigned by Ann Smith.", True)
    steps = [line for line in s.drawn().split("\n") if line.startswith("Step")]
    assert steps == ["Step 2 of 3: request a confirmation code."]
    s.touch("ram_request")
    steps = [line for line in s.drawn().split("\n") if line.startswith("Step")]
    assert len(steps) == 1 and steps[0].startswith("Step 3 of 3: type this code to confirm: ")


def test_esc_from_the_editor_asks_before_dropping_a_changed_draft(screens):
    s = screens()
    s.login(MANAGER, door=True)
    s.touch("page_paytable")
    s.touch("copy_standard")
    editor = s.scene.pages["paytable"].editor
    assert editor is not None
    s.key("escape")  # nothing changed: back to the list at once
    assert s.scene.pages["paytable"].editor is None and s.scene.state == "page"
    s.touch("copy_standard")
    plus = next(b for b in s.buttons() if b.endswith("_plus") and s.buttons()[b].enabled)
    s.touch(plus)  # the draft now differs from its base
    s.key("escape")
    assert set(s.buttons()) == {"editor_leave", "editor_stay"} and "Leave the editor?" in s.drawn()
    s.touch("editor_stay")
    assert s.scene.pages["paytable"].editor is not None
    s.touch("editor_back")  # PAYTABLES asks too
    assert set(s.buttons()) == {"editor_leave", "editor_stay"}
    s.key("escape")  # Esc answers "stay"
    assert s.scene.pages["paytable"].editor is not None and "editor_back" in s.buttons()
    s.touch("editor_back")
    s.touch("editor_leave")
    assert s.scene.pages["paytable"].editor is None and s.scene.state == "page"


def test_f9_opens_and_closes_the_door_inside_the_demo_menu(screens):
    s = screens(demo=True)
    s.feed(Key("f12"))
    s.type_pin("3333")
    s.touch("page_paytable")
    assert "Open the main door (F9 on the demo): changes here need it." in s.drawn()
    s.key("f9")
    assert s.snap.door_open and s.scene.name == "operator"
    assert "Open the main door" not in s.drawn()
    s.key("f9")
    assert not s.snap.door_open
