"""Catalogue tools (development only): extraction, ``.po`` files and ``.mo`` compilation
on Babel (``babel.messages``).

The kiosk never imports this module: at run time :mod:`kiosk.ui.i18n` reads the compiled
``.mo`` files with the standard library's :mod:`gettext`, so a cabinet needs no Babel.
The tests, ``assets/tools/build_fonts.py`` and the translators' scripts use it.

What is extracted is set by ``babel.cfg`` at the repository root: every ``*.py`` under
``kiosk/ui`` and ``kiosk/station`` (the screens, and a table station's own) with the markers of :mod:`kiosk.ui.i18n` (``_``, ``N_``, ``P_``,
``pgettext``, ``ngettext``, ``count``, ``NP_``, ``npgettext``) and the comments that start
with ``Translators:``.  The same work from the command line, at the repository root::

    pybabel extract -F babel.cfg --project=uth-cabinet --version=0.1.0 \\
        -o /tmp/uth.pot kiosk/ui kiosk/station
    pybabel update -D uth -d kiosk/locale -i /tmp/uth.pot \\
        --ignore-obsolete --no-fuzzy-matching
    pybabel compile -D uth -d kiosk/locale

or, doing the same and filling the English catalogue's new messages with their msgids::

    python -m kiosk.ui.catalogues extract    # sources -> every .po
    python -m kiosk.ui.catalogues compile    # every .po -> .mo

Both write the same files: :func:`extract` builds the template the way ``pybabel
extract`` does and updates each catalogue as ``pybabel update`` does (no fuzzy matching:
a changed msgid is a new, untranslated message; gone messages are dropped), and
:func:`compile_all` is ``pybabel compile``.

:class:`Entry`, :func:`read_po`, :func:`write_po` and :func:`compile_mo` are a plain view of
a catalogue for the tests and scripts that look at messages one by one.
"""

from __future__ import annotations

import ast
import copy
import io
import os
import sys
import tokenize
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages import Catalog
from babel.messages.catalog import Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.extract import extract_python as babel_extract_python
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po as babel_read_po
from babel.messages.pofile import write_po as babel_write_po
from babel.util import pathmatch

from kiosk.ui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, PLURAL_FORMS, reload_catalogues

ROOT = Path(__file__).resolve().parents[2]
#: The directories extraction walks, in order (``pybabel extract ... kiosk/ui kiosk/station``).
SOURCE_DIRS = (Path(__file__).resolve().parent, ROOT / "kiosk" / "station")
MAPPING = ROOT / "babel.cfg"
PROJECT, VERSION = "uth-cabinet", "0.1.0"

Key = tuple[str | None, str]


# -- the plain view ----------------------------------------------------------------
@dataclass
class Entry:
    """One message of a catalogue."""

    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    #: Extracted comments (``#.``), e.g. the ``Translators:`` notes.
    comments: list[str] = field(default_factory=list)
    #: Source references, ``"kiosk/ui/demo.py:127"``.
    references: list[str] = field(default_factory=list)
    fuzzy: bool = False
    #: A counted message: its plural msgid and one msgstr per plural form (``msgstr`` is
    #: then the first form).
    msgid_plural: str | None = None
    msgstr_plural: list[str] = field(default_factory=list)

    @property
    def key(self) -> Key:
        return self.msgctxt, self.msgid


def _entry(m: Message) -> Entry:
    refs = [f"{path}:{line}" if line else path for path, line in m.locations]
    comments = list(m.auto_comments)
    if isinstance(m.id, (tuple, list)):
        forms = [s or "" for s in (m.string or ())]
        return Entry(
            str(m.id[0]),
            forms[0] if forms else "",
            m.context,
            comments,
            refs,
            m.fuzzy,
            str(m.id[1]),
            forms,
        )
    return Entry(str(m.id), str(m.string or ""), m.context, comments, refs, m.fuzzy)


def _locations(refs: Iterable[str]) -> list[tuple[str, int]]:
    """``"a.py:12"`` -> ``("a.py", 12)``; a reference with no line gets line 0 (written
    without one)."""
    out: list[tuple[str, int]] = []
    for ref in refs:
        path, _sep, line = ref.rpartition(":")
        out.append((path, int(line)) if path and line.isdigit() else (ref, 0))
    return out


def header_text(catalog: Catalog) -> str:
    """The header entry's msgstr (``"Language: fr\\nPlural-Forms: ...\\n"...``)."""
    return "".join(f"{name}: {value.rstrip(chr(10))}\n" for name, value in catalog.mime_headers)


def _catalog(header: str, entries: Iterable[Entry]) -> Catalog:
    catalog = Catalog(project=PROJECT, version=VERSION, fuzzy=False)
    catalog.mime_headers = [
        (name.strip(), value.strip())
        for name, _sep, value in (line.partition(":") for line in header.splitlines())
        if _sep
    ]
    _normalise(catalog)
    for e in entries:
        flags = ["fuzzy"] if e.fuzzy else []
        if e.msgid_plural is not None:
            catalog.add(
                (e.msgid, e.msgid_plural),
                tuple(e.msgstr_plural or [e.msgstr]),
                _locations(e.references),
                flags,
                e.comments,
                context=e.msgctxt,
            )
        else:
            catalog.add(
                e.msgid, e.msgstr, _locations(e.references), flags, e.comments, context=e.msgctxt
            )
    return catalog


