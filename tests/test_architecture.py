"""The shape of the code: layers, import cycles, module sizes, types.

The import rule: ``engine`` imports none of kiosk, devices, pygame, serial, sqlite or
sockets; ``devices`` imports neither kiosk nor pygame; the ledger imports no controller;
the game's rules (``kiosk.machine``), the game service (``kiosk.table``) and a station's
controller import no screen; the screens talk to a controller, never to a station's or
the service's internals; only the composition root (``kiosk.wiring``) and the command
line build the parts.  No module reaches itself through imports and no package reaches
itself through other packages (lazy imports inside functions and ``TYPE_CHECKING``
imports count: a cycle is a cycle).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "kiosk", "devices")
#: A module over WARN_LINES is a warning (split it by concept when one shows itself); over
#: MAX_LINES it fails: never split only to pass the count.
WARN_LINES = 600
MAX_LINES = 800

#: (importer prefix, forbidden import prefixes)
LAYER_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("engine", ("kiosk", "devices", "pygame", "serial", "sqlite3", "sqlite_utils", "socket")),
    ("devices", ("kiosk", "pygame")),
    # the ledger imports no controller, no screen, no link
    ("kiosk.ledger", ("pygame", "kiosk.machine", "kiosk.table", "kiosk.station", "kiosk.cabinet", "kiosk.sas",
                      "kiosk.ui", "kiosk.wiring", "kiosk.commands")),
    # the game's vocabulary and rules: no service, station or screen
    ("kiosk.machine", ("pygame", "kiosk.table", "kiosk.station", "kiosk.cabinet", "kiosk.sas", "kiosk.ui",
                       "kiosk.wiring", "kiosk.commands")),
    # the game service (the controller): no screen, no station, no composition
    ("kiosk.table", ("pygame", "kiosk.station", "kiosk.cabinet", "kiosk.ui", "kiosk.wiring", "kiosk.commands")),
    # a station's controller and devices: no screen
    ("kiosk.station", ("pygame", "kiosk.cabinet", "kiosk.ui", "kiosk.wiring", "kiosk.commands")),
    # the station's controller talks to its port, never to one of the port's adapters
    ("kiosk.station.controller", ("kiosk.station.local", "kiosk.station.remote", "kiosk.table.table",
                                  "kiosk.link.client")),
    ("kiosk.cabinet", ("pygame", "kiosk.ui", "kiosk.wiring", "kiosk.commands")),
    # the screens talk to a controller, never to a station's or the service's internals
    ("kiosk.ui", ("kiosk.station.local", "kiosk.station.port", "kiosk.station.notes", "kiosk.station.printer",
                  "kiosk.station.devices", "kiosk.table.table", "kiosk.table.state", "kiosk.table.money_in",
                  "kiosk.table.escrows", "kiosk.table.payouts", "kiosk.table.play", "kiosk.table.dispatch",
                  "kiosk.station.remote", "kiosk.table.host_service", "kiosk.ledger.ledger", "kiosk.wiring",
                  "kiosk.commands")),
    # only the composition root and the command line build things out of the parts
    ("kiosk.sas", ("pygame", "kiosk.ui", "kiosk.wiring", "kiosk.commands")),
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every module ``name`` imports (absolute names; for ``from a import b`` the
    submodule ``a.b`` when it is one, else ``a``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                out.add(sub if sub in modules else source)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_layers_are_not_crossed():
    crossings = []
    for module, imported in sorted(_graph().items()):
        for importer, forbidden in LAYER_RULES:
            if not _under(module, importer):
                continue
            for target in sorted(imported):
                if any(_under(target, f) for f in forbidden):
                    crossings.append(f"{module} imports {target}")
    assert not crossings, "layer crossings:\n" + "\n".join(crossings)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        # the worker's other tests (a config nested too deeply) rely on the usual limit
        sys.setrecursionlimit(limit)
    return found


def test_no_import_cycles():
    graph = _graph()
    for module, imported in graph.items():
        imported.discard(module)
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def _package_of(module: str) -> str:
    """The package a module belongs to: ``kiosk.table.play`` -> ``kiosk.table``; a module
    at the top of ``kiosk`` (``kiosk.wiring``, ``kiosk.cabinet``) is its own."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else parts[0]


