"""``uth holdem replay FILE``: replay tournament Hold'em hands written as JSON.

FILE (or ``-`` for standard input) holds one JSON hand or JSON lines; one answer line is
printed per hand (see :mod:`engine.holdem.replay`).  Exit code 2 if any hand had an
error (the other hands are still replayed), 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.holdem.replay import parse_hands, replay_all


def run_replay(args: argparse.Namespace) -> int:
    if args.file == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            print(json.dumps({"error": f"cannot read {args.file}: {exc.strerror}"}))
            return 2
    status = 0
    out = sys.stdout
    for answer in replay_all(parse_hands(text)):
        if "error" in answer:
            status = 2
        out.write(json.dumps(answer) + "\n")
    out.flush()
    return status


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("holdem", help="tournament Hold'em tools")
    sub = parser.add_subparsers(dest="holdem_command", metavar="SUBCOMMAND")
    sub.required = True
    replay = sub.add_parser("replay", help="replay hands from JSON and print the settlements")
    replay.add_argument("file", metavar="FILE", help="JSON hand or JSON lines; - for stdin")
    replay.set_defaults(func=run_replay)
