"""``uth verify program|crc16|manifest``: the program's seeded digest part by part (the
program's own files, the interpreter, the standard library, the installed distributions,
the entry scripts) and the configuration's apart, its ROM signature and the release
manifest (see :mod:`kiosk.integrity`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from kiosk.config import load_config
from kiosk.integrity.digest import (
    ALGORITHMS,
    files_digest,
    parse_seed,
    parts_digests,
    program_crc16,
)
from kiosk.integrity.files import ProgramFile, ProgramTreeError, program_files
from kiosk.integrity.manifest import (
    check_program,
    software_version,
    write_manifest,
)
from kiosk.integrity.runtime import configuration_files, runtime_parts
from kiosk.integrity.signing import KEY_ENV, ReleaseKeyError, release_fingerprint


def _root(args: argparse.Namespace) -> Path | None:
    return Path(args.root) if args.root else None


def configuration_part(path: str | None) -> tuple[str | None, list[ProgramFile]]:
    """``--config`` (else ``$UTH_CONFIG``): the file and the configuration part's files
    (the file, and the paytable it names when that is not a program file)."""
    path = path or os.environ.get("UTH_CONFIG") or None
    if not path:
        return None, []
    if not Path(path).is_file():
        raise ValueError(f"configuration {path}: no such file")
    paytable = None
    try:
        paytable = load_config(path).paytable
    except ValueError:
        pass  # an invalid file is still digested as it is
    return path, configuration_files(path, paytable)


def program_parts(args: argparse.Namespace) -> dict[str, list[ProgramFile]]:
    """The program's parts in stream order: its own files, then the runtime's parts
    (none with ``--program-only``)."""
    parts = {"program": program_files(_root(args))}
    if not args.program_only:
        parts.update(runtime_parts())
    return parts


def run_program(args: argparse.Namespace) -> int:
    try:
        seed = parse_seed(args.seed)
        parts = program_parts(args)
        whole = [f for files in parts.values() for f in files]
        digests, digest = parts_digests(parts, seed, args.algorithm)
        config_path, config_files = configuration_part(args.config)
        config = (
            files_digest(config_files, seed, args.algorithm) if config_path is not None else None
        )
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out: dict[str, Any] = {
            "algorithm": args.algorithm, "seed": seed.hex(), "digest": digest,
            "files": len(whole), "version": software_version(),
            "parts": {name: {"files": len(parts[name]), "digest": d}
                      for name, d in digests.items()},
            "configuration": None if config is None else {
                "path": config_path, "files": [f.name for f in config_files],
                "digest": config},
        }  # fmt: skip
        print(json.dumps(out))
        return 0
    print(f"{args.algorithm}, seed {seed.hex() or '(empty)'}, uth-cabinet {software_version()}")
    for name, files in parts.items():
        print(f"  {name:<13s} {len(files):>6,} files  {digests[name]}")
    print(f"program: {digest}  ({len(whole):,} files, the parts above in order)")
    if config is None:
        print("configuration: none (the built-in defaults, which are program)")
    else:
        print(
            f"configuration: {config}  ({config_path}: {', '.join(f.name for f in config_files)})"
        )
    return 0


def run_crc16(args: argparse.Namespace) -> int:
    try:
        seed = int(args.seed, 16)
        crc = program_crc16(seed, _root(args), runtime=not args.program_only)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{crc:04X}")
    return 0


def run_manifest(args: argparse.Namespace) -> int:
    root = _root(args)
    if args.write:
        try:
            path = write_manifest(root, runtime=args.runtime, key=args.key)
        except (ReleaseKeyError, ProgramTreeError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        signer = json.loads(path.read_text(encoding="utf-8"))["signature"]["key"]
        print(f"wrote {path}, signed by key {signer}")
        return 0
    result = check_program(root, Path(args.manifest) if args.manifest else None, bound_s=args.bound)
    print(result.summary())
    for problem in result.problems[3:]:
        print(f"  {problem}")
    print(
        f"checked in {result.seconds:.3f} s; this program accepts release key "
        f"{release_fingerprint()}"
    )
    return 0 if result.ok else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="program verification: seeded digest, CRC-16 ROM signature, release manifest",
        description="Digests over the whole program in canonical order: its own files "
        "(packages, data files, paytables, catalogues, fonts, sounds; "
        "kiosk/integrity/files.py), then the interpreter, the standard library, every file "
        "of every installed distribution and the entry scripts (kiosk/integrity/runtime.py); "
        "the configuration is digested apart.",
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    prog = verbs.add_parser("program", help="the seeded digest of the whole program")
    prog.add_argument("--seed", required=True, help="the seed, hex (e.g. the lab's 0123abcd)")
    prog.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default="sha256",
        help="sha256 or sha1 of seed || stream, or hmac-sha1 keyed by the seed",
    )
    prog.add_argument("--root", default=None, help="a program tree (default: this program)")
    prog.add_argument(
        "--config", default=None, help="the configuration to digest apart (default $UTH_CONFIG)"
    )
    prog.add_argument(
        "--program-only",
        action="store_true",
        help="the program's own files only, without the runtime",
    )
    prog.add_argument("--json", action="store_true", help="print one JSON object")
    prog.set_defaults(func=run_program)

    crc = verbs.add_parser("crc16", help="the ROM signature: CRC-16/KERMIT from a 16-bit seed")
    crc.add_argument("--seed", required=True, help="the host's seed, hex 0000..FFFF")
    crc.add_argument("--root", default=None, help="a program tree (default: this program)")
    crc.add_argument(
        "--program-only",
        action="store_true",
        help="the program's own files only, without the runtime",
    )
    crc.set_defaults(func=run_crc16)

    man = verbs.add_parser(
        "manifest",
        help="check the program against its manifest "
        "(exit 1 on a mismatch), or --write it for a release",
    )
    man.add_argument("--write", action="store_true", help="regenerate the manifest")
    man.add_argument(
        "--runtime",
        action="store_true",
        help="with --write: record the runtime too (a release made of a whole "
        "installed image: interpreter, environment and program)",
    )
    man.add_argument(
        "--key",
        default=None,
        help=f"with --write: the release key (Ed25519, PEM; default ${KEY_ENV}), "
        "which a cabinet does not hold",
    )
    man.add_argument("--manifest", default=None, help="another manifest file to check against")
    man.add_argument("--root", default=None, help="a program tree (default: this program)")
    man.add_argument("--bound", type=float, default=60.0, help="give up after SECONDS")
    man.set_defaults(func=run_manifest)
