"""The table's network link: typed, versioned, sequenced messages between a table host and
its player stations, over WebSocket on TLS with the host certificate pinned and each
station authenticated by its own key.

* :mod:`~kiosk.link.messages`: the envelope and its bodies (pydantic, strict);
  :mod:`~kiosk.link.codec`: frames to envelopes, with every refusal typed.
* :mod:`~kiosk.link.decisions`: the host's check that a decision is for the open round
  and phase and not late, repeated or replayed.
* :mod:`~kiosk.link.pairing`, :mod:`~kiosk.link.certs`, :mod:`~kiosk.link.auth`:
  pairing by a code shown on the host, the host certificate, the HMAC proofs.
* :class:`LinkServer` (host) and :class:`LinkClient` (station): each in its own thread,
  with a thread-safe ``send``; messages are delivered once and in order across
  reconnects.
* :mod:`~kiosk.link.testing`: a fault-injecting TCP proxy for tests.

No pygame and no SQL here: the link carries messages; the table decides what they mean.
"""

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from kiosk.link.client import LinkClient, pair_station
    from kiosk.link.codec import MAX_FRAME_BYTES, decode, encode
    from kiosk.link.decisions import DecisionGuard, Verdict, accept_decision
    from kiosk.link.errors import (
        AuthRefused,
        CertificateMismatch,
        FrameRefused,
        FrameTooLarge,
        LinkError,
        MalformedFrame,
        OutboxFull,
        PairingRefused,
        RateExceeded,
        UnknownStation,
        UnknownType,
        WrongDirection,
        WrongVersion,
    )
    from kiosk.link.events import Inbound, LinkEvent
    from kiosk.link.limits import LinkLimits
    from kiosk.link.messages import (
        PROTOCOL_VERSION,
        Bet,
        Body,
        CashOutRequest,
        Decide,
        DeviceFault,
        Envelope,
        ErrorMessage,
        Escrow,
        EscrowAck,
        Heartbeat,
        PassRound,
        PrinterReport,
        PrinterState,
        ResyncRequest,
        Snapshot,
        TestCreditsReport,
        ValidatorReport,
    )
    from kiosk.link.outcomes import EscrowEnd, MoneyOutcome
    from kiosk.link.pairing import HostPairing, PairedStation, StationPairing
    from kiosk.link.server import LinkServer
    from kiosk.link.stats import LinkStats

#: Each name this package offers, by the module that defines it: imported on first use,
#: so a program that needs one module does not load every other.
_WHERE = {
    "LinkClient": "kiosk.link.client",
    "pair_station": "kiosk.link.client",
    "MAX_FRAME_BYTES": "kiosk.link.codec",
    "decode": "kiosk.link.codec",
    "encode": "kiosk.link.codec",
    "DecisionGuard": "kiosk.link.decisions",
    "Verdict": "kiosk.link.decisions",
    "accept_decision": "kiosk.link.decisions",
    "AuthRefused": "kiosk.link.errors",
    "CertificateMismatch": "kiosk.link.errors",
    "FrameRefused": "kiosk.link.errors",
    "FrameTooLarge": "kiosk.link.errors",
    "LinkError": "kiosk.link.errors",
    "MalformedFrame": "kiosk.link.errors",
    "OutboxFull": "kiosk.link.errors",
    "PairingRefused": "kiosk.link.errors",
    "RateExceeded": "kiosk.link.errors",
    "UnknownStation": "kiosk.link.errors",
    "UnknownType": "kiosk.link.errors",
    "WrongDirection": "kiosk.link.errors",
    "WrongVersion": "kiosk.link.errors",
    "Inbound": "kiosk.link.events",
    "LinkEvent": "kiosk.link.events",
    "LinkLimits": "kiosk.link.limits",
    "PROTOCOL_VERSION": "kiosk.link.messages",
    "Bet": "kiosk.link.messages",
    "Body": "kiosk.link.messages",
    "CashOutRequest": "kiosk.link.messages",
    "Decide": "kiosk.link.messages",
    "DeviceFault": "kiosk.link.messages",
    "Envelope": "kiosk.link.messages",
    "ErrorMessage": "kiosk.link.messages",
    "Escrow": "kiosk.link.messages",
    "EscrowAck": "kiosk.link.messages",
    "Heartbeat": "kiosk.link.messages",
    "PassRound": "kiosk.link.messages",
    "PrinterReport": "kiosk.link.messages",
    "PrinterState": "kiosk.link.messages",
    "ResyncRequest": "kiosk.link.messages",
    "Snapshot": "kiosk.link.messages",
    "TestCreditsReport": "kiosk.link.messages",
    "ValidatorReport": "kiosk.link.messages",
    "EscrowEnd": "kiosk.link.outcomes",
    "MoneyOutcome": "kiosk.link.outcomes",
    "HostPairing": "kiosk.link.pairing",
    "PairedStation": "kiosk.link.pairing",
    "StationPairing": "kiosk.link.pairing",
    "LinkServer": "kiosk.link.server",
    "LinkStats": "kiosk.link.stats",
}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = [
    "MAX_FRAME_BYTES",
    "PROTOCOL_VERSION",
    "AuthRefused",
    "Bet",
    "Body",
    "CashOutRequest",
    "CertificateMismatch",
    "Decide",
    "DecisionGuard",
    "DeviceFault",
    "Envelope",
    "ErrorMessage",
    "Escrow",
    "EscrowAck",
    "EscrowEnd",
    "FrameRefused",
    "FrameTooLarge",
    "Heartbeat",
    "HostPairing",
    "Inbound",
    "LinkClient",
    "LinkError",
    "LinkEvent",
    "LinkLimits",
    "LinkServer",
    "LinkStats",
    "MalformedFrame",
    "MoneyOutcome",
    "OutboxFull",
    "PairedStation",
    "PairingRefused",
    "PassRound",
    "PrinterReport",
    "PrinterState",
    "RateExceeded",
    "ResyncRequest",
    "Snapshot",
    "StationPairing",
    "TestCreditsReport",
    "UnknownStation",
    "UnknownType",
    "ValidatorReport",
    "Verdict",
    "WrongDirection",
    "WrongVersion",
    "accept_decision",
    "decode",
    "encode",
    "pair_station",
]
