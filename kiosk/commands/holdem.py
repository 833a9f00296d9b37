"""``uth holdem``: tournament Hold'em tools.

``uth holdem replay FILE`` replays hands written as JSON.  FILE (or ``-`` for standard
input) holds one JSON hand or JSON lines; one answer line is printed per hand (see
:mod:`engine.holdem.replay`).  Exit code 2 if any hand had an error (the other hands are
still replayed), 0 otherwise.

``uth holdem export [--to DIR | --usb] [--db PATH] [--game FILE | --game-id ID | --last]``
writes the finished hands of the saved tournament game (or of the game saved as JSON in
FILE, a ``Tournament.to_dict()``; or of the finished game ID, or an unambiguous start of
it; or of the latest finished game, ``--last``; the hands of the latest finished games are
kept) as JSON and PHH (see :mod:`kiosk.tournament.export`): to DIR,
else to the USB stick when one is mounted, else beside the database.  ``--usb`` fails
when no stick is mounted.  Prints one JSON line with the files written; exit code 2 if
nothing could be exported.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.holdem.replay import parse_hands, replay_all
from kiosk.config import ConfigError, load_config
from kiosk.tournament.export import (
    MOUNTS_FILE,
    ExportError,
    choose_folder,
    export_hands,
    find_kept_game,
)
from kiosk.tournament.store import TournamentStore, TournamentStoreError


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


def _fail(reason: str) -> int:
    print(json.dumps({"error": reason}))
    return 2


def _saved_game(args: argparse.Namespace, db: Path) -> tuple[str | None, dict[str, Any], dict]:
    """(game id, tournament state, session state) of the game to export."""
    if args.game:
        try:
            with open(args.game, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError) as exc:
            raise ExportError(f"cannot read {args.game}: {exc}") from None
        if not isinstance(data, dict) or "config" not in data:
            raise ExportError(f"{args.game} is not a saved tournament game")
        return None, data, {}
    try:
        store = TournamentStore.open(db)
    except TournamentStoreError as exc:
        raise ExportError(exc.reason) from None
    try:
        if args.game_id is not None or args.last:
            loaded = store.finished_game(find_kept_game(store, args.game_id))
        else:
            loaded = store.load()
    except TournamentStoreError as exc:
        raise ExportError(exc.reason) from None
    finally:
        store.close()
    if loaded is None:
        raise ExportError("no tournament game is saved")
    return loaded


def run_export(args: argparse.Namespace) -> int:
    try:
        db = Path(args.db) if args.db else load_config(args.config).db_path
    except ConfigError as exc:
        return _fail(str(exc))
    try:
        game_id, state, session = _saved_game(args, db)
        folder = choose_folder(
            args.to, fallback=db.parent, usb_only=args.usb, mounts_file=args.mounts
        )
        holes = {int(k): tuple(v) for k, v in session.get("my_holes", {}).items()}
        seat = session.get("human_seat") if session else None
        done = export_hands(state, folder, game_id=game_id, my_seat=seat, my_holes=holes)
    except ExportError as exc:
        return _fail(exc.reason)
    print(json.dumps({"json": str(done.json_path), "phh": str(done.phh_path), "hands": done.hands}))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("holdem", help="tournament Hold'em tools")
    sub = parser.add_subparsers(dest="holdem_command", metavar="SUBCOMMAND")
    sub.required = True
    replay = sub.add_parser("replay", help="replay hands from JSON and print the settlements")
    replay.add_argument("file", metavar="FILE", help="JSON hand or JSON lines; - for stdin")
    replay.set_defaults(func=run_replay)
    export = sub.add_parser(
        "export", help="write a game's finished hands as JSON and PHH (USB if mounted)"
    )
    where = export.add_mutually_exclusive_group()
    where.add_argument("--to", metavar="DIR", help="folder to write to")
    where.add_argument("--usb", action="store_true", help="the USB stick; fail if none")
    export.add_argument("--db", help="cabinet database (default: the configuration's db_path)")
    export.add_argument("--config", help="cabinet configuration file")
    game = export.add_mutually_exclusive_group()
    game.add_argument("--game", metavar="FILE", help="a saved game as JSON instead")
    game.add_argument("--game-id", metavar="ID", help="a finished game (its id, or the start of it)")
    game.add_argument("--last", action="store_true", help="the latest finished game")
    export.add_argument("--mounts", default=str(MOUNTS_FILE), help=argparse.SUPPRESS)
    export.set_defaults(func=run_export)
