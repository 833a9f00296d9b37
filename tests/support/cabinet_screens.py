"""A whole cabinet's screens for the tests: its own SQLite file, the real
:class:`kiosk.wiring.lone_cabinet.LoneCabinet`, the pygame :class:`App` (SDL dummy driver) with a tournament context,
driven through the input events the frame loop feeds it.  Screenshots go to
``/tmp/shots/<prefix>-<name>-<w>x<h>.png``.

    cab = CabinetScreens(tmp_path / "cab", size=(800, 480), shots="friends2")
    cab.touch("tournament")
    cab.until(lambda: cab.scene.name == "tournament_join", what="the join screen")
    cab.close()
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from kiosk.config import load_config
from kiosk.friends.context import TournamentContext
from kiosk.ui.events import Touch
from kiosk.ui.input import translate_all
from kiosk.wiring.cabinet import cabinet_app
from kiosk.wiring.lone_cabinet import LoneCabinet

SHOTS = Path("/tmp/shots")


class CabinetScreens:
    """One cabinet in ``folder`` at ``size`` (pixels); ``friends_hosts`` are the game
    servers its Join screen tries (``host:port``)."""

    def __init__(
        self,
        folder: Path,
        size: tuple[int, int] = (800, 480),
        *,
        shots: str = "cabinet",
        friends_hosts: list[str] | None = None,
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        config = load_config(None, db_path=str(folder / "uth.db"))
        self.cabinet = LoneCabinet.open(config)
        self.app = cabinet_app(self.cabinet, size, tournament=TournamentContext(config.db_path))
        self.ctx = self.app.tournament
        if friends_hosts is not None:
            self.ctx.friends_hosts = friends_hosts
        self.size = size
        self.shots = shots
        self.app.step(0.02)

    @property
    def scene(self) -> Any:
        return self.app.scene

    def run(self, seconds: float = 0.05, dt: float = 0.025) -> None:
        """Step the frame loop (no drawing) for ``seconds`` of screen time."""
        for _ in range(max(1, round(seconds / dt))):
            self.app.step(dt, draw=False)
        time.sleep(0.005)

    def pygame_events(self, *events: pygame.event.Event) -> None:
        """Raw pygame events, translated as the frame loop translates them."""
        for ev in translate_all(list(events), self.app.layout.size):
            self.app.feed(ev)
        self.app.step(0.02, draw=False)

    def button(self, bid: str) -> Any:
        for b in self.scene.buttons():
            if b.id == bid:
                return b
        ids = [b.id for b in self.scene.buttons()]
        raise AssertionError(f"no button {bid!r} on {self.scene.name}: {ids}")

    def touch(self, bid: str) -> None:
        """A finger on button ``bid`` (which must be enabled)."""
        b = self.button(bid)
        assert b.enabled, f"{bid} is disabled"
        self.app.feed(Touch(self.app.layout.rect(*b.rect).center))
        self.run(0.05)

    def until(
        self, predicate: Callable[[], object], timeout: float = 15.0, what: str = "condition"
    ) -> None:
        """Run the screens until ``predicate()`` holds; fails after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while not predicate():
            assert time.monotonic() < end, f"timed out waiting for {what}"
            self.run(0.03)

    def drawn_words(self) -> str:
        """The words the current screen draws (each ``fitted``/``paragraph`` call's
        text, in order, joined by `` | ``)."""
        seen: list[str] = []
        ui = self.scene.ui
        fitted, paragraph = ui.fitted, ui.paragraph

        def spy_fitted(surface: Any, text: str, *a: Any, **k: Any) -> Any:
            seen.append(text)
            return fitted(surface, text, *a, **k)

        def spy_paragraph(surface: Any, text: str, *a: Any, **k: Any) -> Any:
            seen.append(text)
            return paragraph(surface, text, *a, **k)

        ui.fitted, ui.paragraph = spy_fitted, spy_paragraph  # type: ignore[method-assign]
        try:
            self.scene.invalidate()
            self.scene.draw(self.app.screen)
        finally:
            del ui.fitted, ui.paragraph
        return " | ".join(seen)

    def shot(self, name: str) -> Path:
        """The whole screen, repainted, saved as a PNG."""
        self.scene.invalidate()
        self.app.step(0.01)
        SHOTS.mkdir(parents=True, exist_ok=True)
        out = SHOTS / f"{self.shots}-{name}-{self.size[0]}x{self.size[1]}.png"
        pygame.image.save(self.app.screen, str(out))
        return out

    def close(self) -> None:
        self.ctx.close()
        self.cabinet.close()
