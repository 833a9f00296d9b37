"""Bad input from a client: each refused, logged and counted; nothing reaches the
application; the good station is served throughout."""

import asyncio
import json
import logging
import time

import pytest
from support.fast_devices import never
from support.link_rig import FAST, Collector, raw_station
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from kiosk.link import (
    MAX_FRAME_BYTES,
    Bet,
    LinkClient,
    LinkLimits,
    LinkServer,
    PassRound,
    Snapshot,
    auth,
)
from kiosk.link.certs import pairing_client_context
from kiosk.link.codec import decode, encode
from kiosk.link.messages import PROTOCOL_VERSION as V
from kiosk.link.messages import Challenge, ErrorMessage, Heartbeat, Hello

HELLO_SESSION = "1" * 32


@pytest.fixture
def table(host_pairing, station):
    """A host with a good station connected and exchanging messages."""
    inbox = Collector()
    link = LinkServer(host_pairing, inbox.message, inbox.event, limits=FAST)
    link.start()
    good_inbox = Collector()
    good = LinkClient(
        station("good", 1), "127.0.0.1", link.port, good_inbox.message, good_inbox.event, FAST
    )
    good.start()
    assert good.wait_connected(5)
    try:
        yield link, inbox, good, good_inbox
    finally:
        good.stop()
        link.stop()


def still_served(link, inbox, good, good_inbox, n):
    """The good station's message ``n`` reaches the host and the host's reaches it."""
    good.send(PassRound(round_id=n))
    link.send("good", Snapshot(state={"n": n}))
    assert inbox.wait(lambda c: any(i.body == PassRound(round_id=n) for i in c.items), 10)
    assert good_inbox.wait(lambda c: any(i.body.state == {"n": n} for i in c.items), 10)


def only_good(inbox):
    assert {i.station_id for i in inbox.items} <= {"good"}


async def expect_error(ws):
    """The next frame other than a heartbeat is an error; returns its code."""
    body = decode(await ws.recv(), "host").body
    while isinstance(body, Heartbeat | Challenge):
        body = decode(await ws.recv(), "host").body
    assert isinstance(body, ErrorMessage)
    return body.code


async def expect_closed(ws):
    with pytest.raises(ConnectionClosed):
        while True:
            await ws.recv()


@pytest.mark.parametrize(
    "frame, code",
    [
        ("{not json", "malformed"),
        (
            json.dumps({"v": 9, "type": "pass", "seq": 1, "ack": 0, "body": {"round_id": 1}}),
            "version",
        ),
        (json.dumps({"v": V, "type": "jackpot", "seq": 1, "ack": 0, "body": {}}), "unknown-type"),
        (
            json.dumps({"v": V, "type": "pass", "seq": 1, "ack": 0, "body": {"round_id": "1"}}),
            "malformed",
        ),
        (
            json.dumps({"v": V, "type": "snapshot", "seq": 1, "ack": 0, "body": {"state": {}}}),
            "direction",
        ),
    ],
)
def test_bad_frames_after_authentication_are_refused_and_logged(
    table, station, frame, code, caplog
):
    link, inbox, good, good_inbox = table
    pairing = station("bar-2", 2)

    async def scenario():
        async with raw_station(link.port, pairing) as (ws, _):
            await ws.send(frame)
            assert await expect_error(ws) == code
            await ws.send(b"\x00binary")
            assert await expect_error(ws) == "malformed"
            await ws.send(encode(PassRound(round_id=77), 1, 0))  # the connection still works

    with caplog.at_level(logging.WARNING, logger="kiosk.link"):
        asyncio.run(scenario())
        assert inbox.wait(lambda c: any(i.station_id == "bar-2" for i in c.items))
    assert [i.body for i in inbox.items if i.station_id == "bar-2"] == [PassRound(round_id=77)]
    assert link.stats().refusals[code] == (2 if code == "malformed" else 1)
    assert link.stats().refusals["malformed"] >= 1  # the binary frame
    assert f"link refused {code}" in caplog.text
    still_served(link, inbox, good, good_inbox, 1)