def test_no_package_cycles():
    """Packages form layers: no two reach each other, even through third ones."""
    graph: dict[str, set[str]] = {}
    for module, imported in _graph().items():
        mine = _package_of(module)
        targets = graph.setdefault(mine, set())
        targets.update(_package_of(t) for t in imported if t.split(".")[0] in PACKAGES)
    for package, targets in graph.items():
        targets.discard(package)
    cycles = _cycles(graph)
    assert not cycles, "package cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_layer_rule_sees_lazy_imports():
    source = "def f():\n    import pygame\n    from kiosk.machine import controller\n"
    path = ROOT / "engine" / "_probe_.py"
    tree_imports = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            tree_imports.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            tree_imports.add(node.module or "")
    assert {"pygame", "kiosk.machine"} <= tree_imports
    assert not path.exists()


def test_no_module_is_too_long():
    long, warn = [], []
    for _name, path in sorted(_modules().items()):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
        elif lines > WARN_LINES:
            warn.append(f"{path.relative_to(ROOT)}: {lines} lines")
    if warn:
        warnings.warn(f"modules over {WARN_LINES} lines:\n" + "\n".join(warn), stacklevel=1)
    assert not long, f"modules over {MAX_LINES} lines:\n" + "\n".join(long)


@pytest.mark.heavy
@pytest.mark.parametrize("package", PACKAGES)
def test_mypy_is_clean(package):
    result = subprocess.run(
        [sys.executable, "-m", "mypy", package, "--ignore-missing-imports"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# -- the ledger's vocabulary ---------------------------------------------------------------
#: Where the kind-checking guard looks.
KIND_SCANNED = ("kiosk", "bench")
#: The ledger's methods that take an event kind, and where: the positions of the kind
#: arguments (None: every positional one) and their keyword.  ``record`` takes
#: ``(kind, detail)`` pairs after the station.  Checked against the code below, so a
#: renamed method or parameter fails here rather than silently escaping the guard.
KIND_ARGUMENTS: dict[str, tuple[tuple[int, ...] | None, str]] = {
    "event": ((0,), "kind"),  # Ledger.event, TableState.event: the one place rows are written
    "events": ((0,), "kinds"),  # LedgerView.events
    "ledger_events": ((0,), "kinds"),  # the controllers' read of it
    "last_event": (None, "kinds"),  # LedgerView.last_event(*kinds)
    "has_txn": ((1,), "kind"),  # LedgerView.has_txn(txn, kind)
    "txn_station": ((1,), "kind"),  # LedgerView.txn_station(txn, kind)
}
_KIND_SQL = re.compile(r"\bkind\s*(?:=|==|!=|<>|IN|NOT IN)\s*\(?\s*'(\w+)'", re.IGNORECASE)


def _literals(node: ast.AST | None) -> list[ast.Constant]:
    """The string constants an expression spells directly (in a tuple, list, set or either
    branch of a conditional)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [c for elt in node.elts for c in _literals(elt)]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _is_kind(node: ast.AST) -> bool:
    """``x.kind`` or a variable named ``kind``."""
    return (isinstance(node, ast.Attribute) and node.attr == "kind") or (
        isinstance(node, ast.Name) and node.id == "kind"
    )


def _kind_arguments(call: ast.Call) -> list[ast.AST]:
    """The arguments of ``call`` that are event kinds, when it calls a ledger method."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else None
    if name == "record":  # Table.record(station, (kind, detail), ...)
        return [a.elts[0] for a in call.args[1:] if isinstance(a, ast.Tuple) and a.elts]
    if name not in KIND_ARGUMENTS:
        return []
    positions, keyword = KIND_ARGUMENTS[name]
    found: list[ast.AST] = [
        a for i, a in enumerate(call.args) if positions is None or i in positions
    ]
    return found + [k.value for k in call.keywords if k.arg == keyword]


def kind_literals(source: str, values: set[str]) -> list[tuple[int, str]]:
    """(line, text) of each ledger event kind written as a string in ``source``: passed
    to the ledger's methods, compared with a ``kind``, matched as one, or in SQL text."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        spelled: list[ast.Constant] = []
        if isinstance(node, ast.Call):
            spelled = [c for a in _kind_arguments(node) for c in _literals(a)]
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            kinds_ops = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
            compares = all(isinstance(o, kinds_ops) for o in node.ops)
            if compares and any(_is_kind(o) for o in operands):
                spelled = [c for o in operands for c in _literals(o)]
        elif isinstance(node, ast.Match) and _is_kind(node.subject):
            spelled = [
                p.value
                for case in node.cases
                for p in ast.walk(case.pattern)
                if isinstance(p, ast.MatchValue) and isinstance(p.value, ast.Constant)
            ]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [(node.lineno, f"SQL {m[0]!r}") for m in _KIND_SQL.finditer(node.value)
                      if m[1] in values]  # fmt: skip
        found += [(c.lineno, repr(c.value)) for c in spelled if c.value in values]
    return sorted(set(found))


def test_the_kind_guard_targets_the_ledgers_api():
    import inspect

    from kiosk.ledger.ledger import Ledger
    from kiosk.table.state import TableState
    from kiosk.table.table import Table

    def params(fn: Callable[..., object]) -> list[str]:
        return [p for p in inspect.signature(fn).parameters if p != "self"]

    assert params(Ledger.event)[0] == params(TableState.event)[0] == "kind"
    assert params(Ledger.events)[0] == "kinds" and params(Ledger.last_event) == ["kinds"]
    assert params(Ledger.has_txn)[1] == params(Ledger.txn_station)[1] == "kind"
    assert params(Table.record) == ["station", "events"]


def test_the_kind_guard_sees_a_kind_spelt_as_text():
    values = {"bill_in", "tilt", "door_open", "power_down"}
    source = (
        'st.event("bill_in", {}, 1)\n'
        'ledger.event(kind="tilt")\n'
        'st.event("door_open" if x else EventKind.DOOR_CLOSED, {}, 1)\n'
        'ledger.events(("tilt", EventKind.BILL_IN), last=1)\n'
        'table.record(2, ("tilt", {}))\n'
        'if ev.kind == "tilt" or kind in ("door_open",) or "bill_in" != e.kind: pass\n'
        'match ev.kind:\n    case "tilt": pass\n'
        "conn.execute(\"SELECT id FROM events WHERE kind = 'power_down'\")\n"
        # not kinds: a button, another kind of thing, a kind the ledger has not
        'Button("tilt", (0, 0, 1, 1))\n'
        'if name == "tilt" or ev.kind == "connected": pass\n'
        'st.event(EventKind.TILT, {"by": "tilt"}, 1)\n'
        'ledger.event("tilted")\n'
    )
    assert [line for line, _ in kind_literals(source, values)] == [1, 2, 3, 4, 5, 6, 6, 6, 8, 9]


def test_ledger_event_kinds_are_never_written_as_text():
    """``EventKind.X``, never ``"x"``: a misspelt kind then fails at import or in mypy
    instead of recording (or finding) nothing."""
    from kiosk.ledger.kinds import EventKind

    values = {k.value for k in EventKind}
    found = []
    for package in KIND_SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, text in kind_literals(path.read_text(encoding="utf-8"), values):
                found.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert not found, "ledger event kinds written as text (use EventKind):\n" + "\n".join(found)
