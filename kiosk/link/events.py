"""What a link end hands to its caller: inbound messages and connection events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from kiosk.link.messages import Body

LinkEventKind = Literal["connected", "disconnected", "reset", "refused"]


@dataclass(frozen=True)
class Inbound:
    """One application message from station ``station_id`` (seat ``seat``), delivered
    once and in ``seq`` order.  On a station, ``station_id`` and ``seat`` are its own and
    ``seq`` is the host's sequence number (the ``last_seen`` a decision quotes)."""

    station_id: str
    seat: int
    seq: int
    body: Body


@dataclass(frozen=True)
class LinkEvent:
    """A change of a station's link.

    ``connected``: authenticated (``resumed``: the peer still held the session, so
    nothing was lost); ``disconnected``: the connection ended; ``reset``: the peer no
    longer holds the session (a restart): ``dropped`` unacknowledged messages were
    discarded and the caller should resynchronise; ``refused``: the peer refused this
    end (``reason``, e.g. a wrong certificate or key)."""

    kind: LinkEventKind
    station_id: str
    seat: int
    resumed: bool = False
    dropped: int = 0
    reason: str = ""


#: The application's callbacks: each inbound message, and each link event, in order on
#: the link's delivery thread.
OnMessage = Callable[[Inbound], None]
OnEvent = Callable[[LinkEvent], None]
