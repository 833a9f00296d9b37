"""Sound effects from ``assets/sounds`` (synthesised by ``assets/tools/make_sounds.py``).

Silent, never an error, when there is no audio device, no mixer, a missing file or the
player turned sound off.
"""

from __future__ import annotations

from pathlib import Path

import pygame

SOUND_DIR = Path(__file__).resolve().parent.parent.parent / "assets" / "sounds"
NAMES = ("deal", "flip", "chip", "win", "bigwin", "click", "bill", "cashout", "alert")
#: Sounds made here rather than read from a file: ``tick`` (the win counting up).
MADE = ("tick",)


def _tick(init: tuple[int, int, int]) -> pygame.mixer.Sound:
    """A short bright blip (30 ms, 2.4 kHz, fast decay) for a 16-bit mixer running at
    ``init`` (frequency, size, channels)."""
    import numpy as np

    freq, _size, channels = init
    t = np.arange(int(freq * 0.03)) / freq
    wave = np.sin(2 * np.pi * 2400 * t) * np.exp(-t / 0.008) * 0.35
    samples = (wave * 32767).astype(np.int16)
    if channels > 1:
        samples = np.repeat(samples[:, None], channels, axis=1)
    return pygame.sndarray.make_sound(np.ascontiguousarray(samples))


class Sounds:
    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.available = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.played: list[str] = []  # names played, newest last (kept short; for tests)
        if not enabled:
            pygame.mixer.quit()  # started by pygame.init(): no sound, no audio thread
            return
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
            for name in NAMES:
                path = SOUND_DIR / f"{name}.wav"
                if path.exists():
                    self._sounds[name] = pygame.mixer.Sound(str(path))
            self.available = True
            init = pygame.mixer.get_init()
            if init is not None and init[1] == -16:
                self._sounds["tick"] = _tick(init)
        except (pygame.error, OSError, ValueError):
            self.available = self.available and bool(self._sounds)

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
