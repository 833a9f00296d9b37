"""Seeded digests of the program (GAT-style verification) and the CRC-16 ROM signature.

``program_digest(seed, algorithm)`` reads the canonical stream of the whole program: the
program's own files (:mod:`kiosk.integrity.files`) then the runtime's, part after part
(:mod:`kiosk.integrity.runtime`: the interpreter, the standard library, the installed
distributions, the entry scripts), every file a record of the same form:

* ``sha256``: SHA-256 of ``seed || stream``;
* ``sha1``: SHA-1 of ``seed || stream``;
* ``hmac-sha1``: HMAC-SHA1 of ``stream`` with ``seed`` as the key.

:func:`program_crc16` is the casino link's ROM signature (SAS long poll 21): CRC-16/KERMIT
(polynomial 0x1021 reflected, no final XOR) of the same stream, started from the host's
16-bit seed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from kiosk.integrity.files import ProgramFile, program_files, program_stream
from kiosk.integrity.runtime import runtime_files

Algorithm = Literal["sha256", "hmac-sha1", "sha1"]
#: The algorithms ``uth verify program --algorithm`` accepts.
ALGORITHMS: tuple[Algorithm, ...] = ("sha256", "hmac-sha1", "sha1")

#: Each byte with its bits in reverse order (bit 0 <-> bit 7).
_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def parse_seed(text: str) -> bytes:
    """``--seed HEX``: the seed's bytes.  Raises ``ValueError`` on anything but an even
    number of hex digits (an optional ``0x`` prefix is allowed)."""
    digits = text.strip()
    if digits[:2].lower() == "0x":
        digits = digits[2:]
    if len(digits) % 2:
        raise ValueError(f"seed {text!r}: an even number of hex digits is needed")
    try:
        return bytes.fromhex(digits)
    except ValueError:
        raise ValueError(f"seed {text!r} is not hexadecimal") from None


def _hasher(seed: bytes, algorithm: str) -> Any:
    if algorithm == "sha256":
        return hashlib.sha256(seed)
    if algorithm == "sha1":
        return hashlib.sha1(seed)
    if algorithm == "hmac-sha1":
        return hmac.new(seed, digestmod=hashlib.sha1)
    raise ValueError(f"unknown algorithm {algorithm!r} (one of {', '.join(ALGORITHMS)})")


def stream_digest(chunks: Iterable[bytes], seed: bytes = b"", algorithm: str = "sha256") -> str:
    """The hex digest of a canonical stream given in ``chunks``."""
    h = _hasher(seed, algorithm)
    for chunk in chunks:
        h.update(chunk)
    return str(h.hexdigest())


def whole_program(root: Path | None = None, runtime: bool = True) -> list[ProgramFile]:
    """The whole program's files in stream order: the program's own files under ``root``
    (default: this one), then (``runtime``) the runtime's of this interpreter."""
    files = program_files(root)
    return files + runtime_files() if runtime else files


def program_digest(
    seed: bytes, algorithm: str = "sha256", root: Path | None = None, runtime: bool = True
) -> str:
    """The seeded hex digest of the whole program: the files under ``root`` (default:
    this one) and, with ``runtime``, the runtime this interpreter loads besides them."""
    return stream_digest(program_stream(whole_program(root, runtime)), seed, algorithm)


def files_digest(files: list[ProgramFile], seed: bytes = b"", algorithm: str = "sha256") -> str:
    """The seeded hex digest of ``files``' canonical stream (one part of the program)."""
    return stream_digest(program_stream(files), seed, algorithm)


def parts_digests(
    parts: dict[str, list[ProgramFile]], seed: bytes = b"", algorithm: str = "sha256"
) -> tuple[dict[str, str], str]:
    """In one read: the seeded digest of each part's stream, and of the parts' streams in
    order (the whole)."""
    whole = _hasher(seed, algorithm)
    each: dict[str, str] = {}
    for name, files in parts.items():
        one = _hasher(seed, algorithm)
        for chunk in program_stream(files):
            one.update(chunk)
            whole.update(chunk)
        each[name] = str(one.hexdigest())
    return each, str(whole.hexdigest())


def _reverse16(value: int) -> int:
    return int(f"{value & 0xFFFF:016b}"[::-1], 2)


def crc16_kermit(data: bytes, crc: int = 0) -> int:
    """CRC-16/KERMIT of ``data`` continuing from ``crc`` (0 for a fresh CRC; check value
    of ``b"123456789"`` is 0x2189).

    Computed as the non-reflected CCITT CRC (``binascii.crc_hqx``) of the bit-reversed
    bytes, which is the same function run in C."""
    import binascii

    return _reverse16(binascii.crc_hqx(data.translate(_REVERSED), _reverse16(crc)))


def program_crc16(seed: int, root: Path | None = None, runtime: bool = True) -> int:
    """The ROM signature (SAS long poll 21): CRC-16/KERMIT of the whole program's
    canonical stream (``runtime`` as :func:`program_digest`), started from the host's
    ``seed`` (0..0xFFFF).  Raises ``ValueError`` outside that."""
    if not 0 <= seed <= 0xFFFF:
        raise ValueError(f"seed {seed} is not a 16-bit value")
    crc = seed
    for chunk in program_stream(whole_program(root, runtime)):
        crc = crc16_kermit(chunk, crc)
    return crc
