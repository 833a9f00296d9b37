"""``uth tournament``: tournament Hold'em with friends: ``host`` a game for phones
(:mod:`kiosk.friends.demo`), ``join`` one as a seat the computer plays
(:mod:`kiosk.friends.station`; ``--link`` over the table link, the cabinet paired with
the host)."""

from __future__ import annotations

import argparse

from kiosk.friends.demo import add_host
from kiosk.friends.station import add_join


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "tournament", help="tournament Hold'em with friends on their phones and other cabinets"
    )
    tsub = p.add_subparsers(dest="tournament_command", metavar="ACTION")
    tsub.required = True
    add_host(tsub)
    add_join(tsub)


__all__ = ["register"]
