"""The slot door switch as a source of its own (:mod:`devices.door`): the simulated door
driven by ``uth devices simulate door``, seen by the host as exceptions 11 / 12 over the
pty transport, and the door rules it drives."""

from __future__ import annotations

import pytest

from devices.door import DoorError, DoorWatch, SimulatedDoor, open_door, parse_door
from kiosk.cli import main
from kiosk.config import ConfigError, load_config
from kiosk.game.commands import OperatorLogin, OperatorLogout, SetDoor, SetLimits
from kiosk.game.errors import MachineError
from kiosk.wiring.door import start_door
from kiosk.wiring.lone_cabinet import LoneCabinet
from tests.support.sas_rig import wait_for


def test_the_simulated_door_drives_11_and_12_and_the_door_rules(rig, tmp_path, capsys):
    door = tmp_path / "door"
    config = load_config(db_path=rig.config.db_path, door=f"sim:{door}")
    watch = start_door(config, lambda open: rig.machine.station.execute(SetDoor(open)))
    assert watch is not None
    try:
        m = rig.machine
        assert rig.exceptions() == []
        m.station.execute(OperatorLogin("2222"))
        with pytest.raises(MachineError):  # an option change needs the main door open
            m.station.execute(SetLimits(ante_min=m.station.snapshot().limits.ante_min + 100))
        assert main(["devices", "simulate", "door", "open", "--path", str(door)]) == 0
        assert wait_for(lambda: m.station.snapshot().door_open)
        m.station.execute(
            SetLimits(ante_min=m.station.snapshot().limits.ante_min + 100)
        )  # now it may
        assert main(["devices", "simulate", "door", "close", "--path", str(door)]) == 0
        assert wait_for(lambda: not m.station.snapshot().door_open)
        m.station.execute(OperatorLogout())
        assert rig.exceptions() == [0x11, 0x3C, 0x12]
        assert "door closed" in capsys.readouterr().out
    finally:
        watch.stop()


def test_a_door_open_at_power_up_is_reported_open(rig, tmp_path):
    SimulatedDoor.set(tmp_path / "door", True)
    watch = DoorWatch(
        open_door(parse_door(f"sim:{tmp_path / 'door'}")),
        lambda open: rig.machine.station.execute(SetDoor(open)),
    ).start()
    try:
        assert rig.machine.station.snapshot().door_open
        assert rig.exceptions() == [0x11]
    finally:
        watch.stop()


def test_door_sources_are_checked_where_they_are_read(tmp_path, capsys):
    spec = parse_door("gpio:/dev/gpiochip0:17:active_low")
    assert (spec.kind, str(spec.path), spec.line, spec.active_low) == (
        "gpio",
        "/dev/gpiochip0",
        17,
        True,
    )
    for bad in ("gpio:/dev/gpiochip0", "gpio:/dev/gpiochip0:x", "gpio:chip:1", "sim:door", "usb:1"):
        with pytest.raises(DoorError):
            parse_door(bad)
    toml = tmp_path / "c.toml"
    toml.write_text('door = "gpio:/dev/gpiochip0:x"\n')
    with pytest.raises(ConfigError, match="door: gpio: the line"):
        load_config(toml)
    toml.write_text('door = "gpio:/dev/gpiochip0:17"\n')
    assert main(["devices", "simulate", "door", "open", "--config", str(toml)]) == 2
    assert "not a simulated one" in capsys.readouterr().err
    try:
        import gpiod  # noqa: F401
    except ImportError:  # without libgpiod's bindings a GPIO door says what it needs
        with pytest.raises(DoorError, match="pip install gpiod"):
            open_door(spec)


def test_the_cabinet_watches_its_configured_door(tmp_path):
    from kiosk.ui.screen_options import ScreenOptions
    from kiosk.wiring.cabinet import run_cabinet

    SimulatedDoor.set(tmp_path / "door", True)  # open when the cabinet comes up
    config = load_config(db_path=tmp_path / "k.db", door=f"sim:{tmp_path / 'door'}")
    options = ScreenOptions(size=(800, 480), sound=False, headless=True)
    assert run_cabinet(config, options, max_frames=2) == 0
    m = LoneCabinet.open(load_config(db_path=tmp_path / "k.db"))
    try:
        assert [e.kind for e in m.table.ledger.events(("door_open", "door_closed"))] == [
            "door_open"
        ]
    finally:
        m.close()
