"""One definition of a round's result (won, lost, pushed: everything paid back against
everything staked, Trips included) read by both the Games meters and the operator's game
recall: over a session of scripted rounds (a win, a loss, main bets pushed with Trips
lost, a push, a fold, a fold whose Trips paid more than was lost, and dealers who do not
qualify with Trips lost and won), the meters' counts equal recall's words."""

from __future__ import annotations

from collections import Counter

from support.cabinet import insert_note
from support.operator_screens import OperatorScreens
from test_ui import LOSE, NO_QUALIFY, PUSH, WIN, ScriptedDeck, deck

from engine.uth.round import Action
from kiosk.game.commands import (
    Deal,
    Decide,
    PlaceChip,
)
from kiosk.ledger.meters import round_result
from kiosk.ui.round_words import RESULT_WORDS
from kiosk.ui.scenes.operator.meters import meter_groups

FOLD_TRIPS_WON = deck("7c 7d", "As Ad", "7h Ks 5c 3d 8h")  # a set of sevens, folded anyway
NO_QUALIFY_TRIPS_WON = deck("As Ad", "7c 2d", "Ah 9s 5c 3d Kh")  # aces three times: Trips 3:1

CHECK_CHECK = (Action.CHECK, Action.CHECK)
#: (deck, Trips bet, the player's decisions, the expected result)
SESSION = (
    (WIN, False, (Action.PLAY_4X,), "won"),
    (LOSE, False, (*CHECK_CHECK, Action.PLAY_1X), "lost"),
    (PUSH, True, (Action.CHECK, Action.PLAY_2X), "lost"),  # main bets push, Trips lost
    (PUSH, False, (Action.CHECK, Action.PLAY_2X), "pushed"),
    (LOSE, True, (*CHECK_CHECK, Action.FOLD), "lost"),
    (FOLD_TRIPS_WON, True, (*CHECK_CHECK, Action.FOLD), "won"),
    (NO_QUALIFY, True, (Action.PLAY_4X,), "won"),  # Trips lost, Play paid
    (NO_QUALIFY_TRIPS_WON, True, (Action.PLAY_4X,), "won"),
)


def test_the_result_is_judged_on_all_bets():
    assert round_result(staked=1500, paid=1500) == "pushed"
    assert round_result(staked=2000, paid=1500) == "lost"  # main bets pushed, Trips lost
    assert round_result(staked=1500, paid=0, jackpot=2000) == "won"


def test_meters_count_what_recall_says(tmp_path):
    s = OperatorScreens(tmp_path, size=(1920, 1080), rng=ScriptedDeck(*(d for d, *_ in SESSION)))
    try:
        for _ in range(3):
            insert_note(s.cabinet, 10_000)
        for _deck, trips, decisions, _result in SESSION:
            s.cabinet.station.execute(PlaceChip("ante", 500))
            if trips:
                s.cabinet.station.execute(PlaceChip("trips", 500))
            s.cabinet.station.execute(Deal())
            for action in decisions:
                s.cabinet.station.execute(Decide(action))
        meters = s.cabinet.table.read(lambda a: a.meters())
        (games,) = [g for g in meter_groups(meters, str) if g.title == "Games"]
        counted = {
            line.label: line.count for line in games.lines if line.label in RESULT_WORDS.values()
        }
        expected = Counter(result for *_, result in SESSION)
        assert counted == {RESULT_WORDS[r]: expected[r] for r in RESULT_WORDS}

        s.login("975310", door=False)
        s.touch("page_recall")
        said: Counter[str] = Counter()
        seen: set[str] = set()
        while True:
            for line in s.drawn().splitlines():
                if line.startswith("Round ") and line not in seen:
                    seen.add(line)
                    said.update(w for w in RESULT_WORDS.values() if line.endswith(w))
            if not s.buttons()["older"].enabled:
                break
            s.touch("older")
        assert len(seen) == len(SESSION)
        assert said == Counter(counted)
    finally:
        s.close()
