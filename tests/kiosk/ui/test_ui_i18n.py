"""Catalogues, hand names, money, fonts (every string drawable, Thai shaped), sounds."""

from __future__ import annotations

import re
import string
import wave

import numpy as np
import pygame
import pytest

from engine.hands.categories import STRENGTH_MAX, HandCategory, all_classes, describe
from kiosk.ui import i18n
from kiosk.ui.catalogues import compile_mo, extract_messages, mo_path, po_path, read_po
from kiosk.ui.i18n import HAND_PLACEHOLDERS, LANGUAGES, hand_name, money
from kiosk.ui.text import FAMILY_FOR_LANG, ZWSP, Fonts, TextCache


@pytest.fixture(autouse=True)
def english():
    yield
    i18n.set_language("en")


@pytest.fixture(scope="module")
def fonts():
    pygame.font.init()
    return Fonts()


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_in_every_language(lang):
    wanted = set(extract_messages())
    _header, entries = read_po(po_path(lang))
    have = {e.key for e in entries}
    assert wanted - have == set(), (
        f"{lang}: messages missing from the catalogue (run: python -m kiosk.ui.catalogues extract)"
    )
    assert have - wanted == set(), (
        f"{lang}: stale messages in the catalogue (run: python -m kiosk.ui.catalogues extract)"
    )
    blank_ok = {("number format", "thousands separator")}  # French: a narrow no-break space
    untranslated = [
        e.msgid
        for e in entries
        if not e.msgstr or e.fuzzy or (not e.msgstr.strip() and e.key not in blank_ok)
    ]
    assert untranslated == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogue_is_up_to_date(lang):
    header, entries = read_po(po_path(lang))
    assert mo_path(lang).read_bytes() == compile_mo(header, entries), (
        "run: python -m kiosk.ui.catalogues compile"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_survive_translation(lang):
    _header, entries = read_po(po_path(lang))
    for e in entries:
        want, got = fields(e.msgid), fields(e.msgstr)
        if e.msgctxt == "hand":
            assert got <= HAND_PLACEHOLDERS, e.msgid
            assert bool(got) == bool(want), e.msgid
            assert any(n.endswith("2") for n in got) == any(n.endswith("2") for n in want), e.msgid
        else:
            assert got == want, f"{lang}: {e.msgid!r} -> {e.msgstr!r}"


def test_english_hand_names_match_the_engine():
    i18n.set_language("en")
    for strength in range(1, STRENGTH_MAX + 1):
        assert hand_name(strength) == describe(strength)


@pytest.mark.parametrize("lang", ["ja", "th", "fr"])
def test_hand_names_are_built_from_category_and_ranks(lang):
    i18n.set_language(lang)
    names = {hand_name(s) for s in range(1, STRENGTH_MAX + 1)}
    english = {describe(s) for s in range(1, STRENGTH_MAX + 1)}
    assert not names & english - {"Royal flush"}  # nothing left in English
    assert (
        len(
            {
                hand_name(s)
                for s, hc in enumerate(all_classes(), 1)
                if hc.category == HandCategory.PAIR
            }
        )
        == 13
    )


def test_known_hand_names():
    strength = next(
        s for s, hc in enumerate(all_classes(), 1) if hc == (HandCategory.FULL_HOUSE, (12, 11))
    )
    expect = {
        "en": "Full house, aces over kings",
        "fr": "Full aux as par les rois",
        "ja": "フルハウス（エースとキング）",
        "th": "ฟูลเฮาส์ เอซ กับ คิง",
    }
    for lang, text in expect.items():
        i18n.set_language(lang)
        assert hand_name(strength) == text
    pair_aces = next(
        s
        for s, hc in enumerate(all_classes(), 1)
        if hc.category == HandCategory.PAIR and hc.ranks[0] == 12
    )
    i18n.set_language("fr")
    assert hand_name(pair_aces) == "Paire d’as"


def test_money_in_each_language():
    expect = {"en": "$1,234.50", "ja": "$1,234.50", "th": "$1,234.50", "fr": "1\u202f234,50\u00a0$"}
    for lang, text in expect.items():
        i18n.set_language(lang)
        assert money(123450) == text
    i18n.set_language("en")
    assert money(2500, compact=True) == "$25" and money(-5) == "-$0.05"
    assert i18n.native_name("ja") == "日本語" and i18n.native_name("th") == "ไทย"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_string_renders_with_no_missing_glyph(lang, fonts):
    family = FAMILY_FOR_LANG[lang]
    _header, entries = read_po(po_path(lang))
    texts = [e.msgstr for e in entries]
    i18n.set_language(lang)
    texts += [money(123456789), money(-5, compact=True)]
    texts += [hand_name(s) for s in range(1, STRENGTH_MAX + 1, 97)]
    missing = set()
    for text in texts:
        clean = re.sub(r"\{\w*\}", "", text).replace(ZWSP, "")
        missing.update(fonts.missing(family, clean))
    assert missing == set(), (
        f"{lang}: no glyph for {sorted(missing)} (run assets/tools/build_fonts.py)"
    )


def test_language_names_render_in_any_language(fonts):
    cache = TextCache(fonts)
    for lang in LANGUAGES:
        name = i18n.native_name(lang)
        for current in LANGUAGES:
            family = fonts.family_for(name, current)
            assert fonts.missing(family, name) == []
            assert cache.render(name, 20, (255, 255, 255), lang=current).get_width() > 0


def ink_top(font: pygame.font.Font, text: str) -> int:
    surf = font.render(text, True, (0, 0, 0), (255, 255, 255))
    rows = np.where((pygame.surfarray.array3d(surf)[:, :, 0] < 128).any(axis=0))[0]
    return int(rows.min())


def test_thai_tone_marks_are_shaped(fonts):
    """HarfBuzz in SDL_ttf positions marks: a tone mark sits higher over an upper vowel
    (ที่) than alone (ท่); without mark-to-mark positioning both would be drawn at the same
    height and overlap the vowel."""
    font = fonts.get("latin", 64, thai=True)
    alone, stacked, vowel = ink_top(font, "ท่"), ink_top(font, "ที่"), ink_top(font, "ที")
    assert stacked < vowel, "the tone mark is above the vowel"
    assert stacked < alone - 3, "the tone mark moves up when there is a vowel under it"


def test_wrapping_japanese_and_thai_fits_the_width(fonts):
    cache = TextCache(fonts)
    for lang in ("ja", "th", "fr"):
        i18n.set_language(lang)
        text = i18n._(
            "You receive two cards face up and the dealer two cards face down. The five community cards "
            "are shown in two steps: three cards (the flop), then the last two (the turn and the river)."
        )
        lines = cache.wrap(text, 24, 300)
        assert len(lines) > 2
        assert all(cache.size(line, 24)[0] <= 300 for line in lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "").replace(ZWSP, "")
        if lang == "ja":
            assert not any(line.startswith(("、", "。", "）")) for line in lines)


def test_sound_files_are_short_and_silent_without_a_device(monkeypatch):
    from kiosk.ui import sound

    for name in sound.NAMES:
        with wave.open(str(sound.SOUND_DIR / f"{name}.wav")) as w:
            assert w.getnchannels() == 1 and w.getframerate() == 22050
            assert w.getnframes() / w.getframerate() < 1.5
    sounds = sound.Sounds()
    sounds.play("deal")  # the dummy driver: works
    sounds.play("win", on=False)

    def no_device(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: False)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    silent = sound.Sounds()
    assert not silent.available
    silent.play("deal")  # no crash
    assert silent.played == ["deal"]
