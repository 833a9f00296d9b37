"""Sound effects from ``assets/sounds`` (synthesised by ``assets/tools/make_sounds.py``).

Silent, never an error, when there is no audio device, no mixer, a missing file or the
player turned sound off.
"""

from __future__ import annotations

from pathlib import Path

import pygame

SOUND_DIR = Path(__file__).resolve().parent.parent.parent / "assets" / "sounds"
NAMES = ("deal", "flip", "chip", "win", "bigwin", "click", "bill", "cashout", "alert")


class Sounds:
    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.available = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.played: list[str] = []  # names played, newest last (kept short; for tests)
        if not enabled:
            return
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
            for name in NAMES:
                path = SOUND_DIR / f"{name}.wav"
                if path.exists():
                    self._sounds[name] = pygame.mixer.Sound(str(path))
            self.available = True
        except (pygame.error, OSError):
            self.available = False

    def play(self, name: str, on: bool = True) -> None:
        """Play ``name`` if sound is available and ``on`` (the player's preference)."""
        self.played.append(name)
        del self.played[:-20]
        if not (on and self.available):
            return
        snd = self._sounds.get(name)
        if snd is not None:
            try:
                snd.play()
            except pygame.error:
                pass
