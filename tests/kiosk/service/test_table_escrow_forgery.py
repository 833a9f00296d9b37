"""Garbled and forged escrow traffic from an authenticated station, over the real link:
a real :class:`Table` on a SQLite file behind its TLS :class:`TableHost` on loopback;
station 1 is a bare WebSocket that authenticates with its own key and then sends
whatever it likes; station 2 is an honest :class:`RemoteTable` with a note in escrow.
Every forgery is refused (a link or table refusal) or ignored, with a log line; nothing
is credited twice and station 2 is unaffected."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from kiosk.config import load_config
from kiosk.link import auth
from kiosk.link.certs import certificate_pem, pairing_client_context
from kiosk.link.codec import MAX_FRAME_BYTES, decode, encode
from kiosk.link.limits import LinkLimits
from kiosk.link.messages import (
    PROTOCOL_VERSION,
    Body,
    Challenge,
    ErrorMessage,
    Escrow,
    EscrowAck,
    Heartbeat,
    Hello,
    ValidatorReport,
    Welcome,
)
from kiosk.link.outcomes import EscrowEnd, MoneyOutcome
from kiosk.link.pairing import HostPairing, StationPairing
from kiosk.service.table import Table
from kiosk.service.timing import TableTiming
from kiosk.station.remote import RemoteTable
from kiosk.tablehost.service import TableHost

FAST = LinkLimits(
    auth_timeout_s=2.0, ping_s=2.0, heartbeat_s=0.05, backoff_min_s=0.02, backoff_max_s=0.2
)


def _pairing(host: HostPairing, n: int) -> StationPairing:
    key = auth.new_station_key()
    host.add(f"station-{n}", n, key)
    pem = certificate_pem(host.identity.certificate_der())
    return StationPairing(f"station-{n}", n, key, host.fingerprint, pem)


class Forger:
    """An authenticated station that sends raw frames and keeps what the host answers."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seq = 0
        self.seen = 0
        self.bodies: list[Body] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                envelope = decode(frame, "host")
                self.seen = max(self.seen, envelope.seq)
                if not isinstance(envelope.body, Heartbeat):
                    self.bodies.append(envelope.body)
        except ConnectionClosed:
            pass  # the host closed it (see close_code)

    async def send(self, body: Body) -> None:
        self.seq += 1
        await self.ws.send(encode(body, self.seq, self.seen))

    async def send_raw(self, kind: str, body: dict[str, Any]) -> None:
        """A frame the schema may refuse: it takes no sequence number when refused."""
        frame = {
            "v": PROTOCOL_VERSION,
            "type": kind,
            "seq": self.seq + 1,
            "ack": self.seen,
            "body": body,
        }
        await self.ws.send(json.dumps(frame))

    async def until(self, predicate: Callable[[], bool], what: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            await asyncio.sleep(0.02)

    def errors(self) -> list[str]:
        return [b.code for b in self.bodies if isinstance(b, ErrorMessage)]

    def answers(self, txn: str) -> list[EscrowAck]:
        return [b for b in self.bodies if isinstance(b, EscrowAck) and b.txn == txn]


async def _forger(port: int, pairing: StationPairing) -> Forger:
    ws = await connect(
        f"wss://127.0.0.1:{port}/",
        ssl=pairing_client_context(),
        proxy=None,
        compression=None,
        max_size=None,
    )
    challenge = decode(await ws.recv(), "host").body
    assert isinstance(challenge, Challenge)
    mac = auth.hello_mac(pairing.key, bytes.fromhex(challenge.nonce), pairing.station_id)
    hello = Hello(
        station_id=pairing.station_id, seat=pairing.seat, session="0" * 32, last_seen=0, mac=mac
    )
    await ws.send(encode(hello, 0, 0))
    assert isinstance(decode(await ws.recv(), "host").body, Welcome)
    return Forger(ws)


def _note(cents: int, txn: str) -> Escrow:
    return Escrow(txn=txn, denomination_cents=cents, amount_cents=cents)


def _report(txn: str, end: EscrowEnd = EscrowEnd.VEND_VALID, reason: str = "") -> ValidatorReport:
    return ValidatorReport(txn=txn, end=end, reason=reason)


@pytest.fixture
def floor(tmp_path: Path):
    config = load_config(db_path=tmp_path / "var" / "uth.db")
    table = Table.open(config, (1, 2), timing=TableTiming(60, 60))
    pairing = HostPairing(tmp_path / "host")
    host = TableHost(table, pairing, limits=FAST, tick_s=0.05)
    port = host.start()
    forged = _pairing(pairing, 1)
    honest = RemoteTable(_pairing(pairing, 2), "127.0.0.1", port, limits=FAST)
    honest.start()
    assert honest.wait_for(lambda s: True, 10) is not None
    yield table, port, forged, honest
    honest.stop()
    host.stop()
    table.close()


def _events(table: Table, kind: str) -> list[tuple[int, str | None, int | None]]:
    ledger = table.ledger
    assert ledger is not None
    return [(e.station, e.txn, e.amount) for e in ledger.events((kind,))]


def test_forged_escrow_traffic_is_refused_and_credits_nothing_twice(floor, caplog):
    table, port, pairing, honest = floor
    # station 2's note is accepted and not yet stacked: its escrow is open on the host
    ack = honest.escrow_note(5_000, "s2-open", 10)
    assert ack is not None and ack.accepted

    async def scenario() -> None:
        me = await _forger(port, pairing)
        await me.until(lambda: bool(me.bodies), "the first snapshot")
        # an honest note, then its VEND VALID report sent 50 times: credited once
        await me.send(_note(2_000, "s1-a"))
        await me.until(lambda: bool(me.answers("s1-a")), "the escrow's answer")
        assert me.answers("s1-a")[0].accepted
        for _ in range(50):
            await me.send(_report("s1-a"))
        await me.until(lambda: len(me.answers("s1-a")) == 51, "50 answers to the report")
        answered = {(a.accepted, a.outcome, a.reason) for a in me.answers("s1-a")[1:]}
        assert answered == {(True, MoneyOutcome.CREDITED, "")}
        assert me.errors() == []
        # malformed Escrow frames: the link's schema refuses each, nothing is delivered
        garbled = [
            {"txn": "s1-b"},  # no amount, no note
            {"txn": "s1-b", "denomination_cents": -500, "amount_cents": -500},
            {"txn": "s1-b", "denomination_cents": "500", "amount_cents": 500},
            {"txn": "s1-b", "denomination_cents": 500, "ticket": "123456", "amount_cents": 500},
            {"txn": "", "denomination_cents": 500, "amount_cents": 500},
            {"txn": "s1-b" * 40, "denomination_cents": 500, "amount_cents": 500},
            # an amount that differs from the note
            {"txn": "s1-b", "denomination_cents": 500, "amount_cents": 10_000},
        ]
        for body in garbled:
            await me.send_raw("escrow", body)
        await me.until(lambda: len(me.errors()) == len(garbled), "a refusal for each")
        assert set(me.errors()) == {"malformed"}
        # another station's transaction: its escrow, and a report settling it
        await me.send(_note(5_000, "s2-open"))
        await me.until(lambda: bool(me.answers("s2-open")), "the answer to the stolen txn")
        await me.send(_report("s2-open"))
        await me.until(lambda: len(me.answers("s2-open")) == 2, "the answer to its report")
        stolen = me.answers("s2-open")
        assert not stolen[0].accepted and not stolen[1].accepted
        assert stolen[1].outcome is MoneyOutcome.UNKNOWN
        # ill-typed reports (a transaction that is not text, amounts that are not whole
        # cents, an end the vocabulary does not have): the link's schema refuses each
        ill_typed = [
            {"txn": 12345, "end": "vend_valid"},
            {"txn": "s1-a", "end": "vend_valid", "cents": "500"},
            {"txn": "s1-a", "end": "vend_valid", "cents": 500.0},
            {"txn": "s1-a", "end": "vend_valid", "cents": True},
            {"txn": "s1-a", "end": "vend_valid", "cents": -500},
            {"txn": "s1-a", "end": "credited"},
            {"txn": "s1-a", "event": "vend_valid", "detail": {"txn": "s1-a"}},
        ]
        refused = len(me.errors())
        for body in ill_typed:
            await me.send_raw("validator_report", body)
        await me.send_raw("device_event", {"device": "validator", "event": "vend_valid"})
        await me.until(lambda: len(me.errors()) == refused + 8, "a refusal for each")
        assert me.errors()[refused:] == ["malformed"] * 7 + ["unknown-type"]
        # an oversized reason is cut, never refused: the VEND VALID is answered
        await me.send(_report("s1-a", reason="x" * 40_000))
        await me.until(lambda: len(me.answers("s1-a")) == 52, "the long report's answer")
        assert me.answers("s1-a")[-1].outcome is MoneyOutcome.CREDITED
        # a settle for a transaction the host never accepted: not credited, the
        # station stops for an attendant to reconcile its box
        await me.send(_report("s1-never"))
        await me.until(lambda: bool(me.answers("s1-never")), "the unknown txn's answer")
        assert me.answers("s1-never")[0].outcome is MoneyOutcome.UNKNOWN
        # a frame over the link's limit closes the connection
        await me.send(_report("s1-a", reason="y" * MAX_FRAME_BYTES))
        await asyncio.wait_for(me.reader, 10)
        assert me.ws.close_code == 1009

    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())
    # station 1: its one honest note, credited once; nothing of station 2's
    assert _events(table, "bill_in") == [(1, "s1-a", 2_000)]
    assert table.credits(1) == 2_000
    assert [s.station for s in table.statuses() if s.tilts] == [1]  # the unknown stack
    # station 2's escrow is still its own and open; its validator finishes it
    assert table.open_escrows(2) == ["s2-open"] and table.credits(2) == 0
    settled = honest.report_note("s2-open", EscrowEnd.VEND_VALID, "", 10)
    assert settled is not None and settled.accepted
    assert honest.wait_for(lambda s: s.credits == 5_000, 10)
    assert _events(table, "bill_in") == [(1, "s1-a", 2_000), (2, "s2-open", 5_000)]
    assert not honest.errors
    # each forgery left a line in the log
    text = caplog.text
    assert text.count("link refused malformed") >= 7 + 7
    assert "validator_report: body.validator_report.txn" in text  # the report's txn 12345
    assert "link refused unknown-type" in text  # a report of protocol version 1
    assert "link refused oversized" in text
    assert "escrow s2-open of seat 1 refused" in text  # the stolen transaction
    assert "seat 1 vend_valid for s2-open matches no escrow of the seat" in text
    assert "seat 1 vend_valid for s1-never matches no escrow of the seat" in text
