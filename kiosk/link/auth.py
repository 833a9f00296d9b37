"""The proofs of the link: pure HMAC-SHA256 functions over fixed byte layouts.

* Each connection: the host sends a 32-byte nonce; the station answers
  ``HMAC(key, nonce || station id (UTF-8) || protocol version (4 bytes, big-endian))``.
  The nonce is fresh per connection, so a recorded answer is worth nothing later.
* Pairing: the technician types the code shown on the host into the station.  The station
  proves it knows the code, bound to the certificate it sees (``fingerprint``), the host's
  nonce, its own nonce and the seat asked for; the host answers with the station key and
  its own proof over the key and fingerprint.  A machine in the middle presents another
  certificate, so the host refuses the station's proof; without the code it cannot forge
  the host's.  The code is single-use, expires, and allows few attempts.  A machine in
  the middle that records the station's proof could still search the code's 10^8 values
  offline while the window is open; pairing is meant for the technician's bench or the
  table's own LAN, and a password-authenticated key exchange would close that gap.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from kiosk.link.messages import PROTOCOL_VERSION

NONCE_BYTES = 32
KEY_BYTES = 32


def new_nonce() -> bytes:
    """32 bytes from the OS's CSPRNG."""
    return secrets.token_bytes(NONCE_BYTES)


def new_station_key() -> bytes:
    """A station key: 32 bytes from the OS's CSPRNG."""
    return secrets.token_bytes(KEY_BYTES)


def _mac(key: bytes, *parts: bytes) -> str:
    return hmac.new(key, b"".join(parts), hashlib.sha256).hexdigest()


def hello_mac(key: bytes, nonce: bytes, station_id: str, version: int = PROTOCOL_VERSION) -> str:
    """The station's answer to the host's ``nonce`` (hex)."""
    return _mac(key, nonce, station_id.encode("utf-8"), version.to_bytes(4, "big"))


def verify_hello(key: bytes, nonce: bytes, station_id: str, mac: str) -> bool:
    """Whether ``mac`` answers ``nonce`` for ``station_id`` under ``key`` (constant time)."""
    return hmac.compare_digest(hello_mac(key, nonce, station_id), mac)


def _code_key(code: str) -> bytes:
    return hashlib.sha256(b"uth-link-pairing\x00" + normalise_code(code).encode()).digest()


def normalise_code(code: str) -> str:
    """A pairing code as typed (spaces and dashes ignored)."""
    return "".join(ch for ch in code if ch.isdigit())


def pairing_proof(
    code: str, nonce: bytes, client_nonce: bytes, fingerprint: str, station_id: str, seat: int
) -> str:
    """The station's proof that it knows ``code`` and sees ``fingerprint`` (hex)."""
    return _mac(
        _code_key(code),
        b"pair\x00",
        nonce,
        client_nonce,
        bytes.fromhex(fingerprint),
        seat.to_bytes(1, "big"),
        station_id.encode("utf-8"),
    )


def grant_proof(
    code: str, client_nonce: bytes, fingerprint: str, key: bytes, station_id: str
) -> str:
    """The host's proof that it knows ``code``, over the key and fingerprint it grants."""
    return _mac(
        _code_key(code),
        b"granted\x00",
        client_nonce,
        bytes.fromhex(fingerprint),
        key,
        station_id.encode("utf-8"),
    )
