"""``uth devices``: probe a serial port, or run a device simulator on a pseudo-terminal.

    uth devices probe /dev/serial/by-id/usb-JCM-...      identify what answers there
    uth devices simulate validator                       ID-003 validator on a new pty
    uth devices simulate printer                         TCL printer on a new pty
    uth devices simulate door open|close [--config F | --path P]
                                                         the simulated slot door

``simulate`` prints the pty path and runs until Ctrl-C.  While it runs, lines typed on
stdin drive it: for the validator ``bill 20`` (dollars), ``ticket <18 digits>``,
``fault <name>`` / ``clear <name>``, ``power``, ``cashbox`` (what the box holds and what
was returned); for the printer ``fault <name>`` / ``clear <name>``, ``power``,
``printed``; ``help`` lists them.  ``simulate door`` opens or closes the configuration's
simulated door (``door = "sim:/path"``, or the file ``--path`` names) and returns: the
cabinet watching it records the door's change (SAS exceptions 11 / 12).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence

from devices.probe import probe
from devices.sim.id003 import FAULTS as VALIDATOR_FAULTS
from devices.sim.id003 import Bill, Id003Simulator, Ticket
from devices.sim.tcl import FAULTS as PRINTER_FAULTS
from devices.sim.tcl import TclSimulator
from engine.money import format_cents as money

HELP = {
    "validator": "bill <dollars> | ticket <digits> | fault <name> | clear <name> | power | "
    "cashbox | quit",
    "printer": "fault <name> | clear <name> | power | printed | quit",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``devices probe`` and ``devices simulate``."""
    parser = subparsers.add_parser("devices", help="probe serial devices or run simulators")
    _add_subcommands(parser)


def _add_subcommands(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="devices_command", metavar="ACTION")
    sub.required = True
    p = sub.add_parser("probe", help="identify the device on a serial port (ID-003 or TCL)")
    p.add_argument("port", help="serial device path, e.g. /dev/serial/by-id/...")
    p.add_argument("--timeout", type=float, default=0.5, help="seconds per attempt")
    p.set_defaults(func=cmd_probe)
    s = sub.add_parser("simulate", help="run a device simulator on a new pseudo-terminal")
    s.add_argument("device", choices=("validator", "printer", "door"))
    s.add_argument("state", nargs="?", choices=("open", "close"), help="door: open or close it")
    s.add_argument("--config", help="door: the cabinet configuration naming its door")
    s.add_argument("--path", help="door: the simulated door's file (instead of --config)")
    s.set_defaults(func=cmd_simulate)


def cmd_probe(args: argparse.Namespace) -> int:
    """Print what answers on ``args.port``; exit 1 if nothing does."""
    try:
        result = probe(args.port, args.timeout)
    except OSError as exc:
        print(f"{args.port}: cannot open: {exc}", file=sys.stderr)
        return 2
    if result is None:
        print(f"{args.port}: no ID-003 or TCL device answered")
        return 1
    print(f"{args.port}: {result.protocol} {result.model}")
    print(f"  version: {result.version}")
    print(f"  state:   {result.state}")
    return 0


def _item(item: Bill | Ticket) -> str:
    return f"ticket {item.barcode}" if isinstance(item, Ticket) else f"note {money(item.cents)}"


def held(sim: Id003Simulator) -> str:
    """What the validator's cash box holds, and what it returned, one item a line."""
    with sim.lock:
        box, returned = list(sim.cashbox), list(sim.returned)
    notes = sum(i.cents for i in box if isinstance(i, Bill))
    lines = [f"cash box: {len(box)} items, notes {money(notes)}"]
    lines += [f"  {_item(i)}" for i in box]
    lines.append(f"returned: {len(returned)} items")
    lines += [f"  {_item(i)}" for i in returned]
    return "\n".join(lines)


def _handle_line(sim: Id003Simulator | TclSimulator, device: str, line: str) -> str:
    words = line.split()
    if not words:
        return ""
    verb, rest = words[0].lower(), words[1:]
    try:
        if verb in ("fault", "clear") and rest:
            sim.set_fault(rest[0], active=verb == "fault")
        elif verb == "power":
            sim.power_cycle()
        elif device == "validator" and verb == "bill" and rest:
            assert isinstance(sim, Id003Simulator)
            sim.insert_bill(int(rest[0]) * 100)
        elif device == "validator" and verb == "ticket" and rest:
            assert isinstance(sim, Id003Simulator)
            sim.insert_ticket(rest[0])
        elif device == "validator" and verb == "cashbox":
            assert isinstance(sim, Id003Simulator)
            return held(sim)
        elif device == "printer" and verb == "printed":
            assert isinstance(sim, TclSimulator)
            return "\n\n".join(t.render() for t in sim.printed) or "nothing printed"
        else:
            faults = VALIDATOR_FAULTS if device == "validator" else PRINTER_FAULTS
            return f"{HELP[device]}\nfaults: {', '.join(faults)}"
    except ValueError as exc:
        return f"error: {exc}"
    return "ok"


def simulate_door(args: argparse.Namespace) -> int:
    """Open or close the simulated door of ``--path`` or of the configuration."""
    from pathlib import Path

    from devices.door import SimulatedDoor
    from kiosk.config import ConfigError, load_config

    if args.state is None:
        print("error: simulate door needs open or close", file=sys.stderr)
        return 2
    if args.path:
        path = Path(args.path)
    else:
        try:
            door = load_config(args.config).door
        except ConfigError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if door is None or door.kind != "sim":
            shown = "no door" if door is None else f"door {door}"
            print(f"error: the configuration has {shown}, not a simulated one (sim:/path)",
                  file=sys.stderr)  # fmt: skip
            return 2
        path = door.path
    SimulatedDoor.set(path, args.state == "open")
    print(f"door {'open' if args.state == 'open' else 'closed'} ({path})")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run a simulator until Ctrl-C (or ``quit`` on stdin)."""
    if args.device == "door":
        return simulate_door(args)
    sim: Id003Simulator | TclSimulator = (
        Id003Simulator() if args.device == "validator" else TclSimulator()
    )
    stop = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        with sim:
            print(sim.port, flush=True)
            print(
                f"simulating a {args.device}; Ctrl-C to stop; 'help' for commands", file=sys.stderr
            )

            def read_stdin() -> None:
                for line in sys.stdin:
                    if line.strip().lower() == "quit":
                        stop.set()
                        return
                    reply = _handle_line(sim, args.device, line)
                    if reply:
                        print(reply, file=sys.stderr, flush=True)
                # stdin closed: keep running until Ctrl-C

            if sys.stdin is not None and not sys.stdin.closed:
                threading.Thread(target=read_stdin, daemon=True).start()
            while not stop.wait(0.2):
                pass
    finally:
        signal.signal(signal.SIGINT, previous)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``uth devices`` alone: ``python -m kiosk.commands.devices simulate printer``."""
    parser = argparse.ArgumentParser(prog="uth devices")
    _add_subcommands(parser)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
