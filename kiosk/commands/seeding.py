"""The seeded generator is for demos and tests only: ``--seed`` (a Mersenne Twister, whose
shuffles anyone who knows or recovers the seed can predict) is refused unless the
configuration is in demo mode, on the cabinet (``uth kiosk``), a station's screens
(``uth kiosk --station``) and the table host (``uth table serve``)."""

from __future__ import annotations

from kiosk.config import CabinetConfig


class SeedRefused(ValueError):
    """``--seed`` given with a configuration that is not in demo mode."""

    def __init__(self, command: str) -> None:
        super().__init__(
            f"{command} --seed is refused: the seeded generator is predictable and runs in "
            "demo mode only (this configuration has demo = false); a cabinet shuffles with "
            "the operating system's generator"
        )
        self.command = command


def check_seed(config: CabinetConfig, seed: int | None, command: str) -> None:
    """Raise :class:`SeedRefused` when ``seed`` is given outside demo mode."""
    if seed is not None and not config.demo:
        raise SeedRefused(command)
