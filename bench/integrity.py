"""The power-up program check's time on the whole program: every file read and hashed
against the release manifest (kiosk.integrity.check_program), with the files' pages
first dropped from the page cache (a cold start) and then with them cached.

    .venv/bin/python -m bench.integrity [--runs N] [--runtime]

``--runtime`` also times the check of a manifest that records the runtime (a release
made of an installed image: interpreter, standard library, every installed
distribution, entry scripts), written for a copy of the program with the development
release key.

Dropping uses posix_fadvise(DONTNEED) on the program's own files only.  Prints the file
count, the bytes, the median and worst time of each and the machine; the goal is 2 s.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from kiosk.integrity import (
    PROGRAM_DIRS,
    PROGRAM_ROOT,
    check_program,
    program_crc16,
    program_digest,
    program_files,
    write_manifest,
)
from kiosk.integrity.runtime import runtime_files


def drop_cached_pages() -> None:
    """Ask the kernel to forget the program files' (and the runtime's) cached pages."""
    for file in program_files() + runtime_files():
        fd = os.open(file.path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def timed(fn, cold: bool) -> float:
    if cold:
        drop_cached_pages()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--runtime", action="store_true", help="also check a runtime manifest")
    args = ap.parse_args()
    files = program_files()
    size = sum(f.path.stat().st_size for f in files)
    runtime = runtime_files()
    print(
        f"machine: {platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, load {os.getloadavg()[0]:.1f}"
    )
    print(
        f"program: {len(files)} files, {size:,} bytes; runtime: {len(runtime)} files, "
        f"{sum(f.path.stat().st_size for f in runtime):,} bytes"
    )
    checks = {
        "power-up check (SHA-256 per file and whole, against the manifest)": lambda: check_program(
            bound_s=60.0
        ),
        "uth verify program --algorithm sha256": lambda: program_digest(b"\x01", "sha256"),
        "uth verify program --algorithm hmac-sha1": lambda: program_digest(b"\x01", "hmac-sha1"),
        "uth verify crc16 (SAS ROM signature)": lambda: program_crc16(0x1234),
    }
    if args.runtime:
        copy = Path(tempfile.mkdtemp(prefix="bench-integrity-"))
        for top in PROGRAM_DIRS:
            shutil.copytree(
                PROGRAM_ROOT / top,
                copy / top,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
            )
        write_manifest(copy, runtime=True, key=PROGRAM_ROOT / "keys" / "release-dev.ed25519")
        checks["power-up check with the runtime in the manifest"] = lambda: check_program(
            copy, bound_s=600.0
        )
    for name, fn in checks.items():
        for cold in (True, False):
            times = [timed(fn, cold) for _ in range(args.runs)]
            print(
                f"{name}, {'cold' if cold else 'warm'} page cache: median "
                f"{statistics.median(times):.3f} s, worst {max(times):.3f} s ({args.runs} runs)"
            )
    if args.runtime:
        shutil.rmtree(copy)
    result = check_program(bound_s=60.0)
    print(f"matches the shipped manifest: {result.ok} ({'; '.join(result.problems[:2])})")


if __name__ == "__main__":
    main()
