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

The catalogues are made with Babel (``pybabel extract/update/compile``, or
``python -m kiosk.ui.catalogues extract|compile``): see :mod:`kiosk.ui.catalogues`, a
development tool this module never imports (the cabinet reads the ``.mo`` files with
the standard library).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
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
