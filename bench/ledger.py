"""Ledger benchmark: durable commit per settled round, recall with a million rounds, growth.

    .venv/bin/python -m bench.ledger                 # all three figures
    .venv/bin/python -m bench.ledger --big 0         # skip the million-round database
    .venv/bin/python -m bench.ledger --verify-big    # also time the verifications of it

1. *Durable commit*: ``--rounds`` rounds played through a lone cabinet's station (:mod:`kiosk.wiring.lone_cabinet`)
   on a fresh ledger (WAL, synchronous=FULL) in ``--dir`` (default ``var/bench``, on the
   cabinet's disk), its anchor beside it.  Reported: the median time of the COMMIT of the
   transaction that settles a round (the fsync), of the anchor write that follows it
   (temporary file, fsync, rename, fsync of the directory), of both together (the
   settled round's durable commit), of the whole settling ``decide()`` call (engine
   settlement + row + meters + commit + anchor), and the disk's raw fsync for reference.
   Target: commit and anchor together under 5 ms median.
2. *Recall*: ``Ledger.recall(10)`` on a ledger of ``--big`` rounds (default one million),
   built once with bulk inserts of valid rows (real shuffled decks and settlements from
   the engine, commitments, continuous credits, bill events, chained hashes, meters that
   add up) and cached at ``--cache``.  Target: under 10 ms.
3. *Growth*: database bytes per round, after a checkpoint, on both ledgers.  Target:
   under 2 KB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import kiosk.ledger.ledger as ledger_module  # noqa: E402
from bench.machine import describe_machine  # noqa: E402
from engine.cards import format_cards  # noqa: E402
from engine.rng import SeededRandomSource, deck_commitment, shuffled_deck  # noqa: E402
from engine.uth.paytable import PAYTABLE_DIR, load_paytable  # noqa: E402
from engine.uth.replay import replay  # noqa: E402
from engine.uth.round import BetsPlaced, Decision  # noqa: E402
from kiosk.commands.autoplay import plain_policy, seat_view  # noqa: E402
from kiosk.config import load_config  # noqa: E402
from kiosk.game import commands as cmd  # noqa: E402
from kiosk.game.rows import dealt_columns, settled_columns  # noqa: E402
from kiosk.game.snapshot import MachinePhase  # noqa: E402
from kiosk.ledger.checkpoint import (  # noqa: E402
    CHECKPOINT_EVERY,
    checkpoint_detail,
    last_checkpoint,
)
from kiosk.ledger.key import CabinetKey  # noqa: E402
from kiosk.ledger.kinds import EventKind  # noqa: E402
from kiosk.ledger.ledger import (  # noqa: E402
    CREDITS,
    ROUND_COLUMNS,
    Ledger,
    LedgerError,
    chain_hash,
    dumps,
    event_effects,
    round_effects,
)
from kiosk.ledger.records import DecisionRecord, dump_decisions  # noqa: E402
from kiosk.ledger.startup import check_head, default_anchor_path, default_key_path  # noqa: E402
from kiosk.station.credits import insert_credits  # noqa: E402
from kiosk.wiring.lone_cabinet import LoneCabinet  # noqa: E402

BIG_BILL = 10000


def db_bytes(path: Path) -> int:
    return sum(
        Path(f"{path}{s}").stat().st_size for s in ("", "-wal") if Path(f"{path}{s}").exists()
    )


def fsync_ms(directory: Path, n: int = 100) -> float:
    fd, name = tempfile.mkstemp(dir=directory)
    times = []
    try:
        for _ in range(n):
            os.write(fd, b"x" * 4096)
            t = time.perf_counter()
            os.fsync(fd)
            times.append(time.perf_counter() - t)
    finally:
        os.close(fd)
        os.unlink(name)
    return statistics.median(times) * 1000


class CommitTimer:
    """Wraps the ledger's connection to time each COMMIT."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.last = conn, 0.0

    def execute(self, sql: str, *args):
        if sql == "COMMIT":
            t = time.perf_counter()
            try:
                return self.conn.execute(sql, *args)
            finally:
                self.last = time.perf_counter() - t
        return self.conn.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.conn, name)


