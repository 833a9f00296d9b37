"""What the painter drew, for the text-fit tests: every fitted text with its boxes, and
every text, panel, button and shade of a frame with where it landed on the screen.

With :attr:`kiosk.ui.widgets.Painter.log` set to a :class:`TextLog`, the painter records

* each text it *fitted* (:class:`TextBox`: the text, the boxes it could take, its sizes),
  so a test can lay every catalogue's translation into the boxes the screens use;
* each text it *drew on the screen* (:class:`DrawnText`: the rectangle of its glyphs in
  screen pixels, the point it was placed by, whether it fitted its box);
* each *frame* (:class:`Frame`): a panel or a button, the rectangle a text placed inside
  it must stay within and that a text placed outside it must not enter;
* each *shade* (a dialog's dimming of the whole screen, an overlay's box): whatever was
  drawn before under it is covered, no longer on show.

:meth:`TextLog.begin` starts a frame's record afresh.  Rectangles are ``(x, y, w, h)``
tuples in screen pixels; where a record was made from is the file and line of the
screen's code that drew it (``kiosk/ui/scenes/paytable.py:64``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

Rect = tuple[int, int, int, int]


@dataclass(frozen=True)
class TextBox:
    """One text laid into a box: the text as drawn, the boxes it may take in pixels (the
    best one is used; height ``None``: one line), the asked size and floor in pixels,
    bold, the most lines allowed (0: any number, a paragraph), whether the first box wins
    whenever it fits, and the file and line of the screen that drew it."""

    text: str
    boxes: tuple[tuple[int, int | None], ...]
    px: int
    floor: int
    bold: bool
    max_lines: int
    prefer_first: bool
    where: str


@dataclass(frozen=True)
class DrawnText:
    """One line of text on the screen: its glyphs' rectangle (``ink``), the point it was
    placed by (``anchor``, inside the frame it belongs to), its size in pixels, whether
    the fitting found room for it (``fits``), where the screen's code drew it, whether
    it is a button's key hint (small on purpose), and the size its screen asked for it
    (``asked``, pixels: the size of its role, a title's, a result line's, a button
    label's, before the fitting shrank it; 0 when not known)."""

    text: str
    ink: Rect
    anchor: tuple[int, int]
    px: int
    fits: bool
    where: str
    hint: bool = False
    asked: int = 0


@dataclass(frozen=True)
class Frame:
    """A panel or a button on the screen (``kind`` ``"panel"`` or ``"button"``)."""

    rect: Rect
    kind: str
    where: str
    label: str = ""


@dataclass
class TextLog:
    """The painter's record while it is set as :attr:`Painter.log`.

    ``boxes`` accumulates over every frame; ``texts``, ``frames`` and ``covered`` are the
    current frame's, cleared by :meth:`begin`.  ``covered`` holds what a shade covered."""

    boxes: set[TextBox] = field(default_factory=set)
    texts: list[DrawnText] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    covered: list[DrawnText | Frame] = field(default_factory=list)

    def begin(self) -> None:
        """Start a new frame's record (the fitted boxes are kept)."""
        self.texts.clear()
        self.frames.clear()
        self.covered.clear()

    def add(self, box: TextBox) -> None:
        self.boxes.add(box)

    def text(self, drawn: DrawnText) -> None:
        self.texts.append(drawn)

    def frame(self, frame: Frame) -> None:
        self.frames.append(frame)

    def shade(self, rect: Rect) -> None:
        """Everything drawn so far that meets ``rect`` is covered (a dialog's dimming)."""
        hit = [t for t in self.texts if _meets(t.ink, rect)]
        hit_frames = [f for f in self.frames if _meets(f.rect, rect)]
        self.covered.extend(hit)
        self.covered.extend(hit_frames)
        self.texts = [t for t in self.texts if not _meets(t.ink, rect)]
        self.frames = [f for f in self.frames if not _meets(f.rect, rect)]


def _meets(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def caller(skip: str) -> str:
    """``path:line`` of the first frame of the stack outside the file ``skip``."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename in (skip, __file__):
        f = f.f_back  # type: ignore[assignment]
    if f is None:
        return "?"
    name = f.f_code.co_filename
    return f"{name[name.find('kiosk/'):] if 'kiosk/' in name else name}:{f.f_lineno}"
