"""The power-up program check: an installed cabinet tilts on a mismatch, a demo warns."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

from kiosk.integrity.manifest import DEFAULT_BOUND_S, ProgramCheck, check_program

log = logging.getLogger(__name__)

#: The tilt code of a program that does not match its manifest.
PROGRAM_TILT = "program"

_last: ProgramCheck | None = None


class Tiltable(Protocol):
    """What the check needs of the game service (:meth:`kiosk.service.table.Table.tilt`)."""

    def tilt(self, station: int, code: str, message: str) -> None: ...


def last_check() -> ProgramCheck | None:
    """The result of the last power-up check in this process, if one ran."""
    return _last


def startup_check(
    table: Tiltable,
    station: int,
    demo: bool,
    root: Path | None = None,
    manifest: Path | None = None,
    bound_s: float = DEFAULT_BOUND_S,
) -> ProgramCheck:
    """Check the program against its manifest within ``bound_s`` seconds; on a mismatch
    an installed cabinet (``demo`` false) tilts ``station`` of ``table`` with :data:`PROGRAM_TILT`, a demo logs a
    warning.  Returns the check (also kept for :func:`last_check`)."""
    global _last
    result = check_program(root, manifest, bound_s)
    _last = result
    if result.ok:
        log.info("%s in %.3f s", result.summary(), result.seconds)
    elif demo:
        log.warning("demo: %s", result.summary())
    else:
        table.tilt(station, PROGRAM_TILT, result.summary())
    return result
