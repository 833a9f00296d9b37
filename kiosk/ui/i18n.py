"""Languages: gettext catalogues, hand names, money.

The catalogues are ``kiosk/locale/<lang>/LC_MESSAGES/uth.po`` (compiled to ``uth.mo``
beside them) for English, Japanese, Thai and French.  msgids are the English text;
the English catalogue translates every msgid too, so a missing entry is caught by the
tests in every language alike.

The current language is process-wide (one player, one screen): :func:`set_language`
switches it at any moment, and every string drawn afterwards -- hand names and game
recall included -- comes from the new catalogue.  Strings are marked for extraction
with ``_("...")`` (translate now), ``N_("...")`` (mark only, translate later with
``_``), ``pgettext(ctx, "...")`` and ``P_(ctx, "...")``.

Counts use the catalogue's plural forms, never string assembly:
``ngettext("{n} hand", "{n} hands", n)`` (or :func:`count`, which also fills ``{n}``)
picks the form by the language's rule (:data:`PLURAL_FORMS`: English ``n != 1``, French
``n > 1``, Japanese and Thai one form).  A sentence about a player is written twice, in
the second person and the third (:class:`PersonMessage`): "You win", "Ike wins", never
a name put in front of one verb form.

Hand names are built from :func:`engine.hands.categories.hand_class` -- category and ranks --
with one template per category and three forms of each rank name (``{rank}``,
``{ranks}``, ``{of_ranks}`` and ``{rank2}``... for the second rank), never by
translating the engine's English sentence.

Tools (development)::

    python -m kiosk.ui.i18n extract   # update the .po files from the sources
    python -m kiosk.ui.i18n compile   # .po -> .mo (the msgfmt logic, standard library only)
"""

from __future__ import annotations

import ast
import gettext
import struct
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from engine.hands.categories import HandCategory, hand_class

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "uth"
LANGUAGES: tuple[str, ...] = ("en", "ja", "th", "fr")
DEFAULT_LANGUAGE = "en"

#: The plural rule of each language, as a .po header's ``Plural-Forms`` states it (used
#: when a compiled catalogue does not state its own).
PLURAL_FORMS: dict[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "ja": "nplurals=1; plural=0;",
    "th": "nplurals=1; plural=0;",
}

_translations: dict[str, gettext.NullTranslations] = {}
_current = DEFAULT_LANGUAGE
_generation = 0
_listeners: list[Callable[[str], None]] = []


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction; translate it later with :func:`_`."""
    return msgid


def P_(context: str, msgid: str) -> tuple[str, str]:
    """Mark a message with a context for extraction; translate later with :func:`pgettext`."""
    return context, msgid


def plural_index(lang: str, n: int) -> int:
    """Which plural form ``lang`` uses for ``n`` (0 for the first msgstr)."""
    return int(_plural_rule(lang)(abs(int(n))))


def _plural_rule(lang: str) -> Callable[[int], int]:
    expr = PLURAL_FORMS.get(lang, PLURAL_FORMS["en"]).split("plural=", 1)[1].rstrip("; ")
    return gettext.c2py(expr)  # type: ignore[attr-defined,no-any-return]


def translation(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (cached); an empty one if the .mo is missing.  A catalogue
    whose header states no ``Plural-Forms`` gets the rule of :data:`PLURAL_FORMS`."""
    tr = _translations.get(lang)
    if tr is None:
        try:
            tr = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
        except OSError:
            tr = gettext.NullTranslations()
        if isinstance(tr, gettext.GNUTranslations) and "plural-forms" not in tr.info():
            tr.plural = _plural_rule(lang)  # type: ignore[attr-defined]
        _translations[lang] = tr
    return tr


def reload_catalogues() -> None:
    """Forget loaded catalogues (after recompiling them)."""
    global _generation
    _translations.clear()
    _generation += 1


def set_language(lang: str) -> None:
    """Switch every string drawn from now on to ``lang`` (one of :data:`LANGUAGES`)."""
    global _current, _generation
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of {', '.join(LANGUAGES)}")
    if lang != _current:
        _current = lang
        _generation += 1
        for cb in list(_listeners):
            cb(lang)


def language() -> str:
    return _current


def generation() -> int:
    """Changes whenever the language changes: caches of drawn text compare it."""
    return _generation


