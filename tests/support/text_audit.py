"""Where the texts of one drawn frame fail: a text outside the screen or its frame, a
text entering a frame it does not belong to (a panel, a button, a card), two texts on
each other, two buttons on each other, a panel over a card, a text drawn although it did
not fit its box or smaller than the screens' smallest size; a text shrunk below the
floor of its role (:data:`ROLE_FLOOR` of the size its screen asked for it), a button's
label crowding its sublabel, a button smaller than a finger (:func:`touch_problems`),
an English word on another language's screen (:func:`english_problems`).

The frame is the one a :class:`kiosk.ui.textlog.TextLog` recorded (texts, panels and
buttons in screen pixels, what a dialog's shade covered left out).  A text belongs to
every frame that holds the centre of its glyphs or, well inside, its anchor (the point
it was placed by): it must stay inside them all and keep out of every other frame.  Rectangles touch without overlapping when they
share an edge; :data:`SLACK` pixels of overlap are forgiven (antialiased edges).

Imported as ``support.text_audit`` (``tests/`` is on the import path).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from kiosk.ui.textlog import DrawnText, Frame, Rect, TextLog

#: Pixels of overlap forgiven between two rectangles.
SLACK = 1
#: How far inside a frame the point a text was placed by must be for the text to belong
#: to it, pixels: across, and at most down (a quarter of the frame's height below that).
ANCHOR_MARGIN, ANCHOR_MARGIN_Y = 3, 20
#: The smallest share of the size its screen asked that a text may be drawn at: its
#: role's floor.  The painter shrinks a text down to 60 % as a last resort to keep it
#: whole; below 70 % a result line asked at 30 design units reads as small print beside
#: the others drawn at their size (a text that long wraps onto a second line instead).
ROLE_FLOOR = 0.7
#: The least space between a button's label and its sublabel's glyphs, a share of the
#: sublabel's size ("CALL" over "50", a name over "Normal").
SUBLABEL_GAP = 0.25
#: Pixels forgiven under the touch minimum: a design rectangle rounds to whole pixels.
TOUCH_ROUNDING = 1


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
        if t.px < ROLE_FLOOR * t.asked and not t.hint:
            out.append(f"{_name(t)} is drawn at {t.px} px, under {ROLE_FLOOR:.0%} of its role's {t.asked} px")
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
    for f in buttons:  # a label over a sublabel (asked at another size), too close
        inside = [t for t in texts if not t.hint and _inside(t.ink, f.rect) and _belongs(t, f)]
        for a in inside:
            for b in inside:
                if a.asked > b.asked and _overlap_x(a.ink, b.ink):
                    gap = max(b.ink[1] - (a.ink[1] + a.ink[3]), a.ink[1] - (b.ink[1] + b.ink[3]))
                    if gap < SUBLABEL_GAP * b.px:
                        out.append(f"{_name(a)} {a.ink} and {_name(b)} {b.ink} on {_frame_name(f)} are "
                                   f"{gap} px apart, under {SUBLABEL_GAP:.0%} of {b.px} px")
    return out


def _overlap_x(a: Rect, b: Rect) -> bool:
    return min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0])


def touch_problems(log: TextLog, min_touch_px: float) -> list[str]:
    """Every button of the frame ``log`` recorded narrower or lower than ``min_touch_px``
    pixels (:data:`kiosk.ui.layout.MIN_TOUCH` at the screen's scale: a finger's target)."""
    buttons = {(f.rect, f.label): f for f in log.frames if f.kind == "button"}.values()
    return [f"{_frame_name(f)} is {f.rect[2]}x{f.rect[3]} px, under the {min_touch_px:.1f} px of a finger"
            for f in buttons if min(f.rect[2], f.rect[3]) < min_touch_px - TOUCH_ROUNDING]


#: Latin-script words another language's screens may show, beside digits and currency
#: (words written with a digit, a slash, a dot, an @ or an underscore are data: amounts,
#: codes, hashes, file names, addresses).  Each is the game's or the trade's own name:
#: the bets' names printed on the felt and in every paytable's name (Ante, Blind, Trips,
#: Play), the regulator's and the hardware's abbreviations (RTP, PAR, PIN, RAM, SHA, USB,
#: ID, JSON, TOML, UTC, AI), the poker statistics' (VPIP, BB, SB), the keys' names
#: printed on a keyboard (Esc, Enter, Space, Backspace), each language's own name in the
#: language picker (English, Français) and the demo configuration's names (its casino
#: "Demo Casino", its paytables' names "Standard", "custom", its operator "manager",
#: the computer players' names).
LOANWORDS = frozenset({
    "ante", "blind", "trips", "play", "rtp", "par", "pin", "ram", "sha", "usb", "id", "json", "toml", "utc",
    "ai", "vpip", "bb", "sb", "esc", "enter", "space", "backspace", "english", "français", "demo", "casino",
    "standard", "custom", "manager", "ike", "max", "rosa", "jules", "nina", "kenji", "sofia",
})
LOCALE = Path(__file__).resolve().parents[2] / "kiosk" / "locale"
_DATA = re.compile(r"[\d/_.@:]")


@cache
def vocabulary(language: str) -> frozenset[str]:
    """The words (lower case, two letters or more) of the catalogue of ``language``: its
    msgids for ``"en"`` (the program's English), else its translations."""
    from babel.messages.pofile import read_po

    with (LOCALE / ("fr" if language == "en" else language) / "LC_MESSAGES" / "uth.po").open("rb") as f:
        catalogue = read_po(f)
    words: set[str] = set()
    for m in catalogue:
        if not m.id:
            continue
        texts = m.id if language == "en" else m.string
        for text in texts if isinstance(texts, tuple) else (texts,):
            words |= {w.lower() for w in re.findall(r"[^\W\d_]{2,}", re.sub(r"\{[^}]*\}", "", text or ""))}
    return frozenset(words)


def english_words(text: str, language: str, english: frozenset[str], own: frozenset[str]) -> list[str]:
    """The English words of ``text`` shown in ``language``: words of the program's English
    (``english``) that are neither loanwords nor, in a Latin-script language, words of
    its own catalogue (``own``: French shares "table", "ticket", "minimum")."""
    found = []
    for token in text.split():
        if _DATA.search(token):
            continue
        for word in re.findall(r"[^\W\d_]{2,}", token):  # whole words: "PAYÉ" is no "PAY"
            w = word.lower()
            if w.isascii() and w in english and w not in LOANWORDS and w not in own:
                found.append(word)
    return found


def english_problems(log: TextLog, language: str) -> list[str]:
    """Every text of the frame ``log`` recorded that shows an English word on a screen in
    ``language`` (none in English)."""
    if language == "en":
        return []
    english = vocabulary("en")
    own = vocabulary(language) if language in ("fr",) else frozenset()
    out = []
    for t in {(t.text, t.ink): t for t in log.texts}.values():
        words = [] if t.hint else english_words(t.text, language, english, own)
        if words:
            out.append(f"{_name(t)} shows English in {language}: {', '.join(words)}")
    return out
