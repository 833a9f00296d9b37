"""``uth paytable check FILE``: validate a paytable, print it and its exact RTP per bet.

The RTPs are those of optimal play (:mod:`engine.maths.par`): read from the PAR cache, or
computed (minutes, once per Blind table).  A paytable whose main game (return per total
main wager) or Trips RTP lies outside the jurisdiction bounds is refused with exit code
2 and the reason.  Bounds: ``--min-rtp`` / ``--max-rtp`` (percent), else the cabinet
configuration's ``rtp_min_pct`` / ``rtp_max_pct`` (``--config`` or ``$UTH_CONFIG``),
else 80% to 100%.
"""

from __future__ import annotations

import argparse
import sys

from engine.uth.paytable import Paytable, PaytableError, load_paytable

DEFAULT_BOUNDS = (80.0, 100.0)


def rtp_bounds(args: argparse.Namespace) -> tuple[float, float]:
    """(min, max) percent: command line, else cabinet configuration, else 80..100."""
    lo, hi = DEFAULT_BOUNDS
    try:
        from kiosk.config import load_config  # the cabinet's configuration, when present

        cfg = load_config(getattr(args, "config", None))
        lo, hi = float(cfg.rtp_min_pct), float(cfg.rtp_max_pct)
    except ImportError:
        pass
    if args.min_rtp is not None:
        lo = args.min_rtp
    if args.max_rtp is not None:
        hi = args.max_rtp
    return lo, hi


def optimal_rtps(table: Paytable, cache: str | None = None) -> tuple[dict[str, float], bool]:
    """RTP per bet under optimal play (fractions of 1) and whether it came from the cache."""
    from engine.maths.cache import cached_rtp
    from engine.maths.par import par

    cached = cached_rtp(table, cache=cache)
    if cached is not None:
        return cached, True
    print(
        "computing the exact RTP under optimal play (once per Blind table; a few minutes)...",
        file=sys.stderr,
        flush=True,
    )
    return par(table, "optimal", cache=cache).rtps(), False


def check(args: argparse.Namespace) -> int:
    try:
        table = load_paytable(args.file)
    except PaytableError as exc:
        print(f"error: {exc}")
        return 2
    lim = table.limits
    print(f"{table.name} (version {table.version}, {table.currency})  sha256 {table.sha256}")
    print(
        f"Ante {lim.ante_min}..{lim.ante_max} cents by {lim.ante_step}; "
        f"Trips {lim.trips_min}..{lim.trips_max} cents; chips {list(lim.chips)}"
    )
    print(f"Dealer qualifies with: {table.dealer.qualifies_with.replace('_', ' ')}")
    for title, lines in (("Blind", table.blind.lines()), ("Trips", table.trips.lines())):
        print(f"{title}:")
        for cat, pay in lines.items():
            print(f"  {cat.name.replace('_', ' ').title():18s} {pay}")
    try:
        lo, hi = rtp_bounds(args)
    except ValueError as exc:  # a broken cabinet configuration
        print(f"error: {exc}")
        return 2
    rtps, cached = optimal_rtps(table, args.cache_dir)
    print(f"Return to player under optimal play (exact{', cached' if cached else ''}):")
    labels = {
        "main_total": "Main game, per total wager",
        "main_initial": "Main game, per Ante",
        "ante": "Ante",
        "blind": "Blind",
        "play": "Play",
        "trips": "Trips",
    }
    for key, label in labels.items():
        print(f"  {label:28s} {100 * rtps[key]:8.4f}%")
    problems = [
        f"{name} RTP {100 * rtps[key]:.4f}% is outside the bounds {lo:g}% to {hi:g}%"
        for key, name in (("main_total", "main game"), ("trips", "Trips"))
        if not lo <= 100 * rtps[key] <= hi
    ]
    if problems:
        for p in problems:
            print(f"error: {p}")
        return 2
    print(f"RTP bounds {lo:g}% to {hi:g}%: main game and Trips within")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("paytable", help="paytable tools")
    psub = p.add_subparsers(dest="paytable_command", metavar="ACTION")
    psub.required = True
    c = psub.add_parser(
        "check",
        help="validate a paytable file, print it and its exact RTP per bet",
        description="Validate a paytable, print it and the exact RTP of each bet under optimal play; exit 2 "
        "if the main game (return per total wager) or Trips RTP is outside the jurisdiction bounds.",
    )
    c.add_argument("file")
    c.add_argument(
        "--min-rtp",
        type=float,
        default=None,
        help="lowest RTP allowed, percent (default: config, 80)",
    )
    c.add_argument(
        "--max-rtp",
        type=float,
        default=None,
        help="highest RTP allowed, percent (default: config, 100)",
    )
    c.add_argument(
        "--config", default=None, help="cabinet configuration TOML (default $UTH_CONFIG)"
    )
    c.add_argument(
        "--cache-dir", default=None, help="PAR cache (default $UTH_PAR_CACHE or ~/.cache/uth/par)"
    )
    c.set_defaults(func=check)
