"""The operator's game recall: the last ten rounds (the last game and nine before it),
paged OLDER / NEWER, each in an attendant's words with what it paid back and its net,
its cards drawn as cards (no "Ts 8s" text)."""

from __future__ import annotations

import re

import pytest
from support.cabinet import insert_note
from support.operator_screens import OperatorScreens

from engine.uth.round import Action
from kiosk.game.commands import (
    Deal,
    Decide,
    PlaceChip,
)
from kiosk.ui.scenes.operator.rounds import RECALL


@pytest.fixture
def screens(tmp_path):
    s = OperatorScreens(tmp_path, size=(1920, 1080))
    yield s
    s.close()


def test_recall_pages_through_the_last_ten_rounds(screens):
    s = screens
    for _ in range(5):
        insert_note(s.cabinet, 10_000)
    for _ in range(RECALL + 2):
        s.cabinet.station.execute(PlaceChip("ante", 500))
        s.cabinet.station.execute(Deal())
        s.cabinet.station.execute(Decide(Action.PLAY_4X))
    s.login("975310", door=False)
    s.touch("page_recall")
    seen: list[int] = []
    for _page in range(RECALL):
        drawn = s.drawn()
        seen += [int(n) for n in re.findall(r"Round (\d+)", drawn)]
        assert not re.search(r"\b[2-9TJQKA][shdc]\b", drawn)  # cards are drawn, not spelt
        assert "You " not in drawn  # an attendant's words
        assert "PAID $" in drawn and ("+$" in drawn or "\u2212$" in drawn or "Push" in drawn)
        if not s.buttons()["older"].enabled:
            break
        s.touch("older")
    assert len(set(seen)) == RECALL == len(seen)
    assert RECALL >= 10
    s.touch("newer")
    assert s.buttons()["newer"].enabled or s.buttons()["older"].enabled


def test_the_footer_names_the_rounds_shown(tmp_path):
    s = OperatorScreens(tmp_path, size=(800, 480))
    try:
        insert_note(s.cabinet, 10_000)
        for _ in range(5):
            s.cabinet.station.execute(PlaceChip("ante", 500))
            s.cabinet.station.execute(Deal())
            s.cabinet.station.execute(Decide(Action.PLAY_4X))
        s.login("975310", door=False)
        s.touch("page_recall")
        drawn = s.drawn()
        shown = [int(n) for n in re.findall(r"^Round (\d+)", drawn, re.M)]
        assert shown == sorted(shown, reverse=True) and shown[0] == 5
        footer = re.search(r"Rounds (\d+) to (\d+) of the last (\d+)", drawn)
        assert footer is not None, drawn
        assert [int(g) for g in footer.groups()] == [shown[0], shown[-1], 5]
    finally:
        s.close()
