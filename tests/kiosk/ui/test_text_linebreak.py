"""Lines break between words and phrases: never inside a Japanese or Thai word."""

from __future__ import annotations

import pygame
import pytest

from kiosk.ui import i18n
from kiosk.ui.linebreak import break_units
from kiosk.ui.text import TextCache


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
    assert break_units("ฟูลเฮาส์") == ("ฟูล", "เฮาส์")  # full | house, not ฟู|ลเฮาส์


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
