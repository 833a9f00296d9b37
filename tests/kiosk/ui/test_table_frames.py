"""The table's frames: a frame repaints and shows only what changed (dirty rectangles),
and every such partial frame looks exactly like the same frame painted from nothing."""

from __future__ import annotations

import pygame
import pytest
from test_ui import STRAIGHT, WIN, Kiosk

from engine.uth.round import Action
from kiosk.game.snapshot import MachinePhase
from kiosk.ui import i18n
from kiosk.ui.events import Command
from kiosk.ui.scenes.table.compositor import Recorder, changed_rects, merge


@pytest.fixture
def table(tmp_path):
    """A kiosk on the table screen with $100 in, at 1280x720."""
    made: list[Kiosk] = []

    def make(*decks, size=(1280, 720)) -> Kiosk:
        k = Kiosk(tmp_path / f"k{len(made)}", size, *decks)
        made.append(k)
        k.app.go("table")
        k.key("6", "6")
        k.run(0.5)
        return k

    yield make
    for k in made:
        k.close()
    i18n.set_language("en")


def area(rects: list[pygame.Rect] | None, size: tuple[int, int]) -> int:
    """Pixels shown by a frame (``None``: the whole screen)."""
    return size[0] * size[1] if rects is None else sum(r.w * r.h for r in merge(rects))


def same_as_whole(k: Kiosk) -> bool:
    """The screen shows what the table's frame painted from nothing shows."""
    whole = k.app.screen.copy()
    k.app.scenes["table"].draw_whole(whole)
    return pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(k.app.screen, "RGB")


def frame(k: Kiosk) -> list[pygame.Rect] | None:
    k.app.step(1 / 60)
    k.app.present()
    return k.app.dirty


def test_an_unchanging_table_shows_no_rectangles(table):
    k = table()
    k.key("a")  # an Ante on the spot: nothing blinks, nothing moves
    for _ in range(3):
        frame(k)
    for _ in range(60):
        assert frame(k) == []
        assert k.app.scenes["table"].compositor.base_area == 0
    assert same_as_whole(k)


def test_the_blinking_ante_ring_repaints_only_its_spot(table):
    k = table()  # credits and no Ante: the Ante ring blinks
    size = k.app.layout.size
    shown = [area(frame(k), size) for _ in range(120)]
    assert all(a < 0.02 * size[0] * size[1] for a in shown), max(shown)
    assert sum(1 for a in shown if a) >= 2  # the ring came and went
    assert same_as_whole(k)


def test_a_button_press_repaints_the_button_not_the_screen(table):
    k = table()
    frame(k)
    k.app.feed(Command("chip", "ante"))  # an Ante: the spot, the meters, the prompt and DEAL change
    shown = frame(k)
    assert shown is not None
    assert 0 < area(shown, k.app.layout.size) < 0.35 * k.size[0] * k.size[1]
    assert same_as_whole(k)


@pytest.mark.heavy
@pytest.mark.parametrize("deck", [WIN, STRAIGHT], ids=["win", "straight"])
def test_every_frame_of_a_round_equals_the_frame_painted_whole(table, deck):
    """From the deal through the cards flying and turning, the decisions, the reveal and
    the settlement show (chips swept, the win counting, a celebration), to the next bet."""
    k = table(deck)
    k.key("a")
    k.app.feed(Command("deal"))
    seen: set[MachinePhase] = set()
    partial = 0
    for _ in range(900):
        snap = k.app.model.snap
        busy = k.app.scenes["table"].busy
        if snap.phase is MachinePhase.IN_ROUND and not busy and snap.legal:
            k.app.feed(Command("check" if Action.CHECK in snap.legal else "play_max"))
        elif snap.phase is MachinePhase.RESULT and not busy:
            break
        partial += frame(k) is not None
        seen.add(snap.phase)
        assert same_as_whole(k), (
            f"frame {k.app.frames} in {snap.phase} differs from the whole frame"
        )
    assert MachinePhase.RESULT in seen and k.snap.last_result is not None
    assert partial > 0.9 * k.app.frames - 60  # full repaints are the exception


def test_a_dialog_over_the_table_and_its_closing_look_whole(table):
    k = table()
    for name in ("cashout", "language"):
        k.app.feed(Command(name))
        frame(k)
        assert same_as_whole(k)
        k.app.feed(Command("close_popup"))
        frame(k)
        frame(k)
        assert same_as_whole(k)
    assert k.app.scenes["table"].popup is None


def test_changed_rects_are_the_operations_that_differ():
    a, b, c = (pygame.Surface((10, 10)) for _ in range(3))
    old, new = Recorder((100, 100)), Recorder((100, 100))
    for rec, third in ((old, b), (new, c)):
        rec.blit(a, (0, 0))
        rec.blit(third, (50, 50))
        rec.rect((1, 2, 3), (20, 0, 5, 5))
    assert changed_rects(old.ops, new.ops) == [pygame.Rect(50, 50, 10, 10)]
    assert changed_rects(old.ops, old.ops) == []
    moved = Recorder((100, 100))
    moved.blit(a, (95, 95))  # clipped to the surface
    assert changed_rects(old.ops[:1], moved.ops) == [
        pygame.Rect(0, 0, 10, 10),
        pygame.Rect(95, 95, 5, 5),
    ]
    swapped = Recorder((100, 100))
    swapped.rect((1, 2, 3), (20, 0, 5, 5))
    swapped.blit(a, (0, 0))
    swapped.blit(b, (50, 50))
    assert changed_rects(old.ops, swapped.ops) is None  # the same things in another order
