"""Friends' web seats on loopback: action round trip and host CPU.

Five remote seats (WebSocket clients, one thread each, each from a loopback address of
its own, 127.0.0.2 to 127.0.0.6, as five phones are five addresses: the host lets one
address hold only a few sockets without a seat) and the host's computer player play hands of a six-seat game with fast computer pacing; each remote move is timed from
sending ``act`` until the host's next state for that seat shows the move played.
Prints p50/p95/p99 round trip in milliseconds (goal: p99 under 100 ms), the host's
CPU (owner loop and whole process) and the machine.

    .venv/bin/python -m bench.tournament_net [--seconds 8]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import resource
import statistics
import threading
import time

import kiosk.tournament.session as session_module
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import SeatSpec
from kiosk.friends import FriendsGame, FriendsHost, FriendsTimers, ServerLimits


def _seat(url: str, name: str, source: str, stop: threading.Event, times: list[float]) -> None:
    from websockets.sync.client import connect

    with connect(url, open_timeout=5, source_address=(source, 0)) as ws:
        ws.send(json.dumps({"type": "join", "name": name}))
        sent: float | None = None
        seq: tuple[int, int] | None = None
        while not stop.is_set():
            try:
                msg = json.loads(ws.recv(timeout=1))
            except TimeoutError:
                continue
            except Exception:
                return
            if msg.get("type") != "state" or msg.get("phase") not in ("play", "hand_over"):
                continue
            if sent is not None and (msg["hand"], msg["seq"]) != seq:
                times.append(time.perf_counter() - sent)
                sent = None
            if msg["phase"] == "play" and msg["your_turn"] and (msg["hand"], msg["seq"]) != seq:
                la = msg["legal"]
                seq = (msg["hand"], msg["seq"])
                sent = time.perf_counter()
                ws.send(json.dumps({"type": "act", "hand": msg["hand"], "seq": msg["seq"],
                                    "action": "check" if la["can_check"] else "call"}))
            elif msg["phase"] == "hand_over" and msg["vote"] and msg["vote"]["counts"] and not msg["vote"]["voted"]:
                ws.send(json.dumps({"type": "next", "hand": msg["hand"]}))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=8.0)
    args = ap.parse_args()
    logging.getLogger("kiosk.friends").setLevel(logging.ERROR)  # votes racing the 0.2 s timeout
    session_module.AI_DELAYS["fast"] = 0.02
    session_module.BOARD_PAUSE["fast"] = 0.0
    seats = (SeatSpec("Host", "human"), *(SeatSpec(n, "bot", "easy", n) for n in ("Ike", "Max", "Rosa", "Jules", "Nina")))
    config = TournamentConfig("custom", seats, 100_000, 0, None)  # deep stacks: nobody busts
    game = FriendsGame(config, ai_speed="fast", host_plays="bot", bot_samples=0,
                       timers=FriendsTimers(next_hand_s=0.2))
    host = FriendsHost(game, limits=ServerLimits(rate_per_s=200, rate_burst=400))
    host.start()
    host.run_in_background()
    url = f"ws://127.0.0.1:{host.port}/g/{game.code}/ws"
    stop = threading.Event()
    times: list[list[float]] = [[] for _ in range(5)]
    threads = [threading.Thread(target=_seat, args=(url, f"P{i}", f"127.0.0.{i + 2}", stop, times[i]),
                                daemon=True) for i in range(5)]
    for th in threads:
        th.start()
    deadline = time.monotonic() + 15
    while len(host.call(lambda g: g.friends())) < 5:
        if time.monotonic() > deadline or not all(th.is_alive() for th in threads):
            taken = len(host.call(lambda g: g.friends()))
            stop.set()
            host.stop()
            print(f"only {taken} of 5 seats taken: see the host's refusals")
            return 1
        time.sleep(0.05)
    host.call(lambda g: g.start())
    cpu0, host0, wall0 = time.process_time(), host.cpu_s, time.perf_counter()
    time.sleep(args.seconds)
    wall = time.perf_counter() - wall0
    cpu, host_cpu = time.process_time() - cpu0, host.cpu_s - host0
    hands = host.call(lambda g: g.session.t.hand_number)
    stop.set()
    for th in threads:
        th.join(3)
    host.stop()
    all_ms = sorted(t * 1000 for ts in times for t in ts)
    if not all_ms:
        print("no moves timed")
        return 1
    q = statistics.quantiles(all_ms, n=100)
    print(f"friends web seats: 5 remote + 1 host bot, {len(all_ms)} remote moves, {hands} hands in {wall:.1f} s")
    print(f"action round trip ms: p50 {q[49]:.2f}  p95 {q[94]:.2f}  p99 {q[98]:.2f}  max {all_ms[-1]:.2f}"
          f"  (goal p99 < 100)")
    print(f"host CPU: owner loop {100 * host_cpu / wall:.1f}% of one core; whole process (host + 5 clients) "
          f"{100 * cpu / wall:.1f}%; max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, {platform.system()} {platform.release()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
