"""The screens' audit (:mod:`support.text_audit`) finds each defect it looks for in a
synthetic record that has it, and nothing in one that has none: a button under a
finger's size, a text shrunk under its role's floor, a label crowding its sublabel, an
English word on a French, Japanese or Thai screen."""

from __future__ import annotations

import pytest
from support.text_audit import english_problems, problems, touch_problems

from kiosk.ui.layout import MIN_TOUCH, Layout
from kiosk.ui.textlog import DrawnText, Frame, TextLog

SMALL = Layout((800, 480))  # scale 0.625: a finger is 53.75 px


def text(s: str, ink, px: int = 18, asked: int = 0, hint: bool = False) -> DrawnText:
    x, y, w, h = ink
    return DrawnText(s, ink, (x + w // 2, y + h // 2), px, True, "screen.py:1", hint, asked or px)


def button(rect, label: str = "b") -> Frame:
    return Frame(rect, "button", "screen.py:2", label)


def test_a_button_under_a_fingers_size_is_found_at_each_scale():
    log = TextLog(frames=[button((10, 10, 144, 35), "tab_blind"), button((200, 10, 56, 54), "ok")])
    found = touch_problems(log, MIN_TOUCH * SMALL.scale)
    assert len(found) == 1 and "tab_blind" in found[0] and "144x35" in found[0]
    big = Layout((1920, 1080))  # the same design at 1.5: 129 px
    log = TextLog(frames=[button((10, 10, 200, 120), "minus"), button((300, 10, 200, 129), "plus")])
    found = touch_problems(log, MIN_TOUCH * big.scale)
    assert len(found) == 1 and "minus" in found[0]


def test_a_text_shrunk_under_its_roles_floor_is_found():
    fold = text("Vous avez abandonné · −10,00 $", (300, 300, 180, 9), px=11, asked=19)
    win = text("PAYÉ 25,00 $ · +5,00 $", (300, 350, 150, 13), px=19, asked=19)
    found = problems(TextLog(texts=[fold, win]), (800, 480), 10)
    assert len(found) == 1 and "abandonné" in found[0] and "its role's 19 px" in found[0]
    a_little = text("ÉGALITÉ · 30,00 $ rendus", (300, 300, 180, 12), px=15, asked=19)  # 79 %: kept
    assert problems(TextLog(texts=[a_little]), (800, 480), 10) == []


def test_a_label_crowding_its_sublabel_is_found():
    call = button((456, 405, 164, 54), "call")
    label = text("SUIVRE", (505, 419, 67, 14), px=19, asked=19)
    amount = text("20", (531, 434, 14, 9), px=12, asked=12)  # 1 px under the label
    found = problems(TextLog(texts=[label, amount], frames=[call]), (800, 480), 10)
    assert len(found) == 1 and "1 px apart" in found[0] and "call" in found[0]
    apart = text("20", (531, 437, 14, 9), px=12, asked=12)  # 4 px: a third of its size
    assert problems(TextLog(texts=[label, apart], frames=[call]), (800, 480), 10) == []
    # two lines of one wrapped label (asked alike) are the label's own spacing
    two = [
        text("Toutes les 5", (170, 310, 90, 13), asked=19),
        text("mains", (195, 324, 40, 13), asked=19),
    ]
    assert problems(TextLog(texts=two, frames=[button((160, 300, 126, 54))]), (800, 480), 10) == []


@pytest.mark.parametrize(
    ("language", "shown", "english"),
    [
        ("fr", "Code incorrect. Wrong PIN.", "Wrong"),
        ("ja", "PINが違います。 Wrong PIN.", "Wrong"),
        ("th", "ล้างด้วย RAM clear", "clear"),
        ("ja", "Dealer wins", "Dealer, wins"),
    ],
)
def test_an_english_word_on_another_languages_screen_is_found(language, shown, english):
    found = english_problems(TextLog(texts=[text(shown, (10, 10, 200, 14))]), language)
    assert len(found) == 1 and found[0].endswith(f"shows English in {language}: {english}")


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("fr", "PAYÉ 25,00 $ · +5,00 $"),  # "PAYÉ" is French, not "PAY"
        ("fr", "Ante minimum 5,00 $ · Trips · table"),  # loanwords, and words French shares
        ("ja", "RTP 99.47%  ·  Trips 50-40-30-9-7-4-3 1.0"),  # loanwords and data
        ("th", "standard.toml  ·  1a0bfbb67830…  ·  http://127.0.0.1:36763/g/PQW2HG"),
        ("en", "Dealer wins"),
    ],
)
def test_loanwords_data_and_english_screens_are_not_english_defects(language, shown):
    assert english_problems(TextLog(texts=[text(shown, (10, 10, 200, 14))]), language) == []
