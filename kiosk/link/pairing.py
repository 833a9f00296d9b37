"""Pairing data on both sides, kept as private files (mode 0600) in a folder the caller
names.

Host folder: ``host-cert.pem``, ``host-key.pem`` (see :mod:`kiosk.link.certs`) and
``stations.json`` (each paired station's id, seat and 32-byte key).  Station folder:
``station.json`` (its id, seat, key, and the host certificate with its pinned SHA-256
fingerprint).

A technician opens a pairing window on the host (:meth:`HostPairing.open_window`), which
shows an 8-digit code; typing it on the station (:func:`kiosk.link.client.pair_station`)
pairs that station to one seat.  The code is single-use, expires after ``ttl_s`` seconds
and is withdrawn after ``attempts`` wrong proofs.

Wrong codes are also counted across windows, from any address, in a :class:`MissBook`:
the :data:`MAX_PAIRING_MISSES`-th since a technician last reopened pairing locks it (no
window opens, every proof is refused ``locked``) until a technician reopens it at the
host.  A table host keeps that count in its ledger (chained, MAC'd rows:
:class:`kiosk.tablehost.pairing_book.LedgerMissBook`; reopened with a technician's PIN,
``uth table serve --reopen-pairing``), so deleting or editing any file of this folder
neither reopens pairing nor resets the count; a host without a ledger keeps it in
``pairing.json`` (:class:`FileMissBook`).  A guesser therefore gets at most
:data:`MAX_PAIRING_MISSES` tries at a code of :data:`CODE_DIGITS` digits per reopening:
a chance of 10 in 10^8.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol

from kiosk.link import auth
from kiosk.link.certs import HostIdentity, make_host_identity
from kiosk.link.errors import PairingRefused
from kiosk.link.files import write_private

CODE_DIGITS = 8
#: A station's file of the host's latest ledger head (:mod:`kiosk.station.witness`).
WITNESS_FILE = "host-head.json"
#: Wrong pairing codes, across windows, that lock pairing until a technician reopens it.
MAX_PAIRING_MISSES = 10


LOCKED_TEXT = (
    f"pairing is locked after {MAX_PAIRING_MISSES} wrong codes: a technician reopens it at "
    "the host with their PIN (uth table serve --reopen-pairing)"
)


class MissBook(Protocol):
    """Where a host counts wrong pairing codes (across windows and restarts)."""

    def misses(self) -> int:
        """The wrong codes since pairing was last reopened (:data:`MAX_PAIRING_MISSES`
        or more: locked; a count that cannot be read is locked)."""
        ...

    def missed(self, station_id: str, seat: int) -> int:
        """Record one more wrong code (from ``station_id`` for ``seat``); the new count."""
        ...


class FileMissBook:
    """The count in ``pairing.json`` in the host's folder (a host without a ledger);
    an unreadable record counts as locked."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / "pairing.json"

    def misses(self) -> int:
        if not self.path.exists():
            return 0
        try:
            misses = json.loads(self.path.read_text(encoding="utf-8"))["misses"]
        except (ValueError, KeyError, TypeError, OSError):
            return MAX_PAIRING_MISSES
        return misses if isinstance(misses, int) and misses >= 0 else MAX_PAIRING_MISSES

    def missed(self, station_id: str, seat: int) -> int:
        misses = self.misses() + 1
        body = json.dumps({"misses": misses, "limit": MAX_PAIRING_MISSES}) + "\n"
        write_private(self.path, body.encode())
        return misses


@dataclass(frozen=True)
class PairedStation:
    """A station the host knows: its id, its seat (1..7) and its key (32 bytes)."""

    station_id: str
    seat: int
    key: bytes


@dataclass
class _Window:
    code: str
    expires: float
    attempts: int


