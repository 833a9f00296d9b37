"""On an installed cabinet only the key switch opens the operator menu and its PIN pad:
neither the four-corner touch sequence nor a touch with the main door open does, so
nobody without the key reaches the PIN pad to guess (or to lock it for the staff).
Driven through the app's own input events over a real controller and ledger."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.game.commands import SetDoor
from kiosk.ledger.kinds import EventKind
from kiosk.ui.app import App
from kiosk.ui.events import Command, Key, Touch
from kiosk.wiring.cabinet import cabinet_app
from kiosk.wiring.lone_cabinet import LoneCabinet

PEOPLE = (("Ann Smith", "attendant", "246810"), ("Cy Young", "manager", "975310"))


def cabinet_config(folder: Path, demo: bool):
    if demo:
        return load_config(None, db_path=folder / "uth.db")
    text = f'db_path = "{folder / "uth.db"}"\n'
    for name, role, pin in PEOPLE:
        text += f'[[operators]]\nname = "{name}"\nrole = "{role}"\npin = "{pin}"\n'
    (folder / "cabinet.toml").write_text(text)
    return load_config(folder / "cabinet.toml")


@pytest.fixture
def screens(tmp_path):
    made: list[tuple[LoneCabinet, App]] = []

    def make(*, demo: bool, installed: bool | None) -> App:
        folder = tmp_path / f"cabinet{len(made)}"
        folder.mkdir()
        cabinet = LoneCabinet.open(cabinet_config(folder, demo), rng=SeededRandomSource(5))
        app = cabinet_app(cabinet, (800, 480), demo=demo, sound=False, installed=installed)
        app.step(1 / 60)
        made.append((cabinet, app))
        return app

    yield make
    for cabinet, app in made:
        app.close()
        cabinet.close()


def feed(app: App, *events) -> None:
    for ev in events:
        app.feed(ev)
        app.step(1 / 60)


def corners(app: App) -> None:
    w, h = app.layout.size
    feed(app, *(Touch(p) for p in ((5, 5), (w - 5, 5), (w - 5, h - 5), (5, h - 5))))


@pytest.mark.parametrize("demo", [False, True], ids=["accounts", "demo-configuration"])
def test_an_installed_cabinet_opens_its_pin_pad_with_the_key_switch_only(screens, demo):
    app = screens(demo=demo, installed=True)
    assert app.installed
    corners(app)
    assert app.scene.name != "operator"
    app.model.controller.execute(SetDoor(True))  # the main door opened with its key
    app.step(1 / 60)
    feed(app, Touch((400, 240)))
    assert app.scene.name != "operator"  # a touch with the door open is no way in either
    feed(app, Command("operator_key"))  # the key switch
    assert app.scene.name == "operator" and app.scene.state == "pin"


def test_the_screens_read_installed_from_the_configuration(tmp_path):
    config = cabinet_config(tmp_path, demo=False)
    cabinet = LoneCabinet.open(config, rng=SeededRandomSource(5))
    try:
        assert not cabinet_app(cabinet, (800, 480), demo=False, sound=False).installed
        # the configuration an installed cabinet runs with (systemd/install.sh writes it)
        cabinet.station.config = config.model_copy(update={"installed": True})
        app = cabinet_app(cabinet, (800, 480), demo=False, sound=False)
        assert app.installed
        cabinet.station.execute(SetDoor(True))
        app.step(1 / 60)
        feed(app, Touch((400, 240)))
        assert app.scene.name != "operator"
        app.close()
    finally:
        cabinet.close()


def type_pin(app: App, pin: str) -> None:
    feed(app, *(Key(d, d) for d in pin), Key("return"))


def test_a_locked_pin_pad_is_lifted_on_the_keypad_with_the_door_open(screens):
    app = screens(demo=False, installed=True)
    feed(app, Command("operator_key"))
    for i in range(5):
        type_pin(app, f"80808{i}")
    type_pin(app, PEOPLE[0][2])
    assert app.model.controller.snapshot().operator is None  # locked for everyone
    assert "lift" not in {b.id for b in app.scene.buttons()}  # the door is closed
    app.model.controller.execute(SetDoor(True))
    app.step(1 / 60)
    (lift,) = [b for b in app.scene.buttons() if b.id == "lift"]
    feed(app, Touch(app.layout.rect(*lift.rect).center))
    type_pin(app, PEOPLE[1][2])  # the manager
    type_pin(app, PEOPLE[0][2])  # a second person
    assert app.scene.result == ("Cy Young lifted the PIN locks.", True)
    type_pin(app, PEOPLE[0][2])
    assert app.model.controller.snapshot().operator == "attendant"
    (lifted,) = app.model.controller.ledger_events((EventKind.OPERATOR_LOCKOUT_LIFTED,), last=1)
    assert (lifted.detail["operator"], lifted.detail["witness"]) == ("Cy Young", "Ann Smith")
