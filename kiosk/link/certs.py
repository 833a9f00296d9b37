"""The host's TLS identity: a self-signed certificate, its fingerprint and the two TLS
contexts of the link.

The certificate is made with the ``cryptography`` package rather than the ``openssl``
command: it is a pip dependency that installs the same on every host and station (no
command-line tool to find, no subprocess, no output to parse), and it is typed.

A station trusts exactly one certificate: the one whose SHA-256 fingerprint it stored at
pairing.  Its client context holds that certificate as the only trust anchor, so the TLS
handshake itself fails on any other certificate, and :func:`check_fingerprint` checks the
fingerprint again on the connected socket before anything is sent.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from kiosk.link.errors import CertificateMismatch
from kiosk.link.files import write_private

#: The name in the host certificate (stations do not check names: they pin the key).
HOST_NAME = "uth-table-host"
VALIDITY_DAYS = 3650


@dataclass(frozen=True)
class HostIdentity:
    """Paths of the host's certificate (PEM) and private key (PEM, mode 0600)."""

    cert_path: Path
    key_path: Path

    def certificate_der(self) -> bytes:
        cert = x509.load_pem_x509_certificate(self.cert_path.read_bytes())
        return cert.public_bytes(serialization.Encoding.DER)

    def fingerprint(self) -> str:
        """SHA-256 of the certificate in DER form, lower-case hex (64 characters)."""
        return fingerprint_of(self.certificate_der())


def fingerprint_of(der: bytes) -> str:
    """SHA-256 of a DER certificate, lower-case hex."""
    return hashlib.sha256(der).hexdigest()


def make_host_identity(folder: Path) -> HostIdentity:
    """The host identity in ``folder`` (``host-cert.pem``, ``host-key.pem``); made on
    first use: an ECDSA P-256 key and a self-signed certificate valid ten years."""
    identity = HostIdentity(folder / "host-cert.pem", folder / "host-key.pem")
    if identity.cert_path.exists() and identity.key_path.exists():
        return identity
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST_NAME)])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=VALIDITY_DAYS))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(HOST_NAME)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    write_private(
        identity.key_path,
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )
    write_private(identity.cert_path, cert.public_bytes(serialization.Encoding.PEM))
    return identity


def server_context(identity: HostIdentity) -> ssl.SSLContext:
    """The host's TLS context: TLS 1.2 or later, its own certificate, no client certificate
    (stations authenticate inside the link by HMAC)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(identity.cert_path, identity.key_path)
    return context


def pinned_client_context(certificate_pem: str) -> ssl.SSLContext:
    """A station's TLS context trusting only ``certificate_pem`` (names are not checked)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(cadata=certificate_pem)
    return context


def pairing_client_context() -> ssl.SSLContext:
    """The context used once, at pairing, before any certificate is known: encrypted but
    unverified; the pairing code's proof binds the certificate seen (see ``auth``)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def peer_certificate(ssl_object: ssl.SSLObject | ssl.SSLSocket | None) -> bytes:
    """The DER certificate the peer presented (empty when there is none)."""
    if ssl_object is None:
        return b""
    return ssl_object.getpeercert(binary_form=True) or b""


def check_fingerprint(der: bytes, pinned: str) -> None:
    """Raise :class:`CertificateMismatch` unless ``der`` hashes to ``pinned``."""
    seen = fingerprint_of(der) if der else ""
    if not hmac.compare_digest(seen, pinned.lower()):
        raise CertificateMismatch(pinned=pinned, seen=seen)


def certificate_pem(der: bytes) -> str:
    """A DER certificate as PEM text."""
    return ssl.DER_cert_to_PEM_cert(der)