class AnchorTimer:
    """Wraps the ledger's anchor writer to time each anchor write."""

    def __init__(self, write) -> None:
        self.write, self.last = write, 0.0

    def __call__(self, *args):
        t = time.perf_counter()
        try:
            return self.write(*args)
        finally:
            self.last = time.perf_counter() - t


def bench_commit(directory: Path, rounds: int) -> dict:
    directory.mkdir(parents=True, exist_ok=True)
    db = directory / "bench-commit.db"
    for suffix in ("", "-wal", "-shm", ".install", ".anchor", ".key"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    anchor = AnchorTimer(ledger_module.write_anchor)
    ledger_module.write_anchor = anchor  # type: ignore[assignment]
    config = load_config(db_path=db)
    cab = LoneCabinet.open(config, rng=SeededRandomSource(1))
    m, ledger = cab.station, cab.table.ledger
    assert ledger is not None
    timer = CommitTimer(ledger.conn)
    ledger.conn = timer  # type: ignore[assignment]
    insert_credits(cab.link, cmd.InsertCredits(10000))
    ledger.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size0 = db_bytes(db)
    commits, anchors, calls = [], [], []
    for _ in range(rounds):
        if m.snapshot().available < 2000:
            insert_credits(cab.link, cmd.InsertCredits(10000))
        m.execute(cmd.PlaceChip("ante", 500))
        m.execute(cmd.PlaceChip("trips", 100))
        m.execute(cmd.Deal())
        while True:
            snap = m.snapshot()
            action = plain_policy(seat_view(snap))
            if action not in snap.legal:
                action = snap.legal[-1]
            t = time.perf_counter()
            m.execute(cmd.Decide(action))
            elapsed = time.perf_counter() - t
            if m.snapshot().phase != MachinePhase.IN_ROUND:
                commits.append(timer.last)
                anchors.append(anchor.last)
                calls.append(elapsed)
                break
    timer.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    growth = (db_bytes(db) - size0) / rounds
    cab.close()
    ledger_module.write_anchor = anchor.write
    ms = sorted(c * 1000 for c in commits)
    both = sorted((c + a) * 1000 for c, a in zip(commits, anchors, strict=True))
    return {
        "rounds": rounds,
        "settle_commit_median_ms": round(statistics.median(ms), 3),
        "settle_commit_p90_ms": round(ms[int(0.9 * len(ms))], 3),
        "settle_anchor_median_ms": round(statistics.median(anchors) * 1000, 3),
        "settle_durable_median_ms": round(statistics.median(both), 3),
        "settle_durable_p90_ms": round(both[int(0.9 * len(both))], 3),
        "settle_decide_median_ms": round(statistics.median(calls) * 1000, 3),
        "raw_fsync_median_ms": round(fsync_ms(directory), 3),
        "bytes_per_round": round(growth),
    }


# -- the million-round ledger ------------------------------------------------------------------
def round_pool(n: int, seed: int = 7) -> list[dict]:
    """``n`` real rounds (engine-settled, plain policy), as row templates with deck and salt."""
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    rng = SeededRandomSource(seed)
    pick = random.Random(seed)
    pool = []
    for _ in range(n):
        deck = shuffled_deck(rng)
        salt = bytes(rng.randbelow(256) for _ in range(16))
        ante, trips = pick.choice((500, 1000, 2500)), pick.choice((0, 100, 500))
        rnd = replay(table, deck, [BetsPlaced(seat=1, ante=ante, blind=ante, trips=trips)])
        while rnd.to_act():
            rnd.act(1, plain_policy(rnd.view(1)))
        row = {c: None for c in ROUND_COLUMNS}
        row.update(dealt_columns(rnd, 0, ""))
        result = rnd.outcome()
        row.update(settled_columns(result, 0, "", 10**12))
        row.update(
            play=rnd.view(1).play,
            commitment=deck_commitment(deck, salt),
            salt=salt.hex(),
            deck=format_cards(deck, ""),
        )
        row["_decisions"] = [r for r in rnd.history if isinstance(r, Decision)]
        pool.append(row)
    return pool


def _stamp(t: float) -> str:
    s = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t))
    return f"{s}.{int(t * 1000) % 1000:03d}Z"


