"""Buttons, panels, chips and meters: drawn once per look, then blitted.

A :class:`Button` is a plain record (design rectangle, label, style, what it does); scenes
make their buttons afresh from the snapshot each frame, and :class:`Painter` keeps the
surfaces, keyed by everything that changes how they look, in a cache bounded by bytes.

Every label is fitted to its box (:meth:`kiosk.ui.text.TextCache.fit`): shrunk a little,
else wrapped onto two lines between words or phrases, never below
:data:`kiosk.ui.layout.MIN_TEXT`; a button's label keeps clear of its key hint.  With
:attr:`Painter.log` set, every fitted text is recorded with its box, so a test can lay
each catalogue's translations into the boxes the screens really use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

import pygame
from pygame.typing import Point, RectLike

from kiosk.ui import theme
from kiosk.ui.layout import MIN_TEXT, Layout
from kiosk.ui.surfcache import SurfaceCache
from kiosk.ui.text import TextCache, TextFit
from kiosk.ui.textlog import DrawnText, Frame, TextBox, TextLog, caller

#: Drawn widgets kept, bytes of pixels.
WIDGET_CACHE_BYTES = 8 * 1024 * 1024
#: Rows of the dialogs' shade, of a tall panel's middle, kept (laid down the screen, the panel).
SHADE_BAND = PANEL_BAND = 64

Colour = tuple[int, int, int]
#: The space between a button's label and its sublabel, a fraction of the sublabel's size.
SUBLABEL_GAP = 0.35


class Canvas(Protocol):
    """Something to draw on: a :class:`pygame.Surface` or a :class:`DamageSurface`."""

    def blit(self, source: pygame.Surface, dest: Point | RectLike = (0, 0), area: RectLike | None = None,
             special_flags: int = 0) -> pygame.Rect: ...

    def get_size(self) -> tuple[int, int]: ...


@dataclass(frozen=True)
class Button:
    """A touch target.  ``rect`` in design units; ``label`` already translated.

    ``command`` is a command name (a ``str``, with ``arg``) or a request record that the
    scene handles by its type."""

    id: str
    rect: tuple[float, float, float, float]
    label: str
    command: object
    arg: object = None
    style: str = "plain"
    enabled: bool = True
    sublabel: str = ""
    hint: str = ""  # keyboard shortcut shown in a corner
    size: int = 30  # label size, design units
    round: bool = False  # a round button (chips)
    colour: tuple[int, int, int] | None = None  # a chip's colour


def best_fit(cache: TextCache, text: str, px: int, boxes: tuple[tuple[int, int | None], ...], *,
             bold: bool, max_lines: int, floor: int, prefer_first: bool = False) -> TextFit:
    """The choice :meth:`Painter.fit_choices` makes (also what the text-fit test replays)."""
    fits = [cache.fit(text, px, w, h, bold=bold, floor=floor, max_lines=max_lines) for w, h in boxes]
    if prefer_first and fits[0].fits:
        return fits[0]
    ok = [f for f in fits if f.fits]
    return max(ok, key=lambda f: f.px) if ok else fits[0]


class Painter:
    """Cached drawing of widgets for one :class:`Layout`."""

    def __init__(self, layout: Layout, text: TextCache, limit_bytes: int = WIDGET_CACHE_BYTES) -> None:
        self.layout = layout
        self.text = text
        self.surfaces = SurfaceCache(limit_bytes, "widgets")
        self.log: TextLog | None = None
        #: The last whole-screen shade (larger than the cache keeps): one, made once.
        self._shade: tuple[tuple, pygame.Surface] | None = None

    def _get(self, key: tuple, make) -> pygame.Surface:
        s = self.surfaces.get(key)
        if s is None:
            s = make()
            if pygame.display.get_surface() is not None:
                s = s.convert_alpha()
            self.surfaces.put(key, s)
        return s

    # -- fitting text ---------------------------------------------------------------
    def floor_px(self, px: int) -> int:
        """The smallest size a text asked at ``px`` may shrink to: 60 % of it, never below
        :data:`MIN_TEXT` (unless ``px`` itself is smaller)."""
        return min(px, max(self.layout.px(MIN_TEXT), round(px * 0.6)))

    def fit_px(self, text: str, px: int, width: int, height: int | None = None, *, bold: bool = False,
               max_lines: int = 1, floor: int | None = None) -> TextFit:
        """:meth:`TextCache.fit` in pixels with this painter's floor, recorded in :attr:`log`."""
        return self.fit_choices(text, px, ((width, height),), bold=bold, max_lines=max_lines, floor=floor)

    def fit_choices(self, text: str, px: int, boxes: tuple[tuple[int, int | None], ...], *, bold: bool = False,
                    max_lines: int = 1, floor: int | None = None, prefer_first: bool = False) -> TextFit:
        """The best of several boxes (pixels) for ``text``: the first box if it fits and
        ``prefer_first``, else the one fitting at the largest size (the earlier on a tie),
        else the first box's overflowing attempt.  Recorded in :attr:`log`."""
        floor = self.floor_px(px) if floor is None else floor
        if self.log is not None:
            self.log.add(TextBox(text, boxes, px, floor, bold, max_lines, prefer_first, caller(__file__)))
        return best_fit(self.text, text, px, boxes, bold=bold, max_lines=max_lines, floor=floor,
                        prefer_first=prefer_first)

    def fit(self, text: str, size: float, max_w: float, max_h: float | None = None, *, bold: bool = False,
            max_lines: int = 2) -> TextFit:
        """Fit ``text`` (``size`` design units) into ``max_w`` x ``max_h`` design units
        (``max_h`` ``None``: one line, wrapped only when it does not fit at the floor); the
        result is in pixels."""
        lay = self.layout
        return self.fit_px(text, lay.px(size), lay.px(max_w), None if max_h is None else lay.px(max_h),
                           bold=bold, max_lines=max_lines)

    def draw_fit(self, surface: Canvas, fit: TextFit, colour, *, bold: bool = False,
                 **anchor: tuple[float, float]) -> pygame.Rect:
        """Blit a fitted block, lines centred on each other, its bounding box anchored at a
        design point (``center=(x, y)``, ``topleft=...``); returns the block's screen rect."""
        return self._place(surface, fit, colour, bold, False, anchor)

    def _place(self, surface: Canvas, fit: TextFit, colour, bold: bool, tinted: bool,
               anchor: dict[str, tuple[float, float]]) -> pygame.Rect:
        (where, (x, y)), = anchor.items()
        point = self.layout.pos(x, y)
        if len(fit.lines) == 1:  # placed by its surface, as :meth:`label` places text
            surf = self.text.render(fit.lines[0], fit.px, colour, bold=bold, tinted=tinted)
            rect = surf.get_rect(**{where: point})
            surface.blit(surf, rect)
            self._drawn(surface, fit.lines[0], fit.px, bold, rect, point, fit.fits, asked=fit.asked)
            return rect
        lead = self.text.baseline(fit.lines[0], fit.px, bold) - fit.ascent  # font box above the ink
        block = pygame.Rect(0, 0, fit.width, fit.height + 2 * lead)
        setattr(block, where, point)
        self.blit_lines(surface, fit, colour, block, bold=bold, align=_align(where), anchor=point, tinted=tinted)
        return block

    def line_rects(self, fit: TextFit, block: pygame.Rect, *, bold: bool = False,
                   align: str = "center") -> list[tuple[str, pygame.Rect]]:
        """Where :meth:`blit_lines` puts each line of ``fit`` in ``block``: (line, the rect
        of its rendered surface), pixels."""
        out = []
        baseline = block.centery - fit.height / 2 + fit.ascent
        for line in fit.lines:
            w, h = self.text.size(line, fit.px, bold)
            y = round(baseline - self.text.baseline(line, fit.px, bold))
            r = pygame.Rect(0, y, w, h)
            if align == "left":
                r.left = block.left
            elif align == "right":
                r.right = block.right
            else:
                r.centerx = block.centerx
            out.append((line, r))
            baseline += fit.line_step
        return out

    def blit_lines(self, surface: Canvas, fit: TextFit, colour, block: pygame.Rect, *, bold: bool = False,
                   align: str = "center", keep: bool = True, anchor: tuple[int, int] | None = None,
                   tinted: bool = False) -> None:
        """Blit the lines of ``fit`` inside the screen rect ``block``, vertically centred
        (by the glyphs' ink, not the font's taller line box); ``anchor`` is the point the
        block was placed by (default its centre), for :attr:`log`."""
        for line, r in self.line_rects(fit, block, bold=bold, align=align):
            surf = self.text.render(line, fit.px, colour, bold=bold, keep=keep, tinted=tinted)
            surface.blit(surf, surf.get_rect(topleft=r.topleft))
            self._drawn(surface, line, fit.px, bold, r, anchor or block.center, fit.fits, asked=fit.asked)

    # -- the record for the text-fit tests ---------------------------------------------
    def _on_screen(self, surface: Canvas) -> bool:
        return self.log is not None and tuple(surface.get_size()) == self.layout.size

    def _drawn(self, surface: Canvas, line: str, px: int, bold: bool, rect: pygame.Rect,
               anchor: tuple[int, int], fits: bool, lang: str | None = None, hint: bool = False,
               asked: int = 0) -> None:
        """Record a line blitted at ``rect`` (its surface's rect) on the screen, drawn at
        ``px`` where its screen asked for ``asked`` pixels (0: as drawn)."""
        if self.log is None or not line.strip() or not self._on_screen(surface):
            return
        self.log.text(DrawnText(line, self.ink_rect(line, px, bold, rect, lang), anchor, px, fits,
                                caller(__file__), hint, asked or px))

    def ink_rect(self, line: str, px: int, bold: bool, rect: pygame.Rect,
                 lang: str | None = None) -> tuple[int, int, int, int]:
        """The rectangle of the glyphs of ``line`` drawn with its surface at ``rect``."""
        up, down = self.text.ink(line, px, bold, lang)
        base = rect.top + self.text.baseline(line, px, bold, lang)
        return rect.left, base - up, rect.width, up + down

    def mark(self, surface: Canvas, rect: pygame.Rect, kind: str = "panel", label: str = "") -> None:
        """Record a frame drawn on the screen at ``rect`` (pixels) by other means than
        :meth:`box` (a filled rectangle, a bar)."""
        if self._on_screen(surface) and self.log is not None:
            self.log.frame(Frame((rect.x, rect.y, rect.w, rect.h), kind, caller(__file__), label))

    def box(self, surface: Canvas, rect: pygame.Rect, colour=(0, 0, 0), alpha: int = 150, radius: int = 18,
            border: tuple[int, int, int] | None = None, border_w: int = 2) -> pygame.Rect:
        """Blit a :meth:`panel` over the screen rect ``rect``: a frame the texts placed in
        it stay within and the others keep out of.  A tall one is laid from a short panel:
        its top, its bottom, and a band of its middle (rows all alike) repeated between."""
        w, h = rect.size
        cap = self.layout.px(radius) + max(1, self.layout.px(border_w)) + 1
        if h <= 2 * cap + 2 * PANEL_BAND:
            r = surface.blit(self.panel(rect.size, colour, alpha, radius, border, border_w), rect)
        else:
            piece = self.panel((w, 2 * cap + PANEL_BAND), colour, alpha, radius, border, border_w)
            r = surface.blit(piece, rect.topleft, (0, 0, w, cap))
            for y in range(cap, h - cap, PANEL_BAND):
                band = (0, cap, w, min(PANEL_BAND, h - cap - y))
                r = r.union(surface.blit(piece, (rect.x, rect.y + y), band))
            last = (0, cap + PANEL_BAND, w, cap)
            r = r.union(surface.blit(piece, (rect.x, rect.bottom - cap), last))
        self.mark(surface, rect)
        return r

    def shade(self, surface: Canvas, alpha: int = 170, colour=(0, 0, 0)) -> None:
        """Dim the whole screen under a dialog: what was drawn before is covered (one band
        of rows kept and laid down the screen: 8 MB less than a whole shade at 1920x1080)."""
        width, height = self.layout.size
        key = (self.layout.size, tuple(colour), alpha)
        if self._shade is None or self._shade[0] != key:
            self._shade = None  # the old one goes before the new one is made
            shade = self.panel((width, min(height, SHADE_BAND)), colour, alpha, radius=0, keep=False)
            if pygame.display.get_surface() is not None:
                shade = shade.convert_alpha()  # as :meth:`_get` keeps its surfaces
            self._shade = key, shade
        band = self._shade[1]
        for y in range(0, height, band.get_height()):
            surface.blit(band, (0, y))
        if self._on_screen(surface) and self.log is not None:
            self.log.shade((0, 0, *self.layout.size))

    def forget_shade(self) -> None:
        """Free the whole-screen shade (a dialog went)."""
        self._shade = None

    # -- primitives -----------------------------------------------------------------
    def panel(self, size: tuple[int, int], colour=(0, 0, 0), alpha: int = 150, radius: int = 18,
              border: tuple[int, int, int] | None = None, border_w: int = 2, *, keep: bool = True) -> pygame.Surface:
        """A translucent rounded rectangle ``size`` pixels; ``keep=False`` draws it without
        caching (for parts of a widget that is cached whole)."""
        key = ("panel", size, colour, alpha, radius, border, border_w)

        def make() -> pygame.Surface:
            s = pygame.Surface(size, pygame.SRCALPHA)
            r = self.layout.px(radius)
            pygame.draw.rect(s, (*colour, alpha), s.get_rect(), border_radius=r)
            if border:
                pygame.draw.rect(s, border, s.get_rect(), max(1, self.layout.px(border_w)), border_radius=r)
            return s

        return self._get(key, make) if keep else make()

    def gradient_box(self, size: tuple[int, int], top, bottom, radius: int, border=None, border_w: int = 2,
                     gloss: bool = True, *, keep: bool = True) -> pygame.Surface:
        """A glossy vertical-gradient rounded box ``size`` pixels (``keep`` as for :meth:`panel`)."""
        key = ("gbox", size, top, bottom, radius, border, border_w, gloss)

        def make() -> pygame.Surface:
            w, h = size
            s = pygame.Surface(size, pygame.SRCALPHA)
            r = min(self.layout.px(radius), h // 2, w // 2)
            mask = pygame.Surface(size, pygame.SRCALPHA)
            pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=r)
            grad = theme.vertical_gradient(size, top, bottom).convert_alpha()
            grad.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            s.blit(grad, (0, 0))
            if gloss:  # a soft top highlight fading downwards
                hl = pygame.Surface((w, max(1, h // 2)), pygame.SRCALPHA)
                for y in range(hl.get_height()):
                    a = round(34 * (1 - y / max(1, hl.get_height())))
                    pygame.draw.line(hl, (255, 255, 255, a), (0, y), (w, y))
                hl.blit(mask.subsurface((0, 0, w, hl.get_height())), (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
                s.blit(hl, (0, 0))
            if border:
                pygame.draw.rect(s, border, s.get_rect(), max(1, self.layout.px(border_w)), border_radius=r)
            return s

        return self._get(key, make) if keep else make()

    # -- buttons --------------------------------------------------------------------
    def button(self, b: Button, pressed: bool = False) -> tuple[pygame.Surface, pygame.Rect]:
        rect = self.layout.rect(*b.rect)
        key = ("button", b.label, b.sublabel, b.hint, rect.size, b.style, b.enabled, pressed, b.size, b.round,
               b.colour)
        return self._get(key, lambda: self._make_button(b, rect.size, pressed)), rect

    def _make_button(self, b: Button, size: tuple[int, int], pressed: bool) -> pygame.Surface:
        w, h = size
        top, bottom, ink = theme.BUTTON_STYLES.get(b.style, theme.BUTTON_STYLES["plain"])
        if not b.enabled:
            top, bottom, ink = theme.DISABLED
        if pressed:
            top, bottom = bottom, top
        s = pygame.Surface(size, pygame.SRCALPHA)
        if b.round:
            return self._make_round(b, size, top, ink)
        shadow = self.panel((w, h), (0, 0, 0), 90, radius=16, keep=False)
        s.blit(shadow, (0, self.layout.px(3)))
        box = self.gradient_box((w, h - self.layout.px(3)), top, bottom, 16,
                                border=(255, 255, 255) if b.style == "selected" else (0, 0, 0), border_w=2,
                                keep=False)
        s.blit(box, (0, self.layout.px(3) if pressed else 0))
        face_h = h - self.layout.px(3)
        dy = self.layout.px(3) if pressed else 0
        if b.hint:
            self._draw_hint(s, b, ink, w, face_h, dy)
        if b.sublabel:
            lab, sub = self.button_fits(b, (w, h))
            lab_rect = pygame.Rect(0, 0, w, lab.height)
            sub_rect = pygame.Rect(0, 0, w, sub.height)
            gap = self._sub_gap(sub.px)
            y0 = (face_h - lab.height - sub.height - gap) / 2 + dy
            lab_rect.top, sub_rect.top = round(y0), round(y0 + lab.height + gap)
            self.blit_lines(s, lab, ink, lab_rect, bold=True, keep=False)
            self.blit_lines(s, sub, ink, sub_rect, keep=False)
        else:
            lab, block, _hint = self.label_block(b, (w, h))
            self.blit_lines(s, lab, ink, block.move(0, dy), bold=True, keep=False)
        return s

    def label_block(self, b: Button, size: tuple[int, int]) -> tuple[TextFit, pygame.Rect, pygame.Rect | None]:
        """A one-label button's fitted label, the rectangle of its glyphs and that of its key
        hint (None without one), in pixels from the button's top-left corner, unpressed."""
        w, h = size
        face_h = h - self.layout.px(3)
        (lab,) = self.button_fits(b, (w, h))
        block = pygame.Rect(0, 0, lab.width, lab.height)
        block.centerx = w // 2
        block.centery = round(self._label_centre(b, lab, w, face_h))
        hint = None
        if b.hint:
            hint = self._hint_rect(b, w, face_h)
            top = self._hint_ink_top(b, hint)
            hint = pygame.Rect(hint.left, top, hint.width, hint.bottom - top)
        return lab, block, hint

    def _hint_size(self, b: Button) -> tuple[int, int]:
        return self.text.size(b.hint, self.layout.px(15), lang="en")

    def _hint_rect(self, b: Button, w: int, face_h: int) -> pygame.Rect:
        """Where the key hint sits on a button face ``w`` x ``face_h`` (bottom right)."""
        hw, hh = self._hint_size(b)
        return pygame.Rect(w - self.layout.px(8) - hw, face_h - self.layout.px(4) - hh, hw, hh)

    def _hint_ink_top(self, b: Button, hint: pygame.Rect) -> int:
        px = self.layout.px(15)
        return hint.top + self.text.baseline(b.hint, px, lang="en") - self.text.ink(b.hint, px, lang="en")[0]

    def _draw_hint(self, s: pygame.Surface, b: Button, ink, w: int, face_h: int, dy: int) -> pygame.Rect:
        hint = self.text.render(b.hint, self.layout.px(15), ink, lang="en", keep=False)
        hint.set_alpha(150)
        r = self._hint_rect(b, w, face_h).move(0, dy)
        s.blit(hint, r)
        return r

    def _label_centre(self, b: Button, fit: TextFit, w: int, face_h: int) -> float:
        """Centred on the face; moved up only as far as needed to clear the key hint when
        the label spans the hint's column."""
        centre = face_h / 2
        if not b.hint:
            return centre
        hint = self._hint_rect(b, w, face_h)
        clear_y = self._hint_ink_top(b, hint) - self.layout.px(4)
        if w / 2 + fit.width / 2 > hint.left and centre + fit.height / 2 > clear_y:
            centre = max(fit.height / 2, clear_y - fit.height / 2)
        return centre

    def _sub_gap(self, sub_px: int) -> int:
        """Pixels between a label's and its sublabel's glyphs ("CALL" over "50")."""
        return max(2, round(sub_px * SUBLABEL_GAP))

    def button_fits(self, b: Button, size: tuple[int, int]) -> tuple[TextFit, ...]:
        """How the label (and sublabel) of ``b`` are laid at ``size`` pixels: the label on
        up to two lines, the sublabel on one; both clear of the key hint's corner."""
        w, h = size
        lay = self.layout
        face_h = h - lay.px(3)
        pad = lay.px(8)
        avail = w - 2 * pad
        px = lay.px(b.size)
        hint_w = self._hint_size(b)[0] if b.hint else 0
        if b.sublabel:
            sub_px = lay.px(max(MIN_TEXT, b.size * 0.62))
            room = face_h - 2 * lay.px(4)
            lab_h = round(room * 0.56)
            lab = self.fit_px(b.label, px, avail, lab_h, bold=True, max_lines=1)
            narrow = avail - 2 * (hint_w + lay.px(6)) if b.hint else avail
            sub = self.fit_px(b.sublabel, sub_px, max(1, narrow), room - lab.height - self._sub_gap(sub_px),
                              max_lines=1)
            return lab, sub
        room = face_h - 2 * lay.px(3)
        # centred beside the hint (full height, narrower) or above it (full width, moved up)
        boxes: tuple[tuple[int, int | None], ...] = ((avail, room),)
        if b.hint:
            hint = self._hint_rect(b, w, face_h)
            clear_y = self._hint_ink_top(b, hint) - lay.px(4)
            boxes = ((max(1, avail - 2 * (hint_w + lay.px(6))), room), (avail, max(1, clear_y - lay.px(3))))
        return (self.fit_choices(b.label, px, boxes, bold=True, max_lines=2),)

    def _make_round(self, b: Button, size, colour, ink) -> pygame.Surface:
        return self.chip_face(size, b.colour or colour, b.label, selected=b.style == "selected", enabled=b.enabled)

    def chip_face(self, size: tuple[int, int], colour, label: str, selected: bool = False,
                  enabled: bool = True) -> pygame.Surface:
        key = ("chip", size, colour, label, selected, enabled)

        def make() -> pygame.Surface:
            w, h = size
            d = min(w, h)
            ss = 3
            big = pygame.Surface((d * ss, d * ss), pygame.SRCALPHA)
            c = (d * ss) / 2
            R = c - ss
            base = colour if enabled else (90, 94, 96)
            light = (255, 255, 255) if sum(base) < 600 else (60, 60, 60)
            pygame.draw.circle(big, (0, 0, 0, 110), (c, c + 2 * ss), R)
            pygame.draw.circle(big, base, (c, c), R)
            # edge spots
            for i in range(8):
                a = i * math.pi / 4 + math.pi / 8
                x, y = c + math.cos(a) * R * 0.84, c + math.sin(a) * R * 0.84
                pygame.draw.circle(big, (*light, 230), (x, y), R * 0.12)
            pygame.draw.circle(big, (*light, 200), (c, c), R * 0.66, max(1, ss * 2))
            pygame.draw.circle(big, base, (c, c), R * 0.6)
            if selected:
                pygame.draw.circle(big, theme.WIN, (c, c), R, ss * 5)
            chip = pygame.transform.smoothscale(big, (d, d))
            ink = (255, 255, 255) if sum(base) < 600 else theme.INK
            if label:
                fit, on_plate = self.chip_fits(label, d)
                if on_plate:
                    pr = pygame.Rect(0, 0, min(d, fit.width + 4), fit.height + 4)
                    pr.center = (d // 2, d // 2)
                    pygame.draw.rect(chip, (*theme.INK, 235) if ink == (255, 255, 255) else (250, 246, 236),
                                     pr, border_radius=max(2, pr.height // 3))
                block = pygame.Rect(0, 0, fit.width, fit.height)
                block.center = (d // 2, d // 2)
                self.blit_lines(chip, fit, ink, block, bold=True, keep=False)
            out = pygame.Surface(size, pygame.SRCALPHA)
            out.blit(chip, chip.get_rect(center=(w / 2, h / 2)))
            return out

        return self._get(key, make)

    def chip_fits(self, label: str, d: int) -> tuple[TextFit, bool]:
        """How a chip ``d`` pixels wide lays ``label``: inside its inner circle if it fits
        there, else on a plate across the whole chip (True), as casinos print large values."""
        px = round(d * 0.3)
        inner = (round(d * 0.56), round(d * 0.5))
        plate = (d - 4, round(d * 0.5))
        # inside the circle at three quarters of its size at least, else on the plate
        floor = min(px, max(self.floor_px(px), round(px * 0.75)))
        fit = self.fit_choices(label, px, (inner, plate), bold=True, prefer_first=True, floor=floor)
        return fit, fit.box == plate

    def draw_buttons(self, surface: Canvas, buttons: list[Button], pressed_id: str | None = None) -> None:
        for b in buttons:
            s, r = self.button(b, pressed=b.id == pressed_id)
            surface.blit(s, r)
            if self._on_screen(surface):
                self._log_button(surface, b, r)

    def _log_button(self, surface: Canvas, b: Button, rect: pygame.Rect) -> None:
        """Record a drawn button (unpressed) as a frame and its label's lines as texts."""
        self.mark(surface, rect, "button", b.id)
        w, h = rect.size
        centre = rect.center
        placed: list[tuple[TextFit, pygame.Rect, bool]] = []
        if b.round:
            if b.label:
                d = min(w, h)
                fit, _plate = self.chip_fits(b.label, d)
                block = pygame.Rect(0, 0, fit.width, fit.height)
                block.center = centre
                placed.append((fit, block, True))
        elif b.sublabel:
            face_h = h - self.layout.px(3)
            lab, sub = self.button_fits(b, (w, h))
            gap = self._sub_gap(sub.px)
            y0 = rect.top + round((face_h - lab.height - sub.height - gap) / 2)
            placed.append((lab, pygame.Rect(rect.left, y0, w, lab.height), True))
            placed.append((sub, pygame.Rect(rect.left, y0 + lab.height + gap, w, sub.height), False))
        elif b.label:
            lab, block, _hint = self.label_block(b, (w, h))
            placed.append((lab, block.move(rect.topleft), True))
        for fit, block, bold in placed:
            for line, r in self.line_rects(fit, block, bold=bold):
                self._drawn(surface, line, fit.px, bold, r, centre, fit.fits, asked=fit.asked)
        if b.hint and not b.round:
            hint = self._hint_rect(b, w, h - self.layout.px(3)).move(rect.topleft)
            self._drawn(surface, b.hint, self.layout.px(15), False, hint, centre, True, lang="en", hint=True)

    @staticmethod
    def hit(layout: Layout, buttons: list[Button], pos: tuple[int, int]) -> Button | None:
        for b in reversed(buttons):
            if layout.rect(*b.rect).collidepoint(pos):
                return b
        return None

    # -- text helpers ---------------------------------------------------------------
    def label(self, surface: Canvas, text: str, size: float, colour, *, bold: bool = False,
              **anchor: tuple[float, float]) -> pygame.Rect:
        """Blit cached text anchored at a design point: ``label(s, "Hi", 24, WHITE, center=(640, 40))``."""
        (where, (x, y)), = anchor.items()
        surf = self.text.render(text, self.layout.px(size), colour, bold=bold)
        point = self.layout.pos(x, y)
        rect = surf.get_rect(**{where: point})
        surface.blit(surf, rect)
        self._drawn(surface, text, self.layout.px(size), bold, rect, point, True)
        return rect

    def fitted(self, surface: Canvas, text: str, size: float, colour, max_w: float, *, bold: bool = False,
               max_h: float | None = None, max_lines: int = 2, tinted: bool = False,
               **anchor: tuple[float, float]) -> pygame.Rect:
        """Like :meth:`label`, fitted to ``max_w`` design units: shrunk (not below
        :data:`MIN_TEXT`), or with ``max_h`` wrapped onto up to ``max_lines`` lines in
        ``max_w`` x ``max_h``; without ``max_h`` a text too wide even at the floor is
        wrapped too, its block growing around the anchor.  ``tinted``: a colour that
        changes from frame to frame (:meth:`TextCache.render`)."""
        fit = self.fit(text, size, max_w, max_h, bold=bold, max_lines=max_lines)
        return self._place(surface, fit, colour, bold, tinted, anchor)

    def paragraph(self, surface: Canvas, text: str, size: float, colour, x: float, y: float, w: float,
                  *, bold: bool = False, line_gap: float = 1.25) -> float:
        """Wrapped text from design ``(x, y)`` in ``w`` units wide; returns the design y below it."""
        px = self.layout.px(size)
        if self.log is not None:
            self.log.add(TextBox(text, ((self.layout.px(w), None),), px, px, bold, 0, False, caller(__file__)))
        lines = self.text.wrap(text, px, self.layout.px(w), bold)
        anchor = self.layout.pos(x, y)
        for line in lines:
            if line:
                surf = self.text.render(line, px, colour, bold=bold)
                r = surf.get_rect(topleft=self.layout.pos(x, y))
                surface.blit(surf, r)
                self._drawn(surface, line, px, bold, r, anchor, r.width <= self.layout.px(w))
            y += size * line_gap
        return y

    def column(self, surface: Canvas, paras: list[str], size: float, colour, x: float, y: float, w: float,
               h: float, *, gap: float = 8, line_gap: float = 1.25) -> float:
        """Paragraphs one under another in the design box ``(x, y, w, h)``, ``gap`` apart:
        at ``size`` when they fit its height, else at the largest smaller size that does
        (not below :data:`MIN_TEXT`); returns the design y below the last."""
        floor = min(size, MIN_TEXT)
        while size > floor and self.column_height(paras, size, w, gap=gap, line_gap=line_gap) > h:
            size = max(floor, size - 1)
        for p in paras:
            y = self.paragraph(surface, p, size, colour, x, y, w, line_gap=line_gap) + gap
        return y - gap

    def column_height(self, paras: list[str], size: float, w: float, *, gap: float = 8,
                      line_gap: float = 1.25) -> float:
        """The design height :meth:`column` takes for ``paras`` at ``size``."""
        return sum(self.paragraph_height(p, size, w, line_gap=line_gap) for p in paras) + gap * (len(paras) - 1)

    def paragraph_height(self, text: str, size: float, w: float, *, bold: bool = False, line_gap: float = 1.25) -> float:
        lines = self.text.wrap(text, self.layout.px(size), self.layout.px(w), bold)
        return len(lines) * size * line_gap


def _align(anchor: str) -> str:
    """How lines line up inside a block placed by ``anchor`` (``topleft`` -> ``left``)."""
    if anchor.endswith("left") or anchor == "x":
        return "left"
    if anchor.endswith("right"):
        return "right"
    return "center"


class DamageSurface:
    """A drawing target that remembers where it was drawn on (dirty rectangles).

    Scenes that redraw only what changed draw through this: ``blit`` and the ``rect`` /
    ``circle`` helpers record the rectangles they touch; the next frame restores the
    background under them instead of repainting the whole screen (a full-screen blit at
    1920x1080 costs more than everything else in a frame, and evicts the CPU caches)."""

    def __init__(self, real: pygame.Surface) -> None:
        self.real = real
        self.rects: list[pygame.Rect] = []

    def blit(self, source: pygame.Surface, dest: Point | RectLike = (0, 0), area: RectLike | None = None,
             special_flags: int = 0) -> pygame.Rect:
        r = self.real.blit(source, dest, area, special_flags)
        self.rects.append(r)
        return r

    def get_size(self) -> tuple[int, int]:
        return self.real.get_size()

    def rect(self, colour: Colour, rect: RectLike, width: int = 0, border_radius: int = 0) -> pygame.Rect:
        r = pygame.draw.rect(self.real, colour, rect, width, border_radius=border_radius)
        self.rects.append(r)
        return r

    def circle(self, colour: Colour, centre: Point, radius: float, width: int = 0) -> pygame.Rect:
        r = pygame.draw.circle(self.real, colour, centre, radius, width)
        self.rects.append(r)
        return r

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)
