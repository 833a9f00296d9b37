"""Frames that cost what changes: a display list repainted where it differs, and a
dialog laid over a scene that is drawn once, and a scene that paints its whole picture
drawn only when what it shows changes.

:class:`DisplayList` runs a scene's drawing against a
:class:`~kiosk.ui.scenes.table.compositor.Recorder` (blits and rectangles, recorded, not
drawn), compares the operations with the last frame's and replays, clipped, only the
rectangles where they differ: an animation costs the pixels it moves, a still screen
costs nothing.  :class:`Layered` keeps the scene under a dialog (the tilt overlay, the
RAM-clear notice) on a surface of its own, so the dialog is laid out once and each frame
shows only what changed beneath it or in it.  Both give the same pixels as drawing the
whole frame in order: every operation touching a repainted rectangle is replayed there,
in its order.  :class:`Still` draws a scene that paints its whole picture (the
operator menu, the pays, the help) only when its look (:meth:`Scene.look
<kiosk.ui.scenes.base.Scene.look>`) or the host's state changes; between, the screen
keeps the last picture and the frame changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol

import pygame

from kiosk.ui.scenes.table.compositor import MERGE_SHARE, Op, Recorder, changed_rects, merge, replay

Paint = Callable[[Any], None]


def _spread(regions: list[pygame.Rect] | None, size: tuple[int, int]) -> list[pygame.Rect] | None:
    """``regions``, or None (all of it) when they cover most of a screen ``size``."""
    if regions is None or sum(r.w * r.h for r in regions) > MERGE_SHARE * size[0] * size[1]:
        return None
    return regions


def _replay(target: pygame.Surface, ops: list[Op], regions: list[pygame.Rect] | None) -> None:
    if regions is None:
        for op in ops:
            replay(target, op)
        return
    for r in regions:
        target.set_clip(r)
        for op in ops:
            if op[2].colliderect(r):
                replay(target, op)
    target.set_clip(None)


class DisplayList:
    """One scene's picture as the operations that drew it (see the module's text).

    A picture may come in two parts: ``still`` painted first, recorded once and kept
    while its ``still_key`` stays the same (the background, the titles, the buttons),
    and ``paint`` recorded every frame (what moves); a frame compares only the moving
    part with the last frame's.  The moving part must be painted after the still part
    in the picture's own order."""

    def __init__(self) -> None:
        self._ops: list[Op] | None = None
        self._target: pygame.Surface | None = None
        self._still: list[Op] = []
        self._still_key: Hashable = None
        self.full_repaints = 0

    def invalidate(self) -> None:
        """The next :meth:`draw` paints the whole picture, recorded again: the last
        picture's operations and target are let go (they hold the surfaces they blit,
        such as the host's felt or the surface under a dialog)."""
        self._ops = self._target = None
        self._still, self._still_key = [], None

    def draw(
        self,
        target: pygame.Surface,
        paint: Paint,
        still: Paint | None = None,
        still_key: Hashable = None,
    ) -> list[pygame.Rect] | None:
        """Paint ``paint``'s picture (over ``still``'s, see the class) on ``target``
        where it changed; the rectangles repainted (None: all of it)."""
        size = target.get_size()
        whole = self._ops is None or self._target is not target
        kept = self._still
        now = kept
        if still is None:
            now = []
        elif whole or still_key is None or still_key != self._still_key:
            recorder = Recorder(size)
            still(recorder)
            now = recorder.ops
        recorder = Recorder(size)
        paint(recorder)
        ops = recorder.ops
        regions = None
        if not whole and self._ops is not None:
            moved = changed_rects(self._ops, ops)
            redone = [] if now is kept else changed_rects(kept, now)
            if moved is not None and redone is not None:
                regions = _spread(merge(moved + redone), size)
        if regions is None:
            self.full_repaints += 1
        _replay(target, now, regions)
        _replay(target, ops, regions)
        self._ops, self._target = ops, target
        self._still, self._still_key = now, still_key
        return regions