def build_big(path: Path, rounds: int) -> None:
    """A valid ledger of ``rounds`` settled rounds, by bulk inserts: chains, row MACs under
    its key (``<db>.key``), a checkpoint every ``CHECKPOINT_EVERY`` rows, meters that add
    up (the table's and station 1's, which holds every row), and the signed head in ``meta`` and in its anchor (``<db>.anchor``)."""
    for suffix in ("", "-wal", "-shm", ".install", ".new", ".key", ".anchor"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    table = load_paytable(PAYTABLE_DIR / "standard.toml")
    key = CabinetKey.create(default_key_path(path))
    anchor = default_anchor_path(path)
    ledger = Ledger.create(path, paytable=table, machine_number="BENCH", key=key, anchor=anchor)
    pool = round_pool(2000)
    conn = ledger.conn
    conn.execute("PRAGMA synchronous = OFF")  # bulk build only: the cabinet never does this
    meters = dict(ledger.meters)
    event_head, round_head = ledger.heads()
    event_id = ledger.counts()[1]
    credits = meters[CREDITS]
    t0 = time.time() - rounds * 20.0
    cols = list(ROUND_COLUMNS)
    insert_round = f"INSERT INTO rounds ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
    insert_event = "INSERT INTO events (id, at, kind, amount, round_id, txn, detail, hash, mac) VALUES (?,?,?,?,?,?,?,?,?)"
    batch_r, batch_e = [], []
    since_checkpoint = event_id + ledger.counts()[0]

    def checkpoint(rounds_so_far: int, at: float) -> None:
        nonlocal event_id, event_head, since_checkpoint
        event_id += 1
        ev = {
            "id": event_id,
            "at": _stamp(at),
            "kind": EventKind.CHECKPOINT.value,
            "amount": 0,
            "round_id": None,
            "txn": None,
            "detail": dumps(
                checkpoint_detail(conn, meters, rounds_so_far, round_head, {1: meters})
            ),
        }
        ev["hash"] = event_head = chain_hash(event_head, ev)
        ev["mac"] = key.mac(event_head)
        batch_e.append(tuple(ev.values()))
        since_checkpoint = 0

    def add(effects):
        for k, v in effects.items():
            meters[k] = meters.get(k, 0) + v

    conn.execute("BEGIN")
    for i in range(1, rounds + 1):
        tpl = pool[i % len(pool)]
        staked = tpl["ante"] + tpl["blind"] + tpl["trips"] + tpl["play"]
        at = t0 + i * 20.0
        while credits < staked:
            event_id += 1
            ev = {
                "id": event_id,
                "at": _stamp(at - 1),
                "kind": EventKind.BILL_IN.value,
                "amount": BIG_BILL,
                "round_id": None,
                "txn": None,
                "detail": dumps({"denomination": BIG_BILL}),
            }
            ev["hash"] = event_head = chain_hash(event_head, ev)
            ev["mac"] = key.mac(event_head)
            batch_e.append(tuple(ev.values()))
            add(event_effects(EventKind.BILL_IN, BIG_BILL))
            credits += BIG_BILL
            since_checkpoint += 1
        row = {k: v for k, v in tpl.items() if k != "_decisions"}
        stamps = [_stamp(at + 2 + 3 * j) for j in range(len(tpl["_decisions"]))]
        row.update(
            id=i,
            started_at=_stamp(at),
            settled_at=stamps[-1],
            decisions=dump_decisions(
                DecisionRecord.of(d, s) for d, s in zip(tpl["_decisions"], stamps, strict=True)
            ),
            credits_before=credits,
            credits_after=credits - staked + tpl["paid"],
        )
        credits = row["credits_after"]
        row["hash"] = round_head = chain_hash(round_head, row)
        row["mac"] = key.mac(round_head)
        batch_r.append(tuple(row[c] for c in cols))
        add(round_effects(row))
        since_checkpoint += 1
        if since_checkpoint >= CHECKPOINT_EVERY:
            checkpoint(i, at + 10)
        if len(batch_r) >= 20000:
            conn.executemany(insert_event, batch_e)
            conn.executemany(insert_round, batch_r)
            batch_r, batch_e = [], []
            print(f"  built {i:,} rounds", end="\r", flush=True)
    conn.executemany(insert_event, batch_e)
    conn.executemany(insert_round, batch_r)
    for name, value in meters.items():
        conn.execute(
            "INSERT INTO meters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = ?",
            (name, value, value),
        )
        # every row is the cabinet's own station's: its meters are the table's
        conn.execute(
            "INSERT INTO station_meters (station, name, value) VALUES (1, ?, ?) "
            "ON CONFLICT(station, name) DO UPDATE SET value = excluded.value",
            (name, value),
        )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    ledger.close()
    ledger = Ledger.open(path, key=key)  # the heads as the rows now end
    with ledger.transaction():
        pass  # writes the signed head
    ledger.attach_anchor(anchor, write=True)
    ledger.close()
    print()


def _power_up_s(path: Path) -> float:
    """Seconds for what power-up runs on the ledger: open with the key, the head against
    the anchor, and the bounded verification (:meth:`Ledger.verify_power_up`)."""
    t = time.perf_counter()
    ledger = Ledger.open(path, readonly=True, key=CabinetKey.load(default_key_path(path)))
    check_head(ledger, default_anchor_path(path))
    report = ledger.verify_power_up()
    elapsed = time.perf_counter() - t
    ledger.close()
    assert report.ok, report.problem
    return elapsed


def _cached_signed_ledger(path: Path, rounds: int) -> None:
    """Build the ledger at ``path`` unless a current one of ``rounds`` rounds, with its
    key, anchor and checkpoints, is cached there."""
    try:
        ledger = Ledger.open(path, readonly=True, key=CabinetKey.load(default_key_path(path)))
        fresh = ledger.counts()[0] == rounds and last_checkpoint(ledger.conn) is not None
        check_head(ledger, default_anchor_path(path))
        ledger.close()
    except (LedgerError, sqlite3.Error):
        fresh = False
    if fresh:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"building a {rounds:,}-round signed ledger at {path} (cached for later runs)...")
    t = time.perf_counter()
    build_big(path, rounds)
    print(f"  built in {time.perf_counter() - t:.0f} s")


