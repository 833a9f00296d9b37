"""Tournament mode on the kiosk, headless, through the program's own input events.

A seeded game (fast AI speed, fast bots) is played to the end with keys and touches; a
power cut is simulated by copying the database files mid-hand and opening them in a new
cabinet; the records screen exports and deletes.  Screenshots of the tournament screens
at 800x480 and 1920x1080 go to test-artifacts/screens/ (gitignored).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pygame
import pytest

from engine.rng import SeededRandomSource
from kiosk.config import load_config
from kiosk.friends.context import TournamentContext
from kiosk.ui import i18n
from kiosk.ui.events import Drag, Key, Touch
from kiosk.ui.input import translate
from kiosk.ui.layout import MIN_TOUCH
from kiosk.ui.raise_range import RaiseRange
from kiosk.wiring.cabinet import cabinet_app
from kiosk.wiring.lone_cabinet import LoneCabinet

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-artifacts" / "screens"
SIZES = [(800, 480), (1920, 1080)]
SCENES = ("tournament_setup", "tournament", "tournament_history", "tournament_rankings", "tournament_results",
          "tournament_records")


class Cabinet:
    def __init__(self, folder: Path, size=(800, 480), seed: int = 7, language: str = "en") -> None:
        self.folder = folder
        config = load_config(None, db_path=str(folder / "uth.db"))
        self.cabinet = LoneCabinet.open(config)
        self.app = cabinet_app(self.cabinet, size, language=language, tournament=TournamentContext(config.db_path))
        self.ctx = self.app.tournament
        self.ctx.rng = SeededRandomSource(seed)
        self.ctx.bot_samples = 0  # fast computer players (made-hand heuristic)
        self.size = size

    @property
    def scene(self):
        return self.app.scene

    @property
    def session(self):
        return self.ctx.session

    def run(self, seconds: float = 0.1, dt: float = 1 / 60) -> None:
        for _ in range(max(1, round(seconds / dt)) - 1):
            self.app.step(dt, draw=False)
        self.app.step(dt)

    def button(self, bid: str):
        for b in self.scene.buttons():
            if b.id == bid:
                return b
        raise AssertionError(f"no button {bid!r} on {self.scene.name}: {[b.id for b in self.scene.buttons()]}")

    def touch(self, bid: str) -> None:
        b = self.button(bid)
        assert b.enabled, f"button {bid} is disabled"
        self.app.feed(Touch(self.app.layout.rect(*b.rect).center))
        self.run(0.02)

    def key(self, name: str, text: str = "") -> None:
        self.app.feed(Key(name, text))
        self.run(0.02)

    def shot(self, name: str) -> Path:
        self.scene.invalidate()
        self.app.step(1 / 60)
        return self.app.screenshot(SHOTS / f"tournament_{name}_{self.size[0]}x{self.size[1]}.png")

    def start(self, **settings) -> None:
        """From attract: the Tournament button, the setup screen (fast AI), Start game."""
        self.run(0.1)
        assert self.scene.name == "attract"
        self.touch("tournament")
        assert self.scene.name == "tournament_setup"
        self.touch("speed_fast")
        for name, value in settings.items():
            self.touch(f"{name}_{value}")
        self.touch("start")
        assert self.scene.name == "tournament"

    def until_my_turn(self, board: int = 0, limit: float = 600.0) -> None:
        t = 0.0
        while t < limit:
            s = self.session
            if s.my_turn and len(s.t.hand.board) >= board:
                return
            if s.my_turn:
                self.key("c", "c")
            elif s.hand_over:
                self.key("space", " ")
            self.run(0.1, dt=0.05)
            t += 0.1
        raise AssertionError("never my turn")

    def play_to_end(self, all_in_every: int = 4, limit: int = 20_000) -> None:
        """The human checks or calls, and goes all in (raise panel) one hand in ``all_in_every``."""
        for _ in range(limit):
            if self.scene.name == "tournament_results":
                return
            s = self.session
            if s.my_turn:
                if s.t.hand_number % all_in_every == 0 and RaiseRange.offered(s.legal()) is not None:
                    self.key("r", "r")
                    self.touch("preset_all_in")
                    assert self.button("confirm_raise").label == i18n._("ALL IN")
                    self.key("return")
                else:
                    self.key("c", "c")
            elif s.hand_over or s.is_over:
                self.key("space", " ")
            self.run(0.1, dt=0.05)
        raise AssertionError("the tournament did not end")

    def close(self) -> None:
        self.ctx.close()
        self.cabinet.close()


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


# -- playing ----------------------------------------------------------------------------------------
def test_setup_defaults_to_seed_003s_game_and_takes_the_choices(cabinet):
    c = cabinet()
    c.run(0.1)
    c.touch("tournament")
    assert c.scene.name == "tournament_setup"
    ids = {b.id: b for b in c.scene.buttons()}
    assert ids["players_6"].style == "selected" and ids["chips_1500"].style == "selected"
    assert ids["blinds_1"].style == "selected" and ids["increase_5"].style == "selected"
    assert [ids[f"seat_{i}"].label for i in range(1, 6)] == ["Ike", "Max", "Rosa", "Jules", "Nina"]
    c.touch("players_4")
    c.touch("seat_2")  # Max: Normal -> Hard
    c.touch("chips_3000")
    c.touch("blinds_4")
    c.touch("increase_10")
    c.touch("equity_off")
    c.touch("start")
    s = c.session
    assert c.scene.name == "tournament" and s.t.n_seats == 4 and s.t.hand_number == 1
    assert [x.difficulty for x in s.t.config.seats[1:]] == ["normal", "hard", "normal"]
    assert (s.t.config.starting_chips, s.t.blinds.small, s.t.config.hands_per_level) == (3000, 25, 10)
    assert not s.equity_assist and s.t.config.table == "custom"


@pytest.mark.heavy
def test_a_tournament_is_played_to_the_end_through_input_events(cabinet):
    c = cabinet(seed=16)  # a seed where the human's calls and all-ins win it
    credits = c.cabinet.station.snapshot().credits
    c.start()
    c.play_to_end()
    s = c.session
    assert s.is_over and s.recorded
    assert c.scene.name == "tournament_results"
    assert s.t.places[0] == 1 and s.t.stats[0].hands_played == s.t.hand_number > 20
    assert sum(s.t.stacks) == 6 * 1500 and sorted(s.t.places.values()) == [1, 2, 3, 4, 5, 6]
    recs = c.ctx.store.records()
    assert len(recs.games) == 1 and recs.games[0].place == s.t.places[0]
    assert recs.games[0].hands_played == s.t.stats[0].hands_played > 0
    assert not c.ctx.store.has_saved_game()
    # chips are points: the cabinet's meters and ledger never moved
    assert c.cabinet.station.snapshot().credits == credits
    report = c.cabinet.table.ledger.verify()
    assert report.ok, report.problem
    # Play again: the same table, a new game
    c.touch("again")
    assert c.scene.name == "tournament" and c.session is not s and c.session.t.hand_number == 1


@pytest.mark.parametrize("scene", ["tournament_setup", "tournament_tables", "tournament_guide"])
def test_the_language_button_shows_the_next_language_on_every_screen_that_has_it(cabinet, scene):
    c = cabinet()
    c.app.go(scene)
    c.run(0.05)
    seen = []
    for _ in range(len(i18n.LANGUAGES)):
        before = i18n.language()
        c.touch("language")
        assert i18n.language() == i18n.next_language(before), f"the language button on {c.scene.name}"
        seen.append(i18n.language())
    assert seen[-1] == "en" and len(set(seen)) == len(i18n.LANGUAGES)


def test_keys_and_the_raise_panel(cabinet):
    c = cabinet(seed=5)
    c.start()
    c.until_my_turn()
    s = c.session
    rr = RaiseRange.offered(s.legal())
    assert rr is not None
    c.key("r", "r")
    table = c.scene
    assert table.panel and table.amount == rr.min_to
    c.key("up")
    assert table.amount == rr.min_to + s.t.hand.big_blind
    c.key("down")
    assert table.amount == rr.min_to
    c.touch("preset_pot")
    assert table.amount == rr.preset("pot")
    # the slider: its right end is all in, and the button says so
    slider = c.app.layout.rect(548, 528, 380, 86)
    c.app.feed(Touch((slider.right - 3, slider.centery)))
    c.run(0.02)
    assert table.amount == rr.max_to and c.button("confirm_raise").label == "ALL IN"
    c.key("escape")
    assert not table.panel and s.my_turn
    c.key("r", "r")
    c.touch("preset_min")
    hand = s.t.hand
    c.key("return")
    last = [r for r in hand.history if getattr(r, "seat", None) == 0][-1]
    assert type(last).__name__ in ("Raised", "BetMade") and last.total == rr.min_to
    # the menu: AI speed and equity assist, then back
    c.key("m", "m")
    assert table.popup == "menu"
    c.touch("menu_speed")
    assert s.ai_speed == "slow"
    c.key("escape")
    assert table.popup is None
    c.key("h", "h")
    assert c.scene.name == "tournament_history"
    c.key("escape")
    c.key("y", "y")
    assert c.scene.name == "tournament_rankings"
    c.key("escape")
    assert c.scene.name == "tournament"


def copy_files(src: Path, dst: Path) -> None:
    """The cabinet's files as they are on disk at this instant: a power cut."""
    dst.mkdir(parents=True)
    for p in src.iterdir():
        if p.name.endswith(".lock"):
            continue
        shutil.copy(p, dst / p.name)  # the same bytes and permissions


