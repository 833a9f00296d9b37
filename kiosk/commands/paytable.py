"""``uth paytable check FILE``: validate a paytable, print it and its exact RTP per bet.

The RTPs are those of optimal play (:mod:`engine.maths.par`): read from the PAR cache, or
computed (minutes, once per Blind table).  A paytable whose main game (return per total
main wager) or Trips RTP lies outside the jurisdiction bounds is refused with exit code
2 and the reason.  Bounds: ``--min-rtp`` / ``--max-rtp`` (percent), else the cabinet
configuration's ``rtp_min_pct`` / ``rtp_max_pct`` (``--config`` or ``$UTH_CONFIG``),
else 80% to 100%.

The cabinet accepts a paytable only with a proof of its RTP signed with its key
(:mod:`kiosk.machine.par_proof`).  With the cabinet key at hand (the configuration's
``ledger_key_path``, by default beside the database), a table already proven is
reported as such; otherwise its exact RTP is computed from the paytable and the
package's own data in a scratch folder (nothing in the PAR cache is trusted; up to a
few minutes) and signed.  Without the key the figures come from the PAR cache as usual
and the output says that the proof is unsigned and the cabinet will not accept it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from engine.uth.paytable import Paytable, PaytableError, load_paytable
from kiosk.ledger.key import CabinetKey, KeyFileError

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


def cabinet_key(args: argparse.Namespace) -> tuple[CabinetKey | None, str]:
    """The cabinet key of the configuration (``--config``, else ``$UTH_CONFIG``, else the
    demo defaults) and its path, or None and why it is not available."""
    from kiosk.config import ConfigError, load_config

    try:
        path = Path(load_config(getattr(args, "config", None)).key_path)
    except ConfigError as exc:
        return None, str(exc)
    try:
        return CabinetKey.load(path), str(path)
    except KeyFileError as exc:
        return None, str(exc)


def signed_rtps(
    key: CabinetKey, table: Paytable, cache: str | None
) -> tuple[dict[str, float], bool]:
    """RTP per bet under optimal play (fractions of 1) with a proof signed by ``key``,
    and whether that proof was there already.  A table not yet proven is computed from
    the paytable and the package's data in a scratch folder (no file of the PAR cache is
    read), then its report and proof are kept in the PAR cache."""
    from engine.maths.par import par
    from kiosk.machine.par_proof import proven_rtp, sign_proof

    proven = proven_rtp(key, table, cache=cache)
    if proven is not None:
        return proven, True
    print(
        "computing the exact RTP under optimal play afresh, to sign it (up to a few minutes)...",
        file=sys.stderr,
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="uth-par-") as scratch:
        report = par(table, "optimal", cache=scratch)
    sign_proof(key, table, report, cache=cache)
    return report.rtps(), False


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
    signer, key_source = cabinet_key(args)
    if signer is not None:
        try:
            rtps, cached = signed_rtps(signer, table, args.cache_dir)
        except OSError as exc:
            print(f"error: the signed proof could not be kept in the PAR cache: {exc}")
            return 2
        proof = (
            f"Proof: {'already ' if cached else ''}signed with the cabinet key {key_source} "
            f"(fingerprint {signer.fingerprint}); this cabinet accepts these figures"
        )
    else:
        rtps, cached = optimal_rtps(table, args.cache_dir)
        proof = (
            f"Proof: unsigned (no cabinet key: {key_source}); the cabinet will not accept "
            "this paytable until this check runs with its configuration (--config or $UTH_CONFIG)"
        )
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
    print(proof)
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
