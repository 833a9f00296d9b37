"""Fonts and cached text surfaces.

Fonts live in ``assets/fonts`` (Noto, SIL Open Font License; see ``assets/fonts/README``):

* ``NotoSansUTH-*.ttf`` -- Noto Sans (Latin) merged with Noto Sans Thai, for English,
  French and Thai.  Thai is shaped by HarfBuzz inside SDL_ttf (pygame-ce 2.5 ships SDL_ttf
  2.24 built with it): tone marks stack above upper vowels and move left of tall
  consonants.  Thai fonts also get ``set_script("Thai")``.
* ``NotoSansJPUTH-*.otf`` -- Noto Sans CJK JP subset to Latin, kana and the kanji the
  catalogues use, for Japanese.

Rendering text is the slowest thing a frame can do, so every surface is cached by
(text, size, colour, weight, language) and drawn again by blitting; the cache is bounded
by the bytes of its pixels (:class:`kiosk.ui.surfcache.SurfaceCache`).  Lines break
between words, and between phrases in Japanese and Thai (:mod:`kiosk.ui.linebreak`).

:meth:`TextCache.fit` lays a text into a box: one line at the asked size, else one line
shrunk a little, else up to ``max_lines`` lines, else smaller, never below a floor; the
:class:`TextFit` it returns says whether the text fits the box at all.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pygame

from kiosk.ui import i18n
from kiosk.ui.linebreak import ZWSP, break_units, grapheme_cuts, is_mark, thai_clusters
from kiosk.ui.surfcache import SurfaceCache

#: The colour tinted text is made from (:meth:`TextCache.render`).
WHITE = (255, 255, 255)
#: Texts whose tinted surfaces are kept (each two surfaces of its size).
TINTS_KEPT = 4
ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"
FONT_DIR = ASSETS / "fonts"
FONT_FILES: dict[str, dict[bool, Path]] = {
    "latin": {False: FONT_DIR / "NotoSansUTH-Regular.ttf", True: FONT_DIR / "NotoSansUTH-Bold.ttf"},
    "jp": {False: FONT_DIR / "NotoSansJPUTH-Regular.otf", True: FONT_DIR / "NotoSansJPUTH-Bold.otf"},
}
FAMILY_FOR_LANG = {"en": "latin", "fr": "latin", "th": "latin", "ja": "jp"}
__all__ = ["FAMILY_FOR_LANG", "FONT_FILES", "ZWSP", "Fonts", "TextCache", "TextFit", "thai_clusters"]

#: Rendered text kept, bytes of pixels (about 75 labels of 400x50 at 1920x1080; a language
#: change and the operator menu closing let it all go).
TEXT_CACHE_BYTES = 6 * 1024 * 1024
#: Font objects kept (a new one takes 0.05 ms, 0.5 ms for the Japanese font).
FONT_LIMIT = 24
#: Baselines of wrapped lines are this many times the font size apart (Thai: room for
#: marks stacked above and below).
LINE_STEP = 1.22
THAI_LINE_STEP = 1.5
#: Shrinking one line below this share of the asked size is worse than wrapping it.
SHRINK_BEFORE_WRAP = 0.8


class Fonts:
    """pygame Font objects by (family, pixel size, bold), created on first use; the
    least recently used dropped past ``limit`` (each holds its own FreeType face and
    glyph cache, 0.15-0.3 MB, and fitting a label tries many sizes)."""

    def __init__(self, limit: int = FONT_LIMIT) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.limit = limit
        self._fonts: OrderedDict[tuple[str, int, bool, bool], pygame.font.Font] = OrderedDict()
        self._coverage: dict[str, dict[str, bool]] = {"latin": {}, "jp": {}}
        self._notdef: dict[str, tuple[tuple, bytes]] = {}

    def get(self, family: str, px: int, bold: bool = False, thai: bool = False) -> pygame.font.Font:
        key = (family, px, bold, thai)
        f = self._fonts.get(key)
        if f is not None:
            self._fonts.move_to_end(key)
        else:
            f = pygame.font.Font(str(FONT_FILES[family][bold]), max(4, px))
            if thai:
                try:
                    f.set_script("Thai")
                except (pygame.error, AttributeError):  # SDL_ttf without HarfBuzz
                    pass
            self._fonts[key] = f
            if len(self._fonts) > self.limit:
                self._fonts.popitem(last=False)
        return f

    def covers(self, family: str, text: str) -> bool:
        """True when ``family`` has a glyph for every character of ``text``."""
        cov = self._coverage[family]
        probe = None
        for ch in text:
            ok = cov.get(ch)
            if ok is None:
                if probe is None:
                    probe = self.get(family, 16)
                if ch.isspace() or is_mark(ch) or ch == ZWSP:
                    ok = True
                else:
                    ok = self._has_glyph(family, probe, ch)
                cov[ch] = ok
            if not ok:
                return False
        return True

    def _has_glyph(self, family: str, font: pygame.font.Font, ch: str) -> bool:
        """SDL_ttf draws a missing character as the font's .notdef box (and ``metrics``
        reports the box), so compare the drawing with that of a surely missing character."""
        if family not in self._notdef:
            box = font.render("\U000FFFFD", True, (255, 255, 255), (0, 0, 0))
            self._notdef[family] = (box.get_size(), pygame.image.tobytes(box, "RGB"))
        m = font.metrics(ch)
        if not m or m[0] is None:
            return False
        img = font.render(ch, True, (255, 255, 255), (0, 0, 0))
        size, data = self._notdef[family]
        return not (img.get_size() == size and pygame.image.tobytes(img, "RGB") == data)

    def missing(self, family: str, text: str) -> list[str]:
        return [ch for ch in text if not self.covers(family, ch)]

    def family_for(self, text: str, lang: str) -> str:
        family = FAMILY_FOR_LANG.get(lang, "latin")
        if self.covers(family, text):
            return family
        other = "jp" if family == "latin" else "latin"
        return other if self.covers(other, text) else family


@dataclass(frozen=True)
class TextFit:
    """How a text is laid into a box of ``box`` pixels (height ``None``: one line's worth).

    ``px`` is the font size chosen and ``lines`` the lines at that size; ``width`` is the
    widest line and ``height`` the height of the block's ink (the first line's highest
    glyph to the last line's lowest), baselines ``line_step`` apart and the first one
    ``ascent`` below the block's top, all in pixels.  ``fits`` is False when even ``floor`` px, wrapped into
    ``max_lines`` lines, overflows the box: the caller's box is too small for the text.
    ``asked`` is the size the text was asked at, before any shrinking (0: not known)."""

    text: str
    px: int
    lines: tuple[str, ...]
    width: int
    height: int
    line_step: int
    ascent: int
    box: tuple[int, int | None]
    fits: bool
    asked: int = 0


class TextCache:
    """Rendered text surfaces, least recently used dropped past ``limit_bytes`` of pixels."""

    def __init__(self, fonts: Fonts | None = None, limit_bytes: int = TEXT_CACHE_BYTES) -> None:
        self.fonts = fonts or Fonts()
        self.surfaces = SurfaceCache(limit_bytes, "text")
        self._wraps: OrderedDict[tuple, list[str]] = OrderedDict()
        self._fits: OrderedDict[tuple, TextFit] = OrderedDict()
        self._fit_px: OrderedDict[tuple, int] = OrderedDict()
        self.renders = 0  # how many surfaces were actually rendered (for the benchmark)
        self._tints: OrderedDict[int, list[Any]] = OrderedDict()

    def font(self, text: str, px: int, bold: bool = False, lang: str | None = None) -> pygame.font.Font:
        lang = lang or i18n.language()
        family = self.fonts.family_for(text, lang)
        return self.fonts.get(family, px, bold, thai=lang == "th" and family == "latin")

    def render(self, text: str, px: int, colour: tuple[int, int, int], bold: bool = False,
               lang: str | None = None, *, keep: bool = True, tinted: bool = False) -> pygame.Surface:
        """``text`` drawn at ``px`` pixels; kept for the next call unless ``keep`` is False
        (text drawn into a surface that is itself cached, such as a button).  ``tinted``:
        a colour that changes from frame to frame, made (not kept) from the text's white
        rendering (kept) multiplied by it: the same pixels, since blended text is its
        colour at every pixel with the glyphs' coverage in alpha, without laying the
        glyphs out again."""
        lang = lang or i18n.language()
        if tinted and tuple(colour) != WHITE:
            return self._tint(self.render(text, px, WHITE, bold, lang), colour)
        key = (text, px, colour, bold, lang)
        surf = self.surfaces.get(key)
        if surf is not None:
            return surf
        clean = text.replace(ZWSP, "")
        font = self.font(clean, px, bold, lang)
        surf = font.render(clean or " ", True, colour)
        if pygame.display.get_surface() is not None:
            surf = surf.convert_alpha()  # the display's pixel format: blits without conversion
        self.renders += 1
        return self.surfaces.put(key, surf) if keep else surf

    def _tint(self, white: pygame.Surface, colour: tuple[int, int, int]) -> pygame.Surface:
        """``white`` (a white rendering) multiplied by ``colour``, on one of two surfaces
        kept for it, taken in turn: a new surface each frame would be mapped and unmapped
        by the C heap (page faults at every frame), and two make the surfaces of two
        frames in a row differ by identity as their colours do.  Valid until the second
        next call for the same text."""
        kept = self._tints.get(id(white))
        if kept is None or kept[0] is not white:
            kept = [white, white.copy(), white.copy(), 0]
            self._tints[id(white)] = kept
            while len(self._tints) > TINTS_KEPT:
                self._tints.popitem(last=False)
        kept[3] ^= 1
        tint: pygame.Surface = kept[1 + kept[3]]
        tint.fill((0, 0, 0, 0))
        tint.blit(white, (0, 0), special_flags=pygame.BLEND_RGBA_ADD)  # an exact copy
        tint.fill(colour, special_flags=pygame.BLEND_RGB_MULT)
        return tint

    def size(self, text: str, px: int, bold: bool = False, lang: str | None = None) -> tuple[int, int]:
        clean = text.replace(ZWSP, "")
        return self.font(clean, px, bold, lang).size(clean or " ")

    def line_height(self, text: str, px: int, bold: bool = False, lang: str | None = None) -> int:
        """The height of one line of ``text`` at ``px`` (the font's ascent plus descent)."""
        return self.font(text.replace(ZWSP, ""), px, bold, lang).get_height()

    def fit_px(self, text: str, px: int, max_width: int, bold: bool = False, min_px: int = 8) -> int:
        """The largest size <= ``px`` at which ``text`` fits ``max_width`` pixels on one line
        (``min_px`` when none does; cached)."""
        key = (text, px, max_width, bold, min_px, i18n.language())
        got = self._fit_px.get(key)
        if got is not None:
            return got
        size = px
        while size > min_px and self.size(text, size, bold)[0] > max_width:
            size = max(min_px, min(size - 1, int(size * 0.92)))
        _remember(self._fit_px, key, size)
        return size

    def fit(self, text: str, px: int, width: int, height: int | None = None, *, bold: bool = False,
            floor: int | None = None, max_lines: int = 2, lang: str | None = None) -> TextFit:
        """Lay ``text`` into ``width`` x ``height`` pixels, starting from ``px``.

        One line at ``px`` if it fits; else, size by size down to ``floor`` (default: 60 %
        of ``px``): one line if that is still at least 80 % of ``px``, else up to
        ``max_lines`` lines broken between words or phrases, else one line.  A line never
        breaks inside a word.  ``height`` ``None`` means the box holds one line at ``px``:
        the text then wraps (onto up to ``max_lines`` lines, the block growing) only when
        one line does not fit even at ``floor``."""
        lang = lang or i18n.language()
        floor = min(px, max(1, round(px * 0.6)) if floor is None else floor)
        key = (text, px, width, height, bold, floor, max_lines, lang)
        got = self._fits.get(key)
        if got is not None:
            return got
        up, down = self.ink("Hg" + text, px, bold, lang)
        box_h = height if height is not None else up + down
        result: TextFit | None = None
        for size in _sizes(px, floor):
            one = self._layout(text, size, text.split("\n"), bold, lang, width, box_h)
            if one.fits and (size >= px * SHRINK_BEFORE_WRAP or max_lines < 2):
                result = one
                break
            if max_lines > 1 and height is not None:
                lines = self.wrap(text, size, width, bold, lang, split_words=False)
                if len(lines) <= max_lines:
                    many = self._layout(text, size, lines, bold, lang, width, box_h)
                    if many.fits:
                        result = many
                        break
            if one.fits:
                result = one
                break
        if result is None and height is None and max_lines > 1:  # a line box: wrap as a last resort
            for size in _sizes(px, floor):
                lines = self.wrap(text, size, width, bold, lang, split_words=False)
                many = self._layout(text, size, lines, bold, lang, width, 1 << 30)
                if len(lines) <= max_lines and many.fits:
                    result = many
                    break
        if result is None:  # overflows even at the floor: the widest honest attempt
            lines = self.wrap(text, floor, width, bold, lang, split_words=False) if max_lines > 1 else [text]
            result = replace(self._layout(text, floor, lines, bold, lang, width, box_h), fits=False)
        result = replace(result, box=(width, height), asked=px)
        _remember(self._fits, key, result)
        return result

    def ink(self, text: str, px: int, bold: bool = False, lang: str | None = None) -> tuple[int, int]:
        """How far the glyphs of ``text`` reach above and below the baseline, pixels (the
        font's own line box is far taller: the Thai marks' room is reserved in it)."""
        clean = text.replace(ZWSP, "").replace("\n", "")
        font = self.font(clean, px, bold, lang)
        up = down = 0
        for m in font.metrics(clean) or ():
            if m is not None:
                up, down = max(up, m[3]), max(down, -m[2])
        return up, down

    def _layout(self, text: str, px: int, lines: list[str], bold: bool, lang: str, width: int,
                box_h: int) -> TextFit:
        up, down = self.ink("".join(lines), px, bold, lang)
        thai = any("\u0e00" <= ch <= "\u0e7f" for ch in text)
        step = max(1, round(px * (THAI_LINE_STEP if thai else LINE_STEP)))
        widest = max((self.size(line, px, bold, lang)[0] for line in lines), default=0)
        total = up + down + step * (len(lines) - 1)
        fits = widest <= width and total <= box_h
        return TextFit(text, px, tuple(lines), widest, total, step, up, (width, box_h), fits)

    def baseline(self, text: str, px: int, bold: bool = False, lang: str | None = None) -> int:
        """The baseline's distance from the top of a surface :meth:`render` makes."""
        return self.font(text.replace(ZWSP, ""), px, bold, lang).get_ascent()

    def wrap(self, text: str, px: int, width: int, bold: bool = False, lang: str | None = None,
             *, split_words: bool = True) -> list[str]:
        """Lines of ``text`` that fit ``width`` pixels (explicit newlines kept), broken
        between words and phrases.  A word wider than a whole line is cut between grapheme
        clusters when ``split_words`` (else it stays whole, wider than ``width``)."""
        lang = lang or i18n.language()
        key = (text, px, width, bold, lang, split_words)
        got = self._wraps.get(key)
        if got is not None:
            return got
        lines: list[str] = []
        for para in text.split("\n"):
            lines.extend(self._wrap_para(para, px, width, bold, lang, split_words))
        _remember(self._wraps, key, lines)
        return lines

    def _fits_line(self, s: str, px: int, width: int, bold: bool, lang: str) -> bool:
        return self.size(s.strip(), px, bold, lang)[0] <= width

    def _wrap_para(self, para: str, px: int, width: int, bold: bool, lang: str, split_words: bool) -> list[str]:
        if not para:
            return [""]
        lines: list[str] = []
        cur = ""
        for tok in break_units(para):
            cand = cur + tok
            if not cur or self._fits_line(cand, px, width, bold, lang):
                cur = cand
                continue
            lines.append(_clean(cur))
            cur = tok.lstrip()
            while split_words and cur and not self._fits_line(cur, px, width, bold, lang):
                cut = self._longest_prefix(cur, px, width, bold, lang)
                if cut <= 0:
                    break
                lines.append(cur[:cut])
                cur = cur[cut:]
        if cur.strip():
            lines.append(_clean(cur))
        return lines

    def _longest_prefix(self, s: str, px: int, width: int, bold: bool, lang: str) -> int:
        """The longest cut of a too-wide word that fits ``width`` (at least one cluster)."""
        cuts = grapheme_cuts(s) or list(range(1, len(s)))
        best = cuts[0] if cuts else 0
        for c in cuts:
            if self._fits_line(s[:c], px, width, bold, lang):
                best = c
            else:
                break
        return best


def _clean(line: str) -> str:
    return line.strip().replace(ZWSP, "")


def _sizes(px: int, floor: int) -> list[int]:
    """``px`` down to ``floor``, about 8 % apart (one pixel apart at small sizes)."""
    out = [px]
    while out[-1] > floor:
        out.append(max(floor, min(out[-1] - 1, int(out[-1] * 0.92))))
    return out


def _remember(cache: OrderedDict, key: tuple, value: object, limit: int = 4000) -> None:
    cache[key] = value
    if len(cache) > limit:
        cache.popitem(last=False)
