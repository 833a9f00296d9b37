"""Where a line of text may break: between words, and between phrases in Japanese and Thai.

Latin-script text breaks at spaces only (a no-break space, as in ``100 $``, holds).
Japanese and Thai write no spaces between words, so a run of either script is cut into
phrases (Japanese bunsetsu, Thai words) by BudouX's models -- the same small models
Chrome uses for ``word-break: auto-phrase`` -- with the Thai words its model cuts in two
joined back (:data:`kiosk.ui.thai_words.THAI_WORDS`), so a line never ends inside a word
(``チェッ/ク。``) or inside a verb and its ending (``でき/ます。``).  Japanese line-start
rules (kinsoku) still hold across phrases: nothing breaks before closing punctuation,
small kana or the prolonged sound mark, nor after opening brackets or currency signs.

The models load on first use (about 12 ms and 1.5 MB for both) and every result is kept
in a bounded cache: the screens ask about the same few hundred strings again and again.
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict
from functools import cache
from typing import Protocol

from kiosk.ui.thai_words import THAI_WORDS

ZWSP = "\u200b"

#: Characters a line may not start with (Japanese kinsoku, plus Latin closing punctuation).
NO_BREAK_BEFORE = frozenset(
    "、。，．・：；？！ー）」』】〕〉》’”)]}!?,.:;%…ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
#: Characters a line may not end with (opening brackets, currency signs).
NO_BREAK_AFTER = frozenset("（「『【〔〈《‘“([{$¥€£฿")
#: Thai leading vowels: written before the consonant they follow in speech.
THAI_LEADING = frozenset("เแโใไ")
_CACHE_LIMIT = 4000


class _Parser(Protocol):
    def parse(self, sentence: str) -> list[str]: ...


def is_mark(ch: str) -> bool:
    """A combining mark (Thai vowels above and below, tone marks): never split from its base."""
    return unicodedata.category(ch) in ("Mn", "Mc", "Me")


def is_cjk(ch: str) -> bool:
    """Kana, kanji, CJK punctuation or a full-width form."""
    o = ord(ch)
    return 0x3000 <= o <= 0x9FFF or 0xFF00 <= o <= 0xFFEF


def is_thai(ch: str) -> bool:
    return "\u0e00" <= ch <= "\u0e7f"


@cache
def _parser(script: str) -> _Parser:
    import budoux  # loaded only when Japanese or Thai text is first laid out

    if script == "ja":
        return budoux.load_default_japanese_parser()  # type: ignore[no-any-return]
    return budoux.load_default_thai_parser()  # type: ignore[no-any-return]


_units: OrderedDict[str, tuple[str, ...]] = OrderedDict()


def break_units(text: str) -> tuple[str, ...]:
    """``text`` cut into pieces that a line never breaks inside; each piece keeps the
    spaces that follow it, and the pieces joined give ``text`` back exactly.

    A zero-width space is an explicit break opportunity (kept in the piece before it)."""
    got = _units.get(text)
    if got is not None:
        _units.move_to_end(text)
        return got
    pieces: list[str] = []
    for chunk in _space_chunks(text):
        word = chunk.rstrip(" " + ZWSP)
        tail = chunk[len(word):]
        parts = _phrases(word) if word else []
        if not parts:
            parts = [""]
        parts[-1] += tail
        pieces.extend(parts)
    out = tuple(_apply_kinsoku([p for p in pieces if p]))
    _units[text] = out
    if len(_units) > _CACHE_LIMIT:
        _units.popitem(last=False)
    return out


def _space_chunks(text: str) -> list[str]:
    """Split after each run of spaces or zero-width spaces."""
    out: list[str] = []
    cur = ""
    for i, ch in enumerate(text):
        cur += ch
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch in (" ", ZWSP) and nxt not in (" ", ZWSP, ""):
            out.append(cur)
            cur = ""
    if cur:
        out.append(cur)
    return out


def _phrases(word: str) -> list[str]:
    """A space-free run cut at phrase boundaries (only where it has Japanese or Thai)."""
    if any(is_thai(c) for c in word):
        return _keep_words([p for p in _parser("th").parse(word) if p], THAI_WORDS)
    if any(is_cjk(c) for c in word):
        return [p for p in _parser("ja").parse(word) if p]
    return [word]


def _keep_words(pieces: list[str], words: frozenset[str]) -> list[str]:
    """Join the pieces where a cut between them falls inside one of ``words``."""
    text = "".join(pieces)
    inside: set[int] = set()  # cut positions inside a listed word
    for word in words:
        start = text.find(word)
        while start >= 0:
            inside.update(range(start + 1, start + len(word)))
            start = text.find(word, start + 1)
    if not inside:
        return pieces
    out: list[str] = []
    at = 0
    for p in pieces:
        if out and at in inside:
            out[-1] += p
        else:
            out.append(p)
        at += len(p)
    return out


def _apply_kinsoku(pieces: list[str]) -> list[str]:
    """Join pieces where a break would leave a forbidden line start or line end."""
    out: list[str] = []
    for p in pieces:
        if out:
            prev = out[-1]
            last = prev[-1]
            bad_start = p[0] in NO_BREAK_BEFORE or is_mark(p[0])
            bad_end = last in NO_BREAK_AFTER and last not in (" ", ZWSP)
            if (bad_start or bad_end) and last not in (" ", ZWSP):
                out[-1] = prev + p
                continue
        out.append(p)
    return out


def grapheme_cuts(text: str) -> list[int]:
    """Indices where ``text`` may be cut when one piece is wider than a whole line: between
    grapheme clusters (never before a mark nor after a Thai leading vowel), honouring the
    Japanese line-start rules where possible."""
    cuts = []
    for i in range(1, len(text)):
        ch, prev = text[i], text[i - 1]
        if is_mark(ch) or prev in THAI_LEADING:
            continue
        if ch in NO_BREAK_BEFORE or prev in NO_BREAK_AFTER:
            continue
        cuts.append(i)
    return cuts


def thai_clusters(text: str) -> list[str]:
    """Grapheme clusters of Thai text (a base and its marks; a leading vowel with its consonant)."""
    out: list[str] = []
    for ch in text:
        if out and (is_mark(ch) or out[-1][-1] in THAI_LEADING):
            out[-1] += ch
        else:
            out.append(ch)
    return out
