"""The tournament around the rules, through the app's input events: choosing a table, the
guide in every language, the player's name and icon (records and the saved game belong to
it), the deck and the speaker, and four bugs once seen on screen -- false side pots, Play
again after a resumed game, the records chart at 1920x1080, the passing note after a
language switch.  Screenshots go to test-artifacts/screens/tournament-guide/ (gitignored)."""

from __future__ import annotations

import pygame
import pytest
from test_tournament_ui import SHOTS, SIZES, Cabinet, copy_files

from engine.holdem.blinds import TABLES
from kiosk.friends.seat.local import LocalSeat
from kiosk.tournament.settings import TABLE_ORDER
from kiosk.ui import i18n
from kiosk.ui.raise_range import RaiseRange
from kiosk.ui.scenes.intents import Nav
from kiosk.ui.scenes.tournament.guide import PAGES, table_page

MY_SHOTS = SHOTS / "tournament-guide"


def middle_pots(s) -> tuple[int, ...]:
    """The pots in the middle of the table as its screen shows them (the seat port's view)."""
    v = LocalSeat(s).view()
    return v.middle if v is not None else ()


@pytest.fixture
def cabinet(tmp_path):
    made: list[Cabinet] = []

    def make(folder: str = "c", **kwargs) -> Cabinet:
        c = Cabinet(tmp_path / folder, **kwargs)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()
    i18n.set_language("en")


class DrawnText:
    """Every text the painter fits on the screen during one frame, with where it went."""

    def __init__(self, c: Cabinet, monkeypatch) -> None:
        self.items: list[tuple[str, pygame.Rect]] = []
        painter = c.app.painter
        real = painter.fitted

        def spy(surface, text, *args, **kwargs):
            rect = real(surface, text, *args, **kwargs)
            self.items.append((text, rect))
            return rect

        monkeypatch.setattr(painter, "fitted", spy)
        self.c = c

    def frame(self) -> list[tuple[str, pygame.Rect]]:
        self.items = []
        self.c.scene.invalidate()
        self.c.app.step(1 / 60)
        return list(self.items)

    def texts(self) -> list[str]:
        return [t for t, _r in self.frame()]


def shot(c: Cabinet, name: str) -> None:
    c.scene.invalidate()
    c.app.step(1 / 60)
    c.app.screenshot(MY_SHOTS / f"{name}_{c.size[0]}x{c.size[1]}.png")


# -- choosing a table ------------------------------------------------------------------------------
def test_every_table_is_chosen_from_the_list_and_drives_the_setup(cabinet):
    c = cabinet()
    c.run(0.1)
    c.touch("tournament_tables")
    assert c.scene.name == "tournament_tables"
    assert [b.id for b in c.scene.buttons() if b.id.startswith("table_")] == [f"table_{k}" for k in TABLE_ORDER]
    for key in ("turbo", "deep", "steady", "heads_up", "classic"):
        c.touch(f"table_{key}")
        c.touch("next")
        assert c.scene.name == "tournament_setup"
        spec = TABLES[key]
        s = c.ctx.settings
        assert s.table_key() == key
        assert (s.starting_chips, s.starting_level, s.hands_per_level) == (
            spec.starting_chips, spec.starting_level, spec.hands_per_level)
        ids = {b.id: b for b in c.scene.buttons()}
        assert ids[f"chips_{spec.starting_chips}"].style == "selected"
        assert ids[f"players_{s.players}"].style == "selected"
        c.touch("choose_table")
        assert c.scene.name == "tournament_tables" and c.scene.chosen == key
    c.touch("table_turbo")
    c.touch("next")
    c.touch("players_3")  # Turbo takes 2 to 6 players: still Turbo
    assert c.ctx.settings.table_key() == "turbo"
    c.touch("speed_fast")
    c.touch("start")
    assert c.session.t.config.table == "turbo" and c.session.t.n_seats == 3
    c.key("m", "m")
    c.touch("menu_abandon")
    c.touch("confirm_abandon")
    c.touch("tournament")
    c.touch("chips_5000")  # not Turbo's chips any more: Custom, never guessed as another table
    assert c.ctx.settings.table_key() == "custom"
    c.touch("chips_1000")  # Turbo's values again, by hand: still Custom
    c.touch("blinds_4")
    c.touch("increase_5")
    assert c.ctx.settings.table_key() == "custom"


def test_about_this_table_opens_its_page_of_the_guide_and_back(cabinet):
    c = cabinet()
    c.run(0.1)
    c.touch("tournament")
    c.touch("about")
    assert c.scene.name == "tournament_guide" and c.scene.page == table_page("seed003")
    c.key("escape")
    assert c.scene.name == "tournament_setup"
    c.touch("choose_table")
    c.touch("table_deep")
    c.touch("next")
    c.touch("about")
    assert c.scene.page == table_page("deep")
    c.touch("back")
    assert c.scene.name == "tournament_setup" and c.ctx.settings.table_key() == "deep"


