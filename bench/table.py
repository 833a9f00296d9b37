"""The shared table on loopback: a table host with seven stations.

* **decision round trip**: a station sends a decision; timed until every one of the
  seven stations holds a snapshot showing it (station -> host -> every station's screen
  model), p50 / p99 over every decision of ``--rounds`` rounds (all check, then fold);
* **settling a 7-seat round durably**: the last decision of a round, which settles all
  seven seats in one ledger transaction (real SQLite file, synchronous commit), median
  over ``--settles`` rounds, in process;
* **host CPU**: the host process's CPU time over wall time while seven seeded random
  players (:mod:`kiosk.station.autoplay`, pausing half to all of ``--think`` seconds per action)
  play ``--autoplay-rounds`` rounds each.

The host runs in its own process (so its CPU time is its own); the stations run in
this one.  Usage: ``.venv/bin/python -m bench.table [--rounds 30] [--settles 50]
[--autoplay-rounds 5] [--think 1.0]``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

from bench.machine import describe_machine

STATIONS = tuple(range(1, 8))
LONG = 600.0  # timers that never run out during the measurements


def host_process(folder: str, conn: Connection) -> None:
    import logging

    from kiosk.config import load_config
    from kiosk.link.limits import LinkLimits
    from kiosk.link.pairing import HostPairing
    from kiosk.service.table import Table
    from kiosk.service.timing import TableTiming
    from kiosk.tablehost.service import TableHost

    logging.basicConfig(level=logging.ERROR)
    config = load_config(db_path=Path(folder) / "table" / "uth.db")
    table = Table.open(config, STATIONS, timing=TableTiming(LONG, LONG))
    service = TableHost(table, HostPairing(Path(folder) / "host"), limits=LinkLimits())
    conn.send(service.start())
    while True:
        command = conn.recv()
        if command == "cpu":
            conn.send(time.process_time())
        elif command == "stop":
            service.stop()
            table.close()
            conn.send("stopped")
            return


def ms(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 1000) - 1] * 1e3


def decision_round_trips(remotes: list, rounds: int) -> list[float]:
    """Every decision of ``rounds`` rounds, timed to the last station showing it."""
    from engine.uth.round import Action, Phase
    from kiosk.game.commands import Deal, Decide, PlaceChip

    times: list[float] = []
    for _ in range(rounds):
        for r in remotes:
            snap = r.wait_for(lambda s: not s.round_open, 10)
            assert snap is not None, "the round did not end"
            for _note in range(10 if snap.credits < 6 * r.limits.ante_min else 0):
                ack = r.insert_note(10_000, 10)  # a $100 note: a denomination the host takes
                assert ack is not None and ack.accepted
        for r in remotes:
            r.wait_for(lambda s, r=r: s.credits >= 6 * r.limits.ante_min, 10)
            r.execute(PlaceChip("ante", r.limits.ante_min))
            r.execute(Deal())
        for phase, action in (
            (Phase.PREFLOP, Action.CHECK),
            (Phase.FLOP, Action.CHECK),
            (Phase.RIVER, Action.FOLD),
        ):
            for seat, r in enumerate(remotes, start=1):
                mine = r.wait_for(lambda s, p=phase: s.round_open and s.phase is p, 10)
                assert mine is not None, f"seat {seat} never saw {phase}"
                round_id = mine.round_id
                sent = time.perf_counter()
                r.execute(Decide(action))

                def shown(s, seat=seat, phase=phase, round_id=round_id) -> bool:
                    if s.phase is not phase or not s.round_open:
                        return True  # the decision moved the round on
                    return any(x.seat == seat and x.decided for x in s.seats)

                for other in remotes:
                    assert other.wait_for(shown, 10) is not None, f"round {round_id} stuck"
                times.append(time.perf_counter() - sent)
    return times


def settle_times(settles: int) -> list[float]:
    """The last decision of a 7-seat round (settling every seat), in process."""
    from engine.uth.round import Action
    from kiosk.config import load_config
    from kiosk.game.commands import Deal, Decide, PlaceChip
    from kiosk.link.outcomes import EscrowEnd
    from kiosk.service.device_commands import AcceptEscrow, SettleEscrow
    from kiosk.service.table import Table
    from kiosk.service.timing import TableTiming

    folder = Path(tempfile.mkdtemp(prefix="bench-table-settle-"))
    table = Table.open(
        load_config(db_path=folder / "uth.db"), STATIONS, timing=TableTiming(LONG, LONG)
    )
    ante = table.limits.ante_min
    times = []
    for _ in range(settles):
        for n in STATIONS:
            while table.credits(n) < 6 * ante:  # a $100 note, as a validator's go: two phases
                txn = f"s{n}-note-{len(times)}-{table.credits(n)}"
                table.execute(n, AcceptEscrow(txn, 10_000))
                table.execute(n, SettleEscrow(txn, EscrowEnd.VEND_VALID))
        for n in STATIONS:
            table.execute(n, PlaceChip("ante", ante))
            table.execute(n, Deal())
        for n in STATIONS:
            table.execute(n, Decide(Action.CHECK))
        for n in STATIONS:
            table.execute(n, Decide(Action.CHECK))
        for n in STATIONS[:-1]:
            table.execute(n, Decide(Action.PLAY_1X))
        start = time.perf_counter()
        table.execute(STATIONS[-1], Decide(Action.PLAY_1X))
        times.append(time.perf_counter() - start)
        assert not table.snapshot(1).round_open
    table.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="round-trip rounds (21 each)")
    parser.add_argument("--settles", type=int, default=50, help="7-seat rounds settled")
    parser.add_argument("--autoplay-rounds", type=int, default=5, help="per station")
    parser.add_argument("--think", type=float, default=1.0, help="players' pause, seconds")
    args = parser.parse_args()

    from kiosk.link import auth
    from kiosk.link.certs import certificate_pem
    from kiosk.link.pairing import HostPairing, StationPairing
    from kiosk.station.autoplay import RandomPlayer
    from kiosk.station.remote import RemoteTable

    folder = Path(tempfile.mkdtemp(prefix="bench-table-"))
    pairing = HostPairing(folder / "host")
    pem = certificate_pem(pairing.identity.certificate_der())
    stations = []
    for seat in STATIONS:
        key = auth.new_station_key()
        pairing.add(f"station-{seat}", seat, key)
        stations.append(StationPairing(f"station-{seat}", seat, key, pairing.fingerprint, pem))

    ctx = mp.get_context("spawn")
    ours, theirs = ctx.Pipe()
    host = ctx.Process(target=host_process, args=(str(folder), theirs), daemon=True)
    host.start()
    port = ours.recv()
    remotes = [RemoteTable(s, "127.0.0.1", port) for s in stations]
    for r in remotes:
        r.start()
    assert all(r.wait_for(lambda s: True, 10) is not None for r in remotes), "no snapshots"

    decision_round_trips(remotes, 2)  # warm-up
    trips = decision_round_trips(remotes, args.rounds)

    for r in remotes:  # every seat to zero credits, so the players start alike
        r.wait_for(lambda s: not s.round_open, 10)
    ours.send("cpu")
    cpu_start = ours.recv()
    wall = time.perf_counter()
    players = [RandomPlayer(r, seed, think_s=args.think) for seed, r in enumerate(remotes, start=1)]
    threads = [
        threading.Thread(target=p.run, args=(args.autoplay_rounds, 60.0), daemon=True)
        for p in players
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - wall
    ours.send("cpu")
    cpu = ours.recv() - cpu_start
    played = sum(len(p.report.rounds) for p in players)

    for r in remotes:
        r.stop()
    ours.send("stop")
    ours.recv()
    host.join(5)

    settles = settle_times(args.settles)

    print(f"table on loopback: host process + {len(STATIONS)} stations (TLS WebSocket)")
    print(
        f"  decision round trip (station -> host -> all {len(STATIONS)} snapshots), "
        f"{len(trips)} decisions: p50 {ms(trips, 0.5):.2f} ms, p99 {ms(trips, 0.99):.2f} ms, "
        f"max {max(trips) * 1e3:.2f} ms"
    )
    print(
        f"  settling a {len(STATIONS)}-seat round durably (last decision, one transaction), "
        f"{len(settles)} rounds: median {statistics.median(settles) * 1e3:.2f} ms, "
        f"p99 {ms(settles, 0.99):.2f} ms"
    )
    print(
        f"  host CPU while {len(STATIONS)} random players play ({played} seat-rounds in "
        f"{wall:.1f} s, think {args.think / 2:g}-{args.think:g} s): {cpu / wall * 100:.1f}% of one core"
    )
    print(f"machine: {describe_machine()}")


if __name__ == "__main__":
    main()
