"""Build the cabinet's fonts in assets/fonts from the system's Noto fonts (SIL OFL 1.1).

Development tool, not needed at run time.  Needs fontTools (``pip install fonttools``)
and Debian's ``fonts-noto-core`` and ``fonts-noto-cjk``::

    apt-get install fonts-noto-core fonts-noto-cjk
    python assets/tools/build_fonts.py

* ``NotoSansUTH-{Regular,Bold}.ttf``: Noto Sans subset to Latin (Basic, Latin-1,
  Extended-A, punctuation, currency, arrows) merged with the whole Thai block of Noto
  Sans Thai -- English, French and Thai in one font, so mixed text ("$10 ชนะ") shapes in
  one run -- plus a few arrows and symbols from Noto Sans Math and Noto Sans Symbols 2.
  All have 1000 units per em, so fontTools.merge can join them.
* ``NotoSansJPUTH-{Regular,Bold}.otf``: Noto Sans CJK JP subset to Latin, all kana, CJK
  punctuation, full-width forms and the kanji used by the Japanese catalogue.

Re-run after changing the Japanese catalogue; the tests fail on any missing glyph.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "assets" / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto")

LATIN = [
    *range(0x20, 0x7F), *range(0xA0, 0x180), *range(0x2010, 0x2050), *range(0x2070, 0x20C1),
    *range(0x2190, 0x2195), 0x2212, 0x2022, 0x25CF, 0x25B2, 0x25B6, 0x25BC, 0x25C0, 0x2713, 0x00D7, 0x2715,
    0x23CE, 0x2026, 0x2192, 0x2190, 0x21B5, 0x02C6, 0x02DC,
]
THAI = [*range(0x0E01, 0x0E5C), 0x25CC]
SYMBOLS = [0x25B6, 0x25C0, 0x2713, 0x25CF, 0x2715]  # from Noto Sans Symbols 2 (regular only)
ARROWS = [0x2190, 0x2191, 0x2192, 0x2193, 0x2212]  # from Noto Sans Math
KANA = [*range(0x3000, 0x3100), *range(0x30A0, 0x3100), *range(0xFF01, 0xFF66)]


def _options() -> subset.Options:
    opts = subset.Options()
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.glyph_names = False
    opts.hinting = True
    return opts


def _subset(font: TTFont, unicodes: list[int]) -> TTFont:
    s = subset.Subsetter(_options())
    s.populate(unicodes=sorted(set(unicodes)))
    s.subset(font)
    return font


def _rename(font: TTFont, family: str, style: str) -> None:
    """Name the derived font apart from the original (good practice for modified OFL fonts)."""
    name = font["name"]
    full = f"{family} {style}"
    ps = f"{family.replace(' ', '')}-{style}"
    for rec in list(name.names):
        if rec.nameID in (1, 16):
            name.setName(family, rec.nameID, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID in (4,):
            name.setName(full, rec.nameID, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 6:
            name.setName(ps, rec.nameID, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 3:
            name.setName(f"{ps};uth-cabinet subset", rec.nameID, rec.platformID, rec.platEncID, rec.langID)


def catalogue_chars(lang: str) -> set[int]:
    sys.path.insert(0, str(ROOT))
    from kiosk.ui.catalogues import po_path, read_po

    _header, entries = read_po(po_path(lang))
    chars: set[int] = set()
    for e in entries:
        chars.update(ord(c) for c in e.msgstr)
    return chars


def build_latin_thai(style: str) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        lat = _subset(TTFont(NOTO / f"NotoSans-{style}.ttf"), LATIN)
        thai = _subset(TTFont(NOTO / f"NotoSansThai-{style}.ttf"), THAI + [0x20, 0x2D, 0x2E])
        sym = _subset(TTFont(NOTO / "NotoSansSymbols2-Regular.ttf"), SYMBOLS)
        math_font = TTFont(NOTO / "NotoSansMath-Regular.ttf")
        if "MATH" in math_font:
            del math_font["MATH"]
        arrows = _subset(math_font, ARROWS)
        # the first font wins where two map the same character: Latin, then Thai, symbols, arrows
        paths = []
        for name, font in (("lat", lat), ("thai", thai), ("sym", sym), ("arrows", arrows)):
            path = Path(tmp) / f"{name}.ttf"
            font.save(path)
            paths.append(str(path))
        merged = Merger().merge(paths)
    _rename(merged, "Noto Sans UTH", style)
    out = OUT / f"NotoSansUTH-{style}.ttf"
    merged.save(out)
    return out


def build_jp(style: str) -> Path:
    chars = catalogue_chars("ja") | set(LATIN) | set(KANA)
    font = TTFont(CJK / f"NotoSansCJK-{style}.ttc", fontNumber=0)  # 0 = Noto Sans CJK JP
    _subset(font, sorted(chars))
    _rename(font, "Noto Sans JP UTH", style)
    out = OUT / f"NotoSansJPUTH-{style}.otf"
    font.save(out)
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for style in ("Regular", "Bold"):
        for path in (build_latin_thai(style), build_jp(style)):
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