# -- the guide ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_guide_reads_in_every_language_from_the_title_setup_and_menu(cabinet, monkeypatch, language):
    c = cabinet(language=language)
    drawn = DrawnText(c, monkeypatch)
    c.run(0.1)
    c.touch("tournament_guide")  # the title screen
    assert c.scene.name == "tournament_guide" and c.scene.page == 0
    english = set()
    i18n.set_language("en")
    for _ in PAGES:
        english.update(drawn.texts())
        c.scene.on_intent(Nav.NEXT)
    i18n.set_language(language)
    c.scene.page = 0
    seen: list[str] = []
    for n in range(len(PAGES)):
        assert c.scene.page == n
        texts = drawn.texts()
        seen += texts
        if n in (0, 4, 7, 11) or n == table_page("classic"):
            shot(c, f"guide_{n}_{language}")
        if n < len(PAGES) - 1:
            c.touch("next")
    assert not c.button("next").enabled
    if language != "en":  # everything translated, beyond names and numbers
        words = {t for t in seen if any(ch.isalpha() for ch in t)} & english
        assert words <= {"Ike", "Max", "Rosa", "Jules", "Nina", "Turbo", "Deep Stack"}, sorted(words)
    c.key("escape")
    assert c.scene.name == "attract"
    c.touch("tournament")
    c.touch("about")
    assert c.scene.name == "tournament_guide"
    c.key("escape")
    c.touch("speed_fast")
    c.touch("start")
    c.key("m", "m")
    c.touch("menu_guide")
    assert c.scene.name == "tournament_guide"
    c.key("escape")
    assert c.scene.name == "tournament"


# -- name, icon, deck, sound -----------------------------------------------------------------------
def type_name(c: Cabinet, name: str) -> None:
    c.touch("name")
    assert c.scene.keyboard is not None
    for ch in name:
        c.touch("kb_space" if ch == " " else f"key_{ch.upper()}")
    c.touch("kb_done")
    assert c.scene.keyboard is None


def test_name_icon_and_deck_on_the_setup_go_into_the_game(cabinet):
    c = cabinet()
    c.run(0.1)
    c.touch("tournament")
    type_name(c, "Ana")
    c.touch("icon")
    c.touch("icon")
    c.touch("deck_4")
    c.touch("speed_fast")
    assert c.button("name").label == "Ana"
    c.touch("start")
    s = c.session
    assert s.player_name == "Ana" and s.t.config.seats[0].icon == "2" and s.four_colour
    # the deck in the game's menu, the speaker on the top bar
    c.key("m", "m")
    c.touch("menu_deck")
    assert not s.four_colour
    c.key("escape")
    sound = c.app.prefs.sound
    c.touch("top_sound")
    assert c.app.prefs.sound is not sound
    c.touch("top_sound")
    assert c.app.prefs.sound is sound


def test_the_keyboard_types_deletes_and_cancels(cabinet):
    c = cabinet()
    c.run(0.1)
    c.touch("tournament")
    c.touch("name")
    c.touch("key_B")
    c.touch("key_O")
    c.key("b", "b")
    assert c.scene.keyboard.text == "Bob"
    c.touch("kb_delete")
    c.key("escape")
    assert c.scene.keyboard is None and c.ctx.settings.human_name == "You"
    type_name(c, "Jo Li")
    assert c.ctx.settings.human_name == "Jo Li"


def test_continue_asks_whose_game_it_is_when_it_is_another_names(cabinet, tmp_path):
    a = cabinet("a", seed=21)
    a.run(0.1)
    a.touch("tournament")
    type_name(a, "Ana")
    a.touch("speed_fast")
    a.touch("start")
    a.until_my_turn()
    a.key("m", "m")
    a.touch("menu_leave")
    copy_files(tmp_path / "a", tmp_path / "b")
    b = cabinet("b", seed=5)
    b.run(0.1)
    b.touch("tournament")
    type_name(b, "Ben")
    b.touch("continue")
    assert b.scene.name == "tournament_setup" and b.scene.whose and b.session is None
    b.touch("cancel_whose")
    assert not b.scene.whose and b.scene.name == "tournament_setup"
    b.touch("continue")
    b.touch("confirm_whose")
    assert b.scene.name == "tournament" and b.session.player_name == "Ana"
    assert b.ctx.settings.human_name == "Ana"


def test_records_belong_to_the_name(cabinet):
    c = cabinet(seed=3)
    c.run(0.1)
    c.touch("tournament")
    type_name(c, "Ana")
    c.touch("players_2")
    c.touch("blinds_7")
    c.touch("speed_fast")
    c.touch("start")
    c.play_to_end(all_in_every=1)
    assert c.ctx.store.records("Ana").totals()["games"] == 1
    assert c.ctx.store.records("You").totals()["games"] == 0
    c.touch("records")
    assert len(c.scene.games) == 1
    c.ctx.settings = c.ctx.settings.with_values(human_name="Ben")
    c.scene.enter()
    assert c.scene.games == []


