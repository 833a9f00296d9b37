"""``uth paytable check FILE``: validate a paytable, print it and its exact RTP per bet;
``uth paytable new FROM --set blind.flush=2:1 ... -o FILE``: derive one and do the same.

The RTPs are those of optimal play (:mod:`engine.maths.par`): read from the PAR cache, or
computed (minutes, once per Blind table).  A paytable whose main game (return per total
main wager) or Trips RTP lies outside the jurisdiction bounds is refused with exit code
2 and the reason.  Bounds: ``--min-rtp`` / ``--max-rtp`` (percent), else the cabinet
configuration's ``rtp_min_pct`` / ``rtp_max_pct`` (``--config`` or ``$UTH_CONFIG``),
else 80% to 100%.

The cabinet accepts a paytable only with a proof of its RTP signed with its key
(:mod:`kiosk.game.paytables.par_proof`).  With the cabinet key at hand (the configuration's
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
    from kiosk.game.paytables.par_proof import proven_rtp, sign_proof

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


def print_table(table: Paytable) -> None:
    """The table's name, hash, limits (cents), dealer qualifier and pay lines."""
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


def print_rtps(args: argparse.Namespace, table: Paytable) -> int:
    """Print the exact RTP per bet under optimal play (signed with the cabinet key when
    it is at hand) and check it against the bounds: 0 within, 2 outside or on failure."""
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


def check(args: argparse.Namespace) -> int:
    try:
        table = load_paytable(args.file)
    except PaytableError as exc:
        print(f"error: {exc}")
        return 2
    print_table(table)
    return print_rtps(args, table)


def new(args: argparse.Namespace) -> int:
    """``uth paytable new FROM --set FIELD=VALUE ... -o FILE``: derive, validate, write,
    then print the new table and its exact RTP as ``check`` does."""
    from kiosk.game.paytables.draft import EditError, derive, parse_edit, paytable_toml

    try:
        base = load_paytable(args.base)
        edits = [parse_edit(text) for text in args.set or ()]
        if args.name:
            edits.append(("name", args.name))
        if args.version:
            edits.append(("version", args.version))
        table = derive(base, edits, source=str(args.output))
    except (PaytableError, EditError) as exc:
        print(f"error: {exc}")
        return 2
    out = Path(args.output)
    if out.exists() and not args.force:
        print(f"error: {out} exists (--force to replace it)")
        return 2
    text = paytable_toml(table)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"error: {out}: {exc.strerror or exc}")
        return 2
    table = load_paytable(out)  # what the cabinet will read: the file's own bytes
    print(f"wrote {out}")
    print_table(table)
    return print_rtps(args, table)


def records(args: argparse.Namespace) -> int:
    """``uth paytable records [--write]``: the shipped records of the program's paytables
    (:mod:`kiosk.game.paytables.rtp_record`), each computed afresh in a scratch folder; printed,
    or written to the program's file (then the program manifest is written again)."""
    from engine.maths.par import par
    from engine.uth.paytable import shipped_paytables
    from kiosk.game.paytables.rtp_record import SHIPPED_NAME, program_root, shipped_text

    reports = {}
    for path in shipped_paytables():
        with tempfile.TemporaryDirectory(prefix="uth-par-") as scratch:
            reports[path.name] = par(load_paytable(path), "optimal", cache=scratch)
    text = shipped_text(reports)
    if not args.write:
        print(text, end="")
        return 0
    (program_root() / SHIPPED_NAME).write_text(text, encoding="utf-8")
    print(
        f"wrote {program_root() / SHIPPED_NAME}; write the program manifest again "
        "(uth verify manifest --write)"
    )
    return 0


def _bounds_arguments(c: argparse.ArgumentParser) -> None:
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
    _bounds_arguments(c)
    c.set_defaults(func=check)
    r = psub.add_parser(
        "records",
        help="compute the shipped paytables' RTP records (paytables/rtp.json)",
        description="Compute the exact RTP of every shipped paytable afresh and print the "
        "program's records of them; --write replaces the program's file.",
    )
    r.add_argument("--write", action="store_true", help="write paytables/rtp.json")
    r.set_defaults(func=records)
    n = psub.add_parser(
        "new",
        help="derive a paytable from another, write it validated and print its exact RTP",
        description="Copy the paytable FROM with the given lines changed (--set blind.flush=2:1 "
        "--set trips.full_house=9:1 --set limits.ante_max=100000), write it to FILE as validated "
        "TOML and print it with its exact RTP per bet under optimal play (signed with the cabinet "
        "key when the configuration's key is at hand, as check does); exit 2 on a refusal.",
    )
    n.add_argument("base", metavar="FROM", help="the paytable file to start from")
    n.add_argument(
        "--set",
        action="append",
        metavar="FIELD=VALUE",
        help="blind.LINE=N:D, trips.LINE=N:D, limits.FIELD=CENTS, limits.chips=C1,C2,...",
    )
    n.add_argument("--name", default=None, help="the new table's name (default: FROM's)")
    n.add_argument("--version", default=None, help="the new table's version (default: FROM's)")
    n.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write it")
    n.add_argument("--force", action="store_true", help="replace FILE if it exists")
    _bounds_arguments(n)
    n.set_defaults(func=new)
