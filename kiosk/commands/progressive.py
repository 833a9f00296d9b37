"""``uth progressive``: the progressive linked across the floor (SAS 6.02 long polls
80 / 86 / 84 / 87 / 1B).

    uth progressive controller PORT... --group G [--level N=RESET ...] [--feeds N]
                               [--db FILE] [--address N ...] [--seconds S] [--every MS]
        a technician's progressive controller (:mod:`devices.sas.controller`): every
        ``--every`` ms, on each line in turn, the levels of group G broadcast (86, to
        address 0), each machine address general-polled, its contribution meter read
        into level ``--feeds`` (default 1), and each win taken off its level (54: read
        with 84; 51: with 1B; 56: with 87), which goes back to its reset when the win
        leaves it below.  Its state (each level's seed, contributions and awards,
        lifetime sums) is the SQLite file ``--db`` (default
        ``progressive-controller.db``), so a power cut of the controller loses nothing;
        ``--level`` sets a level's reset on a first run (default level 1 at $10,000).

A pseudo-terminal carries the test transport, any other port is a UART (as ``uth sas
host``: :mod:`devices.sas.uart`).
"""

from __future__ import annotations

import argparse
import sys
import time

from devices.sas.controller import ControllerLine, ControllerStore, ProgressiveController
from devices.sas.host import SasHost, describe_exception
from devices.sas.uart import open_line

#: The reset of level 1 when none is given, cents ($10,000).
DEFAULT_RESET = 1_000_000


def _money(cents: int) -> str:
    """``cents`` as dollars and cents with thousands separators (no float)."""
    return f"{cents // 100:,}.{cents % 100:02d}"


def _level(text: str) -> tuple[int, int]:
    level, sep, reset = text.partition("=")
    if not (sep and level.isdigit() and reset.isdigit()):
        raise argparse.ArgumentTypeError(f"a level is N=RESET (cents), not {text!r}")
    return int(level), int(reset)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("progressive", help="the linked progressive (SAS 6.02)")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    c = verbs.add_parser("controller", help="a technician's progressive controller on PORTS")
    c.add_argument("ports", nargs="+", help="serial ports or pseudo-terminals of the lines")
    c.add_argument("--group", type=int, required=True, help="the progressive group, 1..255")
    c.add_argument("--level", type=_level, action="append", help="N=RESET cents (first run)")
    c.add_argument("--feeds", type=int, default=1, help="the level contributions feed")
    c.add_argument("--db", default="progressive-controller.db", help="the controller's state")
    c.add_argument("--address", type=int, action="append", help="machine address(es), default 1")
    c.add_argument("--seconds", type=float, default=10.0, help="how long to run (default 10)")
    c.add_argument("--every", type=float, default=200.0, help="ms between cycles (default 200)")
    c.add_argument("--timeout", type=float, default=50.0, help="answer timeout, ms (default 50)")
    c.set_defaults(func=run_controller)


def run_controller(args: argparse.Namespace) -> int:
    resets = dict(args.level or [(1, DEFAULT_RESET)])
    try:
        store = ControllerStore(args.db, args.group, resets)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    lines: list[ControllerLine] = []
    try:
        for port in args.ports:
            try:
                opened = open_line(port)
            except OSError as exc:
                print(f"error: cannot open {port}: {exc}", file=sys.stderr)
                return 2
            host = SasHost(opened, answer_timeout=args.timeout / 1000)
            lines.append(ControllerLine(port, host, args.address or [1]))
        controller = ProgressiveController(store, lines, level=args.feeds)
        print(f"group {args.group}: " + ", ".join(
            f"level {lv} {_money(cents)}" for lv, cents in sorted(store.levels().items())
        ), flush=True)  # fmt: skip
        end = time.monotonic() + args.seconds
        shown = {each.name: 0 for each in lines}
        while time.monotonic() < end:
            for name, address, win in controller.cycle():
                now = store.levels().get(win.level, 0)
                print(f"{name} {address:3d} level {win.level} won {_money(win.cents)}: "
                      f"level now {_money(now)}", flush=True)  # fmt: skip
            for each in lines:
                for address, code in each.seen[shown[each.name] :]:
                    print(f"{each.name} {address:3d} {code:02X} {describe_exception(code)}",
                          flush=True)  # fmt: skip
                shown[each.name] = len(each.seen)
            time.sleep(args.every / 1000)
    except KeyboardInterrupt:
        pass
    finally:
        for each in lines:
            each.host.line.close()
        store.close()
    return 0