def test_power_cut_mid_hand_then_continue_from_the_title_screen(cabinet, tmp_path):
    a = cabinet("a", seed=21)
    a.start()
    a.until_my_turn(board=3)
    s = a.session
    saved = json.loads(json.dumps(s.t.to_dict()))
    mine = s.view().hole_cards
    copy_files(tmp_path / "a", tmp_path / "b")
    b = cabinet("b", seed=99)
    b.run(0.1)
    b.touch("tournament")
    assert b.button("continue").enabled
    b.touch("continue")
    r = b.session
    assert b.scene.name == "tournament"
    assert json.loads(json.dumps(r.t.to_dict())) == saved
    assert r.my_turn and r.view().hole_cards == mine and r.game_id == s.game_id
    b.play_to_end()
    assert b.ctx.store.records().totals()["games"] == 1


def test_records_export_and_delete_all(cabinet, tmp_path):
    c = cabinet(seed=3)  # the human goes out early: the rest of the game is played out at once
    c.start()
    c.play_to_end()
    assert c.session.t.places[0] == 6
    c.touch("records")
    assert c.scene.name == "tournament_records"
    c.touch("export")
    exported = list((tmp_path / "c").glob("tournament-records-*.json"))
    assert len(exported) == 1
    data = json.loads(exported[0].read_text(encoding="utf-8"))
    assert data["totals"]["games"] == 1 and len(data["games"]) == 1
    c.touch("delete")
    assert c.scene.confirm
    c.touch("cancel_delete")
    assert c.ctx.store.records().games
    c.touch("delete")
    for digit in "1111":  # the demo attendant's PIN
        c.touch(f"key_{digit}")
    c.touch("confirm_delete")
    assert c.ctx.store.records().games == []
    assert not c.button("delete").enabled
    c.key("escape")
    assert c.scene.name == "tournament_results"


