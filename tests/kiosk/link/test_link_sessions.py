"""Sessions on real sockets: both directions, reconnects with resend, restarts of either
end, and a thread-safe send."""

import threading

from support.link_rig import FAST, Collector

from kiosk.link import (
    Bet,
    LinkClient,
    LinkLimits,
    LinkServer,
    OutboxFull,
    PassRound,
    Snapshot,
    UnknownStation,
)


def seqs(collector):
    return [i.seq for i in collector.items]


def test_messages_flow_both_ways_in_order(server, station):
    link, host_inbox = server
    mine = Collector()
    with LinkClient(
        station("bar-1", 1), "127.0.0.1", link.port, mine.message, mine.event, FAST
    ) as client:
        assert client.wait_connected(5)
        for n in range(1, 51):
            client.send(Bet(round_id=n, ante_cents=100))
            link.send("bar-1", Snapshot(state={"n": n}))
        assert host_inbox.wait(lambda c: len(c.items) == 50)
        assert mine.wait(lambda c: len(c.items) == 50)
        assert [i.body.round_id for i in host_inbox.items] == list(range(1, 51))
        assert {(i.station_id, i.seat) for i in host_inbox.items} == {("bar-1", 1)}
        assert [i.body.state["n"] for i in mine.items] == list(range(1, 51))
        assert seqs(mine) == list(range(1, 51))
        assert link.connected() == ["bar-1"]
        assert client.wait_connected(0) and mine.kinds()[0] == "connected"
    assert host_inbox.wait(lambda c: c.kinds() == ["connected", "disconnected"])


def test_a_dropped_connection_resumes_and_resends_what_was_not_acknowledged(server, station):
    link, host_inbox = server
    mine = Collector()
    with LinkClient(
        station("bar-1", 1), "127.0.0.1", link.port, mine.message, mine.event, FAST
    ) as client:
        assert client.wait_connected(5)
        for n in range(1, 201):
            client.send(PassRound(round_id=n))
            link.send("bar-1", Snapshot(state={"n": n}))
            if n % 40 == 0:
                client.drop_connection()
        assert host_inbox.wait(lambda c: len(c.items) >= 200)
        assert mine.wait(lambda c: len(c.items) >= 200)
        assert [i.body.round_id for i in host_inbox.items] == list(range(1, 201))
        assert [i.body.state["n"] for i in mine.items] == list(range(1, 201))
        resumed = [e.resumed for e in mine.events if e.kind == "connected"]
        assert len(resumed) >= 2 and all(resumed[1:])
        assert client.stats().resets == 0


def test_messages_queued_while_disconnected_go_out_on_connect(host_pairing, station):
    pairing = station("bar-2", 2)
    host_inbox = Collector()
    link = LinkServer(host_pairing, host_inbox.message, host_inbox.event, limits=FAST)
    port = link.start()
    link.send("bar-2", Snapshot(state={"hello": "early"}))
    mine = Collector()
    client = LinkClient(pairing, "127.0.0.1", port, mine.message, limits=FAST)
    client.send(PassRound(round_id=1))  # before start
    client.start()
    try:
        assert host_inbox.wait(lambda c: len(c.items) == 1)
        assert mine.wait(lambda c: len(c.items) == 1)
        assert mine.items[0].body.state == {"hello": "early"}
    finally:
        client.stop()
        link.stop()


def test_a_host_restart_resets_the_session(host_pairing, station):
    pairing = station("bar-3", 3)
    first = Collector()
    link = LinkServer(host_pairing, first.message, limits=FAST)
    port = link.start()
    mine = Collector()
    client = LinkClient(pairing, "127.0.0.1", port, mine.message, mine.event, FAST)
    client.start()
    try:
        assert client.wait_connected(5)
        client.send(PassRound(round_id=1))
        link.send("bar-3", Snapshot(state={"epoch": 1}))
        assert first.wait(lambda c: len(c.items) == 1) and mine.wait(lambda c: len(c.items) == 1)
        link.stop()
        second = Collector()
        link = LinkServer(host_pairing, second.message, port=port, limits=FAST)
        link.start()
        assert mine.wait(lambda c: "reset" in c.kinds(), 10)
        assert mine.wait(lambda c: c.kinds().count("connected") == 2, 10)
        client.send(PassRound(round_id=2))
        link.send("bar-3", Snapshot(state={"epoch": 2}))
        assert second.wait(lambda c: len(c.items) == 1)
        assert mine.wait(lambda c: len(c.items) == 2)
        assert second.items[0].seq == 1 and second.items[0].body.round_id == 2
        assert mine.items[1].seq == 1 and mine.items[1].body.state == {"epoch": 2}
    finally:
        client.stop()
        link.stop()


def test_a_station_restart_resets_the_host_channel(server, station):
    link, host_inbox = server
    pairing = station("bar-4", 4)
    for run in (1, 2):
        mine = Collector()
        with LinkClient(pairing, "127.0.0.1", link.port, mine.message, limits=FAST) as client:
            assert client.wait_connected(5)
            client.send(PassRound(round_id=run))
            link.send("bar-4", Snapshot(state={"run": run}))
            assert mine.wait(lambda c: len(c.items) == 1)
            assert mine.items[0].seq == 1 and mine.items[0].body.state == {"run": run}
    assert host_inbox.wait(lambda c: len(c.items) == 2)
    assert [i.seq for i in host_inbox.items] == [1, 1]
    assert "reset" in host_inbox.kinds()


def test_send_is_thread_safe_and_keeps_each_threads_order(server, station):
    link, host_inbox = server
    with LinkClient(
        station("bar-5", 5), "127.0.0.1", link.port, Collector().message, limits=FAST
    ) as client:
        assert client.wait_connected(5)

        def burst(thread):
            for n in range(100):
                client.send(Bet(round_id=1 + n, ante_cents=100 + thread))

        threads = [threading.Thread(target=burst, args=(t,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert host_inbox.wait(lambda c: len(c.items) == 400)
    assert seqs(host_inbox) == list(range(1, 401))
    for t in range(4):
        mine = [i.body.round_id for i in host_inbox.items if i.body.ante_cents == 100 + t]
        assert mine == list(range(1, 101))


def test_sending_to_an_unknown_station_or_too_much_is_refused(server, station):
    link, _ = server
    try:
        link.send("nobody", Snapshot(state={}))
        raise AssertionError("sent to an unpaired station")
    except UnknownStation:
        pass
    client = LinkClient(
        station("bar-6", 6),
        "127.0.0.1",
        link.port,
        Collector().message,
        limits=LinkLimits(outbox=3),
    )
    for n in range(3):
        client.send(PassRound(round_id=n + 1))
    try:
        client.send(PassRound(round_id=4))
        raise AssertionError("queued past the outbox")
    except OutboxFull:
        pass
    assert client.unacknowledged == 3
