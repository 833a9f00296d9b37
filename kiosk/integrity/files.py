"""The program's file set and its canonical byte stream.

The program is every file under :data:`PROGRAM_DIRS` of the program root (the folder
that holds the ``kiosk`` package): the Python packages, their data files (the
evaluator's and the maths' ``.npz`` tables), the paytables (``.toml``), the screens'
catalogues (``.po`` and ``.mo``), the fonts and the sounds.  Left out are only files the
interpreter writes itself (``__pycache__`` folders, ``.pyc``/``.pyo``) and the release
manifest (:data:`MANIFEST_NAME`), which records the others.

The root is the checkout in a development tree and ``site-packages`` in an installed
one: the wheel carries every one of these files at the same relative path (``assets/``
as a folder beside ``kiosk/``, see ``pyproject.toml``), so both layouts give the same
file set, the same digests and the same manifest.

Canonical order: the files sorted by their path relative to the root, written with
``/`` separators and compared as UTF-8 bytes (so ``A`` < ``_`` < ``a``, whatever the
file system or locale lists first).

The canonical stream, which every digest and the CRC-16 read, is for each file in that
order::

    len(path) (4 bytes, big-endian) | path (UTF-8) | len(content) (8 bytes, big-endian) | content

so a changed byte, a renamed, added or removed file all change it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: The program root of this installation: the folder holding ``kiosk/``.
PROGRAM_ROOT = Path(__file__).resolve().parents[2]
#: The folders of the root that make up the program.
PROGRAM_DIRS: tuple[str, ...] = ("assets", "devices", "engine", "kiosk", "paytables")
#: The release manifest's path relative to the root (not part of the file set).
MANIFEST_NAME = "kiosk/integrity/manifest.json"
#: Bytes read at a time.
CHUNK = 1 << 20


class ProgramTreeError(ValueError):
    """The program root is not a program tree (a folder of :data:`PROGRAM_DIRS` is missing)."""


@dataclass(frozen=True)
class ProgramFile:
    """One file of the program: ``name`` relative to the root with ``/`` separators."""

    name: str
    path: Path

    def header(self, size: int) -> bytes:
        """The record header of this file in the canonical stream (``size`` in bytes)."""
        encoded = self.name.encode("utf-8")
        return len(encoded).to_bytes(4, "big") + encoded + size.to_bytes(8, "big")


def _excluded(name: str) -> bool:
    return name == MANIFEST_NAME or "/__pycache__/" in f"/{name}" or name.endswith((".pyc", ".pyo"))


def program_files(root: Path | None = None) -> list[ProgramFile]:
    """Every file of the program under ``root`` (default :data:`PROGRAM_ROOT`), in
    canonical order.  Raises :class:`ProgramTreeError` when a program folder is missing."""
    root = Path(root) if root is not None else PROGRAM_ROOT
    found: list[ProgramFile] = []
    for top in PROGRAM_DIRS:
        base = root / top
        if not base.is_dir():
            raise ProgramTreeError(f"{root} is not a program tree: {top}/ is missing")
        for folder, dirs, names in os.walk(base):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for file_name in names:
                path = Path(folder) / file_name
                name = path.relative_to(root).as_posix()
                if not _excluded(name) and path.is_file():
                    found.append(ProgramFile(name, path))
    found.sort(key=lambda f: f.name.encode("utf-8"))
    return found


def file_chunks(file: ProgramFile) -> Iterator[bytes]:
    """The file's record in the canonical stream: its header, then its content in chunks.

    The size in the header is the size when the file was opened; a file that changes
    while it is read raises :class:`ProgramTreeError` rather than give a wrong record."""
    with open(file.path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        yield file.header(size)
        read = 0
        while True:
            chunk = handle.read(CHUNK)
            if not chunk:
                break
            read += len(chunk)
            yield chunk
    if read != size:
        raise ProgramTreeError(f"{file.name} changed while it was read")


def program_stream(files: list[ProgramFile]) -> Iterator[bytes]:
    """The canonical stream of ``files`` (already in canonical order), in chunks."""
    for file in files:
        yield from file_chunks(file)
