"""Fonts and cached text surfaces.

Fonts live in ``assets/fonts`` (Noto, SIL Open Font License; see ``assets/fonts/README``):

* ``NotoSansUTH-*.ttf`` -- Noto Sans (Latin) merged with Noto Sans Thai, for English,
  French and Thai.  Thai is shaped by HarfBuzz inside SDL_ttf (pygame-ce 2.5 ships SDL_ttf
  2.24 built with it): tone marks stack above upper vowels and move left of tall
  consonants.  Thai fonts also get ``set_script("Thai")``.
* ``NotoSansJPUTH-*.otf`` -- Noto Sans CJK JP subset to Latin, kana and the kanji the
  catalogues use, for Japanese.

Rendering text is the slowest thing a frame can do, so every surface is cached by
(text, size, colour, weight, language) and drawn again by blitting.  Wrapping is cached
too.  Thai has no spaces between words: lines break at spaces (clause boundaries),
then at grapheme clusters; Japanese breaks between characters except before closing
and after opening punctuation.
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict
from pathlib import Path

import pygame

from kiosk.ui import i18n

ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"
FONT_DIR = ASSETS / "fonts"
FONT_FILES: dict[str, dict[bool, Path]] = {
    "latin": {False: FONT_DIR / "NotoSansUTH-Regular.ttf", True: FONT_DIR / "NotoSansUTH-Bold.ttf"},
    "jp": {False: FONT_DIR / "NotoSansJPUTH-Regular.otf", True: FONT_DIR / "NotoSansJPUTH-Bold.otf"},
}
FAMILY_FOR_LANG = {"en": "latin", "fr": "latin", "th": "latin", "ja": "jp"}
ZWSP = "\u200b"

_NO_BREAK_BEFORE = set("、。，．・：；？！ー）」』】〕〉》’”)]}!?,.:;%…ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
_NO_BREAK_AFTER = set("（「『【〔〈《‘“([{$¥€£฿")
_THAI_LEADING = set("เแโใไ")


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Mc", "Me")


def _cjk(ch: str) -> bool:
    o = ord(ch)
    return 0x3000 <= o <= 0x9FFF or 0xFF00 <= o <= 0xFFEF


class Fonts:
    """pygame Font objects by (family, pixel size, bold), created on first use."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[str, int, bool, bool], pygame.font.Font] = {}
        self._coverage: dict[str, dict[str, bool]] = {"latin": {}, "jp": {}}
        self._notdef: dict[str, tuple[tuple, bytes]] = {}

    def get(self, family: str, px: int, bold: bool = False, thai: bool = False) -> pygame.font.Font:
        key = (family, px, bold, thai)
        f = self._fonts.get(key)
        if f is None:
            f = pygame.font.Font(str(FONT_FILES[family][bold]), max(4, px))
            if thai:
                try:
                    f.set_script("Thai")
                except (pygame.error, AttributeError):  # SDL_ttf without HarfBuzz
                    pass
            self._fonts[key] = f
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
                if ch.isspace() or _is_mark(ch) or ch == ZWSP:
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


