"""The ``uth`` command line.

Each module in :mod:`kiosk.commands` defines ``register(subparsers)`` which adds its
subcommand(s); every subcommand sets ``func(args) -> int`` (the exit code).  Modules
are discovered at start-up, so adding a command never edits this file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from kiosk import commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uth", description="Ultimate Texas Hold'em cabinet: play, maths, audit and devices."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # Ctrl-C, or a demo stopping its windows: no traceback
        return 130


if __name__ == "__main__":
    sys.exit(main())
