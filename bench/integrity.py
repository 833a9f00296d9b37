"""The power-up program check's time on the whole program: every file read and hashed
against the release manifest (kiosk.integrity.check_program), with the files' pages
first dropped from the page cache (a cold start) and then with them cached.

    .venv/bin/python -m bench.integrity [--runs N]

Dropping uses posix_fadvise(DONTNEED) on the program's own files only.  Prints the file
count, the bytes, the median and worst time of each and the machine; the goal is 2 s.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from kiosk.integrity import check_program, program_crc16, program_digest, program_files


def drop_cached_pages() -> None:
    """Ask the kernel to forget the program files' cached pages."""
    for file in program_files():
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
    args = ap.parse_args()
    files = program_files()
    size = sum(f.path.stat().st_size for f in files)
    print(f"machine: {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print(f"program: {len(files)} files, {size:,} bytes")
    checks = {
        "power-up check (SHA-256 per file and whole, against the manifest)":
            lambda: check_program(bound_s=60.0),
        "uth verify program --algorithm sha256": lambda: program_digest(b"\x01", "sha256"),
        "uth verify program --algorithm hmac-sha1": lambda: program_digest(b"\x01", "hmac-sha1"),
        "uth verify crc16 (SAS ROM signature)": lambda: program_crc16(0x1234),
    }
    for name, fn in checks.items():
        for cold in (True, False):
            times = [timed(fn, cold) for _ in range(args.runs)]
            print(f"{name}, {'cold' if cold else 'warm'} page cache: median "
                  f"{statistics.median(times):.3f} s, worst {max(times):.3f} s ({args.runs} runs)")
    result = check_program(bound_s=60.0)
    print(f"matches the shipped manifest: {result.ok} ({'; '.join(result.problems[:2])})")


if __name__ == "__main__":
    main()
