"""The slot door switch of the configuration (``door``) wired to a station (the lone
cabinet's, or a shared table's player station): each change of the switch is the
station's door opening or closing, as the demo's F9 key is (the door rules of
:mod:`kiosk.service.operators`, and SAS exceptions 11 / 12)."""

from __future__ import annotations

from collections.abc import Callable

from devices.door import DoorWatch, open_door
from kiosk.config import CabinetConfig


def start_door(config: CabinetConfig, door: Callable[[bool], object]) -> DoorWatch | None:
    """Watch the configuration's door, telling ``door(open)`` (a station's
    :class:`~kiosk.game.commands.SetDoor`) each change; None without one.  Raises
    :class:`~devices.door.DoorError` when the source cannot be opened."""
    if config.door is None:
        return None
    return DoorWatch(open_door(config.door), door).start()
