"""The shape of the code: layers, import cycles, module sizes, types.

The import rule: ``engine`` imports none of kiosk, devices, pygame, serial, sqlite or
sockets; ``devices`` imports neither kiosk nor pygame; the ledger imports no controller;
the game's vocabulary and rules (``kiosk.game``) import no service; the game service
(``kiosk.service``) imports no network end (``kiosk.tablehost``) and no station; the
table host imports no station; none of them nor a station's controller imports a screen; the screens talk to a controller, never to a station's or
the service's internals; only the composition root (``kiosk.wiring``) and the command
line build the parts.  The service (``kiosk.service``, ``kiosk.game``) imports no
transport, only the models the wire carries; the wire (``kiosk.link``) imports only the
service's models; the screens import only the ports and their models.  No public
function of the service, the wire or a station's port has ``Any`` in its signature.  No module reaches itself through imports and no package reaches
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
    ("kiosk.ledger", ("pygame", "kiosk.game", "kiosk.service", "kiosk.tablehost", "kiosk.station",
                      "kiosk.sas", "kiosk.ui", "kiosk.wiring", "kiosk.commands")),
    # the game's vocabulary and rules: no service, station or screen
    ("kiosk.game", ("pygame", "kiosk.service", "kiosk.tablehost", "kiosk.station", "kiosk.sas", "kiosk.ui",
                    "kiosk.wiring", "kiosk.commands")),
    # the game service: no network end, no station, no screen, no composition
    ("kiosk.service", ("pygame", "kiosk.tablehost", "kiosk.station", "kiosk.ui", "kiosk.wiring",
                       "kiosk.commands")),
    # the table host (the service on the network): no station, no screen, no composition
    ("kiosk.tablehost", ("pygame", "kiosk.station", "kiosk.ui", "kiosk.wiring", "kiosk.commands")),
    # a station's controller and devices: no screen
    ("kiosk.station", ("pygame", "kiosk.ui", "kiosk.wiring", "kiosk.commands")),
    # the station's controller talks to its port, never to one of the port's adapters
    ("kiosk.station.controller", ("kiosk.station.local", "kiosk.station.remote", "kiosk.service.table",
                                  "kiosk.link.client")),
    # the screens talk to a station's port, never to a station's or the service's internals
    # (and only to the ports and their models: test_the_screens_import_only_ports_and_models)
    ("kiosk.ui", ("kiosk.station.local", "kiosk.station.notes", "kiosk.station.printer",
                  "kiosk.station.devices", "kiosk.service.table", "kiosk.service.state", "kiosk.service.money_in",
                  "kiosk.service.escrows", "kiosk.service.payouts", "kiosk.service.play", "kiosk.service.dispatch",
                  "kiosk.station.remote", "kiosk.tablehost.service", "kiosk.ledger.ledger", "kiosk.wiring",
                  "kiosk.commands",
                  # the operator menu sees the operator port only, never its adapters or the service
                  "kiosk.station.operator_link", "kiosk.station.operator_local",
                  "kiosk.station.operator_remote", "kiosk.station.operator_requests",
                  "kiosk.tablehost.operator_service")),
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
    """The package a module belongs to: ``kiosk.service.play`` -> ``kiosk.service``; a module
    at the top of ``kiosk`` (``kiosk.wiring``, ``kiosk.cli``) is its own."""
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
    source = "def f():\n    import pygame\n    from kiosk.game import controller\n"
    path = ROOT / "engine" / "_probe_.py"
    tree_imports = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            tree_imports.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            tree_imports.add(node.module or "")
    assert {"pygame", "kiosk.game"} <= tree_imports
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
    from kiosk.service.state import TableState
    from kiosk.service.table import Table

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


# -- the service, the wire and the screens: who may import what ----------------------------
#: The service: the game service (``kiosk.service``) and its vocabulary and rules
#: (``kiosk.game``).
SERVICE = ("kiosk.service", "kiosk.game")
#: What the service never imports: a transport (the link's framing, sockets, TLS and
#: pairing; sockets, serial lines, HTTP, the phones' web server, the casino system's
#: adapter).  From the link it may use only the models the wire carries (WIRE_MODELS).
TRANSPORT = ("socket", "ssl", "serial", "http", "urllib", "asyncio", "websockets", "aiohttp",
             "socketserver", "selectors", "kiosk.friends", "kiosk.sas")  # fmt: skip
#: The link's modules that are models (what the wire carries), not its transport.
WIRE_MODELS = ("kiosk.link.messages", "kiosk.link.outcomes", "kiosk.link.errors")
#: Service modules that are the network's ends, allowed the transport, each with its
#: reason.  Temporary: the lead empties this list as they move out of the service.
#: None left: the table host's network end is ``kiosk.tablehost``, a station's is
#: ``kiosk.station``.
SERVICE_NETWORK_ENDS: dict[str, str] = {}
#: What the wire (``kiosk.link``) may import from the rest of kiosk: the service's models
#: (commands, outcomes, errors, snapshots, ledger records), never the service itself.
WIRE_MAY_IMPORT = (
    "kiosk.game.commands", "kiosk.game.errors", "kiosk.game.error_codes",
    "kiosk.game.snapshot", "kiosk.game.vocabulary", "kiosk.game.rules.betting",
    "kiosk.service.device_commands", "kiosk.service.snapshot", "kiosk.service.display",
    "kiosk.ledger.kinds", "kiosk.ledger.records", "kiosk.ledger.meters", "kiosk.ledger.anchor",
    "devices.host",  # the devices' vocabulary (event kinds, print outcomes), no driver
)  # fmt: skip
#: What the screens (``kiosk.ui``) may import from the service, the stations, the ledger,
#: the link and the devices: the ports and the models they carry.  Everything else in
#: those packages (the service's core, the ledger's writer, the devices' drivers, the
#: link's transport) is out of bounds.  A station's port is any
#: module of ``kiosk.station`` named ``*link`` or ``*port`` (see _is_port).
SCREEN_BOUNDED = ("kiosk.service", "kiosk.station", "kiosk.ledger", "kiosk.link", "devices")
SCREEN_MAY_IMPORT = (
    "kiosk.service.snapshot", "kiosk.service.display",
    "kiosk.ledger.kinds", "kiosk.ledger.records", "kiosk.ledger.meters", "kiosk.ledger.errors",
    *WIRE_MODELS,
)  # fmt: skip
#: Screens that still reach past a port, each with the module it reaches (none: a pair
#: added here must name a reason, and fails below once it is no longer found).
SCREEN_CROSSINGS_LEFT: frozenset[tuple[str, str]] = frozenset()


def _is_port(module: str) -> bool:
    """A station's port: a module of ``kiosk.station`` named ``*link`` or ``*port`` (or
    in a ``ports`` package), whatever the port's rewrite makes of them."""
    if not _under(module, "kiosk.station"):
        return False
    parts = module.split(".")
    return parts[-1].endswith(("link", "port")) or "ports" in parts[2:]


