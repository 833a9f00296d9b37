"""Commands a station sends to the table host beyond the cabinet's own
(:mod:`kiosk.machine.commands`): every command is sent with the station it comes from,
``table.execute(station, command)``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pass:
    """Sit this round out: the station's chips come back and the betting window no
    longer waits for it."""
