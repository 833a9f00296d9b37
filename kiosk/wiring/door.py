"""The slot door switch of the configuration (``door``) wired to a cabinet's station:
each change of the switch is the station's door opening or closing, as the demo's F9 key
is (the door rules of :mod:`kiosk.table.operators`, and SAS exceptions 11 / 12)."""

from __future__ import annotations

from devices.door import DoorWatch, open_door
from kiosk.cabinet import Machine
from kiosk.config import CabinetConfig


def start_door(config: CabinetConfig, machine: Machine) -> DoorWatch | None:
    """Watch the configuration's door for ``machine`` (None without one).  Raises
    :class:`~devices.door.DoorError` when the source cannot be opened."""
    if config.door is None:
        return None
    return DoorWatch(open_door(config.door), machine.door).start()
