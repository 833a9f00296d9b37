"""``uth sas``: the casino's slot system link (SAS 6.02).

    uth sas host PORT [--address N ...] [--seconds S] [--every MS] [--meters]
        a technician's host: general polls round the addresses, the exceptions in
        words, the host's side of TITO (validation numbers, ticket in), and with
        ``--meters`` the machine's identity and meters first
    uth sas probe PORT [--loopback]
        whether a UART can carry the wakeup bit: stick parity (CMSPAR) both ways and
        parity marking (INPCK + PARMRK); with TX wired to RX, a byte with the wakeup bit
        must come back marked
    uth sas serve [--config F] [--db F] [--port PATH | --pty] [--address N] [--rounds N]
        the cabinet headless with its SAS link on PORT (or on a new pseudo-terminal,
        whose path it prints for ``uth sas host``), its slot door the configuration's
        ``door``; ``--rounds N`` plays N random rounds, inserting a note whenever the
        credits cannot cover a round, and first finishes a round a power cut left open
        (it counts as one of the N); while the door is open or a tilt stands it waits

A pseudo-terminal carries the test transport (the wakeup bit as ``FF 00 b``, a plain
``FF`` as ``FF FF``: :mod:`devices.sas.marks`); any other port is a UART at 19,200 baud
with the wakeup bit as stick parity (:mod:`devices.sas.uart`).
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from devices.sas.host import SasHost, decode, describe_exception
from devices.sas.line import PtyLine, PtyPair, WakeupLine
from devices.sas.session import HostSession, TicketBook
from devices.sas.uart import open_line, probe

if TYPE_CHECKING:
    from kiosk.wiring.lone_cabinet import LoneCabinet


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("sas", help="the casino's slot system link (SAS 6.02)")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    host = verbs.add_parser("host", help="a technician's SAS host on PORT")
    host.add_argument("port", help="serial port or pseudo-terminal of the line")
    host.add_argument("--address", type=int, action="append", help="machine address(es), default 1")
    host.add_argument("--seconds", type=float, default=10.0, help="how long to poll (default 10)")
    host.add_argument("--every", type=float, default=200.0, help="ms between polls (default 200)")
    host.add_argument("--meters", action="store_true", help="read identity and meters first")
    host.add_argument("--tickets", help="the host's ticket book (JSON), shared between hosts")
    host.add_argument("--timeout", type=float, default=50.0, help="answer timeout, ms (default 50)")
    host.set_defaults(func=run_host)

    pr = verbs.add_parser("probe", help="check a UART's wakeup-bit support")
    pr.add_argument("port")
    pr.add_argument("--loopback", action="store_true", help="TX is wired to RX: send and read back")
    pr.set_defaults(func=run_probe)

    sv = verbs.add_parser("serve", help="the cabinet headless with its SAS link")
    sv.add_argument("--config", help="cabinet configuration TOML (default $UTH_CONFIG)")
    sv.add_argument("--db", help="ledger database (default: the configuration's db_path)")
    where = sv.add_mutually_exclusive_group()
    where.add_argument("--port", help="the line (default: the configuration's sas_port)")
    where.add_argument("--pty", action="store_true", help="serve on a new pseudo-terminal")
    sv.add_argument("--address", type=int, help="machine address (default: sas_address)")
    sv.add_argument("--rounds", type=int, default=0, help="play this many random rounds")
    sv.add_argument("--seconds", type=float, default=0.0, help="stop after S seconds (0: Ctrl-C)")
    sv.set_defaults(func=run_serve)


def _line(port: str) -> WakeupLine:
    return open_line(port)


def run_host(args: argparse.Namespace) -> int:
    try:
        line = _line(args.port)
    except OSError as exc:
        print(f"error: cannot open {args.port}: {exc}", file=sys.stderr)
        return 2
    addresses = args.address or [1]
    host = SasHost(line, answer_timeout=args.timeout / 1000)
    book = TicketBook(Path(args.tickets) if args.tickets else None)
    session = HostSession(host, addresses, book)
    try:
        if args.meters:
            for a in addresses:
                for cmd in (0x1F, 0x54, 0x0F, 0x1C, 0x1A):
                    ex = host.long_poll(a, cmd)
                    shown = decode(cmd, ex.answer) if ex.kind == "data" else ex.kind
                    print(f"{a:3d} {cmd:02X} {shown}")
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            for logged in session.cycle():
                print(f"{logged.address:3d} {logged.code:02X} {describe_exception(logged.code)}")
            time.sleep(args.every / 1000)
    except KeyboardInterrupt:
        pass
    finally:
        line.close()
    s = host.stats
    if s.starts:
        print(f"answers {len(s.starts)}, no answer {s.timeouts}, slowest start "
              f"{max(s.starts) * 1000:.2f} ms, chirps {s.chirps}")  # fmt: skip
    return 0


def run_probe(args: argparse.Namespace) -> int:
    report = probe(args.port, loopback=args.loopback)
    for what, ok, detail in report.checks:
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {detail}")
    print("the port can carry the SAS wakeup bit" if report.ok else "the port cannot carry it")
    return 0 if report.ok else 1


def run_serve(args: argparse.Namespace) -> int:
    from devices.door import DoorError
    from engine.rng import SystemRandomSource
    from kiosk.config import ConfigError, load_config
    from kiosk.game.commands import SetDoor
    from kiosk.sas.game_port import TablePort
    from kiosk.sas.service import SasService
    from kiosk.wiring.door import start_door
    from kiosk.wiring.lone_cabinet import LoneCabinet

    try:
        config = load_config(args.config, db_path=args.db)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pair = PtyPair() if args.pty else None
    path = pair.port if pair is not None else (args.port or config.sas_port)
    if path is None:
        print("error: no SAS port: give --port, --pty or sas_port", file=sys.stderr)
        return 2
    machine = LoneCabinet.open(config, rng=SystemRandomSource())
    if machine.table.ledger is None:
        print(f"error: {machine.station.snapshot().message}", file=sys.stderr)
        return 1
    address = args.address or config.sas_address
    if pair is not None:
        service = SasService(TablePort(machine.table), config.db_path, lambda: pair.line, address)
        print(f"SAS address {address} on {pair.port}: uth sas host {pair.port}", flush=True)
    else:
        service = SasService(
            TablePort(machine.table), config.db_path, lambda: open_line(path), address
        )
        print(f"SAS address {address} on {path}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    service.start()
    try:
        door = start_door(config, lambda open: machine.station.execute(SetDoor(open)))
    except DoorError as exc:
        print(f"error: door: {exc.reason}", file=sys.stderr)
        service.stop()
        machine.close()
        return 2
    try:
        played = play_rounds(machine, args.rounds, stop)
        if args.rounds:
            print(f"rounds played: {played}", flush=True)
        stop.wait(args.seconds if args.seconds > 0 else None)
    except KeyboardInterrupt:
        pass
    finally:
        if door is not None:
            door.stop()
        if pair is not None:
            # the pair's master is the service's line: keep it until the service stops
            service.stop()
            pair.close()
        else:
            service.stop()
        machine.close()
    return 0


#: The ante of a served round, cents, and the note inserted when credits run short.
ANTE = 500
NOTE = 10_000


def play_rounds(machine: LoneCabinet, rounds: int, stop: threading.Event) -> int:
    """Play ``rounds`` random rounds at ``machine``'s station (a round left open by a power cut is
    finished first and counts); returns how many were played.  Credits short of a whole
    round (ante, blind and the largest play bet: 6 antes) get a note; while the door is
    open or a tilt stands, play waits; any other refusal ends the run."""
    from kiosk.game import commands as cmd
    from kiosk.game.errors import MachineError
    from kiosk.game.snapshot import MachinePhase
    from kiosk.station.credits import insert_credits

    station = machine.station

    rng = random.Random()
    played = 0
    while played < rounds and not stop.is_set():
        try:
            snap = station.snapshot()
            if snap.phase != MachinePhase.IN_ROUND:
                if snap.door_open or snap.tilts or snap.phase == MachinePhase.CASHOUT:
                    stop.wait(0.1)
                    continue
                if snap.available < 6 * ANTE:
                    insert_credits(machine.link, cmd.InsertCredits(NOTE))
                if snap.bet_ante == 0:
                    station.execute(cmd.PlaceChip("ante", ANTE))
                station.execute(cmd.Deal())
            while station.snapshot().phase == MachinePhase.IN_ROUND:
                station.execute(cmd.Decide(rng.choice(station.snapshot().legal)))
            played += 1
        except MachineError as exc:
            snap = station.snapshot()
            if snap.door_open or snap.tilts:
                continue  # waits above
            print(f"round not played: {exc.reason}", file=sys.stderr)
            break
    return played


__all__ = ["PtyLine", "register"]
