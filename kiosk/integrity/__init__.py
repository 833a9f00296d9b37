"""Program verification: the program's file set in canonical order and the runtime's
(interpreter, standard library, installed distributions, entry scripts), seeded digests
(``uth verify program``), the CRC-16 ROM signature, the signed release manifest and the
power-up check against it."""

from kiosk.integrity.digest import (
    ALGORITHMS,
    crc16_kermit,
    parse_seed,
    program_crc16,
    program_digest,
)
from kiosk.integrity.files import PROGRAM_DIRS, PROGRAM_ROOT, ProgramTreeError, program_files
from kiosk.integrity.manifest import (
    ManifestError,
    ProgramCheck,
    build_manifest,
    check_program,
    load_manifest,
    software_version,
    write_manifest,
)
from kiosk.integrity.runtime import RUNTIME_PARTS, runtime_files, runtime_parts
from kiosk.integrity.signing import (
    ReleaseKeyError,
    SignatureError,
    release_fingerprint,
)
from kiosk.integrity.startup import PROGRAM_TILT, last_check, startup_check

__all__ = [
    "ALGORITHMS",
    "PROGRAM_DIRS",
    "PROGRAM_ROOT",
    "PROGRAM_TILT",
    "RUNTIME_PARTS",
    "ManifestError",
    "ProgramCheck",
    "ProgramTreeError",
    "ReleaseKeyError",
    "SignatureError",
    "build_manifest",
    "check_program",
    "crc16_kermit",
    "last_check",
    "load_manifest",
    "parse_seed",
    "program_crc16",
    "program_digest",
    "program_files",
    "release_fingerprint",
    "runtime_files",
    "runtime_parts",
    "software_version",
    "startup_check",
    "write_manifest",
]
