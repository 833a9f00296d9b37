"""What a frame costs when little changes: a dialog over a still screen is shown whole
once, then only where it changes (its flashing border), and the attract screen repaints
what moves at most :attr:`AttractScene.frame_interval` apart; an idle screen sleeps
between frames instead of drawing at the frame cap, and a partial frame looks exactly
like the same frame drawn whole."""

from __future__ import annotations

import pygame
import pytest
from test_ui import Kiosk

from kiosk.game.commands import SetDoor
from kiosk.ui import i18n
from kiosk.ui.app import DIALOG_FRAME_INTERVAL, IDLE_WAIT
from kiosk.ui.scenes.attract import AttractScene
from kiosk.ui.scenes.table.compositor import merge

FPS = 60


@pytest.fixture
def kiosk(tmp_path):
    made: list[Kiosk] = []

    def make(size=(1280, 720)) -> Kiosk:
        k = Kiosk(tmp_path / f"k{len(made)}", size)
        made.append(k)
        return k

    yield make
    for k in made:
        k.close()
    i18n.set_language("en")


def frame(k: Kiosk) -> list[pygame.Rect] | None:
    k.app.step(1 / FPS)
    k.app.present()
    return k.app.dirty


def area(rects: list[pygame.Rect] | None, size: tuple[int, int]) -> int:
    return size[0] * size[1] if rects is None else sum(r.w * r.h for r in merge(rects))


def test_a_tilt_overlay_is_shown_whole_once_in_a_second_of_frames(kiosk):
    k = kiosk((1920, 1080))
    k.app.go("table")
    k.key("6")
    k.run(0.5)
    k.app.model.send(SetDoor(True))
    frame(k)
    assert k.app.tilted
    shown = [frame(k) for _ in range(FPS)]
    assert all(d is not None for d in shown)  # never the whole screen again while it stands
    size = k.app.layout.size
    moving = [d for d in shown if d]
    assert len(moving) <= 6  # the border flashes twice a second, a light on the table blinks
    assert all(area(d, size) < size[0] * size[1] // 3 for d in moving)


def test_a_partial_overlay_frame_looks_like_the_whole_frame(kiosk):
    k = kiosk()
    k.app.go("table")
    k.key("6")
    k.run(0.5)
    k.app.model.send(SetDoor(True))
    for _ in range(40):  # across a flash of the border
        frame(k)
    shown = pygame.image.tobytes(k.app.screen, "RGB")
    k.app.layered.release()
    k.app.scene.invalidate()
    k.app.step(0)
    assert pygame.image.tobytes(k.app.screen, "RGB") == shown


def paced_second(k: Kiosk) -> int:
    """Frames drawn in one second of the main loop's pacing, on the kiosk's own clock."""
    t, drawn = 0.0, 0
    while t < 1.0:
        wait = k.app.frame_wait(FPS)
        k.app.step(wait)
        k.app.present()
        t += wait
        drawn += 1
    return drawn


def test_an_idle_attract_screen_does_not_draw_at_the_frame_cap(kiosk):
    k = kiosk((1920, 1080))
    assert k.app.scene.name == "attract"
    frame(k)
    assert k.app.frame_wait(FPS) >= AttractScene.frame_interval > 1 / FPS
    assert paced_second(k) <= round(1 / AttractScene.frame_interval) + 1  # not 60


def test_the_main_loop_at_the_attract_screen_draws_a_few_frames_a_second(kiosk):
    k = kiosk((1920, 1080))
    warm_up = k.app.warm_up

    def then_a_second() -> None:
        warm_up()
        pygame.time.set_timer(pygame.QUIT, 1000, loops=1)  # the window closes after a second
        k.app.frames = 0

    k.app.warm_up = then_a_second
    k.app.run(fps=FPS)
    assert 2 <= k.app.frames <= 12  # 10 a second, not the frame cap's 60


def test_a_tilt_over_the_attract_screen_is_shown_whole_once_and_seldom_drawn(kiosk):
    k = kiosk((1920, 1080))
    k.app.model.send(SetDoor(True))
    frame(k)
    assert k.app.tilted and k.app.scene.name == "attract"
    first = k.app.layered.full_repaints
    assert paced_second(k) <= round(1 / DIALOG_FRAME_INTERVAL) + 1
    assert k.app.layered.full_repaints == first


def test_a_still_screen_sleeps_until_input(kiosk):
    k = kiosk()
    k.app.go("table")
    k.key("6")
    k.run(1.0)
    assert frame(k) == []
    assert k.app.frame_wait(FPS) == IDLE_WAIT


def test_the_attract_frames_look_like_whole_frames(kiosk):
    k = kiosk()
    for _ in range(30):
        k.app.step(0.07)
        k.app.present()
        shown = pygame.image.tobytes(k.app.screen, "RGB")
        k.app.scene.invalidate()
        k.app.step(0)
        assert pygame.image.tobytes(k.app.screen, "RGB") == shown
