"""Lines break between words and phrases: never inside a Japanese or Thai word."""

from __future__ import annotations

import ctypes
import ctypes.util
import re

import pygame
import pytest

from kiosk.ui import i18n
from kiosk.ui.catalogues import po_path, read_po
from kiosk.ui.linebreak import break_units
from kiosk.ui.text import TextCache

#: Where libthai's longest-match segmentation itself goes wrong on the cabinet's texts
#: (ทุกคน|ใช้ read as คนใช้ "servant", การเล่น|ตัวต่อตัว as เล่นตัว, ในมือ|สองใบ as มือสอง,
#: รอ|ให้|การจ่าย as ให้การ "testify", โฮลด์|จริง|อยู่ as ...ง|อ...).
LIBTHAI_MISREADS = frozenset({"คนใช้", "เล่นตัว", "มือสอง", "สีน้ำ", "ข้าวหลาม", "ให้การ", "งอ"})


class ThaiDictionary:
    """libthai's word breaker and its dictionary (the C libraries, through ctypes)."""

    def __init__(self) -> None:
        thai = ctypes.CDLL(ctypes.util.find_library("thai") or "libthai.so.0")
        trie = ctypes.CDLL(ctypes.util.find_library("datrie") or "libdatrie.so.1")
        thai.th_brk_new.restype = ctypes.c_void_p
        thai.th_brk_new.argtypes = [ctypes.c_char_p]
        thai.th_brk_find_breaks.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int),
                                           ctypes.c_size_t]
        trie.trie_new_from_file.restype = ctypes.c_void_p
        trie.trie_new_from_file.argtypes = [ctypes.c_char_p]
        trie.trie_retrieve.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_void_p]
        self.thai, self.trie = thai, trie
        self.brk = thai.th_brk_new(None)
        self.words = trie.trie_new_from_file(b"/usr/share/libthai/thbrk.tri")
        if not self.brk or not self.words:
            raise OSError("libthai's dictionary is not installed")

    def breaks(self, run: str) -> set[int]:
        data = run.encode("tis-620")
        pos = (ctypes.c_int * (len(data) + 1))()
        n = self.thai.th_brk_find_breaks(self.brk, data, pos, len(data) + 1)
        return {pos[i] for i in range(n)}

    def known(self, word: str) -> bool:
        key = (ctypes.c_uint32 * (len(word) + 1))(*(ord(c) for c in word), 0)
        return bool(self.trie.trie_retrieve(self.words, key, None))


@pytest.fixture(scope="module")
def thai_dictionary():
    try:
        return ThaiDictionary()
    except OSError as exc:
        pytest.skip(f"libthai is not installed (Debian: libthai0): {exc}")


@pytest.fixture(scope="module")
def cache():
    pygame.font.init()
    return TextCache()


@pytest.fixture(autouse=True)
def english():
    yield
    i18n.set_language("en")


def test_japanese_breaks_by_phrase():
    assert break_units("アンティの4倍か3倍でプレイ、またはチェック。") == (
        "アンティの", "4倍か", "3倍で", "プレイ、", "または", "チェック。")
    assert break_units("ベットしてください。同額でディールもできます。")[-1] == "できます。"


def test_thai_breaks_between_words():
    units = break_units("กดแจกไพ่เมื่อพร้อม วางเดิมพันแล้วกดแจกไพ่")
    assert "".join(units) == "กดแจกไพ่เมื่อพร้อม วางเดิมพันแล้วกดแจกไพ่"
    assert "พร้อม " in units and "เดิมพัน" in units
    assert break_units("ฟูลเฮาส์") == ("ฟูลเฮาส์",)  # a full house: one word, never ฟู|ลเฮาส์
    # BudouX alone cuts "except" (ยก|เว้น) and "win" (ช|นะ): they stay whole
    units = break_units("จะได้อันเต้คืนไม่ว่าจะชนะหรือแพ้ (ยกเว้นหมอบ)")
    assert "ชนะ" in units and "อันเต้" in units and units[-1] == "(ยกเว้นหมอบ)"


def test_latin_breaks_at_spaces_only():
    assert break_units("100\u00a0$ to win") == ("100\u00a0$ ", "to ", "win")


@pytest.mark.parametrize("width", [120, 150, 180, 220, 260])
def test_no_japanese_line_ends_inside_a_word(cache, width):
    i18n.set_language("ja")
    for text, words in (("アンティの4倍か3倍でプレイ、またはチェック。", ("チェック", "プレイ")),
                        ("ベットしてください。同額でディールもできます。", ("できます", "ディール"))):
        lines = cache.wrap(text, 20, width)
        assert "".join(lines) == text
        assert all(not line.startswith(("。", "、", "ク", "ます")) for line in lines), lines
        for word in words:
            assert any(word in line for line in lines), (word, lines)


def test_a_fitted_label_never_breaks_inside_a_word(cache):
    i18n.set_language("fr")
    fit = cache.fit("REMISER ET DISTRIBUER", 21, 113, 44, bold=True, floor=10)
    assert fit.fits and fit.lines == ("REMISER ET", "DISTRIBUER")
    i18n.set_language("ja")
    fit = cache.fit("アンティの4倍か3倍でプレイ、またはチェック。", 19, 240, 60, floor=11)
    assert fit.fits and all(line.endswith(("、", "。", "は", "で", "か", "の")) for line in fit.lines), fit.lines


def test_no_thai_message_breaks_inside_a_dictionary_word(thai_dictionary):
    """Every break the screens may make in a Thai text falls between words of libthai's
    dictionary: none inside ยกเว้น, ชนะ, บันทึก..."""
    cut_words: dict[str, str] = {}
    for entry in read_po(po_path("th"))[1]:
        for run in re.findall(r"[\u0e00-\u0e7f]+", entry.msgstr):
            words = thai_dictionary.breaks(run) | {0, len(run)}
            at = 0
            for unit in break_units(run)[:-1]:
                at += len(unit)
                if at in words:
                    continue
                lo, hi = max(p for p in words if p < at), min(p for p in words if p > at)
                word = run[lo:hi]
                if thai_dictionary.known(word) and word not in LIBTHAI_MISREADS:
                    cut_words[word] = entry.msgstr
    assert cut_words == {}, "\n".join(f"{w}: {m}" for w, m in cut_words.items())


def test_the_games_thai_words_are_never_cut():
    cat = {e.msgid: e.msgstr for e in read_po(po_path("th"))[1] if e.msgstr}
    for msgid in ("Ante", "Blind", "Play", "Trips", "Flop", "River", "Royal flush", "Straight flush",
                  "Four of a kind", "Full house", "Flush", "Straight", "High card", "Settings", "History",
                  "Rules", "All in"):
        thai = cat[msgid]
        for word in thai.split():
            assert break_units(word) == (word,), (msgid, thai, break_units(word))
