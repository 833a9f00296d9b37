"""``uth paytable check FILE``: validate a paytable and print it."""

from __future__ import annotations

import argparse

from engine.paytable import PaytableError, load_paytable


def check(args: argparse.Namespace) -> int:
    try:
        table = load_paytable(args.file)
    except PaytableError as exc:
        print(f"error: {exc}")
        return 2
    lim = table.limits
    print(f"{table.name} (version {table.version}, {table.currency})  sha256 {table.sha256}")
    print(f"Ante {lim.ante_min}..{lim.ante_max} cents by {lim.ante_step}; "
          f"Trips {lim.trips_min}..{lim.trips_max} cents; chips {list(lim.chips)}")
    print(f"Dealer qualifies with: {table.dealer.qualifies_with.replace('_', ' ')}")
    for title, lines in (("Blind", table.blind.lines()), ("Trips", table.trips.lines())):
        print(f"{title}:")
        for cat, pay in lines.items():
            print(f"  {cat.name.replace('_', ' ').title():18s} {pay}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("paytable", help="paytable tools")
    psub = p.add_subparsers(dest="paytable_command", metavar="ACTION")
    psub.required = True
    c = psub.add_parser("check", help="validate a paytable file and print it")
    c.add_argument("file")
    c.set_defaults(func=check)
