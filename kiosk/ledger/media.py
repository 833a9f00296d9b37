"""Which device a ledger file lives on, and the rule an installed cabinet keeps: the
files that witness the database (its anchor, its install marker, a file counter) are on
another *device* than the database, so that putting back an image of the database's
medium (a rolled-back folder, partition or whole card) leaves the witnesses ahead of it.

A path's device (:func:`medium_of`): the ``st_dev`` of its folder, its mount (fstype
and source, from ``/proc/self/mountinfo``) and the whole disks under it, found in sysfs
from ``/sys/dev/block/MAJ:MIN``:

* a partition (``mmcblk0p2``, ``sda1``): its parent disk (``mmcblk0``, ``sda``);
* a whole disk: itself;
* a device-mapper or md device (LVM, dm-crypt, RAID): the disks under each of its
  ``slaves``;
* a loop device: the disks under the filesystem holding its backing file (an image file
  on the card is that card), none when the file cannot be seen from here;
* no block device (major 0: tmpfs, overlay, a network or FUSE filesystem): no disk.

:func:`second_medium_problem` refuses, naming both devices: a witness folder that is
missing (its medium not mounted), on the database's filesystem (a medium not mounted
leaves its mount point there), on another partition of one of the database's disks (one
image of the card rolls both back), or, on either side, on a filesystem with no disk
this cabinet can find: it cannot be shown to be another device, and a tmpfs is lost at
every power-off.  That last refusal is lifted by :data:`NO_DISK_ALLOWED` set to ``1`` in
the environment: for tests and containers, whose only second filesystem is often a
tmpfs; never set on a cabinet (the unit does not, and power-up logs a warning when it is
used).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

#: The environment variable that accepts a witness on a filesystem with no disk found
#: under it (tests and containers only).
NO_DISK_ALLOWED = "UTH_WITNESS_WITHOUT_DISK"

SYS = Path("/sys")
MOUNTINFO = Path("/proc/self/mountinfo")


@dataclass(frozen=True)
class Medium:
    """The filesystem a path is on: ``dev`` (``MAJ:MIN``), its mount's ``fstype`` and
    ``source``, and the names of the whole disks under it (empty: none found)."""

    dev: str
    fstype: str
    source: str
    disks: frozenset[str]

    def describe(self) -> str:
        where = f"{self.source} ({self.fstype}, device {self.dev})"
        if not self.disks:
            return f"{where}, no disk under it"
        return f"{where} on disk {', '.join(sorted(self.disks))}"


def _existing(path: Path) -> Path:
    """``path``, or its nearest existing parent folder (a file not yet created lives
    where its folder is)."""
    here = Path(os.path.abspath(path))
    while not here.exists() and here.parent != here:
        here = here.parent
    return here


def _mount(dev: str, mountinfo: Path) -> tuple[str, str]:
    """(fstype, source) of the last mount of device ``dev``, ("?", "?") when unknown."""
    found = ("?", "?")
    try:
        lines = mountinfo.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return found
    for line in lines:
        fields, _, rest = line.partition(" - ")
        parts, after = fields.split(), rest.split()
        if len(parts) > 2 and parts[2] == dev and len(after) >= 2:
            found = (after[0], after[1])
    return found


def disks_under(dev: str, sys_root: Path = SYS, depth: int = 0) -> frozenset[str]:
    """The names of the whole disks under device ``dev`` (``MAJ:MIN``), read from
    ``sys_root`` (see the module docstring); empty when none is found."""
    if dev.startswith("0:") or depth > 8:
        return frozenset()
    node = sys_root / "dev" / "block" / dev
    if not node.exists():
        return frozenset()
    real = node.resolve()
    disk = real.parent if (real / "partition").exists() else real
    slaves = sorted((disk / "slaves").iterdir()) if (disk / "slaves").is_dir() else []
    if slaves:
        under: set[str] = set()
        for slave in slaves:
            inner = (slave / "dev").read_text(encoding="ascii").strip()
            under |= disks_under(inner, sys_root, depth + 1)
        return frozenset(under)
    backing = disk / "loop" / "backing_file"
    if backing.exists():
        image = Path(backing.read_text(encoding="utf-8").strip())
        if not image.exists():
            return frozenset()
        st = os.stat(image)
        inner = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
        return disks_under(inner, sys_root, depth + 1)
    return frozenset({disk.name})


def medium_of(path: Path, sys_root: Path = SYS, mountinfo: Path = MOUNTINFO) -> Medium:
    """The :class:`Medium` of ``path`` (or of its nearest existing parent folder)."""
    st = os.stat(_existing(Path(path)))
    dev = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
    fstype, source = _mount(dev, mountinfo)
    try:
        disks = disks_under(dev, sys_root)
    except OSError:
        disks = frozenset()
    return Medium(dev, fstype, source, disks)


def no_disk_allowed() -> bool:
    """Whether :data:`NO_DISK_ALLOWED` is set to ``1`` (tests and containers only)."""
    return os.environ.get(NO_DISK_ALLOWED) == "1"


def second_medium_problem(
    db: Path,
    witnesses: Mapping[str, Path],
    probe: Callable[[Path], Medium] = medium_of,
    no_disk: bool | None = None,
    mounted: bool = True,
) -> tuple[str, str]:
    """Why an installed cabinet must not start with its ``witnesses`` (field name ->
    file) where they are: (the field, the reason naming both devices and the fix), or
    ``("", "")`` when each is on another device than the database ``db``.  ``no_disk``
    (default: :func:`no_disk_allowed`) accepts filesystems with no disk found under
    them.  ``mounted``: a missing folder is refused (else it is judged by the nearest
    existing folder above it, as the installer does before it creates the folder)."""
    no_disk = no_disk_allowed() if no_disk is None else no_disk
    ledger = probe(Path(db).parent)
    fix = (
        "Put it on another device than the ledger's (a USB key or a second card, mounted "
        "at boot: systemd/install.sh --witness-dir DIR) and set it in the configuration"
    )
    for name, path in witnesses.items():
        folder = Path(path).parent
        if mounted and not folder.is_dir():
            return name, (
                f"its folder {folder} is missing: the second medium is not mounted (or the "
                "folder was removed); mount it (see /etc/fstab) and power up again"
            )
        medium = probe(folder)
        both = (
            f"the witness {path} is on {medium.describe()}, the ledger {db} on {ledger.describe()}"
        )
        if medium.dev == ledger.dev:
            return name, (
                f"{both}: the same filesystem (a second medium not mounted leaves its mount "
                f"point there); a copy of that medium put back would roll the ledger back "
                f"unseen.  {fix}"
            )
        shared = medium.disks & ledger.disks
        if shared:
            return name, (
                f"{both}: the ledger's own disk {', '.join(sorted(shared))} (another partition "
                f"of it, or an image file on it); one image of that disk puts both back "
                f"together.  {fix}"
            )
        if not (medium.disks and ledger.disks) and not no_disk:
            return name, (
                f"{both}: a filesystem with no disk found under it (memory, overlay, network, "
                "or a loop image out of sight) cannot be shown to be another device, and a "
                f"tmpfs is lost at every power-off.  {fix}"
            )
        if not (medium.disks and ledger.disks):
            log.warning("%s (accepted: %s=1, tests and containers only)", both, NO_DISK_ALLOWED)
    return "", ""


def main(argv: list[str]) -> int:
    """``python -m kiosk.ledger.media LEDGER_DIR WITNESS_DIR``: the installer's check
    (standard library only, run from the checkout before anything is installed).  Exit
    2 with the reason when WITNESS_DIR (created later if missing) cannot be the second
    medium of a ledger in LEDGER_DIR; else 0, naming both devices."""
    if len(argv) != 2:
        print("usage: python -m kiosk.ledger.media LEDGER_DIR WITNESS_DIR", file=sys.stderr)
        return 2
    ledger, witness = Path(argv[0]), Path(argv[1])
    _, problem = second_medium_problem(
        ledger / "uth.db", {"--witness-dir": witness / "uth.anchor"}, mounted=False
    )
    if problem:
        print(problem, file=sys.stderr)
        return 2
    print(f"{witness}: {medium_of(witness).describe()}; the ledger: {medium_of(ledger).describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
