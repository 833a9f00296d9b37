"""The link through a fault-injecting TCP proxy: cuts, delays, duplicated, reordered and
replayed chunks.  Nothing is delivered twice, out of order, or lost; a replayed decision
is refused by the decision check."""

import time

import pytest
from support.fast_devices import never
from support.link_rig import FAST, Collector

from engine.uth.round import Action, Phase
from kiosk.link import Decide, DecisionGuard, LinkClient, LinkServer, PassRound, Snapshot, Verdict
from kiosk.link.testing import FaultProxy, Faults

MESSAGES = 300

SCENARIOS = {
    "cut": Faults(cut=0.03),
    "delay": Faults(delay=0.5, max_delay_s=0.01),
    "duplicate": Faults(duplicate=0.03),
    "reorder": Faults(reorder=0.03),
    "replay": Faults(replay=0.03),
    "all": Faults(cut=0.01, delay=0.2, duplicate=0.01, reorder=0.01, replay=0.01),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_no_message_is_lost_duplicated_or_reordered(server, station, name, capsys):
    link, host_inbox = server
    mine = Collector()
    with FaultProxy(link.port, SCENARIOS[name], seed=12) as proxy:
        client = LinkClient(
            station("bar-1", 1), "127.0.0.1", proxy.port, mine.message, mine.event, FAST
        )
        client.start()
        try:
            sent = 0
            wanted = 0 if name == "delay" else 3
            while sent < MESSAGES or (proxy.injected < wanted and sent < 5 * MESSAGES):
                sent += 1
                client.send(PassRound(round_id=sent))
                link.send("bar-1", Snapshot(state={"n": sent}))
                if sent % 10 == 0:
                    time.sleep(0.005)  # spread the traffic over many chunks
            assert host_inbox.wait(lambda c: len(c.items) >= sent, 40), proxy.counts
            assert mine.wait(lambda c: len(c.items) >= sent, 40), proxy.counts
            # anything late would show now
            assert never(lambda: len(host_inbox.items) > sent or len(mine.items) > sent, 0.2)
            if name != "delay":  # a fault late in the run breaks a connection after the
                # last delivery: the station reconnects all the same
                assert mine.wait(lambda c: c.kinds().count("connected") > 1, 20), proxy.counts
        finally:
            client.stop()
    assert [i.body.round_id for i in host_inbox.items] == list(range(1, sent + 1))
    assert [i.seq for i in host_inbox.items] == list(range(1, sent + 1))
    assert [i.body.state["n"] for i in mine.items] == list(range(1, sent + 1))
    host, station_stats = link.stats(), client.stats()
    connects = mine.kinds().count("connected")
    assert client.stats().resets == 0 and host.resets == 0
    if name != "delay":
        assert proxy.injected >= 3 and connects > 1, proxy.counts
    with capsys.disabled():
        print(
            f"\n[{name}] tried {dict(proxy.counts)}; connections {connects}; "
            f"sent {sent}+{sent}, delivered {host.delivered}+{station_stats.delivered}, "
            f"lost 0, duplicates dropped {host.duplicates}+{station_stats.duplicates}, "
            f"resent {host.resent}+{station_stats.resent}"
        )


def test_a_replayed_decision_is_refused_by_the_decision_check(host_pairing, station):
    guard = DecisionGuard()
    verdicts: list[Verdict] = []
    host_inbox = Collector()
    shown = {"last": 0}

    def host_app(inbound):
        if isinstance(inbound.body, Decide):
            verdicts.append(guard.check(inbound.body, sent=shown["last"]))
        host_inbox.message(inbound)

    link = LinkServer(host_pairing, host_app, limits=FAST)
    link.start()
    mine = Collector()
    try:
        with FaultProxy(link.port, Faults(duplicate=0.05, cut=0.02), seed=3) as proxy:
            with LinkClient(
                station("bar-2", 2), "127.0.0.1", proxy.port, mine.message, limits=FAST
            ) as client:
                assert client.wait_connected(10)
                shown["last"] = link.send("bar-2", Snapshot(state={"round": 9, "phase": "flop"}))
                guard.open(9, Phase.FLOP, opened_at=shown["last"])
                assert mine.wait(lambda c: len(c.items) == 1, 10)
                flop_seen = mine.items[0].seq
                decision = Decide(
                    round_id=9, phase=Phase.FLOP, action=Action.CHECK, last_seen=flop_seen
                )
                for _ in range(5):  # the same decision again and again (a replay)
                    client.send(decision)
                client.send(
                    Decide(round_id=8, phase=Phase.FLOP, action=Action.PLAY_2X, last_seen=flop_seen)
                )
                assert host_inbox.wait(lambda c: len(c.items) == 6, 20), proxy.counts
                shown["last"] = link.send("bar-2", Snapshot(state={"round": 9, "phase": "river"}))
                guard.open(9, Phase.RIVER, opened_at=shown["last"])
                # made before the river was shown: late
                client.send(
                    Decide(round_id=9, phase=Phase.RIVER, action=Action.FOLD, last_seen=flop_seen)
                )
                assert mine.wait(lambda c: len(c.items) == 2, 10)
                river_seen = mine.items[1].seq
                client.send(
                    Decide(
                        round_id=9, phase=Phase.RIVER, action=Action.PLAY_1X, last_seen=river_seen
                    )
                )
                client.send(
                    Decide(round_id=9, phase=Phase.RIVER, action=Action.FOLD, last_seen=river_seen)
                )
                assert host_inbox.wait(lambda c: len(c.items) == 9, 20), proxy.counts
    finally:
        link.stop()
    assert verdicts == (
        [Verdict.ACCEPTED]
        + [Verdict.ALREADY_DECIDED] * 4
        + [Verdict.NOT_OPEN, Verdict.STALE, Verdict.ACCEPTED, Verdict.ALREADY_DECIDED]
    )
    assert [i.seq for i in host_inbox.items] == list(range(1, 10))
