"""The runtime the program runs on, as files: the interpreter, its standard library, every
file of every distribution installed where it imports from, the entry scripts and the
start-up hooks; and the configuration, apart.

The program's own files (:mod:`kiosk.integrity.files`) are the same in a checkout and in
an installed wheel; the runtime is what this interpreter would load besides them.  Its
files are named by part, so a digest can be printed part by part and a lab can see which
part differs:

* ``interpreter/NAME``: ``sys.executable`` with its links resolved, and the shared
  ``libpython`` when the interpreter is built with one;
* ``stdlib/PATH``: every file of the standard library's folder (``sysconfig``'s
  ``stdlib``, its ``lib-dynload`` extension modules and its ``test`` package included:
  whatever ``import`` can reach), its ``site-packages``/``dist-packages`` left out;
* ``site/PATH``: every file that a distribution's ``RECORD`` (``importlib.metadata``)
  lists under a ``site-packages``/``dist-packages`` folder of ``sys.path``, path
  relative to that folder, plus each such folder's ``*.pth`` files and
  ``sitecustomize``/``usercustomize`` modules (they run at every start whoever owns
  them);
* ``scripts/NAME``: the entry scripts (``uth``) and the other scripts the RECORDs list
  in the environment's ``bin`` folder, and ``pyvenv.cfg`` (which interpreter and which
  site folders the environment uses).

A name met twice (the same path in two site folders) keeps its first file, the one
``import`` finds.  Files a distribution lists but that are missing are left out (a
missing file changes the digest by its absence).  ``__pycache__`` and ``.pyc``/``.pyo``
are left out as for the program's own files, and so are the program's own files when a
distribution lists them (an installed wheel's RECORD does): they are in the program part.

The configuration part (``configuration/NAME``) is the cabinet's configuration file and a
paytable file it names outside the program's ``paytables/``; with no file, the cabinet runs
on the built-in defaults, which are program.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

from kiosk.integrity.files import PROGRAM_DIRS, PROGRAM_ROOT, ProgramFile

#: The parts of the runtime, in the order they follow the program's own files.
RUNTIME_PARTS: tuple[str, ...] = ("interpreter", "stdlib", "site", "scripts")
#: The name of the configuration part.
CONFIGURATION = "configuration"
#: The start-up hooks a site folder may hold besides its ``.pth`` files.
_HOOKS = ("sitecustomize.py", "usercustomize.py")


def _skipped(name: str) -> bool:
    return "/__pycache__/" in f"/{name}" or name.endswith((".pyc", ".pyo"))


def _sorted(files: dict[str, ProgramFile]) -> list[ProgramFile]:
    return sorted(files.values(), key=lambda f: f.name.encode("utf-8"))


def interpreter_files() -> list[ProgramFile]:
    """The interpreter's binary (links resolved) and its shared ``libpython``, if any."""
    found: dict[str, ProgramFile] = {}
    exe = Path(sys.executable).resolve()
    if exe.is_file():
        found[f"interpreter/{exe.name}"] = ProgramFile(f"interpreter/{exe.name}", exe)
    if sysconfig.get_config_var("Py_ENABLE_SHARED"):
        lib = sysconfig.get_config_var("LDLIBRARY") or ""
        libdir = sysconfig.get_config_var("LIBDIR") or ""
        path = Path(libdir, lib).resolve() if lib and libdir else None
        if path is not None and path.is_file():
            found[f"interpreter/{lib}"] = ProgramFile(f"interpreter/{lib}", path)
    return _sorted(found)


def stdlib_files() -> list[ProgramFile]:
    """Every file of the standard library's folder, but its site folders and bytecode."""
    base = Path(sysconfig.get_paths()["stdlib"])
    found: dict[str, ProgramFile] = {}
    for folder, dirs, names in os.walk(base):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "site-packages", "dist-packages")]
        for file_name in names:
            path = Path(folder) / file_name
            name = "stdlib/" + path.relative_to(base).as_posix()
            if not _skipped(name) and path.is_file():
                found[name] = ProgramFile(name, path)
    return _sorted(found)


def site_folders() -> list[Path]:
    """The ``site-packages``/``dist-packages`` folders on ``sys.path``, in its order
    (a checkout or a test folder on the path is not a site folder)."""
    seen: list[Path] = []
    for entry in sys.path:
        if entry and Path(entry).name in ("site-packages", "dist-packages"):
            path = Path(entry).resolve()
            if path.is_dir() and path not in seen:
                seen.append(path)
    return seen


def _own(path: str) -> bool:
    """Whether ``path`` (resolved) is one of the program's own files."""
    return path.startswith(_OWN_PREFIXES)


_OWN_PREFIXES = tuple(os.path.join(str(PROGRAM_ROOT), top) + os.sep for top in PROGRAM_DIRS)


def site_and_script_files() -> tuple[list[ProgramFile], list[ProgramFile]]:
    """The ``site/`` and ``scripts/`` parts (see the module's documentation)."""
    scripts_dir = os.path.realpath(sysconfig.get_paths()["scripts"])
    site: dict[str, ProgramFile] = {}
    scripts: dict[str, ProgramFile] = {}
    for folder in site_folders():
        base = str(folder) + os.sep
        for path in sorted(folder.iterdir()):
            if (path.suffix == ".pth" or path.name in _HOOKS) and path.is_file():
                site.setdefault(f"site/{path.name}", ProgramFile(f"site/{path.name}", path))
        for dist in metadata.distributions(path=[str(folder)]):
            for entry in dist.files or ():
                text = os.path.normpath(os.path.join(base, str(entry)))
                if text.startswith(base):
                    name = "site/" + text[len(base) :].replace(os.sep, "/")
                    if _skipped(name) or name in site:
                        continue
                    if not _own(text) and os.path.isfile(text):
                        site[name] = ProgramFile(name, Path(text))
                elif os.path.dirname(os.path.realpath(text)) == scripts_dir:
                    name = "scripts/" + os.path.basename(text)
                    if name not in scripts and os.path.isfile(text):
                        scripts[name] = ProgramFile(name, Path(text))
    for script in ("uth",):
        path = Path(scripts_dir) / script
        if path.is_file():
            scripts.setdefault(f"scripts/{script}", ProgramFile(f"scripts/{script}", path))
    cfg = Path(sys.prefix) / "pyvenv.cfg"
    if cfg.is_file():
        scripts["scripts/pyvenv.cfg"] = ProgramFile("scripts/pyvenv.cfg", cfg)
    return _sorted(site), _sorted(scripts)


def runtime_parts() -> dict[str, list[ProgramFile]]:
    """The runtime's files by part, in :data:`RUNTIME_PARTS` order, each in canonical
    order."""
    site, scripts = site_and_script_files()
    return {
        "interpreter": interpreter_files(),
        "stdlib": stdlib_files(),
        "site": site,
        "scripts": scripts,
    }


def runtime_files() -> list[ProgramFile]:
    """Every runtime file, part after part."""
    return [f for part in runtime_parts().values() for f in part]


def configuration_files(
    config_path: str | Path | None, paytable: str | Path | None = None
) -> list[ProgramFile]:
    """The configuration part: the configuration file (``None``: the built-in defaults,
    no file) and ``paytable`` when it is a file outside the program's ``paytables/``."""
    found: list[ProgramFile] = []
    if config_path:
        path = Path(config_path)
        found.append(ProgramFile(f"{CONFIGURATION}/{path.name}", path))
    if paytable:
        table = Path(paytable).resolve()
        if table.is_file() and not _own(str(table)):
            found.append(ProgramFile(f"{CONFIGURATION}/paytable/{table.name}", table))
    return found