def _transport(target: str) -> bool:
    if any(_under(target, t) for t in TRANSPORT):
        return True
    return _under(target, "kiosk.link") and target not in WIRE_MODELS


def test_the_service_imports_no_transport():
    graph = _graph()
    found, ends_left = [], set()
    for module, imported in sorted(graph.items()):
        if not any(_under(module, s) for s in SERVICE):
            continue
        crossing = sorted(t for t in imported if _transport(t))
        if crossing and module in SERVICE_NETWORK_ENDS:
            ends_left.add(module)
        elif crossing:
            found += [f"{module} imports {t}" for t in crossing]
    assert not found, "the service imports a transport:\n" + "\n".join(found)
    gone = sorted(set(SERVICE_NETWORK_ENDS) - ends_left)
    assert not gone, f"no longer a network end in the service, remove from SERVICE_NETWORK_ENDS: {gone}"


def test_the_wire_imports_only_the_services_models():
    found = []
    for module, imported in sorted(_graph().items()):
        if not _under(module, "kiosk.link"):
            continue
        for target in sorted(imported):
            kiosk = _under(target, "kiosk") and not _under(target, "kiosk.link")
            if (kiosk or _under(target, "devices")) and target not in WIRE_MAY_IMPORT:
                found.append(f"{module} imports {target}")
    assert not found, "the wire imports more than the service's models:\n" + "\n".join(found)


