"""The release manifest's Ed25519 signature.

A release is signed with the release key (a private Ed25519 key in a PEM file, kept off
the cabinet); the cabinet carries only the public key (:data:`RELEASE_PUBLIC_KEY`, a
program file, so replacing it changes the program's digest) and checks the manifest's
signature before it trusts any digest in it.  An edited file with a manifest rewritten
on the cabinet, or signed with another key, fails the check.

What is signed: the manifest without its ``"signature"`` member, as canonical JSON
(``json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`` in UTF-8).
The member is ``{"algorithm": "ed25519", "key": FINGERPRINT, "value": HEX}`` where
``FINGERPRINT`` is the SHA-256 (hex) of the raw 32-byte public key, which the Machine
page and the README show.

The key this project's development signs with is ``keys/release-dev.ed25519``: it is in
the public repository, so a manifest it signs proves nothing against anyone who reads the
repository; a real release is signed with a key kept off the cabinet and out of the
repository, and ships that key's public half here.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

#: The public release key (raw, hex) whose signature the cabinet accepts.
RELEASE_PUBLIC_KEY = "af2f2930e3c8af3802cb84cb4f5bbe26d2332449325f6c26e1387e81a2a42688"
#: The environment variable naming the release key's file (``--key`` overrides it).
KEY_ENV = "UTH_RELEASE_KEY"
#: The signature's algorithm name in the manifest.
SIGNATURE_ALGORITHM = "ed25519"


class ReleaseKeyError(ValueError):
    """The release key is not given, not readable or not an Ed25519 private key."""


class SignatureError(ValueError):
    """The manifest is unsigned, or not signed by the release key."""


def fingerprint(public: Ed25519PublicKey | bytes) -> str:
    """The SHA-256 (hex) of a raw 32-byte Ed25519 public key."""
    raw = public if isinstance(public, bytes) else public.public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)  # fmt: skip
    return hashlib.sha256(raw).hexdigest()


def release_fingerprint() -> str:
    """The fingerprint of the public release key this program ships."""
    return fingerprint(bytes.fromhex(RELEASE_PUBLIC_KEY))


def load_release_key(path: str | Path | None = None) -> Ed25519PrivateKey:
    """The release key from ``path``, else the file ``$UTH_RELEASE_KEY`` names.  Raises
    :class:`ReleaseKeyError` when neither is given or the file is not an Ed25519 key."""
    path = path or os.environ.get(KEY_ENV)
    if not path:
        raise ReleaseKeyError(
            f"the release key is needed to write a manifest (--key FILE or ${KEY_ENV}); "
            "a cabinet does not hold it"
        )
    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    except OSError as exc:
        raise ReleaseKeyError(f"release key {path}: {exc.strerror or exc}") from None
    except (ValueError, TypeError) as exc:
        raise ReleaseKeyError(f"release key {path}: not a PEM private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ReleaseKeyError(f"release key {path}: not an Ed25519 key")
    return key


def signed_bytes(manifest: dict[str, Any]) -> bytes:
    """The bytes a signature covers: ``manifest`` without ``"signature"``, canonical."""
    body = {k: v for k, v in manifest.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sign_manifest(manifest: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """``manifest`` with its ``"signature"`` member made with ``key``."""
    value = key.sign(signed_bytes(manifest))
    signature = {
        "algorithm": SIGNATURE_ALGORITHM,
        "key": fingerprint(key.public_key()),
        "value": value.hex(),
    }
    return {**{k: v for k, v in manifest.items() if k != "signature"}, "signature": signature}


def verify_manifest_signature(manifest: dict[str, Any], public_hex: str | None = None) -> str:
    """Check ``manifest``'s signature against the release key (``public_hex``, raw hex,
    default :data:`RELEASE_PUBLIC_KEY`); returns the signer's fingerprint.  Raises
    :class:`SignatureError` with the reason."""
    public = bytes.fromhex(public_hex or RELEASE_PUBLIC_KEY)
    expected = fingerprint(public)
    signature = manifest.get("signature")
    if not isinstance(signature, dict):
        raise SignatureError("the manifest is not signed")
    if signature.get("algorithm") != SIGNATURE_ALGORITHM:
        raise SignatureError(
            f"signature algorithm {signature.get('algorithm')!r} is not {SIGNATURE_ALGORITHM}"
        )
    if signature.get("key") != expected:
        raise SignatureError(
            f"signed by key {str(signature.get('key'))[:16]}..., not the "
            f"release key {expected[:16]}..."
        )
    try:
        value = bytes.fromhex(str(signature.get("value")))
        Ed25519PublicKey.from_public_bytes(public).verify(value, signed_bytes(manifest))
    except (ValueError, InvalidSignature):
        raise SignatureError(
            f"the manifest's signature does not verify with the release key {expected[:16]}..."
        ) from None
    return expected
