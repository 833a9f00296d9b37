"""The refusal codes: one enum, every code the source raises a member of it, every member
with a message, every message translated with the same placeholders."""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.game.error_codes import BetRule, ErrorCode
from kiosk.game.errors import MachineError, PlayDisabled, TicketRefused, WrongState
from kiosk.ui import i18n
from kiosk.ui.catalogues import Entry, po_path, read_po
from kiosk.ui.machine_messages import GENERIC, MESSAGES, NEEDED, RULES, message

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("kiosk", "devices", "engine")
TRANSLATED = ("fr", "ja", "th")
ENUM_MODULE = ROOT / "kiosk" / "game" / "error_codes.py"


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


# -- the source, read as syntax ----------------------------------------------------------
def parsed(packages: tuple[str, ...] = PACKAGES) -> Iterator[tuple[Path, ast.Module]]:
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def error_family(modules: list[tuple[Path, ast.Module]]) -> set[str]:
    """The names of MachineError and every class that derives from it, in any module."""
    family = {"MachineError"}
    classes = [n for _p, m in modules for n in ast.walk(m) if isinstance(n, ast.ClassDef)]
    grown = True
    while grown:
        grown = False
        for c in classes:
            bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in c.bases}
            if c.name not in family and bases & family:
                family.add(c.name)
                grown = True
    return family


