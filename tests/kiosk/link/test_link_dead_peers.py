"""Peers that vanish without closing (a pulled cable, a powered-off station): the link
notices within ``2 * ping_s + close_s`` and a reconnecting station is let in at once."""

import time

from support.link_rig import FAST, Collector, raw_station, run

from kiosk.link import LinkClient, PassRound, Snapshot
from kiosk.link.testing import FaultProxy, Faults


def test_a_station_reconnecting_replaces_its_dead_connection_without_waiting(server, station):
    link, host_inbox = server
    pairing = station("bar-1", 1)

    async def scenario() -> float:
        with FaultProxy(link.port, Faults()) as proxy:
            async with raw_station(proxy.port, pairing):
                assert host_inbox.wait(lambda c: c.kinds() == ["connected"], 5)
                proxy.blackhole_all()
                started = time.monotonic()
                async with raw_station(link.port, pairing):  # welcomed inside
                    return time.monotonic() - started

    took = run(scenario())
    assert isinstance(took, float)
    # A closing handshake with the dead connection would take close_timeout (10 s by
    # default); cutting it lets the new one in at the speed of a handshake.
    assert took < FAST.close_s + 1.5, f"welcome took {took:.2f} s"
    assert host_inbox.wait(lambda c: c.kinds().count("connected") == 2, 5)
    assert host_inbox.kinds().index("disconnected") < host_inbox.kinds().index("connected", 1)


def test_a_station_notices_a_silent_host_and_reconnects(server, station):
    link, host_inbox = server
    mine = Collector()
    with FaultProxy(link.port, Faults()) as proxy:
        with LinkClient(
            station("bar-2", 2), "127.0.0.1", proxy.port, mine.message, mine.event, FAST
        ) as client:
            assert client.wait_connected(5)
            for n in range(1, 11):
                client.send(PassRound(round_id=n))
                link.send("bar-2", Snapshot(state={"n": n}))
            assert host_inbox.wait(lambda c: len(c.items) == 10)
            assert mine.wait(lambda c: len(c.items) == 10)
            proxy.blackhole_all()
            started = time.monotonic()
            for n in range(11, 21):
                client.send(PassRound(round_id=n))
                link.send("bar-2", Snapshot(state={"n": n}))
            assert host_inbox.wait(lambda c: len(c.items) == 20, 30), proxy.counts
            assert mine.wait(lambda c: len(c.items) == 20, 30), proxy.counts
            took = time.monotonic() - started
            assert proxy.counts["swallowed"] > 0
    bound = 2 * FAST.ping_s + FAST.close_s
    assert took < bound + 3.0, f"resumed after {took:.2f} s (bound {bound:.1f} s + slack)"
    assert [i.body.round_id for i in host_inbox.items] == list(range(1, 21))
    assert [i.body.state["n"] for i in mine.items] == list(range(1, 21))
    assert mine.kinds().count("connected") == 2 and client.stats().resets == 0


def test_a_station_that_answers_pings_but_sends_nothing_is_cut_as_idle(server, station):
    """A peer whose WebSocket layer still answers pings but whose link end sends no frame
    (no heartbeat) is gone as far as the link is concerned: cut after ``idle_s``."""
    link, host_inbox = server
    pairing = station("bar-3", 3)

    async def scenario() -> float:
        async with raw_station(link.port, pairing) as (ws, _):
            started = time.monotonic()
            await ws.wait_closed()  # reads (and pongs) but never sends a frame
            return time.monotonic() - started

    took = run(scenario())
    assert isinstance(took, float)
    assert FAST.idle_s - 0.5 <= took < FAST.idle_s + 3.0, f"cut after {took:.2f} s"
    assert link.stats().refusals["idle"] == 1
    assert host_inbox.wait(lambda c: c.kinds() == ["connected", "disconnected"], 5)