def read_po(path: Path) -> tuple[str, list[Entry]]:
    """A ``.po`` file as (header msgstr, entries); obsolete (``#~``) entries are left out."""
    catalog = load(path)
    return header_text(catalog), [_entry(m) for m in catalog if m.id]


def write_po(path: Path, header: str, entries: list[Entry]) -> None:
    """Write ``entries`` under ``header`` as a ``.po`` file (the header comment of an
    existing file is kept)."""
    catalog = _catalog(header, entries)
    if Path(path).exists():
        catalog.header_comment = load(path).header_comment
    save(path, catalog)


def compile_mo(header: str, entries: list[Entry]) -> bytes:
    """GNU ``.mo`` bytes of the catalogue, as ``pybabel compile`` writes them: fuzzy and
    untranslated messages are left out."""
    buf = io.BytesIO()
    write_mo(buf, _catalog(header, entries))
    return buf.getvalue()


# -- extraction ----------------------------------------------------------------------
Extracted = tuple[int, str | tuple[str, ...], list[str], str | None]


def extract_python(
    fileobj: io.BufferedIOBase | io.BytesIO,
    keywords: Mapping[str, object],
    comment_tags: Collection[str],
    options: Mapping[str, object],
) -> Iterator[Extracted]:
    """Babel's Python extractor (``babel.cfg`` names it), plus the markers inside
    f-string replacement fields (``f"{_('Ante')} {amount}"``) on Python before 3.12,
    where an f-string is one token that Babel cannot look into; from 3.12 on Babel reads
    them itself."""
    source = fileobj.read()
    found: list[Extracted] = list(
        babel_extract_python(io.BytesIO(source), keywords, comment_tags, options)  # type: ignore[arg-type]
    )
    if not hasattr(tokenize, "FSTRING_START"):
        found += _fstring_fields(source.decode("utf-8"), keywords, comment_tags, options)
        found.sort(key=lambda r: r[0])
    yield from found


def _fstring_fields(
    text: str,
    keywords: Mapping[str, object],
    comment_tags: Collection[str],
    options: Mapping[str, object],
) -> Iterator[Extracted]:
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        prefix = tok.string[: len(tok.string) - len(tok.string.lstrip("bBfFrRuU"))]
        if tok.type != tokenize.STRING or "f" not in prefix.lower() or "{" not in tok.string:
            continue
        node = ast.parse(tok.string, mode="eval").body
        assert isinstance(node, ast.JoinedStr)
        for part in node.values:
            if not isinstance(part, ast.FormattedValue):
                continue
            code = ast.get_source_segment(tok.string, part.value)
            if not code:
                continue
            base = tok.start[0] + part.value.lineno - 1
            for lineno, message, comments, context in extract_python(
                io.BytesIO(code.encode("utf-8")), keywords, comment_tags, options
            ):
                yield base + lineno - 1, message, comments, context