def test_save_and_leave_then_abandon(cabinet):
    c = cabinet()
    c.start()
    c.until_my_turn()
    c.key("m", "m")
    c.touch("menu_leave")
    assert c.scene.name == "attract" and c.ctx.store.has_saved_game()
    c.touch("tournament")
    assert "continue" in {b.id for b in c.scene.buttons()}
    c.touch("start")  # a new game: first the question
    assert c.scene.confirm_new
    c.touch("cancel_new")
    c.touch("continue")
    c.key("m", "m")
    c.touch("menu_abandon")
    c.touch("confirm_abandon")
    assert c.scene.name == "attract" and not c.ctx.store.has_saved_game()
    assert c.ctx.store.records().games == []  # abandoned: not recorded


# -- layout, languages, screenshots ----------------------------------------------------------------------
def every_screen(c: Cabinet):
    """(name, buttons) for every tournament screen and popup, with a finished game behind."""
    app = c.app
    app.go("tournament_setup")
    yield "setup", c.scene.buttons()
    c.scene.confirm_new = True
    yield "setup/confirm", c.scene.buttons()
    c.scene.confirm_new = False
    c.touch("start")
    c.until_my_turn()
    yield "table/turn", c.scene.buttons()
    c.key("r", "r")
    yield "table/raise", c.scene.buttons()
    c.key("escape")
    for popup in ("menu", "abandon"):
        c.scene.popup = popup
        yield f"table/{popup}", c.scene.buttons()
    c.scene.popup = None
    for name in ("tournament_history", "tournament_rankings", "tournament_records"):
        app.go(name)
        yield name, c.scene.buttons()
    app.go("tournament")


