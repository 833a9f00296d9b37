"""``uth audit``: the ledger as an inspector reads it.

``verify``  walk the hash chains and their MACs, decks, meters and triggers, and compare
            the database with its anchor (``--replay``: re-settle every round)
``recall``  the last rounds (``--last 10``): cards, decisions, payouts
``events``  the last events
``meters``  the lifetime meters and the balance of credits in and out
``tickets`` the cash-out tickets this cabinet issued, their status and times
``export``  rounds, events or meters as CSV or JSON for the regulator (raw rows with
            their hashes, so the chains can be re-verified independently)
``init``    create the ledger explicitly, with the cabinet key if there is none yet and
            the anchor (``--force`` over a lost one whose marker or anchor remains)
``keygen``  create the cabinet key (mode 0600) if there is none yet

Each takes ``--db PATH`` (default: the configuration's ``db_path``) and ``--json``;
``recall``, ``meters`` and ``export`` take ``--station N`` (1-7): that station's seat,
meters and rows only (default: the whole table; a single cabinet is station 1).
Everything except ``init`` and ``keygen`` opens the database read-only.

``verify`` exits 0 when the ledger is verified, authenticated with the cabinet key
(``--key PATH``, default the configuration's ``ledger_key_path``) and not behind its
anchor (the configuration's ``anchor_path``); 1 when a check fails; 3 when every check
it could run passed but the key or the anchor was not available: the ledger's integrity
was checked, not its authenticity (or not its freshness).  The text then starts with
``OK (integrity only)`` and the JSON adds ``"not_checked"``, the reasons.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

from engine.cards import format_cards
from engine.maths.hold import FLAG_MIN_ROUNDS, HoldReport
from engine.money import format_cents as money
from engine.uth.paytable import PaytableError, load_paytable
from kiosk.config import ConfigError, load_config, role_at_least
from kiosk.game.paytables.hold import ledger_hold
from kiosk.ledger.anchor import read_anchor
from kiosk.ledger.errors import LedgerCorruptError
from kiosk.ledger.export import ExportFormat, export_ledger, write_export
from kiosk.ledger.files import key_signed_ledger, write_key_record
from kiosk.ledger.key import CabinetKey, KeyFileError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import (
    CREDITS,
    METERS,
    Ledger,
    LedgerError,
    RoundRecord,
    balance,
    read_marker,
)
from kiosk.ledger.masking import mask_event, mask_ticket
from kiosk.ledger.startup import check_head
from kiosk.ledger.stations import check_station

#: ``uth audit verify``: the checks that ran passed, but the key or the anchor was missing.
EXIT_INTEGRITY_ONLY = 3


def _db_path(args: argparse.Namespace) -> Path:
    if args.db:
        return Path(args.db)
    return load_config(args.config).db_path


def _open_checked(args: argparse.Namespace) -> tuple[Ledger, list[str]]:
    """The ledger opened read-only with the cabinet key, checked against its anchor
    (:func:`kiosk.ledger.startup.check_head`); returns it with what could not be checked.
    Raises :class:`LedgerError` (also for a configuration that cannot be read)."""
    try:
        config = load_config(args.config, db_path=args.db)
    except ConfigError as exc:
        raise LedgerError(str(exc)) from None
    not_checked = []
    key = None
    try:
        key = CabinetKey.load(Path(args.key) if args.key else config.key_path)
    except KeyFileError as exc:
        not_checked.append(f"authenticity: {exc.reason}")
    ledger = Ledger.open(config.db_path, readonly=True, key=key)
    anchor: Path | None = config.anchor_file
    if anchor is not None and not anchor.exists():
        not_checked.append(f"freshness: no anchor at {anchor}")
        anchor = None
    try:
        check_head(ledger, anchor)
    except LedgerError:
        ledger.close()
        raise
    return ledger, not_checked


def _open(args: argparse.Namespace) -> Ledger:
    return Ledger.open(_db_path(args), readonly=True)


def _fail(args: argparse.Namespace, message: str, code: int = 2) -> int:
    if getattr(args, "json", False):
        print(json.dumps({"ok": False, "error": message}))
    else:
        print(f"error: {message}", file=sys.stderr)
    return code


def _with_ledger(
    fail_code: int = 2,
) -> Callable[[Callable[[argparse.Namespace, Ledger], int]], Callable[[argparse.Namespace], int]]:
    """Run a subcommand on the ledger opened read-only, closing it afterwards; a ledger
    that cannot be opened is reported (JSON or text) with exit code ``fail_code``."""

    def wrap(
        cmd: Callable[[argparse.Namespace, Ledger], int],
    ) -> Callable[[argparse.Namespace], int]:
        @functools.wraps(cmd)
        def run(args: argparse.Namespace) -> int:
            try:
                ledger = _open(args)
            except LedgerError as exc:
                return _fail(args, exc.reason, fail_code)
            try:
                return cmd(args, ledger)
            finally:
                ledger.close()

        return run

    return wrap


# -- verify ------------------------------------------------------------------------------
def cmd_verify(args: argparse.Namespace) -> int:
    try:
        ledger, not_checked = _open_checked(args)
    except LedgerCorruptError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": exc.reason, "problem": exc.reason}))
        else:
            print(f"FAILED: {exc.reason}")
        return 1
    except LedgerError as exc:
        return _fail(args, exc.reason, 1)
    try:
        report = ledger.verify(replay=args.replay)
    finally:
        ledger.close()
    if args.json:
        out = {
            "ok": report.ok,
            "rounds": report.rounds,
            "events": report.events,
            "problem": report.problem,
            "replayed": args.replay,
        }
        if not_checked:
            out["not_checked"] = not_checked
        print(json.dumps(out))
    elif report.ok:
        checks = ["chains", "MACs", "anchor", "decks", "meters", "tickets", "triggers"]
        if not report.authenticated:
            checks.remove("MACs")
        if any(n.startswith("freshness") for n in not_checked):
            checks.remove("anchor")
        what = ", ".join(checks) + (" and replayed settlements" if args.replay else "")
        counts = f"{report.rounds} rounds, {report.events} events and {report.tickets} tickets"
        if not_checked:
            print(
                f"OK (integrity only): {counts} verified ({what}); NOT checked: "
                + "; ".join(not_checked)
            )
        else:
            print(f"OK: {counts} verified ({what})")
    else:
        print(f"FAILED: {report.problem}")
    if not report.ok:
        return 1
    return EXIT_INTEGRITY_ONLY if not_checked else 0


# -- recall ------------------------------------------------------------------------------
def describe_round(r: RoundRecord) -> str:
    """A round as a player or an inspector reads it."""
    lines = [
        f"Round {r.id}  {r.state.upper()}"
        + (f"  seat {r.seat}" if r.seat != 1 else "")
        + f"  started {r.started_at}"
        + (f"  settled {r.settled_at}" if r.settled_at else "")
        + f"  paytable {r.paytable} ({r.paytable_sha256[:12]})"
    ]
    bets = f"Ante {money(r.ante)}  Blind {money(r.blind)}"
    if r.trips:
        bets += f"  Trips {money(r.trips)}"
    if r.play:
        bets += f"  Play {money(r.play)}"
    lines.append(f"  Bets      {bets}")
    lines.append(
        f"  Player    {format_cards(r.player_hole)}"
        + (
            f"   Dealer {format_cards(r.dealer_hole)}   Board {format_cards(r.board)}"
            if r.board
            else "   (dealer and board not shown until settled)"
        )
    )
    for d in r.decisions:
        extra = f" {money(d.play)}" if d.play else ""
        lines.append(f"  {d.phase:9s} {d.action}{extra}  at {d.at}")
        judged = d.value_text()
        if judged is not None:
            lines.append(f"            {judged}")
    if r.state == "settled":
        qual = "qualifies" if r.dealer_qualifies else "does not qualify"
        lines.append(
            f"  Hands     player {r.player_hand} ({r.player_category}); "
            f"dealer {r.dealer_hand} ({r.dealer_category}, {qual})"
        )
        returns = "  ".join(
            f"{name} {money(getattr(r, name.lower() + '_return'))}"
            for name in ("Ante", "Blind", "Play", "Trips")
            if getattr(r, name.lower())
        )
        lines.append(
            f"  Result    {r.outcome.upper() if r.outcome else ''}  returns {returns}  "
            f"net {money(r.net)}  breakage {r.breakage}/{r.breakage_unit} cent"
        )
        if r.jackpot:
            lines.append(f"  Jackpot   {money(r.jackpot)} paid by an attendant")
    elif r.state == "voided":
        lines.append(f"  VOIDED by RAM clear: stakes {money(r.paid)} refunded")
    lines.append(f"  Credits   {money(r.credits_before)} -> {money(r.credits_after)}")
    check = (
        ("matches" if r.commitment_ok() else "DOES NOT MATCH")
        if r.deck
        else "deck sealed until settlement"
    )
    lines.append(f"  Deck      commitment {r.commitment} ({check})")
    if r.deck:
        lines.append(f"            {format_cards(r.deck)}  salt {r.salt}")
    return "\n".join(lines)


@_with_ledger()
def cmd_recall(args: argparse.Namespace, ledger: Ledger) -> int:
    rounds = ledger.recall(args.last, station=args.station)
    if args.json:
        print(json.dumps([r.as_dict() for r in rounds], indent=1))
    elif not rounds:
        print("no rounds played yet")
    else:
        print("\n\n".join(describe_round(r) for r in rounds))
    return 0


@_with_ledger()
def cmd_events(args: argparse.Namespace, ledger: Ledger) -> int:
    events = ledger.events(tuple(args.kind or ()), last=args.last)
    if not _manager(args):
        events = [mask_event(e) for e in events]
    if args.json:
        print(json.dumps([e.__dict__ for e in events], indent=1))
    for e in events if not args.json else ():
        amount = f" {money(e.amount)}" if e.amount else ""
        rnd = f" round {e.round_id}" if e.round_id else ""
        detail = json.dumps(e.detail, sort_keys=True) if e.detail else ""
        print(f"{e.id:>7}  {e.at}  {e.kind}{amount}{rnd}  {detail}")
    return 0


# -- tickets -------------------------------------------------------------------------------
def _manager(args: argparse.Namespace) -> bool:
    """Whether ``--pin`` is a manager's PIN in the configuration (ticket validation
    numbers are shown in full only then)."""
    if not getattr(args, "pin", None):
        return False
    try:
        config = load_config(args.config, db_path=args.db)
    except ConfigError:
        return False
    return any(role_at_least(a.role, "manager") for a in config.accounts_for_pin(args.pin))


@_with_ledger()
def cmd_tickets(args: argparse.Namespace, ledger: Ledger) -> int:
    tickets = ledger.tickets(last=args.last, status=args.status)
    if not _manager(args):
        tickets = [mask_ticket(t) for t in tickets]
    if args.json:
        print(json.dumps([t.as_dict() for t in tickets], indent=1))
        return 0
    if not tickets:
        print("no tickets issued yet")
    for t in tickets:
        when = {
            "issued": f"printed {t.printed_at}",
            "redeemed": f"printed {t.printed_at}, redeemed {t.redeemed_at}",
            "void": f"voided {t.voided_at}: {t.void_reason}",
            "pending": "not yet reported printed",
        }.get(t.status, "")
        expiry = f"expires {t.expires_on}" if t.expires_on else "no expiry"
        print(
            f"#{t.sequence:<6} {t.validation}  {money(t.amount):>12}  {t.status:<8}  "
            f"issued {t.issued_at}  {expiry}  {when}"
        )
    return 0


# -- meters --------------------------------------------------------------------------------
@_with_ledger()
def cmd_meters(args: argparse.Namespace, ledger: Ledger) -> int:
    meters = dict(
        ledger.meters if args.station is None else ledger.station_meter_readings(args.station)
    )
    bal = balance(meters)
    if args.json:
        data: dict[str, object] = {"meters": meters, "balance": bal}
        if args.station is not None:
            data["station"] = args.station
        print(json.dumps(data, indent=1, sort_keys=True))
        return 0
    if args.station is not None:
        print(f"station {args.station}")
    names = [*METERS, CREDITS, *sorted(k for k in meters if k not in METERS and k != CREDITS)]
    for name in names:
        value = meters.get(name, 0)
        cents = name in _CENT_METERS or name == CREDITS
        shown = money(value) if cents else f"{value:,}"
        if name.startswith("bill."):
            shown = f"{value:,} x {money(int(name.split('.')[1]))}"
        print(f"{name:20s} {shown:>16s}   {METERS.get(name, '')}")
    print()
    print(
        f"credits in {money(bal['credits_in'])} = out {money(bal['credits_out'])} + on meter "
        f"{money(bal['credits'])} + pending payout {money(bal['payout_pending'])} + RAM-cleared "
        f"{money(bal['ram_cleared'])} + house net win {money(bal['house_net_win'])}: "
        + ("balanced" if bal["balanced"] else "DOES NOT BALANCE")
    )
    return 0


_CENT_METERS = {name for name, text in METERS.items() if "cents" in text}


# -- export ------------------------------------------------------------------------------------
@_with_ledger()
def cmd_export(args: argparse.Namespace, ledger: Ledger) -> int:
    fmt: ExportFormat = "json" if args.json or args.format == "json" else "csv"
    mask = not _manager(args)  # outstanding ticket numbers in full for a manager only
    if args.out:
        export_ledger(
            ledger, args.out, fmt=fmt, table=args.table, station=args.station, mask=mask
        )
    else:
        write_export(
            ledger, sys.stdout, fmt=fmt, table=args.table, station=args.station, mask=mask
        )
    return 0


# -- init --------------------------------------------------------------------------------------
def cmd_init(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, db_path=args.db, paytable=args.paytable)
        table = load_paytable(config.paytable)
    except (ConfigError, PaytableError) as exc:
        return _fail(args, str(exc))
    marker, anchor = config.marker_path, config.anchor_file
    old = read_marker(marker)
    try:
        anchored = read_anchor(anchor)
    except LedgerError:
        anchored = None
        old = old or {"ledger_id": f"(unreadable anchor {anchor})"}
    if old is None and anchored is not None:
        old = {"ledger_id": anchored.ledger_id, "created_at": ""}
    signed = key_signed_ledger(config.key_path, config.db_path)
    if old is None and signed is not None:
        old = signed  # the key signed a ledger that is gone
    if config.db_path.exists():
        return _fail(args, f"ledger {config.db_path} already exists; it is never overwritten")
    if old is not None and not args.force:
        return _fail(
            args,
            f"the install marker {marker} or the anchor {anchor} names ledger "
            f"{old.get('ledger_id')}: the old ledger is missing. Restore it, or pass --force "
            "to start a new ledger",
        )
    for stale in (marker, anchor) if old is not None else ():
        if stale.exists():
            stale.replace(stale.with_name(stale.name + ".replaced"))
    try:
        key, _ = CabinetKey.load_or_create(config.key_path)
        ledger = Ledger.create(
            config.db_path,
            paytable=table,
            machine_number=config.machine_number,
            casino_name=config.casino_name,
            marker=marker,
            key=key,
            anchor=anchor,
        )
        created_at = ledger.meta.get("created_at", "")
        write_key_record(config.key_path, config.db_path, ledger.ledger_id, created_at)
    except LedgerError as exc:
        return _fail(args, exc.reason)
    if old is not None:
        ledger.event(
            EventKind.LEDGER_REPLACED,
            detail={
                "previous_ledger_id": old.get("ledger_id"),
                "previous_created_at": old.get("created_at"),
            },
        )
    ledger.close()
    if args.json:
        print(json.dumps({"ok": True, "db": str(config.db_path), "ledger_id": ledger.ledger_id}))
    else:
        print(
            f"created ledger {ledger.ledger_id} at {config.db_path} (paytable {table.name} {table.version})"
        )
    return 0


# -- keygen ------------------------------------------------------------------------------------
def cmd_keygen(args: argparse.Namespace) -> int:
    try:
        path = load_config(args.config, db_path=args.db).key_path
        key, created = CabinetKey.load_or_create(path)
    except (ConfigError, LedgerError) as exc:
        return _fail(args, str(exc))
    if args.json:
        print(json.dumps({"ok": True, "key": str(path), "created": created}))
    else:
        done = "created" if created else "kept the existing"
        print(f"{done} cabinet key {path} (fingerprint {key.fingerprint})")
    return 0


# -- hold ----------------------------------------------------------------------------------
def format_hold(report: HoldReport, rounds: int, paytable: str) -> str:
    """The hold report as a table: percent of each bet's handle."""
    lines = [
        f"Hold over {rounds} settled rounds, paytable {paytable} (percent of each bet's handle)",
        f"  {'bet':6s} {'rounds':>7s} {'actual':>8s} {'99% interval':>19s} {'decisions':>9s} "
        f"{'optimal':>8s} {'99.9% band':>19s}",
    ]
    def pct(x: float) -> str:  # a figure not known (NaN) as a dash
        return "       —" if math.isnan(x) else f"{100 * x:7.3f}%"

    def num(x: float) -> str:
        return "      —" if math.isnan(x) else f"{100 * x:7.3f}"

    for r in report.rows:
        dec = "" if r.decisions is None or math.isnan(r.decisions) else f"{100 * r.decisions:8.3f}%"
        lines.append(
            f"  {r.bet:6s} {r.rounds:7d} {pct(r.actual)} "
            f"[{num(r.interval[0])}, {num(r.interval[1])}] {dec:>9s} "
            f"{pct(r.optimal)} [{num(r.band[0])}, {num(r.band[1])}]"
            + ("  FLAG" if r.flagged else "")
        )
    if report.flagged:
        lines.append("FLAG: the actual hold left its 99.9% band (advantage play or a fault?)")
    elif rounds < FLAG_MIN_ROUNDS:
        lines.append(f"(no flag is raised below {FLAG_MIN_ROUNDS:,} rounds)")
    return "\n".join(lines)


