"""The pixels the screens hold at 1920x1080: whole-screen surfaces are the ones the
frames need, made once, never a second copy of one."""

from __future__ import annotations

import gc
import types
import weakref

import pygame
from test_ui import WIN, Kiosk, start_round

from kiosk.game.commands import (
    SetDoor,
)
from kiosk.ui import i18n
from kiosk.ui.scenes.table.felt import FeltLayer

FULL_HD = (1920, 1080)
#: What is not followed when looking for the surfaces an object holds.
NOT_FOLLOWED = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.CodeType,
    types.BuiltinFunctionType,
)


def surfaces_held(root: object) -> list[pygame.Surface]:
    """Every distinct surface reachable from ``root``'s own state (not through modules,
    classes or functions' globals), subsurfaces left out (they share their parent's)."""
    seen: set[int] = set()
    found: dict[int, pygame.Surface] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, NOT_FOLLOWED):
            continue
        seen.add(id(obj))
        if isinstance(obj, pygame.Surface):
            if obj.get_parent() is None:
                found[id(obj)] = obj
            continue
        todo.extend(gc.get_referents(obj))
    return list(found.values())


def words_kept(k: Kiosk) -> int:
    """Bytes of drawn words the screens keep: the text cache and the painter's."""
    return k.app.text.surfaces.bytes + k.app.painter.surfaces.bytes


def whole_screens(k: Kiosk) -> int:
    """Surfaces of the screen's size the app holds besides the display itself."""
    return sum(s.get_size() == k.size and s is not k.app.screen for s in surfaces_held(k.app))


def test_a_dialog_over_the_table_adds_only_the_scene_beneath_it(tmp_path):
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        start_round(k)
        k.settle()
        table = whole_screens(k)  # the felt, the table's layer, its base
        k.cabinet.station.execute(
            SetDoor(True)
        )  # the tilt overlay: the scene is kept beneath it, shaded
        k.run(0.5)
        assert k.app.layered.active
        assert whole_screens(k) == table + 1  # the scene beneath; the shade is one band
    finally:
        k.close()


def test_the_table_layer_is_the_surface_it_painted(tmp_path):
    """Painted on a copy of the felt (already in the display's format): kept as it is,
    not converted into a second whole-screen copy."""
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        layer = FeltLayer(k.app)
        painted: list[pygame.Surface] = []
        paint = layer._paint
        layer._paint = lambda snap: painted.append(paint(snap)) or painted[-1]  # type: ignore[method-assign]
        kept = layer.surface(k.app.model.snap)
        assert kept is painted[0] and kept.get_size() == FULL_HD
    finally:
        k.close()


def test_the_felt_is_let_go_where_it_is_not_drawn_and_made_again_the_same(tmp_path):
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        k.run(0.1)  # the attract screen draws the felt
        felt = pygame.image.tobytes(k.app.felt, "RGB")
        start_round(k)
        k.settle()
        assert whole_screens(k) <= 2  # the table's layer and its base, no felt beside them
        k.key("f12")  # the operator menu: no felt either
        k.run(0.1)
        assert k.scene.name == "operator" and whole_screens(k) <= 2
        k.key("f12")
        k.app.go("help")
        k.run(0.1)
        assert pygame.image.tobytes(k.app.felt, "RGB") == felt  # made again, the same pixels
    finally:
        k.close()


def test_a_new_look_of_the_table_is_painted_once_the_old_layer_is_let_go(tmp_path):
    """A language change paints the table's layer again: the old one (8 MB at 1920x1080)
    is freed first, not held by the frames drawn on it while the new one is painted."""
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        start_round(k)
        k.settle()
        table = k.app.scenes["table"]
        old = weakref.ref(table.static_layer())
        alive_at_paint: list[bool] = []
        paint = table.felt._paint

        def watched(snap):
            gc.collect()
            alive_at_paint.append(old() is not None)
            return paint(snap)

        table.felt._paint = watched
        i18n.set_language("fr")
        k.run(0.1)
        assert alive_at_paint == [False]
    finally:
        i18n.set_language("en")
        k.close()


def test_a_page_beside_the_table_holds_the_felt_and_the_table_layer_only(tmp_path):
    """The table's frame base is let go while another scene shows (made again, whole,
    when the table comes back); its painted layer is kept for the way back."""
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        start_round(k)
        k.settle()
        k.key("h")
        k.run(0.1)
        assert k.scene.name == "help" and whole_screens(k) <= 2
        k.key("escape")
        k.run(0.1)
        assert k.scene.name == "table" and whole_screens(k) == 2  # its layer and its base
    finally:
        k.close()


