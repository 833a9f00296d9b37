"""Words of the operator pages a person stops at: a control greyed for the role logged
in says who may use it (NEW FROM… and EXPORT… on the paytables page, a manager's), in
every language."""

from __future__ import annotations

import pytest
from support.operator_screens import OperatorScreens

from kiosk.ui import i18n

NEED = {
    "en": "NEW FROM… and EXPORT… need a manager.",
    "fr": "NOUVELLE DEPUIS… et EXPORTER… demandent un responsable.",
}


@pytest.fixture
def screens(tmp_path):
    s = OperatorScreens(tmp_path, size=(800, 480))
    yield s
    s.close()
    i18n.set_language("en")


def test_a_technician_is_told_that_new_from_and_export_need_a_manager(screens):
    s = screens
    s.login("135790", door=False)  # a technician
    s.touch("page_paytable")
    buttons = s.buttons()
    copies = [b for bid, b in buttons.items() if bid.startswith(("copy_", "export_"))]
    assert copies and not any(b.enabled for b in copies)
    assert NEED["en"] in s.drawn()
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        s.frame()
        said = [px for t, px in s.texts if t == i18n._(NEED["en"])]
        assert said and min(said) >= 12, (lang, said)  # the operator pages' text floor
        assert lang == "en" or i18n._(NEED["en"]) != NEED["en"], lang  # translated
        if lang == "fr":
            assert NEED["fr"] in s.drawn()


def test_a_manager_sees_them_enabled_and_no_such_words(screens):
    s = screens
    s.login("975310", door=False)  # a manager
    s.touch("page_paytable")
    assert all(b.enabled for bid, b in s.buttons().items() if bid.startswith(("copy_", "export_")))
    assert NEED["en"] not in s.drawn()