class HostPairing:
    """The host's pairing data in ``folder`` (created on first use), its wrong codes
    counted in ``book`` (default: :class:`FileMissBook` in ``folder``).  Thread-safe."""

    def __init__(self, folder: Path, book: MissBook | None = None) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.identity: HostIdentity = make_host_identity(self.folder)
        self.fingerprint = self.identity.fingerprint()
        self._lock = threading.Lock()
        self._stations = self._load()
        self._window: _Window | None = None
        self.book: MissBook = book if book is not None else FileMissBook(self.folder)

    @property
    def misses(self) -> int:
        """The wrong codes since pairing was last reopened (see :class:`MissBook`)."""
        return self.book.misses()

    @property
    def locked(self) -> bool:
        """Whether repeated wrong codes have locked pairing (until a technician reopens
        it)."""
        with self._lock:
            return self.book.misses() >= MAX_PAIRING_MISSES

    @property
    def _path(self) -> Path:
        return self.folder / "stations.json"

    def _load(self) -> dict[str, PairedStation]:
        if not self._path.exists():
            return {}
        rows = json.loads(self._path.read_text(encoding="utf-8"))
        return {
            row["station_id"]: PairedStation(
                row["station_id"], int(row["seat"]), bytes.fromhex(row["key"])
            )
            for row in rows
        }

    def _save(self) -> None:
        rows = [
            {"station_id": s.station_id, "seat": s.seat, "key": s.key.hex()}
            for s in sorted(self._stations.values(), key=lambda s: s.seat)
        ]
        write_private(self._path, (json.dumps(rows, indent=1) + "\n").encode())

    def open_window(self, ttl_s: float = 120.0, attempts: int = 3) -> str:
        """Open a pairing window; returns the code to show (``"1234-5678"``).  Raises
        :class:`PairingRefused` (``locked``) while repeated wrong codes lock pairing."""
        digits = "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
        with self._lock:
            if self.book.misses() >= MAX_PAIRING_MISSES:
                raise PairingRefused("locked", LOCKED_TEXT)
            self._window = _Window(digits, time.monotonic() + ttl_s, attempts)
        return f"{digits[:4]}-{digits[4:]}"

    def close_window(self) -> None:
        with self._lock:
            self._window = None

    @property
    def window_open(self) -> bool:
        with self._lock:
            return self._window is not None and time.monotonic() < self._window.expires

    def grant(
        self, station_id: str, seat: int, nonce: bytes, client_nonce: bytes, proof: str
    ) -> tuple[PairedStation, str]:
        """Pair ``station_id`` to ``seat`` if ``proof`` shows the open window's code;
        returns the new pairing and the host's proof.  Raises :class:`PairingRefused`
        (``locked``, ``no-window``, ``expired``, ``bad-code``, ``seat-taken``)."""
        with self._lock:
            if self.book.misses() >= MAX_PAIRING_MISSES:
                self._window = None
                raise PairingRefused("locked", LOCKED_TEXT)
            window = self._window
            if window is None:
                raise PairingRefused("no-window", "no pairing window is open")
            if time.monotonic() >= window.expires:
                self._window = None
                raise PairingRefused("expired", "the pairing window has closed")
            expected = auth.pairing_proof(
                window.code, nonce, client_nonce, self.fingerprint, station_id, seat
            )
            if not hmac.compare_digest(expected, proof):
                window.attempts -= 1
                misses = self.book.missed(station_id, seat)
                if window.attempts <= 0 or misses >= MAX_PAIRING_MISSES:
                    self._window = None
                raise PairingRefused("bad-code", "the pairing code does not match")
            holder = self._holder_of(seat)
            if holder is not None and holder.station_id != station_id:
                raise PairingRefused("seat-taken", f"seat {seat} is paired to {holder.station_id}")
            paired = PairedStation(station_id, seat, auth.new_station_key())
            self._stations[station_id] = paired
            self._save()
            self._window = None
            host_proof = auth.grant_proof(
                window.code, client_nonce, self.fingerprint, paired.key, station_id
            )
            return paired, host_proof

    def _holder_of(self, seat: int) -> PairedStation | None:
        return next((s for s in self._stations.values() if s.seat == seat), None)

    def add(self, station_id: str, seat: int, key: bytes) -> PairedStation:
        """Record a pairing made elsewhere (a technician's tool, or a one-process
        cabinet pairing its own station)."""
        with self._lock:
            holder = self._holder_of(seat)
            if holder is not None and holder.station_id != station_id:
                raise PairingRefused("seat-taken", f"seat {seat} is paired to {holder.station_id}")
            paired = PairedStation(station_id, seat, key)
            self._stations[station_id] = paired
            self._save()
            return paired

    def lookup(self, station_id: str) -> PairedStation | None:
        with self._lock:
            return self._stations.get(station_id)

    def unpair(self, station_id: str) -> None:
        with self._lock:
            if self._stations.pop(station_id, None) is not None:
                self._save()

    def stations(self) -> list[PairedStation]:
        with self._lock:
            return sorted(self._stations.values(), key=lambda s: s.seat)


@dataclass(frozen=True)
class StationPairing:
    """A station's side of its pairing: who it is, its key, and the host certificate it
    pins (PEM, with its SHA-256 fingerprint)."""

    station_id: str
    seat: int
    key: bytes
    fingerprint: str
    certificate_pem: str

    FILE: ClassVar[str] = "station.json"

    def save(self, folder: Path) -> Path:
        path = Path(folder) / self.FILE
        data = {
            "station_id": self.station_id,
            "seat": self.seat,
            "key": self.key.hex(),
            "fingerprint": self.fingerprint,
            "certificate_pem": self.certificate_pem,
        }
        write_private(path, (json.dumps(data, indent=1) + "\n").encode())
        return path

    @classmethod
    def load(cls, folder: Path) -> StationPairing:
        """The pairing saved in ``folder``; raises :class:`PairingRefused` (``unpaired``)
        when there is none."""
        path = Path(folder) / cls.FILE
        if not path.exists():
            raise PairingRefused("unpaired", f"no pairing in {folder}")
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            station_id=data["station_id"],
            seat=int(data["seat"]),
            key=bytes.fromhex(data["key"]),
            fingerprint=data["fingerprint"],
            certificate_pem=data["certificate_pem"],
        )