class TextCache:
    """Rendered text surfaces, least recently used dropped past ``limit``."""

    def __init__(self, fonts: Fonts | None = None, limit: int = 3000) -> None:
        self.fonts = fonts or Fonts()
        self.limit = limit
        self._cache: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._wraps: OrderedDict[tuple, list[str]] = OrderedDict()
        self._fits_cache: dict[tuple, int] = {}
        self.renders = 0  # how many surfaces were actually rendered (for the benchmark)

    def font(self, text: str, px: int, bold: bool = False, lang: str | None = None) -> pygame.font.Font:
        lang = lang or i18n.language()
        family = self.fonts.family_for(text, lang)
        return self.fonts.get(family, px, bold, thai=lang == "th" and family == "latin")

    def render(self, text: str, px: int, colour: tuple[int, int, int], bold: bool = False,
               lang: str | None = None) -> pygame.Surface:
        lang = lang or i18n.language()
        key = (text, px, colour, bold, lang)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        clean = text.replace(ZWSP, "")
        font = self.font(clean, px, bold, lang)
        surf = font.render(clean or " ", True, colour)
        if pygame.display.get_surface() is not None:
            surf = surf.convert_alpha()  # the display's pixel format: blits without conversion
        self.renders += 1
        self._cache[key] = surf
        if len(self._cache) > self.limit:
            self._cache.popitem(last=False)
        return surf

    def size(self, text: str, px: int, bold: bool = False, lang: str | None = None) -> tuple[int, int]:
        clean = text.replace(ZWSP, "")
        return self.font(clean, px, bold, lang).size(clean or " ")

    def fit_px(self, text: str, px: int, max_width: int, bold: bool = False, min_px: int = 8) -> int:
        """The largest size <= ``px`` at which ``text`` fits ``max_width`` pixels (cached)."""
        key = (text, px, max_width, bold, i18n.language())
        got = self._fits_cache.get(key)
        if got is not None:
            return got
        start = px
        while px > min_px and self.size(text, px, bold)[0] > max_width:
            px = max(min_px, int(px * 0.92))
        if len(self._fits_cache) > 4000:
            self._fits_cache.clear()
        self._fits_cache[(text, start, max_width, bold, i18n.language())] = px
        return px

    def wrap(self, text: str, px: int, width: int, bold: bool = False, lang: str | None = None) -> list[str]:
        """Lines of ``text`` that fit ``width`` pixels (explicit newlines kept)."""
        lang = lang or i18n.language()
        key = (text, px, width, bold, lang)
        got = self._wraps.get(key)
        if got is not None:
            return got
        lines: list[str] = []
        for para in text.split("\n"):
            lines.extend(self._wrap_para(para, px, width, bold, lang))
        self._wraps[key] = lines
        if len(self._wraps) > 500:
            self._wraps.popitem(last=False)
        return lines

    def _fits(self, s: str, px: int, width: int, bold: bool, lang: str) -> bool:
        return self.size(s.strip(), px, bold, lang)[0] <= width

    def _wrap_para(self, para: str, px: int, width: int, bold: bool, lang: str) -> list[str]:
        if not para:
            return [""]
        tokens = _break_opportunities(para)
        lines: list[str] = []
        cur = ""
        for tok in tokens:
            cand = cur + tok
            if not cur or self._fits(cand, px, width, bold, lang):
                cur = cand
                continue
            lines.append(cur.strip().replace(ZWSP, ""))
            cur = tok.lstrip()
            while cur and not self._fits(cur, px, width, bold, lang):  # one token too long
                cut = len(cur) - 1
                while cut > 1 and not self._fits(cur[:cut], px, width, bold, lang):
                    cut -= 1
                while cut > 1 and (_is_mark(cur[cut]) or cur[cut - 1] in _THAI_LEADING):
                    cut -= 1
                lines.append(cur[:cut])
                cur = cur[cut:]
        if cur.strip():
            lines.append(cur.strip().replace(ZWSP, ""))
        return lines


def _break_opportunities(text: str) -> list[str]:
    """Split ``text`` into unbreakable pieces; each piece keeps its trailing space."""
    pieces: list[str] = []
    cur = ""
    for i, ch in enumerate(text):
        cur += ch
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if not nxt:
            break
        if ch == " " or ch == ZWSP:
            if nxt != " ":
                pieces.append(cur)
                cur = ""
            continue
        if _cjk(ch) or _cjk(nxt):
            if nxt in _NO_BREAK_BEFORE or ch in _NO_BREAK_AFTER or _is_mark(nxt) or nxt == " ":
                continue
            if (ch.isascii() and ch.isalnum()) or (nxt.isascii() and nxt.isalnum()):
                continue  # keep "4倍", "$10から" together
            pieces.append(cur)
            cur = ""
    if cur:
        pieces.append(cur)
    return pieces


def thai_clusters(text: str) -> list[str]:
    """Grapheme clusters of Thai text (a base and its marks; a leading vowel with its consonant)."""
    out: list[str] = []
    for ch in text:
        if out and (_is_mark(ch) or out[-1][-1] in _THAI_LEADING):
            out[-1] += ch
        else:
            out.append(ch)
    return out
