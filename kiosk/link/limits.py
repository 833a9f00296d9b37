"""The link's limits and the per-connection message-rate bucket."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class LinkLimits:
    """Limits of a link end (times in seconds).

    ``max_connections``: open connections the host accepts (authenticated or not; an
    unauthenticated one gives way to a newcomer when the host is full, see
    :mod:`kiosk.link.server`); ``max_pending_per_address``: unauthenticated connections
    one address keeps open (its oldest gives way to its newest);
    ``auth_timeout_s``: the most a connection may stay unauthenticated (TLS, upgrade and
    hello together); ``rate_per_s`` / ``rate_burst``: inbound frames per connection
    (a token bucket; a connection over it is closed); ``outbox``: unacknowledged messages
    kept per peer; ``heartbeat_s``: idle interval after which an acknowledgement is sent;
    ``ping_s``: liveness pings (a peer silent for ``ping_s`` after a ping is dropped);
    ``close_s``: the most a closing handshake may take before the connection is cut (a
    peer that vanished without a FIN, or a TLS stream stuck half-closed, ends within
    ``2 * ping_s + close_s``);
    ``backoff_*``: a station's reconnect delays (doubling from min to max, with jitter).
    """

    max_connections: int = 32
    max_pending_per_address: int = 16
    auth_timeout_s: float = 5.0
    rate_per_s: float = 200.0
    rate_burst: float = 400.0
    outbox: int = 4096
    heartbeat_s: float = 0.25
    ping_s: float = 5.0
    close_s: float = 1.0
    backoff_min_s: float = 0.05
    backoff_max_s: float = 2.0

    @property
    def idle_s(self) -> float:
        """A connection silent this long is cut (each end sends a frame every ``ping_s``
        at least): ``2 * ping_s + close_s``."""
        return 2 * self.ping_s + self.close_s


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` held; one token per frame."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._at = time.monotonic()

    def take(self) -> bool:
        """Spend one token; False (nothing spent) when the bucket is empty."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True
