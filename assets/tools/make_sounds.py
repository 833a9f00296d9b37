"""Synthesise the cabinet's sound effects into assets/sounds/*.wav (numpy, standard library).

Run: python assets/tools/make_sounds.py   (deterministic: the same bytes every time)
22.05 kHz mono 16-bit, each well under a second, so the files stay small.
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "sounds"


def t(seconds: float) -> np.ndarray:
    return np.arange(int(RATE * seconds)) / RATE


def env(n: int, attack: float, decay: float) -> np.ndarray:
    x = np.arange(n) / RATE
    a = np.clip(x / max(attack, 1e-4), 0, 1)
    return a * np.exp(-x / decay)


def tone(freq: float, seconds: float, decay: float, harmonics=(1.0, 0.4, 0.15)) -> np.ndarray:
    x = t(seconds)
    y = sum(a * np.sin(2 * np.pi * freq * (i + 1) * x) for i, a in enumerate(harmonics))
    return y * env(len(x), 0.004, decay)


def noise(seconds: float, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-1, 1, int(RATE * seconds))


def lowpass(y: np.ndarray, k: int) -> np.ndarray:
    return np.convolve(y, np.ones(k) / k, mode="same")


def bandpass(y: np.ndarray, lo: int, hi: int) -> np.ndarray:
    return lowpass(y, lo) - lowpass(y, hi)


def mix(*parts: tuple[float, np.ndarray]) -> np.ndarray:
    n = max(int(start * RATE) + len(p) for start, p in parts)
    out = np.zeros(n)
    for start, p in parts:
        i = int(start * RATE)
        out[i : i + len(p)] += p
    return out


def write(name: str, y: np.ndarray, gain: float = 0.7) -> None:
    y = y / (np.max(np.abs(y)) or 1) * gain
    fade = min(len(y), 200)
    y[-fade:] *= np.linspace(1, 0, fade)
    data = (y * 32767).astype("<i2").tobytes()
    OUT.mkdir(parents=True, exist_ok=True)
    with wave.open(str(OUT / f"{name}.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data)


def main() -> None:
    rng = np.random.default_rng(2024)
    # a card sliding off the shoe: a short brushed noise sweep
    n = noise(0.12, rng)
    write("deal", bandpass(n, 2, 9) * env(len(n), 0.01, 0.035), 0.45)
    # a card turned over: a soft snap
    n = noise(0.06, rng)
    write("flip", bandpass(n, 1, 4) * env(len(n), 0.001, 0.012), 0.5)
    # chips: two clay chips clicking, ringing briefly
    def click(f):
        return tone(f, 0.09, 0.018, (1.0, 0.5, 0.3)) + 0.3 * noise(0.09, rng) * env(int(0.09 * RATE), 0.0005, 0.004)
    write("chip", mix((0, click(3100)), (0.045, 0.7 * click(2700))), 0.55)
    # win: a bright rising arpeggio, C E G C
    notes = [523.25, 659.25, 783.99, 1046.5]
    write("win", mix(*[(i * 0.09, tone(f, 0.5, 0.22)) for i, f in enumerate(notes)]), 0.55)
    notes = [523.25, 659.25, 783.99, 1046.5, 1318.5, 1568.0, 2093.0]
    write("bigwin", mix(*[(i * 0.08, tone(f, 0.7, 0.3)) for i, f in enumerate(notes)]), 0.6)
    # a button press
    write("click", tone(1800, 0.04, 0.008, (1.0, 0.2)), 0.35)
    # a bill accepted: motor whirr then a ding
    x = t(0.35)
    whirr = np.sign(np.sin(2 * np.pi * 95 * x)) * 0.25 * env(len(x), 0.02, 0.2)
    write("bill", mix((0, lowpass(whirr, 6)), (0.3, tone(1318.5, 0.4, 0.12))), 0.5)
    # cash out: a descending cascade of chimes
    write("cashout", mix(*[(i * 0.07, tone(f, 0.45, 0.18)) for i, f in enumerate([1568, 1318.5, 1046.5, 783.99, 1046.5])]), 0.5)
    # tilt / attention: two low beeps
    write("alert", mix((0, tone(440, 0.18, 0.12, (1.0, 0.6))), (0.25, tone(440, 0.18, 0.12, (1.0, 0.6)))), 0.5)


if __name__ == "__main__":
    main()
