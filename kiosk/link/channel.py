"""One peer's sequenced stream, and the pump that runs it over one connection.

A :class:`Channel` outlives connections: its outbox keeps what the peer has not
acknowledged, its inbox knows what was delivered.  :func:`pump` runs a connection for a
channel until it closes: a writer sends the outbox from a cursor (everything after the
peer's last delivered ``seq`` at connect time, then each new message), acknowledging by
the envelope's ``ack``, with a heartbeat when an acknowledgement is owed and nothing else
goes out, or at least every ``ping_s``; a reader checks each frame (rate, size, shape,
direction), acknowledges the outbox and delivers new messages once and in order, and cuts
a connection silent for ``idle_s`` (the peer or the stream between is gone).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.asyncio.connection import Connection
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK
from websockets.frames import CloseCode

from kiosk.link.codec import Side, decode, encode
from kiosk.link.errors import FrameRefused, RateExceeded
from kiosk.link.limits import LinkLimits, TokenBucket
from kiosk.link.messages import Body, ErrorMessage, Heartbeat
from kiosk.link.sequencing import GapTooWide, Inbox, Outbox
from kiosk.link.stats import LinkStats

#: Refused frames tolerated on one connection before it is closed.
MAX_REFUSED_FRAMES = 16

Deliver = Callable[[int, Body], None]


@dataclass
class Channel:
    """The stream to one peer: ``session`` names the peer run it belongs to."""

    outbox: Outbox
    inbox: Inbox = field(default_factory=Inbox)
    session: str = ""
    wake: asyncio.Event | None = None
    sent_high: int = 0  # the highest seq ever sent to the peer, on any connection

    def kick(self) -> None:
        """A message was queued (call on the loop)."""
        if self.wake is not None:
            self.wake.set()


async def send_control(ws: Connection, body: Body, ack: int = 0) -> None:
    """Send a control body (``seq`` 0) on ``ws``."""
    await ws.send(encode(body, 0, ack))


async def pump(
    ws: Connection,
    channel: Channel,
    peer_side: Side,
    resend_after: int,
    deliver: Deliver,
    limits: LinkLimits,
    stats: LinkStats,
    peer: str,
) -> None:
    """Run ``ws`` for ``channel`` until the connection closes (see module).  A send that
    fails cuts the connection (``websockets`` aborts the transport), which ends the
    reader too."""
    channel.wake = asyncio.Event()
    channel.wake.set()
    writer = asyncio.create_task(_write(ws, channel, resend_after, limits, stats))
    try:
        await _read(ws, channel, peer_side, deliver, limits, stats, peer)
    finally:
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionClosed, OSError):
            await writer
        channel.wake = None


async def _write(
    ws: Connection, channel: Channel, resend_after: int, limits: LinkLimits, stats: LinkStats
) -> None:
    cursor = resend_after
    acked_sent = channel.inbox.last  # told in the handshake
    wake = channel.wake
    assert wake is not None
    loop = asyncio.get_running_loop()
    last_out = loop.time()
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), limits.heartbeat_s)
        wake.clear()
        pending = channel.outbox.after(cursor)
        for item in pending:
            await ws.send(encode(item.body, item.seq, channel.inbox.last))
            stats.frames_out += 1
            if item.seq <= channel.sent_high:
                stats.resent += 1
            channel.sent_high = max(channel.sent_high, item.seq)
            cursor = item.seq
            acked_sent = channel.inbox.last
            last_out = loop.time()
        owed = channel.inbox.last != acked_sent
        if not pending and (owed or loop.time() - last_out >= limits.ping_s):
            # an acknowledgement owed, or the peer's idle watch to feed
            acked_sent = channel.inbox.last
            await ws.send(encode(Heartbeat(), 0, acked_sent))
            stats.frames_out += 1
            last_out = loop.time()


async def _read(
    ws: Connection,
    channel: Channel,
    peer_side: Side,
    deliver: Deliver,
    limits: LinkLimits,
    stats: LinkStats,
    peer: str,
) -> None:
    bucket = TokenBucket(limits.rate_per_s, limits.rate_burst)
    refused = 0
    while True:
        try:
            # the peer sends at least a heartbeat every ping_s: silence means it is gone
            frame = await asyncio.wait_for(ws.recv(), limits.idle_s)
        except ConnectionClosedOK:
            return  # a closing handshake; an abnormal close propagates
        except TimeoutError:
            stats.refuse("idle", peer, f"nothing for {limits.idle_s:g} s")
            ws.transport.abort()
            return
        stats.frames_in += 1
        if not bucket.take():
            exc = RateExceeded(f"over {limits.rate_per_s:g} frames/s")
            stats.refuse(exc.reason, peer, str(exc))
            await close_with(ws, CloseCode.POLICY_VIOLATION, exc.reason)
            return
        try:
            envelope = decode(frame, peer_side)
        except FrameRefused as exc:
            stats.refuse(exc.reason, peer, str(exc))
            refused += 1
            if refused >= MAX_REFUSED_FRAMES:
                await close_with(ws, CloseCode.POLICY_VIOLATION, "too many refused frames")
                return
            await send_control(ws, ErrorMessage(code=exc.reason, detail=str(exc)[:512]))
            continue
        channel.outbox.ack(envelope.ack)
        if envelope.seq == 0:
            if envelope.type == "error":
                stats.refuse("peer-error", peer, str(envelope.body))
            elif envelope.type != "heartbeat":
                stats.refuse("unexpected-control", peer, envelope.type)
            continue
        duplicates = channel.inbox.duplicates
        try:
            ready = channel.inbox.receive(envelope.seq, envelope.body)
        except GapTooWide as exc:
            stats.refuse("gap", peer, str(exc))
            await close_with(ws, CloseCode.POLICY_VIOLATION, "gap")
            return
        stats.duplicates += channel.inbox.duplicates - duplicates
        for seq, body in ready:
            stats.delivered += 1
            deliver(seq, body)


#: How long a refused peer gets to complete the closing handshake, in seconds.
CLOSE_GRACE_S = 0.5


async def close_with(ws: Connection, code: CloseCode, reason: str) -> None:
    """Close ``ws`` with ``code``; a peer that does not answer within
    :data:`CLOSE_GRACE_S` (e.g. one still flooding) is cut."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        async with asyncio.timeout(CLOSE_GRACE_S):
            await ws.close(code, reason)
    ws.transport.abort()
