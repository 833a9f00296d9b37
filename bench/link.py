"""Round trip of the table link on loopback: station -> host -> all seven stations.

A host process (its own, so its CPU time is its own) runs a :class:`LinkServer` that
forwards every station message to all seven stations; seven :class:`LinkClient` stations
in this process take turns sending one message and wait until every station has the
host's copy.  Prints the round trip to the last of the seven stations (p50, p99, max),
the host's CPU time per forwarded message (one frame in, seven out, TLS included), and
the machine.  Usage: ``.venv/bin/python -m bench.link [--rounds 500]``.
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

STATIONS = 7


def host_process(folder: str, conn: Connection) -> None:
    from kiosk.link import DeviceEvent, HostPairing, Inbound, LinkLimits, LinkServer, Snapshot

    pairing = HostPairing(Path(folder))
    server: LinkServer

    def forward(inbound: Inbound) -> None:
        if isinstance(inbound.body, DeviceEvent):
            server.broadcast(Snapshot(state={"from": inbound.station_id, **inbound.body.detail}))

    server = LinkServer(pairing, forward, limits=LinkLimits(heartbeat_s=0.05))
    conn.send(server.start())
    while True:
        command = conn.recv()
        if command == "cpu":
            conn.send(time.process_time())
        elif command == "stop":
            server.stop()
            conn.send("stopped")
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    args = parser.parse_args()

    from kiosk.link import (
        DeviceEvent,
        HostPairing,
        Inbound,
        LinkClient,
        LinkLimits,
        StationPairing,
        auth,
    )
    from kiosk.link.certs import certificate_pem

    folder = Path(tempfile.mkdtemp(prefix="bench-link-"))
    pairing = HostPairing(folder / "host")
    pem = certificate_pem(pairing.identity.certificate_der())
    stations = []
    for seat in range(1, STATIONS + 1):
        key = auth.new_station_key()
        pairing.add(f"seat-{seat}", seat, key)
        stations.append(StationPairing(f"seat-{seat}", seat, key, pairing.fingerprint, pem))

    ctx = mp.get_context("spawn")
    ours, theirs = ctx.Pipe()
    host = ctx.Process(target=host_process, args=(str(folder / "host"), theirs), daemon=True)
    host.start()
    port = ours.recv()

    lock = threading.Condition()
    arrived: dict[int, list[float]] = {}

    def on_message(inbound: Inbound) -> None:
        now = time.perf_counter()
        state = getattr(inbound.body, "state", {})
        with lock:
            arrived.setdefault(int(state["k"]), []).append(now)
            lock.notify_all()

    limits = LinkLimits(heartbeat_s=0.05)
    clients = [LinkClient(s, "127.0.0.1", port, on_message, limits=limits) for s in stations]
    for client in clients:
        client.start()
    assert all(c.wait_connected(10) for c in clients), "stations did not connect"

    def round_trip(k: int) -> tuple[float, list[float]]:
        sent = time.perf_counter()
        clients[k % STATIONS].send(DeviceEvent(device="bench", event="ping", detail={"k": k}))
        with lock:
            ok = lock.wait_for(lambda: len(arrived.get(k, ())) == STATIONS, timeout=10)
        assert ok, f"round {k} incomplete"
        times = [t - sent for t in arrived[k]]
        return max(times), times

    for k in range(50):  # warm-up
        round_trip(-1 - k)
    ours.send("cpu")
    cpu_start = ours.recv()
    wall = time.perf_counter()
    to_all: list[float] = []
    each: list[float] = []
    for k in range(args.rounds):
        last, times = round_trip(k)
        to_all.append(last)
        each.extend(times)
    wall = time.perf_counter() - wall
    ours.send("cpu")
    cpu = ours.recv() - cpu_start

    for client in clients:
        client.stop()
    ours.send("stop")
    ours.recv()
    host.join(5)

    def ms(values: list[float], q: float) -> float:
        return statistics.quantiles(values, n=1000)[int(q * 1000) - 1] * 1e3

    print(f"link round trip, station -> host -> {STATIONS} stations, TLS on loopback, {args.rounds} rounds")
    print(
        f"  to the last of {STATIONS}: p50 {ms(to_all, 0.5):.2f} ms, p99 {ms(to_all, 0.99):.2f} ms, "
        f"max {max(to_all) * 1e3:.2f} ms"
    )
    print(f"  to each station:   p50 {ms(each, 0.5):.2f} ms, p99 {ms(each, 0.99):.2f} ms")
    print(
        f"  host CPU: {cpu / args.rounds * 1e6:.0f} us per forwarded message (1 in, {STATIONS} out), "
        f"{cpu / (args.rounds * (STATIONS + 1)) * 1e6:.0f} us per frame; "
        f"{cpu / wall * 100:.1f}% of one core at {args.rounds / wall:.0f} messages/s"
    )
    print(f"machine: {describe_machine()}")


if __name__ == "__main__":
    main()