def test_a_tall_panel_is_laid_in_bands_with_the_pixels_of_the_whole_panel(tmp_path):
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        ui = k.app.painter
        for size, radius, border, border_w in (
            ((1800, 750), 18, (120, 90, 30), 2),
            ((900, 400), 30, None, 2),
            ((333, 1000), 8, (255, 255, 255), 5),
            ((600, 301), 18, (0, 0, 0), 1),
        ):
            whole = pygame.Surface(FULL_HD)
            whole.fill((20, 90, 40))
            laid = whole.copy()
            rect = pygame.Rect((37, 41), size)
            whole.blit(ui.panel(size, (0, 0, 0), 130, radius, border, border_w, keep=False), rect)
            ui.box(laid, rect, (0, 0, 0), 130, radius, border, border_w)
            assert pygame.image.tobytes(laid, "RGB") == pygame.image.tobytes(whole, "RGB"), size
    finally:
        k.close()


def test_the_rules_page_keeps_no_panel_of_its_whole_size(tmp_path):
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        k.run(0.1)
        k.app.go("help")
        k.run(0.1)
        biggest = max(s.get_pitch() * s.get_height() for s in surfaces_held(k.app.painter))
        assert biggest < 1024 * 1024  # its 1800x750 frame would be 5.4 MB
    finally:
        k.close()


def test_a_language_change_lets_the_last_languages_drawn_words_go(tmp_path):
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        start_round(k)
        k.settle()
        one = words_kept(k)
        for lang in ("fr", "ja", "th", "en"):
            i18n.set_language(lang)
            k.run(0.2)
        assert words_kept(k) <= 1.2 * one  # the words of the language shown, not of four
    finally:
        i18n.set_language("en")
        k.close()


def test_the_operator_menus_words_go_when_it_closes(tmp_path):
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        start_round(k)
        k.settle()
        table = words_kept(k)
        k.key("f12")
        for digit in "3333":
            k.key(digit, digit)
        k.key("return")
        for page in ("meters", "events", "hold", "machine", "paytable", "limits"):
            k.touch(f"page_{page}")
            k.run(0.1)
            k.touch("menu")
        k.key("f12")  # the key switch again: the menu closes
        k.run(0.2)
        assert k.scene.name == "table"
        assert words_kept(k) <= 1.2 * table
    finally:
        k.close()


def test_the_player_pages_words_go_when_the_table_comes_back(tmp_path):
    """Pays, Rules, History and Settings each draw many words: back at the table, the
    caches hold the table's words, not every page's seen since."""
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        start_round(k)
        k.settle()
        table = words_kept(k)
        for key in ("y", "h", "g", "e"):  # Pays, Rules, History, Settings
            k.key(key)
            k.run(0.2)
            assert k.scene.name != "table"
            k.key("escape")
            k.run(0.2)
        assert k.scene.name == "table"
        assert words_kept(k) <= 1.2 * table
    finally:
        k.close()


def test_the_card_faces_kept_are_a_screens_not_a_decks(tmp_path):
    """The faces' cache holds the cards screens show (made when first shown), not the
    52 faces of the table's size (5.5 MB at 1920x1080); a screen drawn again, or the
    table shown again after another page, makes none of its faces again."""
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        app = k.app
        app.warm_up()
        faces = app.cards.faces
        assert faces.bytes < 1024 * 1024  # the table's card back and its shadow
        assert faces.limit <= 3 * 1024 * 1024
        start_round(k)
        k.touch("act_play_4x")
        k.settle()

        def made_when_drawn_again() -> int:
            made = faces.made
            app.shown.invalidate()
            app.step(1 / 60)
            return faces.made - made

        assert made_when_drawn_again() == 0
        k.key("g")  # History: this round's cards, smaller
        k.run(0.2)
        assert k.scene.name == "recall" and made_when_drawn_again() == 0
        made = faces.made
        k.key("escape")
        k.run(0.2)
        assert k.scene.name == "table" and faces.made == made  # the table's faces were kept
    finally:
        k.close()


def test_an_operator_pages_words_go_when_the_next_one_opens(tmp_path):
    """The operator menu's pages each draw many words: on a page, the caches hold that
    page's (and the menu's chrome), not every page opened since the menu opened."""
    k = Kiosk(tmp_path, FULL_HD, WIN)
    try:
        k.key("f12")
        for digit in "3333":
            k.key(digit, digit)
        k.key("return")

        def open_page(page: str) -> int:
            k.touch(f"page_{page}")
            k.run(0.1)
            return words_kept(k)

        meters = open_page("meters")
        k.touch("menu")
        for page in ("events", "hold", "machine", "paytable", "limits", "recall"):
            open_page(page)
            k.touch("menu")
        assert open_page("meters") <= 1.2 * meters
    finally:
        k.close()
