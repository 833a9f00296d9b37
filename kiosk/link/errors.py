"""Refusals of the link, each a type carrying what was wrong.

A refused frame or connection is never acted on: the receiver logs the refusal (logger
``kiosk.link``), counts it under :attr:`LinkError.reason`, and for a connection closes it.
"""

from __future__ import annotations


class LinkError(Exception):
    """Base of every refusal of the link; ``reason`` is a short stable code."""

    reason = "link"


class FrameRefused(LinkError):
    """A frame that is not a valid message of this protocol."""

    reason = "frame"


class FrameTooLarge(FrameRefused):
    """A frame over the size cap (refused before it is parsed)."""

    reason = "oversized"

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"frame of {size} bytes over the {limit}-byte cap")
        self.size = size
        self.limit = limit


class MalformedFrame(FrameRefused):
    """Not JSON, not an envelope, or a body that fails validation."""

    reason = "malformed"


class WrongVersion(FrameRefused):
    """An envelope of another protocol version."""

    reason = "version"

    def __init__(self, version: object, expected: int) -> None:
        super().__init__(f"protocol version {version!r}, expected {expected}")
        self.version = version
        self.expected = expected


class UnknownType(FrameRefused):
    """An envelope whose ``type`` names no body of this protocol."""

    reason = "unknown-type"

    def __init__(self, type_name: object) -> None:
        super().__init__(f"unknown message type {type_name!r}")
        self.type_name = type_name


class WrongDirection(FrameRefused):
    """A body that the sender's side never sends (e.g. a station sending a snapshot)."""

    reason = "direction"

    def __init__(self, type_name: str) -> None:
        super().__init__(f"{type_name!r} is not accepted from this side")
        self.type_name = type_name


class AuthRefused(LinkError):
    """A connection that did not authenticate: unpaired station, wrong key, another
    seat's number, a message before authentication, or too slow."""

    reason = "auth"

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class PairingRefused(LinkError):
    """A pairing attempt that failed: no pairing window, wrong code, seat taken, bad proof."""

    reason = "pairing"

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class CertificateMismatch(LinkError):
    """The host presented a certificate other than the one pinned at pairing."""

    reason = "certificate"

    def __init__(self, pinned: str, seen: str) -> None:
        super().__init__(f"host certificate {seen or '(none)'} is not the pinned {pinned}")
        self.pinned = pinned
        self.seen = seen


class RateExceeded(LinkError):
    """A peer sending faster than the message rate limit."""

    reason = "rate"


class OutboxFull(LinkError):
    """Too many messages waiting for the peer's acknowledgement; nothing was queued."""

    reason = "outbox-full"


class UnknownStation(LinkError):
    """A station id that is not paired with this host."""

    reason = "unknown-station"