def bench_power_up(directory: Path, sizes: list[int], full: bool) -> dict:
    """Power-up time on cached signed ledgers of each size in ``sizes`` (median of 3 runs
    after one warm-up), and with ``full`` the full `uth audit verify` walk of the largest."""
    out: dict = {}
    for rounds in sizes:
        path = directory / f"powerup-{rounds}.db"
        _cached_signed_ledger(path, rounds)
        _power_up_s(path)
        out[f"power_up_{rounds}_s"] = round(
            statistics.median(_power_up_s(path) for _ in range(3)), 3
        )
    if full and sizes:
        path = directory / f"powerup-{max(sizes)}.db"
        ledger = Ledger.open(path, readonly=True, key=CabinetKey.load(default_key_path(path)))
        t = time.perf_counter()
        report = ledger.verify()
        out[f"audit_verify_{max(sizes)}_s"] = round(time.perf_counter() - t, 1)
        ledger.close()
        assert report.ok, report.problem
    return out


def _cached_ledger_usable(path: Path, rounds: int) -> bool:
    """The cached big ledger exists, has the current schema and ``rounds`` rounds."""
    if not path.exists():
        return False
    try:
        return Ledger.open(path, readonly=True).counts()[0] == rounds
    except LedgerError:  # an older schema: build it again
        return False


