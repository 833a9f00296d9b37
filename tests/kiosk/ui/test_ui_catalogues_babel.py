"""The catalogue tools on Babel: extraction, .po round trip, .mo lookups, pybabel's CLI."""

from __future__ import annotations

import gettext
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.ui import catalogues
from kiosk.ui.catalogues import Entry, compile_mo, load, mo_path, po_path, read_po, save
from kiosk.ui.i18n import LANGUAGES, PLURAL_FORMS

PYBABEL = Path(sys.executable).with_name("pybabel")


def lookups(tr: gettext.NullTranslations, entries: list[Entry]) -> list[str]:
    """Every message of ``entries`` looked up in ``tr`` (counted ones for n = 0..11)."""
    out = []
    for e in entries:
        if e.msgid_plural is not None:
            for n in range(12):
                if e.msgctxt is None:
                    out.append(tr.ngettext(e.msgid, e.msgid_plural, n))
                else:
                    out.append(tr.npgettext(e.msgctxt, e.msgid, e.msgid_plural, n))
        elif e.msgctxt is None:
            out.append(tr.gettext(e.msgid))
        else:
            out.append(tr.pgettext(e.msgctxt, e.msgid))
    return out


def expected(entries: list[Entry], plural: str) -> list[str]:
    """What msgfmt's rules give: the translation, or the msgid when it is untranslated
    or fuzzy."""
    rule = gettext.c2py(plural.split("plural=", 1)[1].rstrip("; "))  # type: ignore[attr-defined]
    out = []
    for e in entries:
        if e.msgid_plural is not None:
            ok = not e.fuzzy and all(e.msgstr_plural)
            for n in range(12):
                out.append(
                    e.msgstr_plural[rule(n)] if ok else e.msgid if n == 1 else e.msgid_plural
                )
        else:
            out.append(e.msgstr if e.msgstr and not e.fuzzy else e.msgid)
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_babel_compiled_catalogue_gives_the_shipped_translations(lang):
    """The .mo compiled by Babel from the .po answers every message as the shipped .mo
    does and as the .po says."""
    header, entries = read_po(po_path(lang))
    new = gettext.GNUTranslations(io.BytesIO(compile_mo(header, entries)))
    shipped = gettext.GNUTranslations(io.BytesIO(mo_path(lang).read_bytes()))
    assert len(entries) > 700
    assert lookups(new, entries) == lookups(shipped, entries)
    assert lookups(new, entries) == expected(entries, PLURAL_FORMS[lang])
    assert [new.plural(n) for n in range(4)] == [shipped.plural(n) for n in range(4)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_po_files_round_trip_through_babel(lang, tmp_path):
    """Translations, contexts, plural forms and the Plural-Forms header survive a read
    and a write."""
    header, entries = read_po(po_path(lang))
    copy = tmp_path / "uth.po"
    save(copy, load(po_path(lang)))
    header2, entries2 = read_po(copy)
    for e in entries:  # Babel writes a message's references by file, then line
        e.references.sort(key=lambda r: (r.rpartition(":")[0], int(r.rpartition(":")[2])))
    assert entries2 == entries
    assert f"Plural-Forms: {PLURAL_FORMS[lang]}" in header2.splitlines()
    assert any(e.msgctxt for e in entries2) and any(e.msgid_plural for e in entries2)
    forms = {len(e.msgstr_plural) for e in entries2 if e.msgid_plural}
    assert forms == ({1} if lang in ("ja", "th") else {2})
    catalogue = tmp_path / "c.po"
    catalogues.write_po(catalogue, header, entries)
    assert read_po(catalogue) == (header, entries)


def test_markers_inside_f_strings_are_extracted(monkeypatch, tmp_path):
    src = tmp_path / "screen.py"
    src.write_text(
        "text = f\"{_('Ante')} {money(a)}  {pgettext('bet', 'Play')} {count('{n} hand', '{n} hands', n)}\"\n"
        "# Translators: the button that deals\n"
        'label = _("Deal")\n'
        'other = f"{x:>{w}}"\n'
        "tally = cards.count(card)\n"
    )
    monkeypatch.setattr(catalogues, "_source_files", lambda: iter([src]))
    found = catalogues.extract_messages()
    assert set(found) == {(None, "Ante"), ("bet", "Play"), (None, "{n} hand"), (None, "Deal")}
    assert all(refs[0].endswith(":1") for key, refs in found.items() if key != (None, "Deal"))
    assert catalogues.extract_plurals() == {(None, "{n} hand"): "{n} hands"}
    pot = catalogues.template()
    assert pot.get("Deal").auto_comments == ["Translators: the button that deals"]


def test_extract_keeps_translations_adds_new_drops_gone(monkeypatch, tmp_path):
    locale = tmp_path / "locale"
    src = tmp_path / "screen.py"
    src.write_text('a = _("Deal")\nb = _("Rebet")\nc = ngettext("{n} hand", "{n} hands", n)\n')
    monkeypatch.setattr(catalogues, "_source_files", lambda: iter([src]))
    catalogues.extract(locale)
    for lang in ("fr", "ja"):
        path = po_path(lang, locale)
        header, entries = read_po(path)
        assert f"Plural-Forms: {PLURAL_FORMS[lang]}" in header.splitlines()
        for e in entries:
            e.msgstr = {"Deal": "Donne", "Rebet": "Remise"}.get(e.msgid, "")
            if e.msgid_plural:
                e.msgstr_plural = ["{n} main", "{n} mains"][: 1 if lang == "ja" else 2]
        catalogues.write_po(path, header, entries)
    src.write_text('a = _("Deal")\nd = _("Cash out")\nc = ngettext("{n} hand", "{n} hands", n)\n')
    catalogues.extract(locale)
    catalogues.compile_all(locale)
    _h, fr = read_po(po_path("fr", locale))
    assert [(e.msgid, e.msgstr) for e in fr] == [
        ("Deal", "Donne"),
        ("Cash out", ""),
        ("{n} hand", "{n} main"),
    ]
    assert not any(e.fuzzy for e in fr)  # "Cash out" is not matched to the gone "Rebet"
    _h, en = read_po(po_path("en", locale))
    assert [e.msgstr for e in en] == ["Deal", "Cash out", "{n} hand"]  # English is its own msgid
    fr_mo = gettext.GNUTranslations(io.BytesIO(mo_path("fr", locale).read_bytes()))
    assert [fr_mo.ngettext("{n} hand", "{n} hands", n) for n in (0, 1, 2)] == [
        "{n} main",
        "{n} main",
        "{n} mains",
    ]
    ja_mo = gettext.GNUTranslations(io.BytesIO(mo_path("ja", locale).read_bytes()))
    assert (
        ja_mo.ngettext("{n} hand", "{n} hands", 5) == "{n} main"
        and ja_mo.gettext("Deal") == "Donne"
    )


def _without_dates(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "Creation-Date" not in line)


@pytest.mark.heavy
def test_pybabel_command_line_writes_what_the_python_tools_write(tmp_path):
    """``pybabel extract/update/compile`` (real processes, from the repository root) and
    ``python -m kiosk.ui.catalogues`` give the same catalogues."""
    api, cli = tmp_path / "api", tmp_path / "cli"
    shutil.copytree(catalogues.LOCALE_DIR, api)
    catalogues.extract(api)  # English filled in, headers made current
    catalogues.compile_all(api)
    shutil.copytree(api, cli)
    pot = tmp_path / "uth.pot"
    root = catalogues.ROOT
    for args in (
        [
            "extract",
            "-F",
            "babel.cfg",
            "--project=uth-cabinet",
            "--version=0.1.0",
            "-o",
            str(pot),
            "kiosk/ui",
            "kiosk/station",
        ],
        [
            "update",
            "-D",
            "uth",
            "-d",
            str(cli),
            "-i",
            str(pot),
            "--ignore-obsolete",
            "--no-fuzzy-matching",
        ],
        ["compile", "-D", "uth", "-d", str(cli)],
    ):
        subprocess.run(
            [str(PYBABEL), "-q", *args], cwd=root, check=True, capture_output=True, timeout=120
        )
    for lang in LANGUAGES:
        assert _without_dates(po_path(lang, cli).read_text()) == _without_dates(
            po_path(lang, api).read_text()
        )
        _h, entries = read_po(po_path(lang, api))
        a = gettext.GNUTranslations(io.BytesIO(mo_path(lang, api).read_bytes()))
        b = gettext.GNUTranslations(io.BytesIO(mo_path(lang, cli).read_bytes()))
        assert lookups(a, entries) == lookups(b, entries)


def test_the_kiosk_does_not_import_the_tools():
    """The cabinet reads .mo files with the standard library: no Babel at run time."""
    code = "import sys, kiosk.ui.app; print('babel' in sys.modules, 'kiosk.ui.catalogues' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=catalogues.ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert out.stdout.splitlines()[-1].split() == ["False", "False"]
