"""Every translation fits every box the screens lay it into, at 800x480.

The screens are driven through their input (table, pop-ups, the top bar's pages, the
tournament's screens) in English with the painter's :class:`TextLog` on: it records each
fitted text with its box.  Each recorded text is found in the English catalogue, and
that message's text in every catalogue is laid into the same box by the same rule the
widgets use; the test fails on any that overflows, naming the screen's file and line.
"""

from __future__ import annotations

import re
import string
from collections import defaultdict

import pytest
from test_tournament_ui import Cabinet, every_screen
from test_ui import WIN, Kiosk, start_round

from engine.hands.categories import STRENGTH_MAX
from kiosk.ui import i18n
from kiosk.ui.catalogues import po_path, read_po
from kiosk.ui.i18n import LANGUAGES, hand_name
from kiosk.ui.text import TextCache
from kiosk.ui.textlog import TextBox, TextLog
from kiosk.ui.widgets import best_fit

SIZE = (800, 480)


def catalogues() -> dict[str, dict[tuple[str | None, str], str]]:
    out = {}
    for lang in LANGUAGES:
        out[lang] = {e.key: e.msgstr for e in read_po(po_path(lang))[1] if e.msgstr}
    return out


def template_regex(text: str) -> re.Pattern[str] | None:
    """``"WIN {amount}"`` -> a regex capturing ``amount``; None for a text with no field."""
    parts, names = [], []
    for literal, name, _spec, _conv in string.Formatter().parse(text):
        parts.append(re.escape(literal))
        if name is not None:
            if not name or name in names:
                return None
            names.append(name)
            parts.append(f"(?P<{name}>.+?)")
    return re.compile("".join(parts) + r"\Z") if names else None


def drive(tmp_path) -> set[TextBox]:
    """The boxes of every text the screens fit, screens driven in English at 800x480."""
    log = TextLog()
    k = Kiosk(tmp_path / "table", SIZE, WIN, WIN)
    k.app.painter.log = log
    try:
        k.run(0.2)
        start_round(k)
        k.key("k")
        k.settle()
        k.key("k")
        k.settle()
        k.key("f")
        k.settle()
        k.run(1.0)
        for name in ("paytable", "help", "recall", "settings"):
            k.app.go(name)
            k.run(0.1)
        k.app.go("table")
        k.run(0.1)
    finally:
        k.close()
    c = Cabinet(tmp_path / "tournament", SIZE)
    c.app.painter.log = log
    try:
        c.run(0.1)
        for _where, _buttons in every_screen(c):
            c.scene.invalidate()
            c.app.step(1 / 60)
    finally:
        c.close()
    return log.boxes


def overflows(cache: TextCache, box: TextBox, text: str, lang: str) -> str | None:
    """Why ``text`` does not fit ``box`` in ``lang``, or None."""
    i18n.set_language(lang)
    if box.max_lines == 0:  # a paragraph: no word or phrase wider than the column
        width = box.boxes[0][0]
        lines = cache.wrap(text, box.px, width, box.bold, split_words=False)
        wide = [line for line in lines if cache.size(line, box.px, box.bold)[0] > width]
        return f"{wide[0]!r} is wider than {width} px" if wide else None
    fit = best_fit(cache, text, box.px, box.boxes, bold=box.bold, max_lines=box.max_lines,
                   floor=box.floor, prefer_first=box.prefer_first)
    if fit.fits:
        return None
    return (f"{text!r} needs {fit.width}x{fit.height} px at {fit.px} px in {len(fit.lines)} line(s); "
            f"boxes {box.boxes}")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    boxes = drive(tmp_path_factory.mktemp("fit"))
    i18n.set_language("en")
    return boxes


def test_every_translation_fits_its_box(recorded):
    cats = catalogues()
    by_text: dict[str, list[tuple[str | None, str]]] = defaultdict(list)
    templates = []
    for key, msgstr in cats["en"].items():
        by_text[msgstr].append(key)
        rx = template_regex(msgstr)
        if rx is not None and key[0] != "hand":
            templates.append((rx, key))
    hand_rx = [template_regex(t) for t in (i18n.tr(m) for m in i18n.HAND_TEMPLATES.values())]
    cache = TextCache()
    longest_hands: dict[str, list[str]] = {}
    problems, seen = [], set()
    for box in sorted(recorded, key=lambda b: (b.where, b.text)):
        keys = by_text.get(box.text, [])
        texts: dict[str, list[str]] = {}
        if keys:
            seen.update(keys)
            for lang in LANGUAGES:
                texts[lang] = [cats[lang][key] for key in keys if key in cats[lang]]
        elif any(rx is not None and rx.match(box.text) for rx in hand_rx):
            for lang in LANGUAGES:
                if lang not in longest_hands:
                    i18n.set_language(lang)
                    names = {hand_name(s) for s in range(1, STRENGTH_MAX + 1)}
                    longest_hands[lang] = sorted(names, key=lambda t: -cache.size(t, box.px, box.bold)[0])[:3]
                texts[lang] = longest_hands[lang]
        else:
            for rx, key in templates:
                m = rx.match(box.text)
                if m is None:
                    continue
                seen.add(key)
                for lang in LANGUAGES:
                    if key in cats[lang]:
                        try:
                            texts.setdefault(lang, []).append(cats[lang][key].format(**m.groupdict()))
                        except (KeyError, IndexError, ValueError):
                            continue
                break
        for lang, variants in texts.items():
            for text in variants:
                why = overflows(cache, box, text, lang)
                if why:
                    problems.append(f"{box.where} [{lang}] {why}")
    i18n.set_language("en")
    assert len(seen) > 150, f"only {len(seen)} catalogue messages were seen on the screens"
    assert problems == [], "texts overflow their boxes at 800x480:\n" + "\n".join(sorted(set(problems)))