def bench_recall(path: Path, rounds: int, verify: bool) -> dict:
    if not _cached_ledger_usable(path, rounds):
        for stale in path.parent.glob(path.name + "*"):
            stale.unlink()
        print(f"building a {rounds:,}-round ledger at {path} (cached for later runs)...")
        t = time.perf_counter()
        build_big(path, rounds)
        print(f"  built in {time.perf_counter() - t:.0f} s")
    t = time.perf_counter()
    ledger = Ledger.open(path, readonly=True)
    open_ms = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    first = ledger.recall(10)
    first_ms = (time.perf_counter() - t) * 1000
    times = []
    for _ in range(200):
        t = time.perf_counter()
        got = ledger.recall(10)
        times.append(time.perf_counter() - t)
    assert [r.id for r in got] == list(range(rounds, rounds - 10, -1)) and got == first
    out = {
        "rounds": rounds,
        "open_ms": round(open_ms, 3),
        "recall10_first_ms": round(first_ms, 3),
        "recall10_median_ms": round(statistics.median(times) * 1000, 3),
        "bytes_per_round": round(db_bytes(path) / rounds),
    }
    if verify:
        for key, decks in (("verify_power_up_s", False), ("verify_audit_s", True)):
            t = time.perf_counter()
            report = ledger.verify(decks=decks)
            out[key] = round(time.perf_counter() - t, 1)
            assert report.ok, report.problem
    ledger.close()
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=300, help="rounds for the durable-commit figure")
    p.add_argument(
        "--dir", default=str(ROOT / "var" / "bench"), help="where the commit bench writes"
    )
    p.add_argument(
        "--big", type=int, default=1_000_000, help="rounds in the recall ledger (0: skip)"
    )
    p.add_argument("--cache", default="/tmp/uth-bench-ledger-1m.db")
    p.add_argument(
        "--verify-big", action="store_true", help="also time a full verify of the big ledger"
    )
    p.add_argument(
        "--power-up",
        default="200000,5000000",
        help="comma-separated ledger sizes (rounds) to time power-up on ('' to skip)",
    )
    p.add_argument(
        "--no-audit", action="store_true", help="skip the full audit walk of the largest"
    )
    p.add_argument("--only-power-up", action="store_true", help="just the power-up figures")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    result: dict = {"machine": f"{describe_machine()} | SQLite {sqlite3.sqlite_version}"}
    sizes = [int(n) for n in args.power_up.split(",") if n.strip()]
    if sizes:
        result["power_up"] = bench_power_up(Path(args.dir), sizes, not args.no_audit)
    if args.only_power_up:
        print(json.dumps(result, indent=1))
        return 0
    result["commit"] = bench_commit(Path(args.dir), args.rounds)
    if args.big:
        result["recall"] = bench_recall(Path(args.cache), args.big, args.verify_big)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    c = result["commit"]
    print(f"machine: {result['machine']}")
    print(
        f"settled round, durable commit with its anchor: median {c['settle_durable_median_ms']} ms "
        f"(p90 {c['settle_durable_p90_ms']} ms; COMMIT {c['settle_commit_median_ms']} ms + anchor "
        f"{c['settle_anchor_median_ms']} ms; whole settling decide() {c['settle_decide_median_ms']} ms; "
        f"raw fsync on this disk {c['raw_fsync_median_ms']} ms) over {c['rounds']} rounds  [target < 5 ms]"
    )
    print(f"database growth: {c['bytes_per_round']} bytes per round played  [target < 2048]")
    for name, value in result.get("power_up", {}).items():
        target = "  [target < 1 s]" if name.startswith("power_up") else ""
        print(f"{name.replace('_', ' ')}: {value}{target}")
    if "recall" in result:
        r = result["recall"]
        print(
            f"recall --last 10 with {r['rounds']:,} rounds: median {r['recall10_median_ms']} ms "
            f"(first call {r['recall10_first_ms']} ms, open {r['open_ms']} ms)  [target < 10 ms]"
        )
        print(f"big ledger: {r['bytes_per_round']} bytes per round")
        if "verify_power_up_s" in r:
            print(
                f"verify of the big ledger: {r['verify_power_up_s']} s at power-up (chains, meters), "
                f"{r['verify_audit_s']} s for `uth audit verify` (also every deck commitment)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