@_with_ledger()
def cmd_hold(args: argparse.Namespace, ledger: Ledger) -> int:
    out = ledger_hold(ledger, args.since)
    if args.json:
        print(json.dumps([h.as_dict() for h in out], indent=1))
    elif not out:
        print("no settled rounds" + (f" since {args.since}" if args.since else ""))
    for h in [] if args.json else out:
        t = h.table
        print(format_hold(h.report, h.rounds, f"{t.name} {t.version} ({t.sha256[:12]})"))
        if not h.rtp_known:
            print("the exact RTP of this paytable is not known: the actual hold is shown alone")
        if h.unproven:
            print(f"UNPROVEN optimal figures: {h.unproven}")
    return 1 if any(h.flagged for h in out) else 0


def _station(text: str) -> int:
    """A ``--station`` value: a station number, 1-7."""
    try:
        return check_station(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a station is a number from 1 to 7, not {text!r}"
        ) from None


def station_option(q: argparse.ArgumentParser, help: str) -> None:
    q.add_argument("--station", type=_station, metavar="N", help=f"1-7: {help}")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "audit", help="ledger audit: verify, recall, events, meters, tickets, export, init"
    )
    asub = p.add_subparsers(dest="audit_command", metavar="ACTION")
    asub.required = True

    def common(name: str, help: str) -> argparse.ArgumentParser:
        q = asub.add_parser(name, help=help)
        q.add_argument("--db", help="ledger database (default: the configuration's db_path)")
        q.add_argument("--config", help="cabinet configuration TOML (default $UTH_CONFIG)")
        q.add_argument("--json", action="store_true", help="machine-readable output")
        return q

    q = common("verify", "walk the hash chains and re-add the meters")
    q.add_argument(
        "--replay", action="store_true", help="also re-settle every round with the engine"
    )
    q.add_argument("--key", help="cabinet key file (default: the configuration's ledger_key_path)")
    q.set_defaults(func=cmd_verify)
    q = common("recall", "the last rounds: cards, decisions, payouts")
    q.add_argument("--last", type=int, default=10)
    station_option(q, "only this station's seat and the dealer")
    q.set_defaults(func=cmd_recall)
    q = common("hold", "actual hold per bet against theoretical, with intervals and a flag")
    q.add_argument("--since", help="only rounds settled at or after this UTC date/time (ISO)")
    q.set_defaults(func=cmd_hold)
    q = common("events", "the last events")
    q.add_argument("--last", type=int, default=30)
    q.add_argument("--kind", action="append", help="only this kind (repeatable)")
    q.add_argument("--pin", help="a manager's PIN: show ticket numbers in full (else last 4)")
    q.set_defaults(func=cmd_events)
    q = common("meters", "lifetime meters and the balance")
    station_option(q, "this station's meters (default: the table's, their sums)")
    q.set_defaults(func=cmd_meters)
    q = common("tickets", "cash-out tickets issued here (TITO)")
    q.add_argument("--last", type=int, default=20)
    q.add_argument("--status", choices=("pending", "issued", "void", "redeemed"))
    q.add_argument("--pin", help="a manager's PIN: show ticket numbers in full (else last 4)")
    q.set_defaults(func=cmd_tickets)
    q = common("export", "rounds, events or meters as CSV or JSON")
    station_option(q, "only this station's rounds, events, tickets and meters")
    q.add_argument("--format", choices=("csv", "json"), default="json")
    q.add_argument(
        "--table",
        choices=("rounds", "events", "meters", "tickets"),
        help="one table (CSV default: rounds; JSON default: all four)",
    )
    q.add_argument("--out", help="write to this file instead of standard output")
    q.add_argument(
        "--pin", help="a manager's PIN: outstanding ticket numbers in full (else last 4)"
    )
    q.set_defaults(func=cmd_export)
    q = common("init", "create the ledger (first installation)")
    q.add_argument("--paytable", help="paytable in force (default: the configuration's)")
    q.add_argument("--force", action="store_true", help="start a new ledger over a lost one")
    q.set_defaults(func=cmd_init)
    q = common("keygen", "create the cabinet key (mode 0600) if there is none")
    q.set_defaults(func=cmd_keygen)
