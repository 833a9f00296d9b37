"""``uth kiosk``: the cabinet's screens, fullscreen, with simulated devices by default.

    uth kiosk                       # fullscreen, var/uth.db, simulated bills and tickets
    uth kiosk --window 1280x720     # in a window
    uth kiosk --language ja --window 800x480
    uth kiosk --station 2 --host 10.0.0.2 --port 7300 --window 800x480   # a player station

The bill validator and the ticket printer run on the ports the configuration names
(``validator_port``, ``printer_port``): ``"sim"`` (the default) starts the protocol
simulators on pseudo-terminals and the real drivers over them
(:mod:`kiosk.station.devices`).

Demo keys (simulated validator): 1-6 insert a $1..$100 bill into the simulator, T inserts
the last ticket the simulated printer printed, F9 opens/closes the door, F12 is the
attendant key.  See the Rules screen for every shortcut.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import TYPE_CHECKING

from kiosk.ui.i18n import LANGUAGES

if TYPE_CHECKING:
    from kiosk.config import CabinetConfig
    from kiosk.ui.screen_options import ScreenOptions


def run(args: argparse.Namespace) -> int:
    if args.station is not None and args.autoplay is not None:
        from kiosk.commands.table import station_from_kiosk

        return station_from_kiosk(args)
    from kiosk.config import ConfigError, load_config
    from kiosk.ui.layout import parse_size

    size = None
    if args.window:
        try:
            size = parse_size(args.window)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        config = load_config(args.config, db_path=args.db)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from kiosk.commands.seeding import SeedRefused, check_seed

    try:
        check_seed(config, args.seed, "uth kiosk")
    except SeedRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.no_sound:
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )

    from kiosk.ui.screen_options import ScreenOptions
    from kiosk.wiring.cabinet import run_cabinet

    options = ScreenOptions(
        size=size,
        language=args.language,
        sound=not args.no_sound,
        demo_keys=not args.no_demo,
        seed=args.seed,
        headless=args.headless,
        autoplay_rounds=args.rounds if args.autoplay else None,
    )
    if args.station is not None:
        return _station_screens(args, config, options)
    return run_cabinet(config, options, fps=args.fps, max_frames=args.frames)


def _station_screens(
    args: argparse.Namespace, config: CabinetConfig, options: ScreenOptions
) -> int:
    """``uth kiosk --station N --host ADDR``: the station's screens (its pairing in
    ``--pairing``, by default ``var/station-N``)."""
    from pathlib import Path

    from kiosk.link.errors import LinkError
    from kiosk.wiring.station import StationRun, run_station

    if not args.host:
        print("error: a station needs the table host's address (--host)", file=sys.stderr)
        return 2
    run = StationRun(
        args.host,
        args.port,
        Path(args.pairing or f"var/station-{args.station}"),
        fps=args.fps,
        frames=args.frames,
        screenshot=Path(args.screenshot) if args.screenshot else None,
        validator=args.validator,
        printer=args.printer,
    )
    try:
        return run_station(config, options, run)
    except LinkError as exc:
        print(f"error: {exc}; pair first with `uth table pair`", file=sys.stderr)
        return 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "kiosk", help="run the cabinet's screens (fullscreen; simulated devices by default)"
    )
    p.add_argument(
        "--window",
        metavar="WxH",
        help="run in a window of this size, e.g. 1280x720 (default: fullscreen)",
    )
    p.add_argument(
        "--config", help="cabinet configuration TOML (default: $UTH_CONFIG or built-in defaults)"
    )
    p.add_argument(
        "--db", help="ledger database (default: the configuration's db_path, var/uth.db)"
    )
    p.add_argument(
        "--language", choices=LANGUAGES, default="en", help="language at start (default en)"
    )
    p.add_argument("--no-sound", action="store_true", help="no sound at all")
    p.add_argument(
        "--no-demo", action="store_true", help="disable the demo keys (bills, tickets, door)"
    )
    p.add_argument(
        "--headless",
        action="store_true",
        help="allow an invisible video driver (dummy, offscreen): tests and burn-in only",
    )
    p.add_argument("--fps", type=int, default=60, help="frame rate cap (default 60)")
    p.add_argument(
        "--seed",
        type=int,
        help="reproducible shuffles (demo mode only: refused when the configuration is not a demo)",
    )
    p.add_argument("--frames", type=int, help=argparse.SUPPRESS)
    p.add_argument(
        "--station",
        type=int,
        choices=range(1, 8),
        metavar="N",
        help="run as player station N of a shared table (see `uth table`)",
    )
    p.add_argument("--host", help="station mode: the table host's address")
    p.add_argument(
        "--port", type=int, default=7300, help="station mode: the host's port (default 7300)"
    )
    p.add_argument(
        "--autoplay",
        choices=("random",),
        help="play by itself: a station's burn-in (headless), or on the demo cabinet a scripted "
        "player at the screens for --rounds rounds, then the kiosk ends",
    )
    p.add_argument(
        "--pairing", metavar="FOLDER", help="station mode: its pairing (default var/station-N)"
    )
    p.add_argument(
        "--validator",
        metavar="PORT",
        help="station mode: its bill validator's port (sim: simulated)",
    )
    p.add_argument(
        "--printer", metavar="PORT", help="station mode: its ticket printer's port (sim: simulated)"
    )
    p.add_argument("--screenshot", help=argparse.SUPPRESS)
    p.add_argument(
        "--rounds",
        type=int,
        default=20,
        help="with --autoplay: settled rounds to play (default 20)",
    )
    p.set_defaults(func=run)
