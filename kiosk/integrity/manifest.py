"""The release manifest and the program check against it.

The manifest (``kiosk/integrity/manifest.json``, shipped with the package) records the
release: its version, the SHA-256 of every program file in canonical order and the
unseeded SHA-256 of the whole canonical stream.  ``uth verify manifest --write``
regenerates it for a release (:func:`write_manifest`).  Written with ``runtime`` (a
release made of a whole installed image: interpreter, environment and program), it also
records every runtime file (:mod:`kiosk.integrity.runtime`) under ``"runtime"``, and the
check then covers them too; a manifest written from a source tree records the program's
own files only, as the runtime of the machine that writes it is not the cabinet's.

The manifest is signed with the release key (:mod:`kiosk.integrity.signing`): writing
needs the key, which a cabinet does not hold, and the check refuses a manifest whose
signature does not verify with the public release key the program ships, before it
trusts any digest in it.

:func:`check_program` reads every file once against it within a time bound; it is the
power-up check and the operator menu's "matches the manifest".
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from kiosk.integrity.files import (
    MANIFEST_NAME,
    PROGRAM_ROOT,
    ProgramFile,
    ProgramTreeError,
    file_chunks,
    program_files,
)
from kiosk.integrity.runtime import runtime_files
from kiosk.integrity.signing import (
    SignatureError,
    load_release_key,
    sign_manifest,
    verify_manifest_signature,
)

#: The manifest's format number.
MANIFEST_FORMAT = 2
#: The distribution whose version the release carries.
DISTRIBUTION = "uth-cabinet"
#: The power-up check's default bound, seconds.
DEFAULT_BOUND_S = 2.0
#: The runtime's own bound when the manifest records it, seconds (a cabinet's runtime is
#: some 250 MB: numpy, pygame-ce, the standard library ...; see bench/integrity.py).
DEFAULT_RUNTIME_BOUND_S = 30.0


class ManifestError(ValueError):
    """The manifest is missing, unreadable or not of this format."""


def software_version() -> str:
    """The installed distribution's version ("unknown" when it is not installed)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def _digests(files: list[ProgramFile]) -> tuple[str, dict[str, str]]:
    """The SHA-256 of ``files``' canonical stream and of each file."""
    whole = hashlib.sha256()
    each: dict[str, str] = {}
    for file in files:
        one = hashlib.sha256()
        for chunk in file_chunks(file):
            whole.update(chunk)
            one.update(chunk)
        each[file.name] = one.hexdigest()
    return whole.hexdigest(), each


def build_manifest(
    root: Path | None = None, version: str | None = None, runtime: bool = False
) -> dict[str, Any]:
    """The manifest of the program under ``root``: ``{"format", "version", "algorithm",
    "digest", "files": {name: sha256}}``, files in canonical order, and with ``runtime``
    ``"runtime": {"digest", "files"}`` of this interpreter's runtime."""
    digest, files = _digests(program_files(root))
    data: dict[str, Any] = {
        "format": MANIFEST_FORMAT,
        "version": version or software_version(),
        "algorithm": "sha256",
        "digest": digest,
        "files": files,
    }
    if runtime:
        whole, each = _digests(runtime_files())
        data["runtime"] = {"digest": whole, "files": each}
    return data


def manifest_path(root: Path | None = None) -> Path:
    """Where the manifest of the program under ``root`` lives."""
    return (Path(root) if root is not None else PROGRAM_ROOT) / MANIFEST_NAME


def write_manifest(
    root: Path | None = None,
    version: str | None = None,
    runtime: bool = False,
    key: str | Path | None = None,
) -> Path:
    """Regenerate the manifest of the program under ``root`` (with ``runtime``, this
    interpreter's runtime too), signed with the release key in the file ``key`` (else
    ``$UTH_RELEASE_KEY``); returns its path.  Raises
    :class:`~kiosk.integrity.signing.ReleaseKeyError` without a usable key (before
    anything is read or written)."""
    signer = load_release_key(key)
    path = manifest_path(root)
    data = sign_manifest(build_manifest(root, version, runtime), signer)
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return path