# -- catalogues --------------------------------------------------------------------
def po_path(lang: str, locale_dir: Path | None = None) -> Path:
    """The catalogue of ``lang`` under ``locale_dir`` (by default the kiosk's)."""
    return (locale_dir or LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str, locale_dir: Path | None = None) -> Path:
    return (locale_dir or LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _normalise(catalog: Catalog) -> None:
    # A header "Project-Id-Version: uth-cabinet" is read as version "uth-cabinet".
    if not catalog.project:
        catalog.project, catalog.version = PROJECT, VERSION


def load(path: Path | str) -> Catalog:
    """A ``.po`` file as a Babel :class:`~babel.messages.Catalog`."""
    with open(path, "rb") as f:
        catalog = babel_read_po(f)
    _normalise(catalog)
    return catalog


def save(path: Path | str, catalog: Catalog) -> None:
    """Write ``catalog`` as ``pybabel update`` does (obsolete messages dropped)."""
    buf = io.BytesIO()
    babel_write_po(buf, catalog, ignore_obsolete=True)
    Path(path).write_bytes(buf.getvalue())


def _source_files() -> Iterator[Path]:
    """The files under :data:`SOURCE_DIRS` in the order ``pybabel extract`` walks them."""
    for top in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
            for name in sorted(filenames):
                yield Path(dirpath) / name


def _relative(path: Path) -> str:
    """``path`` relative to the source directory it is under (its name if none)."""
    for top in SOURCE_DIRS:
        if path.is_relative_to(top):
            return path.relative_to(top).as_posix()
    return path.name


def _extracted() -> Iterator[tuple[str, int, str | tuple[str, ...], list[str], str | None]]:
    """(reference path, line, message, comments, context) for every marked message, by
    the mapping of ``babel.cfg``."""
    with open(MAPPING, encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, str(MAPPING))
    for path in _source_files():
        rel = _relative(path)
        ref = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
        found = [(pattern, method) for pattern, method in method_map if pathmatch(pattern, rel)]
        if not found:
            continue
        pattern, method = found[0]
        options = options_map.get(pattern, {})
        keywords = {**DEFAULT_KEYWORDS, **options.get("keywords", {})}
        tags = tuple(options.get("add_comments", ()))
        for lineno, message, comments, context in extract_from_file(
            method, str(path), keywords=keywords, comment_tags=tags, options=options
        ):
            yield ref, lineno, message, comments, context


def template() -> Catalog:
    """The messages of the sources, as ``pybabel extract`` collects them (the .pot)."""
    pot = Catalog(project=PROJECT, version=VERSION, fuzzy=False)
    for ref, lineno, message, comments, context in _extracted():
        pot.add(message, None, [(ref, lineno)], auto_comments=comments, context=context)
    return pot


def extract_messages() -> dict[Key, list[str]]:
    """Every marked message in ``kiosk/ui`` and ``kiosk/station``: (context, msgid) -> source references.  A
    counted message is listed by its singular msgid (:func:`extract_plurals` has its
    plural)."""
    found: dict[Key, list[str]] = {}
    for ref, lineno, message, _comments, context in _extracted():
        msgid = message[0] if isinstance(message, tuple) else message
        found.setdefault((context, msgid), []).append(f"{ref}:{lineno}")
    return found


def extract_plurals() -> dict[Key, str]:
    """Every counted message in ``kiosk/ui`` (``ngettext``, ``npgettext``, ``count``,
    ``NP_``): (context, singular msgid) -> plural msgid."""
    return {
        (context, message[0]): message[1]
        for _ref, _line, message, _comments, context in _extracted()
        if isinstance(message, tuple)
    }


def _content(catalog: Catalog) -> list[tuple[object, ...]]:
    return [
        (
            m.id,
            m.context,
            m.string,
            tuple(m.locations),
            tuple(sorted(m.flags)),
            tuple(m.auto_comments),
        )
        for m in catalog
        if m.id
    ] + [(catalog.plural_forms,)]


def update(
    lang: str, pot: Catalog | None = None, locale_dir: Path | None = None
) -> tuple[int, int, int]:
    """Update the catalogue of ``lang`` from the sources (or ``pot``) as ``pybabel update
    --ignore-obsolete --no-fuzzy-matching`` does; the English catalogue's new messages get
    their msgid as translation.  The file is rewritten only when a message changed.
    Returns (messages, untranslated, dropped)."""
    pot = pot if pot is not None else template()
    path = po_path(lang, locale_dir)
    if path.exists():
        catalog = load(path)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(locale=lang, project=PROJECT, version=VERSION, fuzzy=False)
        # The cabinet's rule, not CLDR's (Babel gives French a third form for millions).
        catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS.get(lang, PLURAL_FORMS["en"]))]
    before = _content(catalog)
    # Catalog.update puts the template's own Message objects in the catalogue: a copy
    # keeps one language's strings out of the next.
    catalog.update(copy.deepcopy(pot), no_fuzzy_matching=True)
    dropped = len(catalog.obsolete)
    if lang == "en":
        for m in catalog:
            if m.id and not _translated(m.string):
                m.string = m.id
    if _content(catalog) != before or not path.exists():
        save(path, catalog)
    messages = [m for m in catalog if m.id]
    untranslated = sum(1 for m in messages if not _translated(m.string))
    return len(messages), untranslated, dropped


def _translated(string: object) -> bool:
    if isinstance(string, (tuple, list)):
        return all(string)
    return bool(string)


def extract(locale_dir: Path | None = None) -> None:
    """Update every ``.po`` from the sources (see :func:`update`)."""
    pot = template()
    for lang in LANGUAGES:
        n, untranslated, dropped = update(lang, pot, locale_dir)
        print(
            f"{po_path(lang, locale_dir)}: {n} messages, {untranslated} untranslated, {dropped} dropped"
        )


def compile_catalogue(lang: str, locale_dir: Path | None = None) -> int:
    """``.po`` -> ``.mo`` for ``lang`` (``pybabel compile``); the number of messages
    compiled."""
    catalog = load(po_path(lang, locale_dir))
    buf = io.BytesIO()
    write_mo(buf, catalog)
    mo_path(lang, locale_dir).write_bytes(buf.getvalue())
    return sum(1 for m in catalog if m.id and m.string and not m.fuzzy)


def compile_all(locale_dir: Path | None = None) -> None:
    """Compile every catalogue; the kiosk's loaded catalogues are then reloaded."""
    for lang in LANGUAGES:
        n = compile_catalogue(lang, locale_dir)
        print(f"{mo_path(lang, locale_dir)}: {n} messages")
    reload_catalogues()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    cmd = args[0] if args else ""
    if cmd == "extract":
        extract()
    elif cmd == "compile":
        compile_all()
    else:
        print("usage: python -m kiosk.ui.catalogues extract|compile")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