# -- bugs seen on screen -------------------------------------------------------------------------------
def test_an_unmatched_all_in_is_not_a_side_pot(cabinet, monkeypatch):
    c = cabinet(seed=11)
    drawn = DrawnText(c, monkeypatch)
    c.start(players=3)
    c.until_my_turn()
    s = c.session
    assert RaiseRange.offered(s.legal()) is not None
    c.key("r", "r")
    c.touch("preset_all_in")
    c.key("return")
    h = s.t.hand
    assert h.is_all_in(s.human_seat) and not h.is_over
    texts = drawn.texts()
    assert not [t for t in texts if "Side" in t or "Main" in t], texts
    assert middle_pots(s) in ((), (h.pot_total - sum(h.bets),))


def test_play_again_after_a_resumed_game_plays_its_table_again(cabinet, tmp_path):
    a = cabinet("a", seed=3)
    a.start(players=2, chips=1000, blinds=7)
    a.until_my_turn()
    a.key("m", "m")
    a.touch("menu_leave")
    copy_files(tmp_path / "a", tmp_path / "b")
    b = cabinet("b", seed=4)
    b.run(0.1)
    b.touch("tournament")
    b.touch("continue")
    assert b.session.t.n_seats == 2
    b.play_to_end(all_in_every=1)
    b.touch("again")
    t = b.session.t
    assert b.scene.name == "tournament" and t.hand_number == 1
    assert (t.n_seats, t.config.starting_chips, t.config.starting_level) == (2, 1000, 7)


def test_records_count_over_the_tallest_bar_clears_the_title_at_1920x1080(cabinet, monkeypatch):
    c = cabinet(size=(1920, 1080), seed=3)
    c.start(players=2, blinds=7)
    c.play_to_end(all_in_every=1)
    c.touch("records")
    drawn = DrawnText(c, monkeypatch)
    items = drawn.frame()
    title = next(r for t, r in items if t == "Finishing places")
    counts = [r for t, r in items if t.isdigit() and r.top > title.top and r.right < c.app.layout.size[0] / 2]
    assert counts and not [r for r in counts if r.colliderect(title)]
    shot(c, "tournament_records_chart")


def test_the_out_note_follows_a_language_switch(cabinet, monkeypatch):
    c = cabinet(seed=3)
    drawn = DrawnText(c, monkeypatch)
    c.start(players=3, blinds=7)
    for _ in range(20_000):
        note = c.scene.note_text()
        if note is not None and " is out in " in note:
            break
        s = c.session
        if s.my_turn:  # the player keeps out of trouble: the computer players go out first
            c.key("c" if s.legal().can_check else "f")
        elif s.hand_over:
            c.key("space", " ")
        c.run(0.05, dt=0.05)
    else:
        raise AssertionError("nobody went out")
    english = c.scene.note_text()
    assert english in drawn.texts()
    c.key("l", "l")  # the language key: English -> Japanese
    assert i18n.language() == "ja"
    texts = drawn.texts()
    assert english not in texts and c.scene.note_text() in texts and "敗退" in c.scene.note_text()


# -- screenshots -------------------------------------------------------------------------------------------
def play_until_side_pot(c: Cabinet, limit: int = 40_000) -> None:
    for _ in range(limit):
        s = c.session
        h = s.t.hand
        if h is not None and not h.is_over and len(middle_pots(s)) > 1:
            return
        if s.my_turn:
            if s.t.hand_number % 3 == 0 and RaiseRange.offered(s.legal()) is not None:
                c.key("r", "r")
                c.touch("preset_all_in")
                c.key("return")
            else:
                c.key("c", "c")
        elif s.hand_over:
            c.key("space", " ")
        c.run(0.05, dt=0.05)
    raise AssertionError("no side pot")


@pytest.mark.heavy
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots_of_tables_setup_and_side_pots(cabinet, monkeypatch, size):
    c = cabinet(size=size, seed=17)
    c.run(0.2)
    shot(c, "tournament_attract")
    c.touch("tournament_tables")
    c.touch("table_turbo")
    shot(c, "tournament_tables")
    c.touch("next")
    type_name(c, "Ana")
    c.touch("icon")
    c.touch("deck_4")
    shot(c, "tournament_setup_name_deck")
    c.touch("name")
    c.touch("key_X")
    shot(c, "tournament_keyboard")
    c.touch("kb_cancel")
    c.touch("speed_fast")
    c.touch("players_4")
    c.touch("start")
    drawn = DrawnText(c, monkeypatch)
    play_until_side_pot(c)
    texts = drawn.texts()
    assert any("Side" in t and "Main" in t for t in texts), texts
    shot(c, "tournament_side_pot")
    c.key("m", "m")
    shot(c, "tournament_menu")
    for path in MY_SHOTS.glob(f"tournament_*_{size[0]}x{size[1]}.png"):
        assert pygame.image.load(str(path)).get_size() == size


def test_a_name_typed_on_a_keyboard_keeps_its_capitals(cabinet):
    c = cabinet()
    c.run(0.1)
    c.touch("tournament")
    c.touch("name")
    for ch in "QA":
        c.key(ch.lower(), ch)  # Shift held: the key is q, the text Q
    c.key("space", " ")
    for ch in "li":
        c.key(ch, ch)
    assert c.scene.keyboard.text == "QA li"  # as typed: never "Qa" nor "qa"
    c.key("return")
    assert c.scene.keyboard is None
