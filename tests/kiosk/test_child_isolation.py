"""Every child interpreter the cabinet starts runs isolated (``python -I``): a package
dropped in its working folder (on a cabinet, the writable data folder) is never
imported, and its answer never runs in the cabinet's process."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.uth.paytable import load_paytable
from kiosk.game.paytables.maths_child import ChildMathsError, cache_optimal_analysis, run_in_child
from kiosk.integrity.digest import program_crc16
from kiosk.sas.link import program_signature

ROOT = Path(__file__).resolve().parents[2]

#: A ``kiosk`` package that, imported, leaves ``child-ran`` and answers a pickle that
#: would leave ``parent-ran`` where it is loaded.
DROPPED = """\
import os, pickle, sys
open("child-ran", "w").close()
class Payload:
    def __reduce__(self):
        return (os.system, ("touch parent-ran",))
sys.stdout.buffer.write(pickle.dumps(("ok", Payload())))
sys.stdout.write("FFFF\\n")
sys.stdout.flush()
os._exit(0)
"""


@pytest.fixture
def dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder, with a ``kiosk/`` package in it."""
    package = tmp_path / "kiosk"
    (package / "game" / "paytables").mkdir(parents=True)
    (package / "__init__.py").write_text(DROPPED)
    (package / "game" / "__init__.py").write_text("")
    (package / "game" / "paytables" / "__init__.py").write_text("")
    (package / "cli.py").write_text("")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_maths_child_does_not_import_a_package_in_its_working_folder(
    dropped: Path, monkeypatch: pytest.MonkeyPatch
):
    # the real child fails at once here: the PAR cache cannot be a file
    monkeypatch.setenv("UTH_PAR_CACHE", str(dropped / "kiosk" / "cli.py"))
    table = load_paytable(ROOT / "paytables" / "standard.toml")
    try:
        run_in_child(cache_optimal_analysis, table)
    except ChildMathsError:
        pass
    assert not (dropped / "child-ran").exists()
    assert not (dropped / "parent-ran").exists()


def test_the_rom_signature_child_does_not_import_a_package_in_its_working_folder(
    dropped: Path,
):
    assert program_signature(0xABCD) == program_crc16(0xABCD)
    assert not (dropped / "child-ran").exists()


def _commands(tree: ast.AST) -> list[ast.List | ast.Tuple]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.List | ast.Tuple)
        and node.elts
        and ast.unparse(node.elts[0]) == "sys.executable"
    ]


def test_every_child_command_line_of_the_program_is_isolated():
    """Every command line the program builds from ``sys.executable`` puts ``-I`` next."""
    found = []
    for top in ("kiosk", "devices", "engine"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in _commands(ast.parse(path.read_text(), str(path))):
                second = node.elts[1] if len(node.elts) > 1 else None
                flag = second.value if isinstance(second, ast.Constant) else None
                found.append((path.relative_to(ROOT).as_posix(), node.lineno, flag))
    assert len(found) >= 3, found  # the maths child, the ROM signature, the table demo
    assert [f for f in found if f[2] != "-I"] == []