def test_a_repeated_sequence_number_is_delivered_once(table, station):
    link, inbox, *_ = table
    pairing = station("bar-2", 2)

    async def scenario():
        async with raw_station(link.port, pairing) as (ws, _):
            for _ in range(3):
                await ws.send(encode(PassRound(round_id=5), 1, 0))
            await ws.send(encode(PassRound(round_id=6), 3, 0))  # ahead: held
            await ws.send(encode(PassRound(round_id=5), 2, 0))  # fills the gap

    asyncio.run(scenario())
    assert inbox.wait(lambda c: sum(i.station_id == "bar-2" for i in c.items) == 3)
    assert never(lambda: sum(i.station_id == "bar-2" for i in inbox.items) > 3, 0.1)
    mine = [(i.seq, i.body.round_id) for i in inbox.items if i.station_id == "bar-2"]
    assert mine == [(1, 5), (2, 5), (3, 6)]
    assert link.stats().duplicates == 2


def test_an_oversized_frame_closes_the_connection(table, station):
    link, inbox, good, good_inbox = table
    pairing = station("bar-2", 2)

    async def scenario():
        async with raw_station(link.port, pairing) as (ws, _):
            body = {"txn": "s2-a", "end": "returned", "reason": "y" * MAX_FRAME_BYTES}
            await ws.send(
                json.dumps({"v": V, "type": "validator_report", "seq": 1, "ack": 0, "body": body})
            )
            await expect_closed(ws)
            assert ws.close_code == 1009

    asyncio.run(scenario())
    assert inbox.wait(lambda c: True)
    deadline = time.monotonic() + 5
    while link.stats().refusals["oversized"] == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert link.stats().refusals["oversized"] == 1
    only_good(inbox)
    still_served(link, inbox, good, good_inbox, 2)


def hello_for(pairing, nonce, key=None, seat=None, station_id=None):
    station_id = station_id or pairing.station_id
    mac = auth.hello_mac(key or pairing.key, bytes.fromhex(nonce), station_id)
    return Hello(
        station_id=station_id,
        seat=seat or pairing.seat,
        session=HELLO_SESSION,
        last_seen=0,
        mac=mac,
    )


@pytest.mark.parametrize(
    "case, code",
    [
        ("message-first", "auth.unauthenticated"),
        ("wrong-key", "auth.bad-key"),
        ("unpaired", "auth.unpaired"),
        ("other-seat", "auth.wrong-seat"),
        ("other-station-key", "auth.bad-key"),
        ("replayed-hello", "auth.bad-key"),
        ("garbage", "malformed"),
    ],
)
def test_unauthenticated_clients_are_refused(table, station, case, code, caplog):
    link, inbox, good, good_inbox = table
    pairing = station("bar-3", 3)
    other = station("bar-4", 4)
    recorded = {}

    async def record():  # a genuine hello, answered to an earlier challenge
        async with raw_station(link.port) as (ws, challenge):
            recorded["hello"] = hello_for(pairing, challenge.nonce)

    async def scenario():
        async with raw_station(link.port) as (ws, challenge):
            frames = {
                "message-first": encode(PassRound(round_id=1), 1, 0),
                "wrong-key": encode(
                    hello_for(pairing, challenge.nonce, key=auth.new_station_key()), 0, 0
                ),
                "unpaired": encode(
                    hello_for(pairing, challenge.nonce, station_id="stranger"), 0, 0
                ),
                "other-seat": encode(hello_for(pairing, challenge.nonce, seat=4), 0, 0),
                "other-station-key": encode(
                    hello_for(pairing, challenge.nonce, key=other.key), 0, 0
                ),
                "replayed-hello": encode(
                    recorded.get("hello", Bet(round_id=1, ante_cents=1)), 0, 0
                ),
                "garbage": "\x7f" * 100,
            }
            await ws.send(frames[case])
            assert await expect_error(ws) == code
            await expect_closed(ws)

    with caplog.at_level(logging.WARNING, logger="kiosk.link"):
        if case == "replayed-hello":
            asyncio.run(record())
        asyncio.run(scenario())
    assert link.stats().refusals[code] == 1
    assert f"link refused {code}" in caplog.text
    assert "bar-3" not in link.connected()
    only_good(inbox)
    still_served(link, inbox, good, good_inbox, 3)


