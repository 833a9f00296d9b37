"""``uth table demo``: a whole shared table on one machine, for a first look.

    uth table demo --stations 3                 # three station windows and the display
    uth table demo --stations 3 --headless --rounds 1   # stations play by themselves

It opens a table host in this process (its ledger, certificate and every pairing in a
temporary folder, or ``--folder``), pairs each station and one dealer display with it
directly (no codes to type), and starts each station (``uth kiosk --station N``) and
the display (``uth table display``) as its own process.  With ``--rounds N`` the
stations play by themselves (``--autoplay random``, the burn-in) and the demo exits 0
once each has played N settled rounds.  Otherwise it runs until every station window
is closed, or Ctrl-C / SIGTERM, which stops every process it started.

The windows open side by side, never on each other (:func:`window_places`: the stations
in rows, the dealer display beside them), each titled with what it is.  The temporary
folder is removed at the end only when no station holds credits or an open note: a table
stopped with money on it keeps its ledger, and says where (:func:`money_left`).

Every station drives its own simulated devices (:func:`_devices`), so each note goes the
real two-phase way (escrowed on the host, stacked, credited once by the validator's
report): a station with a window runs ``--validator sim`` (its demo bill keys feed the
simulator); a station playing by itself gets an ID-003 simulator on a pty in this
process, which the demo feeds a note whenever the seat's credits cannot cover a round
(:func:`_feed`), as a patron would.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from devices.sim import Id003Simulator
    from kiosk.link.pairing import HostPairing
    from kiosk.service.table import Table

#: The note the demo's patrons put into a station's validator (cents).
NOTE_CENTS = 10_000
#: Seconds between two notes into one station's validator (the first may still be
#: on its way to the host).
FEED_GAP_S = 5.0


def _pair(host: HostPairing, station_id: str, seat: int, folder: Path) -> None:
    """Pair ``station_id`` to ``seat`` on ``host`` (the serving host's pairing) and save
    the station's half in ``folder``."""
    from kiosk.link import auth
    from kiosk.link.certs import certificate_pem
    from kiosk.link.pairing import StationPairing

    key = auth.new_station_key()
    host.add(station_id, seat, key)
    pem = certificate_pem(host.identity.certificate_der())
    StationPairing(station_id, seat, key, host.fingerprint, pem).save(folder)


def _devices(n: int, validators: dict[int, Id003Simulator]) -> list[str]:
    """Station ``n``'s devices on its command line, all simulated, one option and its
    value a line: its bill validator (a pty of ``validators``, else the station's own
    simulator), then its other devices."""
    validator = validators[n].port if n in validators else "sim"
    return [
        "--validator", validator,
        "--printer", "sim",
    ]  # fmt: skip


def _feed(
    table: Table, validators: dict[int, Id003Simulator], fed: dict[int, float], rounds: int
) -> None:
    """Put a note into each validator whose seat cannot cover a round and has been dealt
    fewer than ``rounds`` rounds, once the validator is idle and no escrow of the seat
    is open (``fed``: when each was last fed, ``time.monotonic()``)."""
    from kiosk.station.autoplay import ROUND_ANTES

    need = ROUND_ANTES * table.limits.ante_min
    now = time.monotonic()
    for n, sim in validators.items():
        with sim.lock:
            idle = sim.item is None and not sim.queue
        if not idle or now - fed.get(n, -FEED_GAP_S) < FEED_GAP_S:
            continue
        if len(table.recall(rounds, station=n)) >= rounds:
            continue  # it cashes out and stops
        if table.credits(n) < need and not table.open_escrows(n):
            sim.insert_bill(NOTE_CENTS)
            fed[n] = now


def _children(
    args: argparse.Namespace,
    folder: Path,
    port: int,
    display_port: int,
    validators: dict[int, Id003Simulator],
) -> list[list[str]]:
    """The command lines of the stations and the display."""
    py = [sys.executable, "-I", "-m", "kiosk"]  # isolated: never the working folder on sys.path
    headless = ["--headless"] if args.headless else []
    out = []
    for n in args.stations:
        line = [
            *py,
            "kiosk",
            "--station",
            str(n),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--pairing",
            str(folder / f"station-{n}"),
            "--window",
            args.window,
            "--no-sound",
            *headless,
            *_devices(n, validators),
        ]
        if args.rounds is not None:
            line += ["--autoplay", "random", "--rounds", str(args.rounds)]
        out.append(line)
    display = [
        *py,
        "table",
        "display",
        "--host",
        "127.0.0.1",
        "--port",
        str(display_port),
        "--folder",
        str(folder / "display"),
        "--window",
        args.display_window,
        *headless,
    ]
    if args.display_screenshot:
        display += ["--screenshot", args.display_screenshot]
    out.append(display)
    return out


def _size(text: str) -> tuple[int, int]:
    w, _x, h = text.lower().partition("x")
    return (int(w), int(h)) if w.isdigit() and h.isdigit() else (800, 480)


def window_places(
    stations: int, window: str, display_window: str, *, gap: int = 24, columns: int = 2
) -> list[tuple[int, int]]:
    """Where each window opens, pixels from the screen's top left (SDL's
    ``SDL_VIDEO_WINDOW_POS``): the ``stations`` windows of ``window`` size in rows of
    ``columns``, then the dealer display's to their right; no two overlap."""
    w, h = _size(window)
    places = [
        (gap + (i % columns) * (w + gap), gap + (i // columns) * (h + 2 * gap))
        for i in range(stations)
    ]
    places.append((gap + min(stations, columns) * (w + gap), gap))
    return places


def money_left(table: Table, stations: tuple[int, ...]) -> dict[int, int]:
    """The stations that still hold credits or an open note: station -> credits (cents)."""
    out = {}
    for n in stations:
        credits = table.credits(n)
        if credits > 0 or table.open_escrows(n):
            out[n] = credits
    return out


def tidy(folder: Path, left: dict[int, int], *, keep: bool = False) -> str:
    """Remove the demo's temporary ``folder`` unless asked to ``keep`` it or stations
    still hold money (``left``, :func:`money_left`): then keep it and say so (returned)."""
    if keep:
        return f"the table is kept in {folder}"
    if not left:
        shutil.rmtree(folder, ignore_errors=True)
        return ""
    held = ", ".join(f"station {n}: {cents / 100:,.2f}" for n, cents in sorted(left.items()))
    return (
        f"stations still hold credits ({held}): the table's ledger is kept in {folder} "
        f"(uth audit verify --db {folder / 'table.db'})"
    )


def _stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    """Ask every child still running to stop (SIGINT, as Ctrl-C would), then end it."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc in procs:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def cmd_demo(args: argparse.Namespace) -> int:
    from kiosk.config import ConfigError, load_config
    from kiosk.link.pairing import HostPairing
    from kiosk.service.table import Table
    from kiosk.service.timing import TableTiming
    from kiosk.tablehost.pairing_book import LedgerMissBook
    from kiosk.tablehost.service import TableHost

    temporary = args.folder is None
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="uth-table-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        config = load_config(args.config, db_path=folder / "table.db")
        timing = TableTiming(args.betting_seconds, args.decision_seconds)
    except (ConfigError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    table = Table.open(config, args.stations, timing=timing)
    host_folder = folder / "host"
    service = TableHost(
        table,
        HostPairing(host_folder, LedgerMissBook(table, "stations")),
        port=0,
        displays=HostPairing(host_folder / "displays", LedgerMissBook(table, "displays")),
        display_port=0,
    )
    procs: list[subprocess.Popen[bytes]] = []
    validators: dict[int, Id003Simulator] = {}
    fed: dict[int, float] = {}
    try:
        port = service.start()
        display_port = service.display_port or 0
        for n in args.stations:
            _pair(service.pairing, f"station-{n}", n, folder / f"station-{n}")
        if service.displays is not None:
            _pair(service.displays.pairing, "display-1", 1, folder / "display")
        print(
            f"table host on 127.0.0.1:{port}, display port {display_port}, folder {folder}",
            flush=True,
        )
        if args.rounds is not None:  # stations playing by themselves: patrons feed them
            from devices.sim import Id003Simulator

            for n in args.stations:
                validators[n] = Id003Simulator().start()
        places = window_places(len(args.stations), args.window, args.display_window)
        for line, (x, y) in zip(
            _children(args, folder, port, display_port, validators), places, strict=True
        ):
            procs.append(
                subprocess.Popen(line, env={**os.environ, "SDL_VIDEO_WINDOW_POS": f"{x},{y}"})
            )
        stations = procs[:-1]
        by_seat = dict(zip(args.stations, stations, strict=True))
        while not stop.wait(0.2):
            if all(p.poll() is not None for p in stations):
                break
            running = {n: v for n, v in validators.items() if by_seat[n].poll() is None}
            _feed(table, running, fed, args.rounds or 0)
        codes = [p.poll() for p in stations]
        _stop_all(procs)
        if args.rounds is not None:
            ok = all(code == 0 for code in codes)
            print(f"stations exited {codes}", flush=True)
            return 0 if ok else 1
        return 0
    finally:
        _stop_all(procs)
        for sim in validators.values():
            sim.stop()
        service.stop()
        left = money_left(table, args.stations)
        table.close()
        if temporary:
            said = tidy(folder, left, keep=args.keep)
            if said:
                print(said, flush=True)


def _count(text: str) -> tuple[int, ...]:
    """``"3"`` as stations 1, 2 and 3."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 7:
        raise argparse.ArgumentTypeError(f"stations are 1 to 7, not {text!r}")
    return tuple(range(1, n + 1))


def register_demo(tsub: argparse._SubParsersAction) -> None:
    q = tsub.add_parser("demo", help="a host, its stations and the dealer display on this machine")
    q.add_argument(
        "--stations", type=_count, default=_count("3"), help="how many, 1 to 7 (default 3)"
    )
    q.add_argument("--folder", help="keep the table here (default: a temporary folder)")
    q.add_argument("--keep", action="store_true", help="keep the temporary folder")
    q.add_argument("--config", help="cabinet configuration TOML (default $UTH_CONFIG)")
    q.add_argument("--window", default="800x480", help="each station's window (default 800x480)")
    q.add_argument("--display-window", default="1280x720", help="the display's (default 1280x720)")
    q.add_argument("--headless", action="store_true", help="invisible windows (tests)")
    q.add_argument(
        "--rounds", type=int, help="stations play by themselves this many rounds, then exit"
    )
    q.add_argument(
        "--betting-seconds", type=float, default=20.0, help="betting window (default 20)"
    )
    q.add_argument(
        "--decision-seconds", type=float, default=20.0, help="decision timer (default 20)"
    )
    q.add_argument("--display-screenshot", help=argparse.SUPPRESS)
    q.set_defaults(func=cmd_demo)
