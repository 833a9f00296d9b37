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
"""

from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.link.pairing import HostPairing


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


def _children(
    args: argparse.Namespace, folder: Path, port: int, display_port: int
) -> list[list[str]]:
    """The command lines of the stations and the display."""
    py = [sys.executable, "-m", "kiosk"]
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
    from kiosk.table import Table, TableTiming
    from kiosk.table.host_service import TableHost

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
        HostPairing(host_folder),
        port=0,
        displays=HostPairing(host_folder / "displays"),
        display_port=0,
    )
    procs: list[subprocess.Popen[bytes]] = []
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
        for line in _children(args, folder, port, display_port):
            procs.append(subprocess.Popen(line))
        stations = procs[:-1]
        while not stop.wait(0.2):
            if all(p.poll() is not None for p in stations):
                break
        codes = [p.poll() for p in stations]
        _stop_all(procs)
        if args.rounds is not None:
            ok = all(code == 0 for code in codes)
            print(f"stations exited {codes}", flush=True)
            return 0 if ok else 1
        return 0
    finally:
        _stop_all(procs)
        service.stop()
        table.close()
        if temporary and not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


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
