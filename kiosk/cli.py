"""The ``uth`` command line.

Each module in :mod:`kiosk.commands` defines ``register(subparsers)`` which adds its
subcommand(s); every subcommand sets ``func(args) -> int`` (the exit code).  Modules
are discovered at start-up, so adding a command never edits this file.  A command named
like its module (``uth kiosk`` is :mod:`kiosk.commands.kiosk`) imports that module
alone: the cabinet's screens start without loading every other command's libraries.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from kiosk import commands


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``uth`` parser with every command, or with ``command`` alone when the module of
    that name registers it (else every command, so that help and errors list them all)."""
    names = sorted(m.name for m in pkgutil.iter_modules(commands.__path__))
    if command is not None and command in names:
        parser, known = _parser([command])
        if command in known:
            return parser
    return _parser(names)[0]


def _parser(modules: Sequence[str]) -> tuple[argparse.ArgumentParser, set[str]]:
    """The parser with the commands of ``modules``, and their names."""
    parser = argparse.ArgumentParser(
        prog="uth", description="Ultimate Texas Hold'em cabinet: play, maths, audit and devices."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in modules:
        module = importlib.import_module(f"{commands.__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser, set(sub.choices)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[0] if words and not words[0].startswith("-") else None)
    args = parser.parse_args(words)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # Ctrl-C, or a demo stopping its windows: no traceback
        return 130


if __name__ == "__main__":
    sys.exit(main())