def test_a_silent_client_is_dropped_after_the_auth_timeout(table):
    link, inbox, good, good_inbox = table

    async def scenario():
        async with raw_station(link.port) as (ws, _):
            started = time.monotonic()
            assert await expect_error(ws) == "auth.timeout"
            await expect_closed(ws)
            return time.monotonic() - started

    waited = asyncio.run(scenario())
    assert FAST.auth_timeout_s * 0.9 <= waited < FAST.auth_timeout_s + 1.0
    assert link.stats().refusals["auth-timeout"] == 1
    still_served(link, inbox, good, good_inbox, 4)


def test_a_frame_flood_is_cut_off(table, station):
    link, inbox, good, good_inbox = table
    pairing = station("bar-5", 5)

    async def scenario():
        async with raw_station(link.port, pairing) as (ws, _):
            started = time.monotonic()
            try:
                for n in range(1, 5001):
                    await ws.send(encode(PassRound(round_id=n), n, 0))
            except ConnectionClosed:
                pass
            await ws.wait_closed()
            return ws.close_code, time.monotonic() - started

    # 1008 when the flooder read the host's close frame in time; 1006 when it was still
    # sending after the grace and the host cut the connection.
    code, seconds = asyncio.run(scenario())
    assert code in (1008, 1006)
    assert link.stats().refusals["rate"] == 1
    flooded = sum(i.station_id == "bar-5" for i in inbox.items)
    # a token bucket lets through its burst plus its rate over the flood's duration
    assert flooded <= FAST.rate_burst + FAST.rate_per_s * seconds + 1, (flooded, seconds)
    still_served(link, inbox, good, good_inbox, 5)


def test_a_flood_of_200_connections_is_refused_and_the_good_station_keeps_playing(
    host_pairing, station, caplog
):
    limits = LinkLimits(
        max_connections=16, auth_timeout_s=1.0, ping_s=1.0, heartbeat_s=0.05, backoff_min_s=0.02
    )
    inbox = Collector()
    link = LinkServer(host_pairing, inbox.message, inbox.event, limits=limits)
    link.start()
    good_inbox = Collector()
    good = LinkClient(
        station("good", 1), "127.0.0.1", link.port, good_inbox.message, good_inbox.event, limits
    )
    good.start()
    assert good.wait_connected(5)
    outcome = {"refused": 0, "timed_out": 0, "other": 0, "tcp_only": 0}

    async def one_ws():  # completes TLS and the upgrade, then says nothing
        try:
            async with connect(
                f"wss://127.0.0.1:{link.port}/",
                ssl=pairing_client_context(),
                proxy=None,
                open_timeout=10,
            ) as ws:
                code = await expect_error(ws)  # busy at once, or a timeout after the challenge
                outcome["refused" if code == "busy" else "timed_out"] += 1
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError, AssertionError):
            outcome["other"] += 1  # e.g. cut by the host's upgrade timeout under load

    async def one_tcp():  # opens the socket, never speaks TLS
        reader, writer = await asyncio.open_connection("127.0.0.1", link.port)
        await reader.read()  # until the host gives up on it
        outcome["tcp_only"] += 1
        writer.close()

    async def flood():
        jobs = [one_ws() for _ in range(150)] + [one_tcp() for _ in range(50)]
        await asyncio.wait_for(asyncio.gather(*jobs), 30)

    with caplog.at_level(logging.WARNING, logger="kiosk.link"):
        started = time.monotonic()
        asyncio.run(flood())
        for n in range(10):
            still_served(link, inbox, good, good_inbox, 100 + n)
        took = time.monotonic() - started
    try:
        stats = link.stats()
        assert outcome["tcp_only"] == 50
        assert outcome["refused"] + outcome["timed_out"] + outcome["other"] == 150
        assert outcome["refused"] > 0, outcome
        assert stats.peak_open == limits.max_connections, stats
        assert stats.refusals["too-many-connections"] == outcome["refused"]
        assert stats.refusals["auth-timeout"] == outcome["timed_out"]
        assert "link refused too-many-connections" in caplog.text
        assert good_inbox.kinds() == ["connected"]  # never dropped
        only_good(inbox)
        print(
            f"\n[flood] 200 connections: {outcome}; took {took:.1f}s; refusals {dict(stats.refusals)}"
        )
    finally:
        good.stop()
        link.stop()