def test_touch_targets_are_at_least_10mm_at_800x480(cabinet):
    c = cabinet()
    lay = c.app.layout
    c.run(0.1)
    for where, buttons in every_screen(c):
        for b in buttons:
            assert min(b.rect[2], b.rect[3]) >= MIN_TOUCH, f"{where}: {b.id} is {b.rect[2:]}"
            r = lay.rect(*b.rect)
            assert min(r.size) >= lay.min_touch_px() - 0.5, f"{where}: {b.id} is {r.size}"


@pytest.mark.parametrize("language", ["ja", "th", "fr"])
def test_every_tournament_screen_draws_in_every_language(cabinet, language):
    c = cabinet(language=language)
    c.run(0.1)
    for _where, _buttons in every_screen(c):
        c.scene.invalidate()
        c.app.step(1 / 60)
    c.play_to_end()
    for name in ("tournament_results", "tournament_records"):
        c.app.go(name)
        c.app.step(1 / 60)
    if language == "ja":
        c.app.go("tournament")
        c.shot("result_ja")


def equity_shown(c: Cabinet) -> bool:
    eq, computing = c.session.equity()
    return eq is not None and not computing


@pytest.mark.heavy
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots(cabinet, size):
    c = cabinet(size=size, seed=13)
    c.run(0.2)
    c.shot("attract")
    c.touch("tournament")
    c.shot("setup")
    c.touch("speed_fast")
    c.touch("start")
    c.until_my_turn(board=3)
    for _ in range(20):
        if equity_shown(c):
            break
        c.run(1 / 60)
    assert equity_shown(c)
    c.shot("table")
    c.key("r", "r")
    c.key("up")
    c.shot("table_raise")
    c.key("escape")
    c.key("h", "h")
    c.shot("history")
    c.key("escape")
    c.key("y", "y")
    c.shot("rankings")
    c.key("escape")
    c.key("m", "m")
    c.shot("menu")
    c.key("escape")
    c.play_to_end()
    c.shot("results")
    c.touch("records")
    c.shot("records")
    for path in SHOTS.glob(f"tournament_*_{size[0]}x{size[1]}.png"):
        assert pygame.image.load(str(path)).get_size() == size


# -- exporting hands, the operator's Delete all, dragging the slider ---------------------------------


def _mounts(folder: Path, stick: Path | None) -> Path:
    f = folder / "mounts"
    line = f"/dev/sdb1 {stick} vfat rw 0 0" if stick is not None else "/dev/sda1 / ext4 rw 0 0"
    f.write_text(line + "\n")
    return f


