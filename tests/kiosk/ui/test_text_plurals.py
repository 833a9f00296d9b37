"""Counted messages take the catalogue's plural forms; sentences about a player its person."""

from __future__ import annotations

import gettext
import io

import pytest

from kiosk.ui import catalogues, i18n
from kiosk.ui.catalogues import Entry, compile_mo, read_po, write_po
from kiosk.ui.i18n import PersonMessage, plural_index


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")  # whatever a test before it on this worker left
    yield
    i18n.set_language("en")


def test_each_language_has_its_plural_rule():
    assert [plural_index("en", n) for n in (0, 1, 2)] == [1, 0, 1]
    assert [plural_index("fr", n) for n in (0, 1, 2)] == [
        0,
        0,
        1,
    ]  # « 0 main », « 1 main », « 2 mains »
    assert {plural_index(lang, n) for lang in ("ja", "th") for n in (0, 1, 2, 5)} == {0}


def catalogue(tmp_path, lang: str, forms: list[str]) -> gettext.GNUTranslations:
    """A compiled catalogue with one counted message, written and read back as a .po."""
    header = f"Language: {lang}\nContent-Type: text/plain; charset=UTF-8\nPlural-Forms: {i18n.PLURAL_FORMS[lang]}\n"
    path = tmp_path / f"{lang}.po"
    write_po(
        path, header, [Entry("{n} hand", forms[0], msgid_plural="{n} hands", msgstr_plural=forms)]
    )
    head, entries = read_po(path)
    assert entries[0].msgid_plural == "{n} hands" and entries[0].msgstr_plural == forms
    return gettext.GNUTranslations(io.BytesIO(compile_mo(head, entries)))


def test_plural_entries_survive_po_and_mo(tmp_path):
    fr = catalogue(tmp_path, "fr", ["{n} main", "{n} mains"])
    assert [fr.ngettext("{n} hand", "{n} hands", n).format(n=n) for n in (0, 1, 2)] == [
        "0 main",
        "1 main",
        "2 mains",
    ]
    ja = catalogue(tmp_path, "ja", ["{n}ハンド"])
    assert ja.ngettext("{n} hand", "{n} hands", 7).format(n=7) == "7ハンド"


def test_count_uses_the_current_language_rule(monkeypatch, tmp_path):
    fr = catalogue(tmp_path, "fr", ["{n} main", "{n} mains"])
    monkeypatch.setitem(i18n._translations, "fr", fr)
    i18n.set_language("fr")
    assert i18n.count("{n} hand", "{n} hands", 1) == "1 main"
    assert i18n.count("{n} hand", "{n} hands", 0) == "0 main"
    i18n.set_language("en")
    assert i18n.count("{n} hand", "{n} hands", 1) == "1 hand"  # not "1 hands"
    assert i18n.count("{n} hand", "{n} hands", 0) == "0 hands"


def test_a_catalogue_without_plural_header_gets_the_language_rule():
    i18n.reload_catalogues()
    tr = i18n.translation("fr")
    assert isinstance(tr, gettext.GNUTranslations)
    assert [tr.plural(n) for n in (0, 1, 2)] == [0, 0, 1]  # French: 0 takes the singular


def test_person_messages_never_put_a_name_before_a_verb_form():
    wins = PersonMessage(
        i18n.N_("You win {amount} with {hand}"), i18n.N_("{name} wins {amount} with {hand}")
    )
    assert (
        wins.format(is_you=True, amount="3,020", hand="Pair of aces")
        == "You win 3,020 with Pair of aces"
    )
    assert (
        wins.format(is_you=False, name="Ike", amount="40", hand="Flush") == "Ike wins 40 with Flush"
    )


def test_counted_messages_are_extracted(monkeypatch, tmp_path):
    src = tmp_path / "screen.py"
    src.write_text(
        'count("{n} hand", "{n} hands", n)\nnpgettext("seat", "{n} player", "{n} players", k)\n'
        'NP_("{n} game", "{n} games")\n'
    )
    monkeypatch.setattr(catalogues, "_source_files", lambda: iter([src]))
    assert catalogues.extract_plurals() == {
        (None, "{n} hand"): "{n} hands",
        ("seat", "{n} player"): "{n} players",
        (None, "{n} game"): "{n} games",
    }
