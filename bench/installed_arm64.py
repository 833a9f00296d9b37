"""The install on arm64, as on a Raspberry Pi: ``systemd/install.sh`` in a Debian bookworm
arm64 root (Raspberry Pi OS is bookworm arm64) run under ``qemu-user-static``.

    sudo .venv/bin/python -m bench.installed_arm64 [--rounds 3]

Builds (once, cached under /var/cache/uth-tests) the arm64 root with ``debootstrap
--arch arm64``, copies the checkout in and, in one ``systemd-nspawn`` run that does not
boot it (as a chroot that builds an SD image: no systemd, no udevd), runs
``install.sh --witness-dir /mnt/witness`` (a tmpfs: another filesystem, with no disk
under it, accepted by ``UTH_WITNESS_WITHOUT_DISK=1``), plays
``--rounds`` rounds with the installed kiosk as the service user (headless, its scripted
player on the simulated devices), then ``uth audit verify`` as the service user.  Prints
each step's time and the machine it ran on.  Emulated, so minutes where a Pi takes
seconds: not for CI.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.booted_debian import (  # noqa: E402
    WITNESS,
    cached_root,
    copy_checkout,
    root_tarball,
    run_in_root,
    unpack_root,
    why_not,
)

OPERATORS = "alice attendant 246813\nbob technician 135792\ncarol manager 975318\n"
STEPS = """\
set -e
step() {{ echo "== step $1 at $(date +%s)"; }}
step install
bash /root/uth-src/systemd/install.sh --witness-dir {witness}
step rounds
runuser -u uth -- env UTH_WITNESS_WITHOUT_DISK=1 SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy UTH_PAR_CACHE=/var/lib/uth/par-cache \\
    /opt/uth/.venv/bin/uth kiosk --config /etc/uth/cabinet.toml --headless --autoplay random \\
    --rounds {rounds} --fps 20 --no-sound
echo "settled rounds: $(sqlite3 'file:/var/lib/uth/uth.db?mode=ro' "SELECT count(*) FROM rounds WHERE state = 'settled'")"
step audit
runuser -u uth -- env UTH_WITNESS_WITHOUT_DISK=1 /opt/uth/.venv/bin/uth audit verify --config /etc/uth/cabinet.toml
step done
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds the installed kiosk plays (default 3)"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the unpacked root (its path is printed)"
    )
    args = parser.parse_args()
    reason = why_not("arm64")
    if reason is not None:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cpus, {platform.node()}; root {root_tarball('arm64')}"
    )
    started = time.monotonic()
    tarball = cached_root("arm64")
    built = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="uth-arm64-"))
    try:
        root = unpack_root(tarball, work / "root")
        copy_checkout(ROOT, root)
        unpacked = time.monotonic()
        log_path = work / "install.log"
        with open(log_path, "w") as log:
            done = run_in_root(root, "bash", "-c", STEPS.format(witness=WITNESS, rounds=args.rounds),
                               env={"UTH_OPERATORS": OPERATORS, "UTH_WITNESS_WITHOUT_DISK": "1"}, log=log)  # fmt: skip
        finished = time.monotonic()
        text = log_path.read_text()
        marks = [
            (line.split()[2], int(line.split()[-1]))
            for line in text.splitlines()
            if line.startswith("== step ")
        ]
        print(text[-3000:])
        print(
            f"root: {built - started:.0f} s (0 when cached); unpack and copy: {unpacked - built:.0f} s"
        )
        for (name, at), (_, after) in zip(marks, marks[1:], strict=False):
            print(f"{name}: {after - at} s")
        print(f"exit {done.returncode}; whole run {finished - started:.0f} s")
        return done.returncode
    finally:
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