class Dialog(Protocol):
    def draw(self, surface: pygame.Surface) -> None: ...


class Layered:
    """A dialog over the current scene, the scene drawn on a surface of its own.

    The scene keeps drawing as it does on the screen (its own dirty rectangles), on
    :attr:`under`; the dialog is recorded only when its ``signature()`` (what it shows)
    changes, or every frame while the painter keeps a record for the text tests.  A frame
    copies to the screen the rectangles changed under the dialog or in it and replays
    the dialog there.  :attr:`full_repaints` counts the frames shown whole."""

    def __init__(self) -> None:
        self.under: pygame.Surface | None = None
        self._scene: object = None
        self._dialog: object = None
        self._sig: Hashable = None
        self._ops: list[Op] | None = None
        self.full_repaints = 0

    @property
    def active(self) -> bool:
        return self.under is not None

    def release(self) -> None:
        """The dialog is gone: free the scene's surface."""
        self.under = None
        self._scene = self._dialog = self._sig = self._ops = None

    def draw(
        self, screen: pygame.Surface, scene: Any, dialog: Dialog, *, record: bool = False
    ) -> list[pygame.Rect] | None:
        """Show one frame of ``dialog`` over ``scene`` on ``screen``; the rectangles
        changed (None: all of it).  ``record``: lay the dialog out again (the painter's
        record is on)."""
        size = screen.get_size()
        if self.under is None or self.under.get_size() != size or scene is not self._scene:
            if self.under is None or self.under.get_size() != size:
                self.under = screen.copy()
            scene.invalidate()
            self._scene, self._ops = scene, None
        if dialog is not self._dialog:
            self._dialog, self._ops = dialog, None
        scene.draw(self.under)
        below = scene.dirty
        signature = getattr(dialog, "signature", None)
        sig: Hashable = object() if record or signature is None else signature()
        above: list[pygame.Rect] | None = []
        if self._ops is None or sig != self._sig:
            recorder = Recorder(size)
            dialog.draw(recorder)  # type: ignore[arg-type]
            above = None if self._ops is None else changed_rects(self._ops, recorder.ops)
            self._ops, self._sig = recorder.ops, sig
        regions = None if below is None or above is None else _spread(merge(below + above), size)
        if regions is None:
            self.full_repaints += 1
            screen.blit(self.under, (0, 0))
        else:
            for r in regions:
                screen.blit(self.under, r, r)
        _replay(screen, self._ops, regions)
        return regions


class Still:
    """A scene that paints its whole picture each time it draws, drawn only when what it
    shows changes.

    ``host()`` is what every scene shows besides its own look (the machine's snapshot
    version, the language, the input fed so far...); ``record()`` is True while the
    painter keeps a record for the text tests (every frame is then drawn).  A frame draws
    the scene when its :meth:`look` is None (it changes every frame or keeps its own
    dirty rectangles), when the look or the host's state changed since the last drawing,
    or after :meth:`invalidate` (or the scene's own); else it draws nothing and :attr:`dirty` is ``[]``.
    :attr:`full_repaints` counts the whole pictures drawn."""

    def __init__(
        self, scene: Any, host: Callable[[], Hashable], record: Callable[[], bool]
    ) -> None:
        self.scene = scene
        self._host = host
        self._record = record
        self._shown: Hashable = None
        self._target: pygame.Surface | None = None
        self.dirty: list[pygame.Rect] | None = None
        self.full_repaints = 0

    def invalidate(self) -> None:
        """The next :meth:`draw` draws the scene whole (the last target let go)."""
        self._shown = self._target = None
        self.scene.invalidate()

    def draw(self, surface: pygame.Surface) -> None:
        look = self.scene.look()
        shown = (
            None
            if look is None or self._record()
            else (self._host(), look, self.scene.invalidations)
        )
        if shown is not None and shown == self._shown and surface is self._target:
            self.dirty = []
            return
        self.scene.draw(surface)
        self.dirty = self.scene.dirty
        if self.dirty is None:
            self.full_repaints += 1
        self._shown, self._target = shown, surface