def on_change(callback: Callable[[str], None]) -> None:
    _listeners.append(callback)


def next_language(lang: str | None = None) -> str:
    lang = lang or _current
    return LANGUAGES[(LANGUAGES.index(lang) + 1) % len(LANGUAGES)]


def _(msgid: str) -> str:
    """``msgid`` in the current language."""
    return translation(_current).gettext(msgid)


def pgettext(context: str, msgid: str) -> str:
    return translation(_current).pgettext(context, msgid)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` in the current language (``{n}`` is left
    for the caller to fill; :func:`count` fills it)."""
    return translation(_current).ngettext(singular, plural, n)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translation(_current).npgettext(context, singular, plural, n)


def count(singular: str, plural: str, n: int, **fields: object) -> str:
    """``count("{n} hand", "{n} hands", 3)`` -> ``"3 hands"``: the plural form for ``n``
    with ``{n}`` and any other ``fields`` filled in."""
    return ngettext(singular, plural, n).format(n=n, **fields)


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted message for extraction; translate later with :func:`count`."""
    return singular, plural


@dataclass(frozen=True)
class PersonMessage:
    """One sentence about a player in the second person (``you``, about the player at
    this cabinet) and in the third (``other``, with a ``{name}`` field).  Both are msgids;
    write them with ``N_`` so they are extracted:
    ``WINS = PersonMessage(N_("You win {amount}"), N_("{name} wins {amount}"))``."""

    you: str
    other: str

    def format(self, *, is_you: bool, name: str = "", **fields: object) -> str:
        """The sentence in the current language: the second person when ``is_you``."""
        if is_you:
            return _(self.you).format(**fields)
        return _(self.other).format(name=name, **fields)


def tr(message: str | tuple[str, str]) -> str:
    """Translate a marked message: a plain msgid (``N_``) or a ``(context, msgid)`` pair."""
    if isinstance(message, tuple):
        return pgettext(*message)
    return _(message)


def native_name(lang: str) -> str:
    """The language's own name, from its own catalogue (``English``, ``日本語``...)."""
    # Translators: the name of your language written in your language.
    return translation(lang).pgettext("language name", "English")


# -- hand names ---------------------------------------------------------------------
_RANK = (
    P_("rank", "two"), P_("rank", "three"), P_("rank", "four"), P_("rank", "five"),
    P_("rank", "six"), P_("rank", "seven"), P_("rank", "eight"), P_("rank", "nine"),
    P_("rank", "ten"), P_("rank", "jack"), P_("rank", "queen"), P_("rank", "king"),
    P_("rank", "ace"),
)
_RANKS = (
    P_("ranks", "twos"), P_("ranks", "threes"), P_("ranks", "fours"), P_("ranks", "fives"),
    P_("ranks", "sixes"), P_("ranks", "sevens"), P_("ranks", "eights"), P_("ranks", "nines"),
    P_("ranks", "tens"), P_("ranks", "jacks"), P_("ranks", "queens"), P_("ranks", "kings"),
    P_("ranks", "aces"),
)
# "of" + plural, for languages that elide (French: "de rois", "d'as").
_OF_RANKS = (
    P_("of ranks", "of twos"), P_("of ranks", "of threes"), P_("of ranks", "of fours"),
    P_("of ranks", "of fives"), P_("of ranks", "of sixes"), P_("of ranks", "of sevens"),
    P_("of ranks", "of eights"), P_("of ranks", "of nines"), P_("of ranks", "of tens"),
    P_("of ranks", "of jacks"), P_("of ranks", "of queens"), P_("of ranks", "of kings"),
    P_("of ranks", "of aces"),
)
#: Category -> template; placeholders {rank} {ranks} {of_ranks} {rank2} {ranks2} {of_ranks2}.
HAND_TEMPLATES: dict[HandCategory, tuple[str, str]] = {
    HandCategory.HIGH_CARD: P_("hand", "High card, {rank}"),
    HandCategory.PAIR: P_("hand", "Pair of {ranks}"),
    HandCategory.TWO_PAIR: P_("hand", "Two pair, {ranks} and {ranks2}"),
    HandCategory.THREE_OF_A_KIND: P_("hand", "Three of a kind, {ranks}"),
    HandCategory.STRAIGHT: P_("hand", "Straight, {rank} high"),
    HandCategory.FLUSH: P_("hand", "Flush, {rank} high"),
    HandCategory.FULL_HOUSE: P_("hand", "Full house, {ranks} over {ranks2}"),
    HandCategory.FOUR_OF_A_KIND: P_("hand", "Four of a kind, {ranks}"),
    HandCategory.STRAIGHT_FLUSH: P_("hand", "Straight flush, {rank} high"),
    HandCategory.ROYAL_FLUSH: P_("hand", "Royal flush"),
}
#: Category names alone (pay lines).
CATEGORY_NAMES: dict[HandCategory, tuple[str, str]] = {
    HandCategory.HIGH_CARD: P_("category", "High card"),
    HandCategory.PAIR: P_("category", "Pair"),
    HandCategory.TWO_PAIR: P_("category", "Two pair"),
    HandCategory.THREE_OF_A_KIND: P_("category", "Three of a kind"),
    HandCategory.STRAIGHT: P_("category", "Straight"),
    HandCategory.FLUSH: P_("category", "Flush"),
    HandCategory.FULL_HOUSE: P_("category", "Full house"),
    HandCategory.FOUR_OF_A_KIND: P_("category", "Four of a kind"),
    HandCategory.STRAIGHT_FLUSH: P_("category", "Straight flush"),
    HandCategory.ROYAL_FLUSH: P_("category", "Royal flush"),
}
HAND_PLACEHOLDERS = frozenset({"rank", "ranks", "of_ranks", "rank2", "ranks2", "of_ranks2"})

#: Card rank letters as printed on the cards (not translated: the deck is the deck).
RANK_LETTERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _rank_forms(r: int, suffix: str = "") -> dict[str, str]:
    return {
        f"rank{suffix}": tr(_RANK[r]),
        f"ranks{suffix}": tr(_RANKS[r]),
        f"of_ranks{suffix}": tr(_OF_RANKS[r]),
    }


def hand_name(strength: int) -> str:
    """The name of the hand of ``strength`` (1..7462) in the current language."""
    cat, ranks = hand_class(int(strength))
    forms = _rank_forms(ranks[0]) if ranks else {}
    forms.update(_rank_forms(ranks[1] if len(ranks) > 1 else ranks[0], "2"))
    return tr(HAND_TEMPLATES[cat]).format(**forms)


def category_name(cat: HandCategory) -> str:
    return tr(CATEGORY_NAMES[HandCategory(cat)])


# -- money --------------------------------------------------------------------------
CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "THB": "฿", "JPY": "¥", "CAD": "$", "AUD": "$"}


def money(cents: int, currency: str = "USD", *, compact: bool = False) -> str:
    """``cents`` as the player reads it: ``$1,234.50`` (English), ``1 234,50 $`` (French).

    ``compact`` drops ``.00`` on whole amounts (chips, limits)."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(int(cents)), 100)
    sep = pgettext("number format", "thousands separator")
    point = pgettext("number format", "decimal point")
    digits = f"{whole:,}".replace(",", "\x00").replace("\x00", sep)
    amount = digits if compact and frac == 0 else f"{digits}{point}{frac:02d}"
    symbol = CURRENCY_SYMBOLS.get(currency, currency + " ")
    # Translators: how an amount is written; keep {sign}, {symbol} and {amount}.
    return pgettext("money", "{sign}{symbol}{amount}").format(sign=sign, symbol=symbol, amount=amount)


# -- catalogue tools (development; the tests use them to check the catalogues) -------
@dataclass
class Entry:
    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    comments: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    fuzzy: bool = False
    #: A counted message: its plural msgid and one msgstr per plural form (``msgstr`` is
    #: then the first form).
    msgid_plural: str | None = None
    msgstr_plural: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid


def _po_unquote(s: str) -> str:
    return ast.literal_eval(s) if s.startswith('"') else s


def _po_quote(s: str) -> str:
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" in out and len(out) > 1:
        parts = out.split("\n")
        lines = [p + "\\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        return '""\n' + "\n".join(f'"{line}"' for line in lines)
    return '"' + out.replace("\n", "\\n") + '"'


def read_po(path: Path) -> tuple[str, list[Entry]]:
    """Parse a .po file: (header msgstr, entries).  Handles the subset we write."""
    header = ""
    entries: list[Entry] = []
    cur: Entry | None = None
    field_name = ""
    comments: list[str] = []
    refs: list[str] = []
    fuzzy = False

    def flush() -> None:
        nonlocal cur, comments, refs, fuzzy, header
        if cur is not None:
            if cur.msgid == "" and cur.msgctxt is None:
                header = cur.msgstr
            else:
                cur.comments, cur.references, cur.fuzzy = comments, refs, fuzzy
                entries.append(cur)
        cur, comments, refs, fuzzy = None, [], [], False

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#"):
            if cur is not None and field_name.startswith("msgstr"):
                flush()
            if line.startswith("#:"):
                refs.append(line[2:].strip())
            elif line.startswith("#,"):
                fuzzy = fuzzy or "fuzzy" in line
            elif line.startswith("#."):
                comments.append(line[2:].strip())
            continue
        key, _sep, rest = line.partition(" ")
        if key.startswith("msgstr[") and cur is not None:
            field_name = key
            index = int(key[7:-1])
            while len(cur.msgstr_plural) <= index:
                cur.msgstr_plural.append("")
            cur.msgstr_plural[index] = _po_unquote(rest)
            cur.msgstr = cur.msgstr_plural[0]
            continue
        if key == "msgid_plural" and cur is not None:
            field_name = key
            cur.msgid_plural = _po_unquote(rest)
            continue
        if key in ("msgctxt", "msgid", "msgstr"):
            if key in ("msgctxt",) or (key == "msgid" and (cur is None or field_name.startswith("msgstr"))):
                if cur is not None and field_name.startswith("msgstr"):
                    flush()
                if cur is None:
                    cur = Entry(msgid="")
            assert cur is not None
            field_name = key
            value = _po_unquote(rest)
            if key == "msgctxt":
                cur.msgctxt = value
            elif key == "msgid":
                cur.msgid = value
            else:
                cur.msgstr = value
        elif line.startswith('"') and cur is not None:
            value = _po_unquote(line)
            if field_name == "msgctxt":
                cur.msgctxt = (cur.msgctxt or "") + value
            elif field_name == "msgid":
                cur.msgid += value
            elif field_name == "msgid_plural":
                cur.msgid_plural = (cur.msgid_plural or "") + value
            elif field_name.startswith("msgstr["):
                index = int(field_name[7:-1])
                cur.msgstr_plural[index] += value
                cur.msgstr = cur.msgstr_plural[0]
            else:
                cur.msgstr += value
    flush()
    return header, entries


def write_po(path: Path, header: str, entries: list[Entry]) -> None:
    out = ['msgid ""', "msgstr " + _po_quote(header), ""]
    for e in entries:
        out += [f"#. {c}" for c in e.comments]
        out += [f"#: {r}" for r in e.references]
        if e.fuzzy:
            out.append("#, fuzzy")
        if e.msgctxt is not None:
            out.append("msgctxt " + _po_quote(e.msgctxt))
        out.append("msgid " + _po_quote(e.msgid))
        if e.msgid_plural is not None:
            out.append("msgid_plural " + _po_quote(e.msgid_plural))
            out += [f"msgstr[{i}] " + _po_quote(form) for i, form in enumerate(e.msgstr_plural or [""])]
        else:
            out.append("msgstr " + _po_quote(e.msgstr))
        out.append("")
    path.write_text("\n".join(out), encoding="utf-8")


def compile_mo(header: str, entries: list[Entry]) -> bytes:
    """GNU .mo bytes (the standard library's Tools/i18n/msgfmt.py logic).

    Fuzzy and untranslated entries are left out, as msgfmt does."""
    messages: dict[str, str] = {"": header}
    for e in entries:
        if e.fuzzy or not e.msgstr:
            continue
        key = e.msgid if e.msgctxt is None else f"{e.msgctxt}\x04{e.msgid}"
        if e.msgid_plural is not None:
            if not all(e.msgstr_plural):
                continue
            messages[f"{key}\x00{e.msgid_plural}"] = "\x00".join(e.msgstr_plural)
        else:
            messages[key] = e.msgstr
    keys = sorted(messages)
    ids = strs = b""
    offsets = []
    for k in keys:
        kb, vb = k.encode("utf-8"), messages[k].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    keystart = 7 * 4 + 16 * len(keys)
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    out = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    out += struct.pack(f"{len(koffsets)}i", *koffsets) + struct.pack(f"{len(voffsets)}i", *voffsets)
    return out + ids + strs


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _source_files() -> Iterator[Path]:
    root = Path(__file__).resolve().parent
    yield from sorted(root.rglob("*.py"))


def _string_args(node: ast.Call, count: int) -> list[str] | None:
    """The first ``count`` arguments of a call when all are string literals."""
    args = node.args[:count]
    if len(args) < count or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
        return None
    return [a.value for a in args]  # type: ignore[attr-defined]


def extract_plurals() -> dict[tuple[str | None, str], str]:
    """Every counted message in ``kiosk/ui`` (``ngettext``, ``npgettext``, ``count``,
    ``NP_``): (context, singular msgid) -> plural msgid."""
    found: dict[tuple[str | None, str], str] = {}
    for path in _source_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            if name in ("ngettext", "count", "NP_"):
                got = _string_args(node, 2)
                if got:
                    found[(None, got[0])] = got[1]
            elif name == "npgettext":
                got = _string_args(node, 3)
                if got:
                    found[(got[0], got[1])] = got[2]
    return found


def extract_messages() -> dict[tuple[str | None, str], list[str]]:
    """Every marked message in ``kiosk/ui``: (context, msgid) -> source references.
    A counted message is listed by its singular msgid (:func:`extract_plurals` has its
    plural)."""
    found: dict[tuple[str | None, str], list[str]] = {}
    base = Path(__file__).resolve().parent.parent.parent
    for path in _source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            args = node.args
            if name in ("_", "N_") and len(args) == 1:
                key: tuple[str | None, str] | None = None
                if isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                    key = (None, args[0].value)
            elif (name in ("pgettext", "P_") and len(args) == 2
                  and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)
                  and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str)):
                key = (args[0].value, args[1].value)
            elif name in ("ngettext", "count", "NP_", "npgettext"):
                got = _string_args(node, 3 if name == "npgettext" else 2)
                if not got:
                    continue
                key = (got[0], got[1]) if name == "npgettext" else (None, got[0])
            else:
                continue
            if key is not None:
                found.setdefault(key, []).append(f"{path.relative_to(base)}:{node.lineno}")
    return found


def extract() -> None:
    """Update every .po: add new messages (empty, English filled in for ``en``), drop gone ones."""
    found = extract_messages()
    plurals = extract_plurals()
    for lang in LANGUAGES:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        header, old = read_po(path) if path.exists() else (
            f"Project-Id-Version: uth-cabinet\nLanguage: {lang}\nMIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n", [])
        if "Plural-Forms:" not in header:
            header += f"Plural-Forms: {PLURAL_FORMS.get(lang, PLURAL_FORMS['en'])}\n"
        by_key = {e.key: e for e in old}
        entries = []
        for key in sorted(found, key=lambda k: (found[k][0], k[0] or "", k[1])):
            e = by_key.get(key) or Entry(msgid=key[1], msgctxt=key[0])
            if key in plurals:
                e.msgid_plural = plurals[key]
                forms = int(PLURAL_FORMS.get(lang, PLURAL_FORMS["en"]).split("nplurals=")[1].split(";")[0])
                e.msgstr_plural = (e.msgstr_plural + [""] * forms)[:forms]
                if lang == "en" and not all(e.msgstr_plural):
                    e.msgstr_plural = [key[1], plurals[key]]
                e.msgstr = e.msgstr_plural[0]
            elif lang == "en" and not e.msgstr:
                e.msgstr = key[1]
            e.references = found[key][:3]
            entries.append(e)
        dropped = set(by_key) - set(found)
        write_po(path, header, entries)
        print(f"{path}: {len(entries)} messages, {sum(1 for e in entries if not e.msgstr)} untranslated, "
              f"{len(dropped)} dropped")


def compile_all() -> None:
    for lang in LANGUAGES:
        header, entries = read_po(po_path(lang))
        mo_path(lang).write_bytes(compile_mo(header, entries))
        print(f"{mo_path(lang)}: {sum(1 for e in entries if e.msgstr and not e.fuzzy)} messages")
    reload_catalogues()


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "extract":
        extract()
    elif cmd == "compile":
        compile_all()
    else:
        print("usage: python -m kiosk.ui.i18n extract|compile")
        sys.exit(2)
