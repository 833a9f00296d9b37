"""Labels fit their widgets in French and Japanese at 800x480: buttons clear their key
hints, chips hold their amounts, the felt's spot names stay readable."""

from __future__ import annotations

import pytest
from test_tournament_ui import Cabinet
from test_ui import WIN, Kiosk, start_round

from kiosk.ui import i18n
from kiosk.ui.layout import MIN_TEXT
from kiosk.ui.textlog import TextLog
from kiosk.ui.widgets import best_fit

SIZE = (800, 480)


@pytest.fixture(autouse=True)
def english():
    yield
    i18n.set_language("en")


def assert_buttons_fit(app, buttons) -> None:
    ui, lay = app.painter, app.layout
    for b in buttons:
        if b.round or b.sublabel or not b.label:
            continue
        rect = lay.rect(*b.rect)
        fit, block, hint = ui.label_block(b, rect.size)
        assert fit.fits, f"{b.id}: {b.label!r} overflows {rect.size}"
        assert fit.px >= min(lay.px(b.size), lay.px(MIN_TEXT)), f"{b.id}: {b.label!r} at {fit.px} px"
        assert block.left >= 0 and block.right <= rect.width, f"{b.id}: {b.label!r} {block} in {rect.size}"
        assert hint is None or not block.colliderect(hint), f"{b.id}: {b.label!r} {block} covers its hint {hint}"


@pytest.mark.parametrize("language", ["fr", "ja", "th"])
def test_table_buttons_chips_and_spots_fit(tmp_path, language):
    k = Kiosk(tmp_path, SIZE, WIN, language=language)
    log = k.app.painter.log = TextLog()
    try:
        start_round(k)
        assert_buttons_fit(k.app, k.scene.buttons())
        for key in ("k", "k", "f"):  # check, check, fold at the river
            k.key(key)
            k.settle()
        k.run(1.0)
        buttons = k.scene.buttons()
        if language == "fr":
            assert any(b.label == "REMISER ET DISTRIBUER" for b in buttons), [b.label for b in buttons]
        assert_buttons_fit(k.app, buttons)
        ui = k.app.painter
        for d in (ui.layout.px(66), ui.layout.px(90)):  # a chip on a spot, a chip on the rail
            for cents in (100, 2500, 10000, 100000):
                fit, _plate = ui.chip_fits(i18n.money(cents, compact=True), d)
                assert fit.fits, (cents, d, fit)
        spots = [box for box in log.boxes if box.where.startswith("kiosk/ui/scenes/table/felt.py") and box.max_lines]
        assert spots
        for box in spots:
            fit = best_fit(ui.text, box.text, box.px, box.boxes, bold=box.bold, max_lines=box.max_lines,
                           floor=box.floor, prefer_first=box.prefer_first)
            assert fit.fits and fit.px >= min(box.px, ui.layout.px(MIN_TEXT)), (box.text, fit)
    finally:
        k.close()


@pytest.mark.parametrize("language", ["fr", "ja"])
def test_tournament_top_buttons_fit(tmp_path, language):
    c = Cabinet(tmp_path, SIZE, language=language)
    try:
        c.start()
        buttons = c.scene.buttons()
        if language == "fr":
            assert any(b.label == "Classement des mains" for b in buttons)
        assert_buttons_fit(c.app, buttons)
    finally:
        c.close()