def code_member(node: ast.expr) -> str | None:
    """``X`` when ``node`` is ``ErrorCode.X``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "ErrorCode":
            return node.attr
    return None


def enclosing_parameters(tree: ast.Module) -> dict[int, dict[str, str]]:
    """For every call inside a function: its parameters' annotations, by the call's id."""
    found: dict[int, dict[str, str]] = {}
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]
            notes = {a.arg: ast.unparse(a.annotation) for a in args if a.annotation}
            for inner in ast.walk(func):
                if isinstance(inner, ast.Call):
                    found.setdefault(id(inner), {}).update(notes)
    return found


def is_family_call(call: ast.Call, family: set[str]) -> bool:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id in family
    if isinstance(f, ast.Attribute):
        return f.attr in family
    # type(exc)(...): the same class as a caught refusal
    return isinstance(f, ast.Call) and isinstance(f.func, ast.Name) and f.func.id == "type"


Site = tuple[str, frozenset[str]]  # "path:line", the params keys it passes


def scan(modules: list[tuple[Path, ast.Module]]) -> tuple[dict[str, list[Site]], list[str]]:
    """Every ``ErrorCode`` member a MachineError-family call or class gives as its code
    (member -> where, with the params keys it passes), and every code written any other
    way (a string, a variable not typed ErrorCode...)."""
    family = error_family(modules)
    raised: dict[str, list[Site]] = {}
    bad: list[str] = []
    for path, tree in modules:
        rel = path.relative_to(ROOT)
        params_of = enclosing_parameters(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in family:
                for stmt in node.body:
                    targets = (
                        [t.id for t in stmt.targets if isinstance(t, ast.Name)]
                        if isinstance(stmt, ast.Assign)
                        else [stmt.target.id]
                        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                        else []
                    )
                    value = getattr(stmt, "value", None)
                    if "code" in targets and value is not None:
                        member = code_member(value)
                        if member is None:
                            bad.append(f"{rel}:{stmt.lineno} class {node.name}: {ast.unparse(value)}")
                        else:
                            raised.setdefault(member, []).append((f"{rel}:{stmt.lineno}", frozenset()))
            if not (isinstance(node, ast.Call) and is_family_call(node, family)):
                continue
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            code = kw.get("code")
            if code is None:
                continue
            where = f"{rel}:{node.lineno}"
            member = code_member(code)
            if member is not None:
                params = kw.get("params")
                keys = (
                    {k.value for k in params.keys if isinstance(k, ast.Constant)}
                    if isinstance(params, ast.Dict)
                    else set()
                )
                raised.setdefault(member, []).append((where, frozenset(keys)))
            elif isinstance(code, ast.Attribute) and code.attr == "code":
                continue  # another refusal's code passed on (``code=exc.code``)
            elif isinstance(code, ast.Name) and params_of.get(id(node), {}).get(code.id) in (
                "ErrorCode",
                "'ErrorCode'",
            ):
                continue  # a helper's parameter typed ErrorCode (mypy checks its callers)
            else:
                bad.append(f"{where}: code={ast.unparse(code)}")
    return raised, bad


@pytest.fixture(scope="module")
def source() -> tuple[dict[str, list[Site]], list[str]]:
    return scan(list(parsed()))


def test_every_code_the_source_raises_is_a_member(source):
    raised, bad = source
    assert bad == [], "codes not written as ErrorCode.X:\n" + "\n".join(bad)
    unknown = {m: where for m, where in raised.items() if m not in ErrorCode.__members__}
    assert unknown == {}
    assert len(raised) > 40  # the scan sees the raise sites


def test_every_member_is_raised_somewhere():
    """No stale member: each is named as ``ErrorCode.X`` by the code outside the enum and
    the messages."""
    used = set()
    for path, tree in parsed():
        if path == ENUM_MODULE or path.name == "machine_messages.py":
            continue
        used |= {m for n in ast.walk(tree) if isinstance(n, ast.expr) and (m := code_member(n))}
    assert set(ErrorCode.__members__) - used == set()


def test_the_scan_catches_a_free_string_and_a_misspelt_member(tmp_path):
    tree = ast.parse(
        "class WrongState(MachineError): ...\nclass PlayDisabled(MachineError): ...\n"
        "class Late(WrongState):\n    code = 'late'\n"
        "def f(reason: str, code: str) -> None:\n"
        "    raise WrongState('x', code='no_credits')\n"
        "def g(code: str) -> None:\n"
        "    raise PlayDisabled('x', code=code)\n"
        "def h(code: ErrorCode) -> None:\n"
        "    raise PlayDisabled('x', code=code)\n"
        "raise MachineError('x', code=ErrorCode.NO_CREDIT)\n"
        "raise ValueError('x', code='anything')\n"
    )
    raised, bad = scan([(ROOT / "kiosk" / "example.py", tree)])
    assert [b.split(":", 1)[1] for b in bad] == [
        "4 class Late: 'late'",
        "6: code='no_credits'",
        "8: code=code",
    ]
    assert set(raised) == {"NO_CREDIT"}
    assert "NO_CREDIT" not in ErrorCode.__members__


def test_a_code_must_be_a_member():
    exc = WrongState("x", code=ErrorCode.NO_CREDITS)
    assert exc.code == "no_credits" and exc.code is ErrorCode.NO_CREDITS
    assert TicketRefused("x", code="ticket_expired").code is ErrorCode.TICKET_EXPIRED  # type: ignore[arg-type]
    assert PlayDisabled("x").code is ErrorCode.PLAY_DISABLED
    with pytest.raises(ValueError):
        WrongState("x", code="no_credit")  # type: ignore[arg-type]
    with pytest.raises(ValueError):

        class Late(MachineError):
            code = "late"  # type: ignore[assignment]


def test_placeholders_come_from_the_params_every_raise_site_passes(source):
    raised, _bad = source
    missing = []
    for member, sites in raised.items():
        wanted = fields(MESSAGES[ErrorCode[member]])
        for where, keys in sites:
            if wanted - keys:
                missing.append(f"{member} at {where}: {sorted(wanted - keys)}")
    assert missing == []


# -- the messages --------------------------------------------------------------------------
def test_every_member_has_a_message():
    assert set(MESSAGES) == set(ErrorCode)
    assert set(RULES) == set(BetRule)
    assert all(isinstance(m, str) and m.strip() for m in MESSAGES.values())


def all_msgids() -> set[str]:
    return {*MESSAGES.values(), *RULES.values(), NEEDED, GENERIC}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    entries: dict[str, Entry] = {
        e.msgid: e for e in read_po(po_path(lang))[1] if e.msgctxt is None
    }
    problems = []
    for msgid in sorted(all_msgids()):
        e = entries.get(msgid)
        if e is None or not e.msgstr.strip() or e.fuzzy:
            problems.append(f"untranslated: {msgid!r}")
        elif fields(e.msgstr) != fields(msgid):
            problems.append(f"placeholders differ: {msgid!r} -> {e.msgstr!r}")
    assert problems == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_code_reads_in_every_language(lang):
    sample = {"limit": 1_000_000, "needed": 1_600, "credits": 1_500, "cents": 500}
    try:
        i18n.set_language(lang)
        for code in ErrorCode:
            text = message(code, sample)
            assert text.strip() and "{" not in text, (lang, code)
            i18n.set_language("en")
            english = message(code, sample)
            i18n.set_language(lang)
            assert text != english or not any(c.isalpha() for c in english), (lang, code)
    finally:
        i18n.set_language("en")