def test_the_screens_import_only_ports_and_models():
    found, left = [], set()
    for module, imported in sorted(_graph().items()):
        if not _under(module, "kiosk.ui"):
            continue
        for target in sorted(imported):
            bounded = any(_under(target, b) for b in SCREEN_BOUNDED)
            if not bounded or target in SCREEN_MAY_IMPORT or _is_port(target):
                continue
            if (module, target) in SCREEN_CROSSINGS_LEFT:
                left.add((module, target))
            else:
                found.append(f"{module} imports {target}")
    assert not found, "a screen reaches past the ports:\n" + "\n".join(found)
    gone = sorted(SCREEN_CROSSINGS_LEFT - left)
    assert not gone, f"fixed, remove from SCREEN_CROSSINGS_LEFT: {gone}"


def test_the_port_pattern_finds_the_ports():
    modules = _modules()
    assert [m for m in modules if _is_port(m)], "no station port found: update _is_port"
    assert _is_port("kiosk.station.link") and _is_port("kiosk.station.operator_link")
    assert _is_port("kiosk.station.port") and _is_port("kiosk.station.ports.local")
    assert not _is_port("kiosk.station.controller") and not _is_port("kiosk.link.client")


# -- no Any at the service's, the ports' and the wire's edges ------------------------------
#: Where public signatures name real types (no ``Any``, ``dict[str, Any]``...): the
#: service, the wire and a station's ports (_is_port: whatever modules they become).
TYPED_EDGES = ("kiosk.service", "kiosk.game", "kiosk.link")
#: Public functions allowed an ``Any`` ("module:qualified name"), each with its reason.
#: Temporary: the station port's rewrite replaces both; the lead empties the list after
#: merging it (an entry no longer found fails below).
ANY_LEFT: dict[str, str] = {}
#: The special methods that are part of a public signature.
_PUBLIC_DUNDERS = ("__init__", "__new__", "__call__")


def _mentions_any(node: ast.AST | None) -> bool:
    """Whether an annotation names ``Any`` (``typing.Any``, nested, or in a string)."""
    if node is None:
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == "Any":
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == "Any":
            return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                inner = ast.parse(sub.value, mode="eval")
            except SyntaxError:
                continue
            if _mentions_any(inner):
                return True
    return False


def any_in_signatures(source: str) -> list[tuple[int, str]]:
    """(line, qualified name) of each public function or method of ``source`` with
    ``Any`` in a parameter's or the return's annotation."""
    found: list[tuple[int, str]] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.If):  # if TYPE_CHECKING: / else:
                visit(node.body, prefix)
                visit(node.orelse, prefix)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.name.startswith("_") and node.name not in _PUBLIC_DUNDERS:
                    continue
                a = node.args
                params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                notes = [p.annotation for p in params if p is not None] + [node.returns]
                if any(_mentions_any(n) for n in notes):
                    found.append((node.lineno, prefix + node.name))

    visit(ast.parse(source).body, "")
    return found


def _typed_edge_modules() -> dict[str, Path]:
    return {
        name: path
        for name, path in _modules().items()
        if (any(_under(name, e) for e in TYPED_EDGES) or _is_port(name))
        and not any(part.startswith("_") for part in name.split("."))  # a private module
    }


