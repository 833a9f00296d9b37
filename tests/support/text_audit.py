"""Where the texts of one drawn frame fail: a text outside the screen or its frame, a
text entering a frame it does not belong to (a panel, a button, a card), two texts on
each other, two buttons on each other, a panel over a card, a text drawn although it did
not fit its box or smaller than the screens' smallest size.

The frame is the one a :class:`kiosk.ui.textlog.TextLog` recorded (texts, panels and
buttons in screen pixels, what a dialog's shade covered left out).  A text belongs to
every frame that holds the centre of its glyphs or, well inside, its anchor (the point
it was placed by): it must stay inside them all and keep out of every other frame.  Rectangles touch without overlapping when they
share an edge; :data:`SLACK` pixels of overlap are forgiven (antialiased edges).

Imported as ``support.text_audit`` (``tests/`` is on the import path).
"""

from __future__ import annotations

from kiosk.ui.textlog import DrawnText, Frame, Rect, TextLog

#: Pixels of overlap forgiven between two rectangles.
SLACK = 1
#: How far inside a frame the point a text was placed by must be for the text to belong
#: to it, pixels: across, and at most down (a quarter of the frame's height below that).
ANCHOR_MARGIN, ANCHOR_MARGIN_Y = 3, 20


def _inside(inner: Rect, outer: Rect, slack: int = SLACK) -> bool:
    x, y, w, h = inner
    X, Y, W, H = outer
    return x >= X - slack and y >= Y - slack and x + w <= X + W + slack and y + h <= Y + H + slack


def _overlap(a: Rect, b: Rect, slack: int = SLACK) -> bool:
    return (min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > slack
            and min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > slack)


def _holds(frame: Frame, point: tuple[float, float], margin: tuple[float, float] = (0, 0)) -> bool:
    x, y, w, h = frame.rect
    mx, my = margin
    return x + mx <= point[0] <= x + w - mx and y + my <= point[1] <= y + h - my


def _belongs(t: DrawnText, frame: Frame) -> bool:
    """``t`` is meant to be inside ``frame``: its glyphs' centre is, or the point it was
    placed by is, well inside (a text placed by its corner on the frame's edge is not)."""
    x, y, w, h = t.ink
    margin = (ANCHOR_MARGIN, min(frame.rect[3] / 4, ANCHOR_MARGIN_Y))
    return _holds(frame, (x + w / 2, y + h / 2)) or _holds(frame, t.anchor, margin)


def _name(t: DrawnText) -> str:
    return f"{t.text!r} ({t.where})"


def _frame_name(f: Frame) -> str:
    return f"{f.kind} {f.label + ' ' if f.label else ''}{f.rect} ({f.where})"


def problems(log: TextLog, screen: tuple[int, int], min_px: int = 0) -> list[str]:
    """Every fault of the frame ``log`` recorded on a screen of ``screen`` pixels (a text
    other than a key hint smaller than ``min_px`` pixels is one)."""
    out: list[str] = []
    whole: Rect = (0, 0, *screen)
    texts = list({(t.text, t.ink): t for t in log.texts}.values())  # drawn twice at one place: one
    for t in texts:
        if not t.fits:
            out.append(f"{_name(t)} does not fit its box at {t.px} px")
        if t.px < min_px and not t.hint:
            out.append(f"{_name(t)} is drawn at {t.px} px, under {min_px} px")
        if not _inside(t.ink, whole, 0):
            out.append(f"{_name(t)} leaves the screen: {t.ink}")
        for f in log.frames:
            if _belongs(t, f):
                if not _inside(t.ink, f.rect):
                    out.append(f"{_name(t)} leaves its {_frame_name(f)}: {t.ink}")
            elif _overlap(t.ink, f.rect):
                out.append(f"{_name(t)} enters the {_frame_name(f)}: {t.ink}")
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if _overlap(a.ink, b.ink):
                out.append(f"{_name(a)} {a.ink} and {_name(b)} {b.ink} overlap")
    for i, f in enumerate(log.frames):  # a panel drawn over a card drawn before it
        if f.kind == "panel":
            out.extend(f"{_frame_name(f)} covers a card {c.rect}" for c in log.frames[:i]
                       if c.kind == "card" and _overlap(f.rect, c.rect))
    buttons = list({(f.rect, f.label): f for f in log.frames if f.kind == "button"}.values())
    for i, a in enumerate(buttons):
        for b in buttons[i + 1:]:
            if _overlap(a.rect, b.rect):
                out.append(f"{_frame_name(a)} and {_frame_name(b)} overlap")
    return out
