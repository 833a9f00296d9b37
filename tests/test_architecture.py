"""The shape of the code: layers, import cycles, module sizes, types.

The import rule: ``engine`` imports none of kiosk, devices, pygame, serial, sqlite or
sockets; ``devices`` imports neither kiosk nor pygame; ``kiosk.machine`` and
``kiosk.ledger`` import no pygame; and no module reaches itself through imports (lazy
imports inside functions and ``TYPE_CHECKING`` imports count: a cycle is a cycle).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "kiosk", "devices")
MAX_LINES = 600

#: (importer prefix, forbidden import prefixes)
LAYER_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("engine", ("kiosk", "devices", "pygame", "serial", "sqlite3", "sqlite_utils", "socket")),
    ("devices", ("kiosk", "pygame")),
    ("kiosk.machine", ("pygame",)),
    ("kiosk.ledger", ("pygame",)),
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

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles():
    graph = _graph()
    for module, imported in graph.items():
        imported.discard(module)
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


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
    long = []
    for _name, path in sorted(_modules().items()):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
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