def test_the_any_guard_sees_an_any():
    source = (
        "from typing import Any\nimport typing\n"
        "def a(x: Any) -> int: ...\n"
        "def b(x: int) -> dict[str, Any]: ...\n"
        "def c(*args: Any, **kw: 'list[Any]') -> None: ...\n"
        "def d(x: typing.Any) -> None: ...\n"
        "class P:\n"
        "    def e(self) -> Any: ...\n"
        "    def __init__(self, x: Any) -> None: ...\n"
        "    def _private(self, x: Any) -> Any: ...\n"
        "    def __eq__(self, other: Any) -> bool: ...\n"
        "class _Hidden:\n"
        "    def f(self) -> Any: ...\n"
        "def g(x: object) -> int:\n"
        "    y: Any = x\n"
        "    def inner(z: Any) -> Any: ...\n"
        "    return 1\n"
        "if True:\n"
        "    def h() -> Any: ...\n"
    )
    assert any_in_signatures(source) == [
        (3, "a"), (4, "b"), (5, "c"), (6, "d"), (8, "P.e"), (9, "P.__init__"), (19, "h"),
    ]  # fmt: skip


def test_no_any_in_the_public_signatures_of_the_service_the_ports_and_the_wire():
    """A caller at the service's door, a port's or the wire's sees what it gets: the
    count of public functions with ``Any`` in their signatures stays 0 (ANY_LEFT aside)."""
    modules = _typed_edge_modules()
    assert any(_is_port(m) for m in modules) and "kiosk.service.table" in modules
    found, left = [], set()
    for name, path in sorted(modules.items()):
        for line, qualname in any_in_signatures(path.read_text(encoding="utf-8")):
            key = f"{name}:{qualname}"
            if key in ANY_LEFT:
                left.add(key)
            else:
                found.append(f"{path.relative_to(ROOT)}:{line}: {qualname}")
    assert not found, f"{len(found)} public signatures with Any:\n" + "\n".join(found)
    gone = sorted(set(ANY_LEFT) - left)
    assert not gone, f"no Any left there, remove from ANY_LEFT: {gone}"


#: The wire's bodies still carried as free JSON ("Class.field"), each with what it
#: carries.  Temporary: each becomes a typed model (issue 35: no ``dict[str, JsonValue]``
#: body where money or state moves); a new one fails, a replaced one must leave the list.
JSON_BODIES_LEFT: dict[str, str] = {
    "Snapshot.state": "a station's snapshot, the table's limits, paytable and ledger head",
    "OperatorReply.data": "an operator page's data (status, meters, paytables)",
    "RecallReply.rounds": "a station's recall of its last rounds",
}


def json_fields(source: str) -> list[tuple[int, str]]:
    """(line, "Class.field") of each field of a public class of ``source`` whose
    annotation names ``JsonValue`` or ``Any``."""
    found: list[tuple[int, str]] = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef) or node.name.startswith("_"):
            continue
        for item in node.body:
            if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
                continue
            names = {n.id for n in ast.walk(item.annotation) if isinstance(n, ast.Name)}
            if names & {"JsonValue", "Any"} or _mentions_any(item.annotation):
                found.append((item.lineno, f"{node.name}.{item.target.id}"))
    return found


def test_the_json_guard_sees_a_json_field():
    source = (
        "class A(_Model):\n    x: dict[str, JsonValue]\n    y: int\n    z: list[Any] = []\n"
        "class _B:\n    w: JsonValue\n"
    )
    assert json_fields(source) == [(2, "A.x"), (4, "A.z")]


def test_the_wire_carries_no_new_json_body():
    found, left = [], set()
    for name, path in sorted(_modules().items()):
        if not _under(name, "kiosk.link"):
            continue
        for line, field in json_fields(path.read_text(encoding="utf-8")):
            if field in JSON_BODIES_LEFT:
                left.add(field)
            else:
                found.append(f"{path.relative_to(ROOT)}:{line}: {field}")
    assert not found, "a wire body as free JSON (write its model):\n" + "\n".join(found)
    gone = sorted(set(JSON_BODIES_LEFT) - left)
    assert not gone, f"typed now, remove from JSON_BODIES_LEFT: {gone}"