def test_results_and_records_export_the_games_hands(cabinet, tmp_path):
    c = cabinet(seed=3)
    c.start()
    c.play_to_end()
    s = c.session
    stick = tmp_path / "media" / "usb0"
    stick.mkdir(parents=True)
    c.ctx.mounts_file = _mounts(tmp_path, stick)
    c.touch("export_hands")
    (exported,) = stick.glob("holdem-hands-*.json")
    doc = json.loads(exported.read_text(encoding="utf-8"))
    assert doc["game_id"] == s.game_id and len(doc["hands"]) == len(s.t.hand_log) == s.t.hand_number
    assert len(list(stick.glob("holdem-hands-*.phhs"))) == 1
    assert "USB stick" in c.scene.message[0] and str(stick) in c.scene.message[0]
    c.shot("results_exported")
    c.ctx.mounts_file = _mounts(tmp_path, None)  # no stick: the cabinet's own disk
    c.touch("records")
    assert c.button("export_hands").enabled
    c.touch("export_hands")
    assert len(list((tmp_path / "c").glob("holdem-hands-*.json"))) == 1
    assert "this cabinet" in c.scene.message[0]
    c.shot("records_exported")


def test_records_delete_all_needs_an_operators_pin(cabinet):
    c = cabinet(seed=3)
    c.start()
    c.play_to_end()
    c.touch("records")
    c.touch("delete")
    assert c.scene.modal()
    for name in ("space", "f", "l", "m"):  # nothing behind the question acts
        c.key(name, name)
    assert c.scene.name == "tournament_records" and c.scene.confirm
    assert not c.button("confirm_delete").enabled  # no PIN typed
    for digit in "9876":
        c.key(digit, digit)
    c.shot("records_pin")
    c.touch("confirm_delete")
    assert c.ctx.store.records().games and c.scene.confirm and c.scene.refused
    assert c.app.model.snap.operator is None
    for digit in "1111":
        c.key(digit, digit)
    c.key("return")
    assert c.ctx.store.records().games == [] and not c.scene.confirm
    assert c.app.model.snap.operator is None  # logged out again at once


def test_drags_become_drag_events():
    size = (800, 480)
    move = pygame.event.Event(pygame.MOUSEMOTION, pos=(120, 40), rel=(3, 0), buttons=(1, 0, 0), touch=False)
    assert translate(move, size) == [Drag((120, 40))]
    hover = pygame.event.Event(pygame.MOUSEMOTION, pos=(120, 40), rel=(3, 0), buttons=(0, 0, 0), touch=False)
    assert translate(hover, size) == []
    finger = pygame.event.Event(pygame.FINGERMOTION, x=0.5, y=0.25, dx=0.01, dy=0.0, finger_id=1, touch_id=1)
    assert translate(finger, size) == [Drag((400, 120))]


def test_the_raise_slider_follows_a_drag(cabinet):
    c = cabinet(seed=5)
    c.start()
    c.until_my_turn()
    rr = RaiseRange.offered(c.session.legal())
    assert rr is not None
    c.key("r", "r")
    table = c.scene
    slider = c.app.layout.rect(548, 528, 380, 86)
    c.app.feed(Touch((slider.left + 3, slider.centery)))
    assert table.amount == rr.min_to
    c.app.feed(Drag((slider.centerx, slider.centery)))
    assert rr.min_to < table.amount < rr.max_to
    c.app.feed(Drag((slider.right + 40, slider.top - 30)))  # past the end, off the slider: still following
    c.run(0.02)
    assert table.amount == rr.max_to and c.button("confirm_raise").label == "ALL IN"
    c.touch("preset_min")  # a press elsewhere: the slider no longer follows
    c.app.feed(Drag((slider.right - 3, slider.centery)))
    assert table.amount == rr.min_to
