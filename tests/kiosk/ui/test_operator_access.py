"""How the operator menu opens: the key switch, the open door, the corners in demo mode
only; DEMO on screen; the countersigned RAM clear on the keypad.  Driven through the
app's own input events and real pygame key events."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from support.cabinet import credits, insert_note

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import SetDoor
from kiosk.ui.events import Command, Key, Touch
from kiosk.ui.input import translate
from kiosk.wiring.cabinet import cabinet_app
from kiosk.wiring.lone_cabinet import LoneCabinet

PEOPLE = (("Ann Smith", "attendant", "246810"), ("Cy Young", "manager", "975310"))


def cabinet_config(tmp_path: Path):
    text = f'db_path = "{tmp_path / "uth.db"}"\n'
    for name, role, pin in PEOPLE:
        text += f'[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
    path = tmp_path / "cabinet.toml"
    path.write_text(text)
    return load_config(path)


class Screens:
    """The app over a machine, fed events one at a time."""

    def __init__(self, config, demo: bool) -> None:
        self.cabinet = LoneCabinet.open(config, rng=SeededRandomSource(5))
        self.app = cabinet_app(self.cabinet, (800, 480), demo=demo, sound=False)
        self.app.step(1 / 60)

    @property
    def scene(self):
        return self.app.scene

    def feed(self, *events) -> None:
        for ev in events:
            self.app.feed(ev)
            self.app.step(1 / 60)

    def pygame_key(self, key: int) -> None:
        """A real key press, through the one translation of pygame events."""
        ev = pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")
        self.feed(*translate(ev, self.app.layout.size))

    def type_pin(self, pin: str) -> None:
        self.feed(*(Key(d, d) for d in pin), Key("return"))

    def corners(self) -> None:
        w, h = self.app.layout.size
        self.feed(*(Touch(p) for p in ((5, 5), (w - 5, 5), (w - 5, h - 5), (5, h - 5))))

    def touch(self, bid: str) -> None:
        (b,) = [b for b in self.scene.buttons() if b.id == bid]
        assert b.enabled, bid
        self.feed(Touch(self.app.layout.rect(*b.rect).center))

    def close(self) -> None:
        self.app.close()
        self.cabinet.close()


@pytest.fixture
def screens(tmp_path):
    made: list[Screens] = []

    def make(config=None, demo: bool = True) -> Screens:
        folder = tmp_path / f"s{len(made)}"
        folder.mkdir()
        s = Screens(config or load_config(None, db_path=folder / "uth.db"), demo)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def test_outside_demo_mode_only_the_key_switch_and_the_door_open_the_menu(screens, tmp_path):
    s = screens(cabinet_config(tmp_path), demo=False)
    s.corners()
    assert s.scene.name != "operator"  # the corner sequence is for demo mode only
    s.pygame_key(pygame.K_F12)
    assert s.scene.name != "operator"  # a keyboard is not the key switch
    s.feed(Command("operator_key"))  # the key switch's input event
    assert s.scene.name == "operator" and s.scene.state == "pin"
    assert "DEMO" not in s.scene.title()
    s.feed(Command("operator_key"))  # turned back
    assert s.scene.name != "operator"
    # the main door opens (its switch, not a key): a touch brings the attendant's screen
    s.cabinet.station.execute(SetDoor(True))
    s.app.step(1 / 60)  # the screens see the door's change
    s.feed(Touch((400, 240)))
    assert s.scene.name == "operator"
    s.type_pin("246810")
    assert s.cabinet.station.snapshot().operator == "attendant"
    s.touch("page_devices")
    door = next(b for b in s.scene.buttons() if b.id == "door")
    assert not door.enabled  # the door is a switch, not a button, on a cabinet
    s.cabinet.station.execute(SetDoor(False))  # the door closes: the menu it opened closes with it
    s.app.step(1 / 60)
    s.app.step(1 / 60)
    assert s.scene.name != "operator" and s.cabinet.station.snapshot().operator is None


def test_demo_mode_opens_with_f12_and_the_corners_and_says_demo(screens):
    s = screens(demo=True)
    s.pygame_key(pygame.K_F12)
    assert s.scene.name == "operator" and s.scene.title().endswith("DEMO")
    s.pygame_key(pygame.K_F12)
    assert s.scene.name == "attract"
    s.corners()  # on the attract screen: the corners are the sequence's, not the screen's
    assert s.scene.name == "operator"
    s.type_pin("3333")
    assert s.cabinet.station.snapshot().operator == "manager" and "DEMO" in s.scene.title()


def test_the_ram_clear_page_takes_a_second_pin_before_the_request(screens, tmp_path):
    s = screens(cabinet_config(tmp_path), demo=False)
    insert_note(s.cabinet, 2000)
    s.feed(Command("operator_key"))
    s.type_pin("975310")
    s.touch("page_ramclear")
    request = next(b for b in s.scene.buttons() if b.id == "ram_request")
    assert not request.enabled  # no second operator yet
    s.type_pin("246810")  # the door is closed: refused with the reason shown
    text, ok = s.scene.result
    assert not ok and "main door" in text
    s.cabinet.station.execute(SetDoor(True))
    s.type_pin("975310")  # the manager's own PIN is not a second operator's
    assert s.scene.result[1] is False and s.scene.witness is None
    s.type_pin("246810")
    assert s.scene.result == ("Countersigned by Ann Smith.", True)
    s.touch("ram_request")
    for d in s.scene.ram_code:
        s.touch(f"key_{d}")
    s.touch("key_enter")
    assert s.scene.result == ("RAM clear done.", True)
    assert credits(s.cabinet) == 0
    assert s.cabinet.table.ledger.last_event("ram_clear").detail["witness"] == "Ann Smith"


def test_no_demo_keys_list_no_demo_or_attendant_keys_yet_the_corners_still_open_the_menu(screens):
    s = screens(demo=False)  # a demo configuration run with --no-demo
    assert s.cabinet.config.demo
    help_scene = s.app.scenes["help"]
    keys = [k for k, _what in help_scene.shortcut_lines()]
    assert "F9" not in keys and "F12" not in keys and not any(k.startswith("1") for k in keys)
    s.pygame_key(pygame.K_F12)
    assert s.scene.name != "operator"  # the keyboard is no key switch
    s.corners()  # the screens say DEMO: the demo's way in still works
    assert s.scene.name == "operator"


def test_demo_keys_on_list_the_demo_keys(screens):
    s = screens(demo=True)
    keys = [k for k, _what in s.app.scenes["help"].shortcut_lines()]
    assert "F9" in keys and "F12" in keys
