"""Which medium a ledger file lives on, and the rule an installed cabinet keeps: the
files that witness the database (its anchor and its install marker) are on another
filesystem, so that putting back a copy of the database's medium (a rolled-back
folder, partition or card image) leaves the witness ahead of it.

Two paths are on the same filesystem when the nearest existing folder of each has the
same ``st_dev`` (:func:`same_filesystem`); the check is passed in as a function where
it is used, so that a test can play two folders as two media.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

#: ``same_filesystem(a, b)``: whether the files ``a`` and ``b`` are on one medium.
SameFilesystem = Callable[[Path, Path], bool]


def _device(path: Path) -> int:
    """``st_dev`` of ``path``, or of its nearest existing parent folder (a file not yet
    created lives where its folder is)."""
    here = Path(os.path.abspath(path))
    while True:
        try:
            return os.stat(here).st_dev
        except FileNotFoundError:
            if here.parent == here:
                raise
            here = here.parent


def same_filesystem(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are on the same filesystem (``st_dev`` of each, or of the
    nearest existing folder above it)."""
    return _device(Path(a)) == _device(Path(b))


def shared_medium_problem(
    db: Path, witnesses: dict[str, Path], same: SameFilesystem = same_filesystem
) -> tuple[str, str]:
    """Why an installed cabinet must not start with its ``witnesses`` (name -> file:
    ``anchor_path``, ``install_marker``) where they are: (the name, the reason), or
    ``("", "")`` when each is on another filesystem than the database ``db``.  The
    reason says the fix in words."""
    for name, path in witnesses.items():
        if same(Path(db), Path(path)):
            return name, (
                f"{path} is on the same filesystem as the ledger {db}: a copy of that "
                "medium put back would roll the ledger back unseen.  Put it on another "
                "medium (a second partition, the boot partition or a USB key: "
                "systemd/install.sh --witness-dir DIR) and set it in the configuration"
            )
    return "", ""