def load_manifest(path: Path, public_key: str | None = None) -> dict[str, Any]:
    """Read a manifest and check its signature with the release key (``public_key``,
    raw hex, default the shipped one).  Raises :class:`ManifestError` with the reason."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"no manifest at {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(f"manifest {path} unreadable: {exc}") from None
    if (
        not isinstance(data, dict)
        or data.get("format") != MANIFEST_FORMAT
        or not isinstance(data.get("files"), dict)
        or not isinstance(data.get("digest"), str)
    ):
        raise ManifestError(f"manifest {path} is not of format {MANIFEST_FORMAT}")
    try:
        verify_manifest_signature(data, public_key)
    except SignatureError as exc:
        raise ManifestError(f"manifest {path}: {exc}") from None
    return data


@dataclass(frozen=True)
class ProgramCheck:
    """The result of checking the program against its manifest.

    ``ok`` only when every file matched, none is missing or extra, and the check
    finished within its bound.  ``digest`` is the unseeded SHA-256 of the program's own
    files as read (empty when the check could not finish); ``runtime_checked`` says
    whether the manifest recorded the runtime and it was checked too; ``problems`` says
    what differed (at most a few names of each kind); ``seconds`` is the time it took."""

    ok: bool
    version: str
    digest: str
    manifest_digest: str
    problems: tuple[str, ...] = field(default_factory=tuple)
    seconds: float = 0.0
    runtime_checked: bool = False
    #: The fingerprint of the key whose signature the manifest carried (checked).
    signer: str = ""

    def summary(self) -> str:
        """One line: matches, or the first problems."""
        if self.ok:
            what = "with its runtime " if self.runtime_checked else ""
            return (
                f"program {self.version} {what}matches its manifest ({self.digest[:16]}...), "
                f"signed by release key {self.signer[:16]}..."
            )
        return "program does not match its manifest: " + "; ".join(self.problems[:3])


class _OutOfTime(Exception):
    pass


def _check_files(
    files: list[ProgramFile], wanted: dict[str, str], problems: list[str], deadline: Any
) -> str:
    """Hash ``files`` against ``wanted`` (name -> SHA-256; consumed), noting each
    difference in ``problems``; the SHA-256 of their stream.  Raises :class:`_OutOfTime`
    once ``deadline()`` is true."""
    whole = hashlib.sha256()
    for file in files:
        if deadline():
            raise _OutOfTime
        one = hashlib.sha256()
        try:
            for chunk in file_chunks(file):
                whole.update(chunk)
                one.update(chunk)
        except (OSError, ProgramTreeError) as exc:
            problems.append(f"{file.name}: {exc}")
            continue
        known = wanted.pop(file.name, None)
        if known is None:
            problems.append(f"extra file {file.name}")
        elif known != one.hexdigest():
            problems.append(f"changed {file.name}")
    problems.extend(f"missing {name}" for name in sorted(wanted))
    return whole.hexdigest()


def _file_sha256(file: ProgramFile, deadline: Any) -> str:
    """One file's record's SHA-256 (header and content), or ``"error: ..."``; raises
    :class:`_OutOfTime` once ``deadline()`` is true."""
    if deadline():
        raise _OutOfTime
    one = hashlib.sha256()
    try:
        for chunk in file_chunks(file):
            one.update(chunk)
    except (OSError, ProgramTreeError) as exc:
        return f"error: {exc}"
    return one.hexdigest()


def _check_runtime(
    files: list[ProgramFile], wanted: dict[str, str], problems: list[str], deadline: Any
) -> None:
    """Hash the runtime's ``files`` against ``wanted`` on every core (``hashlib``
    releases the interpreter lock while it hashes).  With every file's SHA-256 matching
    and neither a file missing nor one extra, the whole stream matches too, so it is not
    hashed again in order."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        digests = list(pool.map(lambda f: _file_sha256(f, deadline), files))
    for file, digest in zip(files, digests, strict=True):
        known = wanted.pop(file.name, None)
        if digest.startswith("error: "):
            problems.append(f"{file.name}: {digest[7:]}")
        elif known is None:
            problems.append(f"extra file {file.name}")
        elif known != digest:
            problems.append(f"changed {file.name}")
    problems.extend(f"missing {name}" for name in sorted(wanted))


def check_program(
    root: Path | None = None,
    manifest: Path | None = None,
    bound_s: float = DEFAULT_BOUND_S,
    clock: Any = time.monotonic,
    public_key: str | None = None,
    runtime_bound_s: float = DEFAULT_RUNTIME_BOUND_S,
) -> ProgramCheck:
    """Check the manifest's signature (``public_key`` as :func:`load_manifest`), then
    every program file under ``root`` against ``manifest`` (default: the shipped one),
    and the runtime's files when the manifest records them, giving up (not ok) once
    ``bound_s`` seconds have passed on the program's files, or ``runtime_bound_s`` more
    on the runtime's."""
    start = clock()
    version = software_version()
    try:
        expected = load_manifest(manifest or manifest_path(root), public_key)
        files = program_files(root)
    except (ManifestError, ProgramTreeError) as exc:
        return ProgramCheck(False, version, "", "", (str(exc),), clock() - start)
    version = str(expected.get("version") or version)
    runtime = expected.get("runtime")
    problems: list[str] = []
    try:
        digest = _check_files(
            files, dict(expected["files"]), problems, lambda: clock() - start > bound_s
        )
        if not problems and digest != expected["digest"]:
            problems.append("the whole program's digest differs from the manifest's")
        if isinstance(runtime, dict):
            found: list[str] = []
            bound_s += runtime_bound_s
            _check_runtime(
                runtime_files(),
                dict(runtime.get("files") or {}),
                found,
                lambda: clock() - start > bound_s,
            )
            problems.extend(found)
    except _OutOfTime:
        return ProgramCheck(
            False,
            version,
            "",
            expected["digest"],
            (f"not finished within {bound_s:g} s",),
            clock() - start,
        )
    return ProgramCheck(
        not problems,
        version,
        digest,
        expected["digest"],
        tuple(problems),
        clock() - start,
        isinstance(runtime, dict),
        str(expected["signature"]["key"]),
    )
