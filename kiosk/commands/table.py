"""``uth table``: the shared table on the LAN, a host and its player stations.

    uth table serve --stations 1-3 --port 7300 --pair-code     # the host; shows pairing codes
    uth table pair --host 10.0.0.2 --port 7300 --code 1234-5678 --station 2
    uth table station --host 10.0.0.2 --port 7300 --station 2 --autoplay random --rounds 50

``serve`` runs the table host (its ledger is the configuration's ``db_path``; its
certificate and the stations' keys are kept in ``--folder``, by default ``link-host``
beside the ledger) until SIGTERM or Ctrl-C, printing one line per round dealt and
settled.  With ``--pair-code`` it opens a pairing window and prints its code, and opens
the next one when a station has paired, until every seat is paired.  ``pair`` is the
station's half (its pairing is saved in ``--folder``, by default ``var/station-N``).
``station`` runs a headless station: ``--autoplay random`` is the technician's burn-in
(a seeded random player), which exits 0 after ``--rounds`` settled rounds.

    uth table pair --display --host 10.0.0.2 --port 7301 --code 1234-5678
    uth table display --host 10.0.0.2 --port 7301 --window 1920x1080
    uth table demo --stations 3            # a host, three station windows, the display

Dealer displays have their own port (``serve --display-port``, by default the
stations' port + 1) and their own pairings (``--pair-code`` shows a display's code once
every station is paired); ``display`` opens the dealer display fed by the host.
``demo`` runs the whole table on one machine (see :mod:`kiosk.commands.table_demo`).
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.tablehost.service import TableHost


def parse_stations(text: str) -> tuple[int, ...]:
    """``"1-3"`` or ``"1,2,5"`` (or a mix) as station numbers 1..7."""
    found: set[int] = set()
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            first, last = int(low), int(high or low)
            found.update(range(first, last + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"stations are like 1-3 or 1,2,5, not {text!r}") from None
    if not found or min(found) < 1 or max(found) > 7:
        raise argparse.ArgumentTypeError(f"stations are numbers from 1 to 7, not {text!r}")
    return tuple(sorted(found))


def _say(line: str) -> None:
    print(line, flush=True)


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    return stop


def cmd_serve(args: argparse.Namespace) -> int:
    from engine.rng import SeededRandomSource
    from kiosk.commands.seeding import SeedRefused, check_seed
    from kiosk.config import ConfigError, load_config
    from kiosk.game.errors import MachineError
    from kiosk.ledger.errors import LedgerError
    from kiosk.service.timing import TableTiming
    from kiosk.wiring.host import HostPlan, open_table_host

    logging.basicConfig(
        level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        config = load_config(args.config, db_path=args.db)
        timing = TableTiming(args.betting_seconds, args.decision_seconds)
    except (ConfigError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        check_seed(config, args.seed, "uth table serve")
    except SeedRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folder = Path(args.folder) if args.folder else config.db_path.with_name("link-host")
    rng = SeededRandomSource(args.seed) if args.seed is not None else None
    reopen = bool(getattr(args, "reopen_pairing", False))
    lift = bool(getattr(args, "lift_lockout", False))
    plan = HostPlan(
        tuple(args.stations),
        folder,
        host=args.host,
        port=args.port,
        display_port=args.display_port,
        burn_in=bool(getattr(args, "burn_in", False)),
        reopen_pin=_host_pin("reopen pairing") if reopen else None,
        lift_pin=_host_pin("lift the PIN pad's locks") if lift else None,
    )
    stop = _stop_on_signals()
    try:
        parts = open_table_host(config, plan, rng=rng, timing=timing)
    except MachineError as exc:
        print(f"error: refused ({exc.code}): {exc.reason}", file=sys.stderr)
        return 1
    except (LedgerError, ValueError) as exc:
        print(f"error: the table's ledger: {exc}", file=sys.stderr)
        return 1
    try:
        if lift:
            _say("PIN locks lifted")
        if reopen:
            _say("pairing reopened")
        if parts.slot_system is not None:
            _say(
                f"slot system (SAS) on {config.sas_port} addresses {sorted(parts.slot_system.addresses)}"
            )
        seats = ",".join(str(n) for n in parts.table.stations)
        _say(f"table host listening on {args.host}:{parts.port} stations {seats}")
        _say(f"dealer displays on {args.host}:{parts.service.display_port}")
        _serve(parts.service, stop, args.pair_code)
    finally:
        parts.close()
    _say("table host stopped")
    return 0


def _host_pin(what: str) -> str:
    """A technician's PIN typed at the host's console (not echoed), or the first line of
    standard input when it is not a terminal."""
    if sys.stdin.isatty():
        import getpass

        return getpass.getpass(f"technician's PIN to {what}: ")
    return sys.stdin.readline().strip()


def _serve(service: TableHost, stop: threading.Event, pairing_codes: bool) -> None:
    from kiosk.link.pairing import LOCKED_TEXT

    table, pairing = service.table, service.pairing
    shown: tuple[int | None, bool] = (None, False)
    display_code = pairing_codes
    while not stop.wait(0.1):
        if pairing_codes and not pairing.window_open:
            paired = {s.seat for s in pairing.stations()}
            if pairing.locked:
                _say(f"pairing locked: {LOCKED_TEXT}")
                pairing_codes = False
            elif set(table.stations) - paired:
                code = pairing.open_window(ttl_s=600.0)
                _say(f"pairing code {code} port {service.port}")
            else:
                _say("every station is paired")
                pairing_codes = False
        displays = service.displays.pairing if service.displays is not None else None
        if display_code and not pairing_codes and displays is not None:
            if not displays.stations():
                code = displays.open_window(ttl_s=600.0)
                _say(f"display pairing code {code} port {service.display_port}")
            display_code = False
        view = table.display()
        now = (view.round_id, view.round_open)
        if now != shown and view.round_id is not None:
            dealt = [s.seat for s in view.seats if s.in_round]
            state = "dealt" if view.round_open else "settled"
            _say(f"round {view.round_id} {state} seats {','.join(map(str, dealt))}")
        shown = now


def cmd_pair(args: argparse.Namespace) -> int:
    from kiosk.link.client import pair_station
    from kiosk.link.errors import LinkError

    if args.display:
        station_id, seat, default = "display-1", 1, "var/display"
    elif args.station is None:
        print("error: pair a station (--station N) or a display (--display)", file=sys.stderr)
        return 2
    else:
        station_id, seat, default = f"station-{args.station}", args.station, ""
    folder = Path(args.folder or default or f"var/station-{args.station}")
    try:
        pairing = pair_station(args.host, args.port, args.code, station_id, seat, folder)
    except (LinkError, OSError, TimeoutError) as exc:
        print(f"error: pairing refused: {exc}", file=sys.stderr)
        return 1
    _say(f"paired {pairing.station_id} to seat {pairing.seat}; host {pairing.fingerprint[:16]}")
    return 0


def cmd_station(args: argparse.Namespace) -> int:
    from kiosk.link.errors import LinkError
    from kiosk.link.pairing import WITNESS_FILE, StationPairing
    from kiosk.station.autoplay import RandomPlayer
    from kiosk.station.remote import RemoteTable
    from kiosk.station.witness import HeadWitness

    logging.basicConfig(
        level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if args.autoplay not in ("random", "idle"):
        print("error: a headless station needs --autoplay random (or idle)", file=sys.stderr)
        return 2
    folder = Path(args.folder or f"var/station-{args.station}")
    try:
        pairing = StationPairing.load(folder)
    except LinkError as exc:
        print(f"error: {exc}; pair first with `uth table pair`", file=sys.stderr)
        return 2
    if pairing.seat != args.station:
        print(f"error: {folder} is paired to seat {pairing.seat}", file=sys.stderr)
        return 2
    stop = _stop_on_signals()
    witness = HeadWitness(folder / WITNESS_FILE)  # keeps the host's ledger head
    remote = RemoteTable(pairing, args.host, args.port, witness=witness)
    remote.start()
    validator = None
    if getattr(args, "validator", None):
        from kiosk.station.notes import StationValidator

        validator = StationValidator(remote, args.validator).start()
        _say(f"station {args.station} validator on {validator.port}")
    printer = None
    if getattr(args, "printer", None):
        from kiosk.station.printer import StationPrinter

        printer = StationPrinter(remote, args.printer).start()
        _say(f"station {args.station} printer on {printer.port}")
        if not printer.wait_told(15.0):  # cash-outs are handpays until it is
            _say(f"station {args.station} printer not ready: cash-outs are handpays")
    if args.autoplay == "idle":  # the validator only, until stopped
        _say(f"station {args.station} serving")
        stop.wait()
        if validator is not None:
            validator.close()
        if printer is not None:
            printer.close()
        remote.stop()
        return 0
    seed = args.seed if args.seed is not None else args.station
    player = RandomPlayer(
        remote,
        seed,
        think_s=args.think,
        own_notes=validator is None,
        say=_say,
        test_credits=validator is None,  # no validator: the burn-in's test credits
    )
    result: dict[str, object] = {}

    def play() -> None:
        try:
            result["report"] = player.run(args.rounds, timeout=args.timeout)
        except TimeoutError as exc:
            result["error"] = str(exc)
        except Exception as exc:
            logging.getLogger(__name__).exception("autoplay failed")
            result["error"] = f"autoplay failed: {exc!r}"

    worker = threading.Thread(target=play, name="autoplay", daemon=True)
    worker.start()
    while worker.is_alive() and not stop.wait(0.1):
        pass
    if validator is not None:
        validator.close()
    if printer is not None:
        printer.close()
    remote.stop()
    if "error" in result:
        print(f"error: {result['error']}", file=sys.stderr)
        return 1
    if "report" not in result:
        return 130
    report = player.report
    _say(
        "done "
        + json.dumps(
            {
                "station": args.station,
                "rounds": len(report.rounds),
                "notes_in": report.notes_in,
                "test_credits_in": report.test_credits_in,
                "decisions": report.decisions,
                "passes": report.passes,
                "cash_outs": report.cash_outs,
                "refusals": report.refusals,
                "timed_out": report.timed_out,
            }
        )
    )
    return 0


def station_from_kiosk(args: argparse.Namespace) -> int:
    """``uth kiosk --station N --host ADDR --autoplay random``: the same headless station
    as ``uth table station`` (its pairing in ``var/station-N``)."""
    if not args.host:
        print("error: a station needs the table host's address (--host)", file=sys.stderr)
        return 2
    if args.autoplay is None:
        print("error: a station without screens needs --autoplay random", file=sys.stderr)
        return 2
    station = argparse.Namespace(
        host=args.host,
        port=args.port,
        station=args.station,
        folder=getattr(args, "pairing", None),
        autoplay=args.autoplay,
        rounds=args.rounds,
        seed=args.seed,
        think=0.0,
        timeout=120.0,
        log_level="WARNING",
        validator=getattr(args, "validator", None),
        printer=getattr(args, "printer", None),
    )
    return cmd_station(station)


def cmd_display(args: argparse.Namespace) -> int:
    from kiosk.config import ConfigError
    from kiosk.link.errors import LinkError
    from kiosk.ui.layout import parse_size
    from kiosk.ui.screen_options import ScreenOptions
    from kiosk.wiring.display import DisplayRun, run_display

    try:
        size = parse_size(args.window) if args.window else None
    except (ValueError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    options = ScreenOptions(size=size, sound=False, headless=args.headless)
    run = DisplayRun(
        args.host,
        args.port,
        Path(args.folder or "var/display"),
        fps=args.fps,
        frames=args.frames,
        screenshot=Path(args.screenshot) if args.screenshot else None,
    )
    try:
        return run_display(options, run)
    except LinkError as exc:
        print(f"error: {exc}; pair first with `uth table pair --display`", file=sys.stderr)
        return 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("table", help="the shared table on the LAN: host, pairing, stations")
    tsub = p.add_subparsers(dest="table_command", metavar="ACTION")
    tsub.required = True

    q = tsub.add_parser("serve", help="run the table host")
    q.add_argument("--config", help="cabinet configuration TOML (default $UTH_CONFIG)")
    q.add_argument("--db", help="the table's ledger (default: the configuration's db_path)")
    q.add_argument(
        "--stations", type=parse_stations, default=(1,), help="seats, e.g. 1-3 (default 1)"
    )
    q.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    q.add_argument("--port", type=int, default=7300, help="port (default 7300; 0 picks one)")
    q.add_argument(
        "--pair-code", action="store_true", help="open pairing windows and print their codes"
    )
    q.add_argument(
        "--folder", help="certificate and station keys (default: link-host beside the ledger)"
    )
    q.add_argument(
        "--betting-seconds", type=float, default=20.0, help="betting window (default 20)"
    )
    q.add_argument(
        "--decision-seconds", type=float, default=20.0, help="decision timer (default 20)"
    )
    q.add_argument("--display-port", type=int, help="dealer displays' port (default: --port + 1)")
    q.add_argument(
        "--reopen-pairing",
        action="store_true",
        help="reopen pairing locked by repeated wrong codes (asks a technician's PIN)",
    )
    q.add_argument(
        "--lift-lockout",
        action="store_true",
        help="end the PIN pad's locks after wrong PINs (asks a technician's PIN)",
    )
    q.add_argument(
        "--burn-in",
        action="store_true",
        help="a technician's burn-in: stations may key in test credits (a technician logged in there)",
    )
    q.add_argument("--seed", type=int, help="reproducible shuffles (demo mode only)")
    q.add_argument("--log-level", default="WARNING", help="logging level (default WARNING)")
    q.set_defaults(func=cmd_serve)

    q = tsub.add_parser("pair", help="pair this station with a host (the code the host shows)")
    q.add_argument("--host", required=True)
    q.add_argument("--port", type=int, required=True)
    q.add_argument("--code", required=True, help="the pairing code, e.g. 1234-5678")
    q.add_argument("--station", type=int, choices=range(1, 8), metavar="N")
    q.add_argument(
        "--display", action="store_true", help="pair a dealer display (on the display port)"
    )
    q.add_argument(
        "--folder", help="where the pairing is kept (default var/station-N, var/display)"
    )
    q.set_defaults(func=cmd_pair)

    q = tsub.add_parser("station", help="run a headless station (burn-in autoplay)")
    q.add_argument("--host", required=True)
    q.add_argument("--port", type=int, required=True)
    q.add_argument("--station", type=int, choices=range(1, 8), required=True, metavar="N")
    q.add_argument("--folder", help="its pairing (default var/station-N)")
    q.add_argument(
        "--autoplay",
        choices=("random", "idle"),
        help="play by itself: the burn-in (idle: serve the validator only)",
    )
    q.add_argument(
        "--validator", metavar="PORT", help="the station's bill validator (sim: simulated)"
    )
    q.add_argument(
        "--printer", metavar="PORT", help="the station's ticket printer (sim: simulated)"
    )
    q.add_argument("--rounds", type=int, default=20, help="settled rounds to play (default 20)")
    q.add_argument("--seed", type=int, help="the player's seed (default: the station number)")
    q.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="pause half to all of this many seconds before each action",
    )
    q.add_argument("--timeout", type=float, default=120.0, help="give up after this long idle")
    q.add_argument("--log-level", default="WARNING", help="logging level (default WARNING)")
    q.set_defaults(func=cmd_station)

    q = tsub.add_parser("display", help="open the dealer display fed by a table host")
    q.add_argument("--host", required=True)
    q.add_argument("--port", type=int, default=7301, help="the display port (default 7301)")
    q.add_argument("--folder", help="its pairing (default var/display)")
    q.add_argument("--window", metavar="WxH", help="in a window of this size (default fullscreen)")
    q.add_argument("--headless", action="store_true", help="allow an invisible video driver")
    q.add_argument("--fps", type=int, default=30, help="frame rate cap (default 30)")
    q.add_argument("--frames", type=int, help=argparse.SUPPRESS)
    q.add_argument("--screenshot", help=argparse.SUPPRESS)
    q.set_defaults(func=cmd_display)

    from kiosk.commands.table_demo import register_demo

    register_demo(tsub)
