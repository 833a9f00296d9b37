"""``uth verify program|crc16|manifest``: the program's seeded digest, its ROM signature
and the release manifest (see :mod:`kiosk.integrity`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kiosk.integrity.digest import ALGORITHMS, parse_seed, program_crc16, program_digest
from kiosk.integrity.files import ProgramTreeError, program_files
from kiosk.integrity.manifest import check_program, software_version, write_manifest


def _root(args: argparse.Namespace) -> Path | None:
    return Path(args.root) if args.root else None


def run_program(args: argparse.Namespace) -> int:
    try:
        seed = parse_seed(args.seed)
        root = _root(args)
        digest = program_digest(seed, args.algorithm, root)
        count = len(program_files(root))
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"algorithm": args.algorithm, "seed": seed.hex(), "digest": digest,
                          "files": count, "version": software_version()}))
    else:
        print(f"{args.algorithm} seed {seed.hex() or '(empty)'} over {count} files: {digest}")
    return 0


def run_crc16(args: argparse.Namespace) -> int:
    try:
        seed = int(args.seed, 16)
        crc = program_crc16(seed, _root(args))
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{crc:04X}")
    return 0


def run_manifest(args: argparse.Namespace) -> int:
    root = _root(args)
    if args.write:
        try:
            path = write_manifest(root)
        except (ProgramTreeError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"wrote {path}")
        return 0
    result = check_program(root, Path(args.manifest) if args.manifest else None,
                           bound_s=args.bound)
    print(result.summary())
    for problem in result.problems[3:]:
        print(f"  {problem}")
    print(f"checked in {result.seconds:.3f} s")
    return 0 if result.ok else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="program verification: seeded digest, CRC-16 ROM signature, release manifest",
        description="Digests over every program file (packages, data files, paytables, "
        "catalogues, fonts, sounds) in canonical order; see kiosk/integrity/files.py.",
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    prog = verbs.add_parser("program", help="the seeded digest of the whole program")
    prog.add_argument("--seed", required=True, help="the seed, hex (e.g. the lab's 0123abcd)")
    prog.add_argument("--algorithm", choices=ALGORITHMS, default="sha256",
                      help="sha256 or sha1 of seed || stream, or hmac-sha1 keyed by the seed")
    prog.add_argument("--root", default=None, help="a program tree (default: this program)")
    prog.add_argument("--json", action="store_true", help="print one JSON object")
    prog.set_defaults(func=run_program)

    crc = verbs.add_parser("crc16", help="the ROM signature: CRC-16/KERMIT from a 16-bit seed")
    crc.add_argument("--seed", required=True, help="the host's seed, hex 0000..FFFF")
    crc.add_argument("--root", default=None, help="a program tree (default: this program)")
    crc.set_defaults(func=run_crc16)

    man = verbs.add_parser("manifest", help="check the program against its manifest "
                           "(exit 1 on a mismatch), or --write it for a release")
    man.add_argument("--write", action="store_true", help="regenerate the manifest")
    man.add_argument("--manifest", default=None, help="another manifest file to check against")
    man.add_argument("--root", default=None, help="a program tree (default: this program)")
    man.add_argument("--bound", type=float, default=60.0, help="give up after SECONDS")
    man.set_defaults(func=run_manifest)
