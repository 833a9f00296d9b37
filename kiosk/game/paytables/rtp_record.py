"""The proven return to player of a paytable: the one record that the Pays page, the
operator's paytable page, the hold report, the paytable checks and the casino's system
(SAS long poll 1F, base %) read.  No figure is shown or reported from anywhere else.

A table's record is one of two kinds, each verified against the paytable's SHA-256
every time it is read (:func:`rtp_record`):

* **signed on this cabinet**: the exact full-deck report under optimal play, computed
  by the cabinet's own code and kept with a proof MAC'd under the cabinet key
  (:mod:`kiosk.game.paytables.par_proof`).  Written by the install (``uth paytable check
  --config``), by the operator editor's save, and at the first power-up with a table
  that has no record (:func:`compute_record` in the maths child, before play opens:
  :class:`RtpGate`).
* **shipped with the program**: the figures of the program's own paytables in
  :data:`SHIPPED_NAME`, computed by the same code (``uth paytable records --write``).
  The file is a program file: its SHA-256 must be the one the program manifest lists
  for it (the manifest the power-up program check and the host-seeded verification
  cover), each entry names its paytable's SHA-256, and its Trips figure must equal the
  exact Trips RTP computed from the seven-card counts.  A file edited by hand, or an
  entry under another table's digest, is refused.

The cabinet's signed record is read first (one that is there but does not check is
refused: it is not passed over for the shipped one); both kinds hold the same figures
for a shipped table, so a fresh cabinet (no key-signed record yet) knows the return of every
shipped table from its first screen.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

from engine.hands.categories import SEVEN_CARD_COUNTS, SEVEN_CARD_HANDS
from engine.maths.par_report import ParReport
from engine.uth.paytable import Paytable
from kiosk.config import CabinetConfig
from kiosk.game.paytables.par_proof import ProofError, proof_path, sign_proof, verify_proof
from kiosk.ledger.key import CabinetKey, KeyFileError

log = logging.getLogger(__name__)

#: The shipped records' file, relative to the program root (the manifest's name for it).
SHIPPED_NAME = "paytables/rtp.json"
#: The layout of the shipped records' file.
SHIPPED_FORMAT = 1
#: The figures of a record (fractions of 1), as :meth:`ParReport.rtps` names them.
FIGURES = ("main_total", "main_initial", "ante", "blind", "play", "trips")
#: The gate's code while play waits for the paytable in force's record.
RTP_GATE = "rtp"
#: How far a shipped Trips figure may be from the exact Trips RTP (float rounding).
TRIPS_TOLERANCE = 1e-12


class RtpRecordError(ValueError):
    """A paytable has no proven record of its return on this cabinet; says why."""


@dataclass(frozen=True)
class RtpRecord:
    """The proven return to player of the paytable ``paytable_sha256`` under optimal
    play: ``figures`` are fractions of 1 keyed as :data:`FIGURES`; ``source`` is
    ``"signed"`` (this cabinet's key) or ``"shipped"`` (the program's records)."""

    paytable_sha256: str
    figures: Mapping[str, float]
    source: str

    def percent(self) -> dict[str, float]:
        """The figures in percent."""
        return {k: 100 * v for k, v in self.figures.items()}

    @property
    def base_pct(self) -> int:
        """The main game's return per total wager in hundredths of a percent (SAS 1F)."""
        return round(self.figures["main_total"] * 10_000)


def trips_rtp(table: Paytable) -> Fraction:
    """The exact Trips RTP of ``table`` (return per unit staked, a fraction of 1), from
    the published counts of the 133,784,560 seven-card hands by category."""
    return sum(
        (Fraction(SEVEN_CARD_COUNTS[k], SEVEN_CARD_HANDS) * (1 + p.ratio)
         for k, p in table.trips.lines().items()),
        Fraction(0),
    )  # fmt: skip


def program_root() -> Path:
    """The program root of this installation (the folder holding ``kiosk/``)."""
    from kiosk.integrity.files import PROGRAM_ROOT

    return PROGRAM_ROOT


def _record_digest(data: bytes) -> str:
    """The file's SHA-256 as the manifest lists it (of its canonical record: header, then
    content; :mod:`kiosk.integrity.files`)."""
    from kiosk.integrity.files import ProgramFile

    header = ProgramFile(SHIPPED_NAME, Path(SHIPPED_NAME)).header(len(data))
    return hashlib.sha256(header + data).hexdigest()


def _manifest_digest(root: Path) -> str:
    from kiosk.integrity.manifest import ManifestError, load_manifest, manifest_path

    try:
        listed = load_manifest(manifest_path(root))["files"].get(SHIPPED_NAME)
    except ManifestError as exc:
        raise RtpRecordError(
            f"the program manifest cannot vouch for {SHIPPED_NAME}: {exc}"
        ) from None
    if not isinstance(listed, str):
        raise RtpRecordError(f"the program manifest does not list {SHIPPED_NAME}")
    return listed


def _figures(raw: object, where: str) -> dict[str, float]:
    if not isinstance(raw, dict) or set(raw) != set(FIGURES):
        raise RtpRecordError(f"{where}: the figures are not {', '.join(FIGURES)}")
    out = {}
    for name in FIGURES:
        value = raw[name]
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 10:
            raise RtpRecordError(f"{where}: {name} is not a return per unit staked")
        out[name] = float(value)
    return out


def shipped_records(root: Path | None = None) -> dict[str, dict[str, float]]:
    """The shipped figures by paytable SHA-256, once the file's digest is the program
    manifest's.  Raises :class:`RtpRecordError` with the reason."""
    root = Path(root) if root is not None else program_root()
    path = root / SHIPPED_NAME
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RtpRecordError(f"the shipped records {SHIPPED_NAME} cannot be read ({exc})") from None
    if _record_digest(data) != _manifest_digest(root):
        raise RtpRecordError(
            f"the shipped records {SHIPPED_NAME} are not the program's: their SHA-256 is not "
            "the one the program manifest lists (altered after release)"
        )
    try:
        body = json.loads(data)
    except ValueError as exc:
        raise RtpRecordError(f"the shipped records are not JSON ({exc})") from None
    tables = body.get("tables") if isinstance(body, dict) else None
    if not isinstance(tables, dict) or body.get("format") != SHIPPED_FORMAT:
        raise RtpRecordError(f"the shipped records are not of format {SHIPPED_FORMAT}")
    return {
        str(sha): _figures(
            entry.get("rtp") if isinstance(entry, dict) else None, f"shipped record {sha[:12]}"
        )
        for sha, entry in tables.items()
    }


def shipped_record(table: Paytable, root: Path | None = None) -> RtpRecord:
    """``table``'s shipped record, its Trips figure checked against the exact Trips RTP."""
    figures = shipped_records(root).get(table.sha256)
    if figures is None:
        raise RtpRecordError(f"{table.name} ({table.sha256[:12]}…) is not a shipped paytable")
    exact = float(trips_rtp(table))
    if abs(figures["trips"] - exact) > TRIPS_TOLERANCE:
        raise RtpRecordError(
            f"the shipped record of {table.name} gives Trips {figures['trips']!r}, "
            f"not its exact {exact!r}"
        )
    return RtpRecord(table.sha256, figures, "shipped")


def rtp_record(
    table: Paytable,
    key: CabinetKey | None,
    *,
    cache: str | Path | None = None,
    root: Path | None = None,
) -> RtpRecord:
    """The proven record of ``table``: the one signed with ``key`` (in the PAR cache
    ``cache``), else the shipped one.  A signed record that is there but does not check
    (altered, or signed with another key) is refused, not passed over.  Raises
    :class:`RtpRecordError` saying why no record holds."""
    try:
        return RtpRecord(table.sha256, verify_proof(key, table, cache=cache), "signed")
    except ProofError as exc:
        signed = str(exc)
        if key is not None and proof_path(table, cache).exists():
            raise RtpRecordError(
                f"the return of {table.name} is not proven on this cabinet: {signed}"
            ) from None
    try:
        return shipped_record(table, root)
    except RtpRecordError as exc:
        shipped = str(exc)
    raise RtpRecordError(
        f"the return of {table.name} is not proven on this cabinet: {signed}; {shipped}"
    )


def known_rtp(
    table: Paytable, key: CabinetKey | None, *, cache: str | Path | None = None
) -> RtpRecord | None:
    """:func:`rtp_record`, or None when ``table`` has no proven record."""
    try:
        return rtp_record(table, key, cache=cache)
    except RtpRecordError:
        return None


def cabinet_key(path: Path) -> CabinetKey | None:
    """The cabinet key at ``path``, or None when it is not there (a station, a demo not
    started yet): then only shipped records are known."""
    try:
        return CabinetKey.load(path)
    except KeyFileError:
        return None


def compute_record(
    table: Paytable,
    key: CabinetKey,
    progress: Callable[[int, int], None] | None = None,
    *,
    cache: str | Path | None = None,
) -> RtpRecord:
    """Compute ``table``'s exact report afresh in the maths child
    (:func:`kiosk.game.paytables.maths_child.run_in_child` of
    :func:`~kiosk.game.paytables.maths_child.exact_report_afresh`), sign it with ``key`` and
    return the record as read back.  Raises :class:`RtpRecordError` on failure."""
    from kiosk.game.paytables.maths_child import ChildMathsError, exact_report_afresh, run_in_child

    try:
        report: ParReport = run_in_child(exact_report_afresh, table, progress=progress)
        sign_proof(key, table, report, cache=cache)
    except (ChildMathsError, ProofError, OSError) as exc:
        raise RtpRecordError(f"the return of {table.name} could not be computed: {exc}") from None
    return rtp_record(table, key, cache=cache)


def shipped_text(reports: Mapping[str, ParReport]) -> str:
    """The shipped records' file for ``reports`` (by paytable file name)."""
    tables: dict[str, Any] = {}
    for file_name, report in sorted(reports.items()):
        tables[report.paytable_sha256] = {
            "file": file_name,
            "name": report.paytable_name,
            "rtp": {k: report.rtps()[k] for k in FIGURES},
        }
    body = {"format": SHIPPED_FORMAT, "strategy": "optimal", "deck": 52, "tables": tables}
    return json.dumps(body, indent=1) + "\n"


class Gated(Protocol):
    """What :class:`RtpGate` needs of the game service (:class:`kiosk.service.table.Table`)."""

    @property
    def paytable(self) -> Paytable: ...

    def gate(self, code: str, message: str | None) -> None: ...


#: What the screens show while the gate is shut (the player and the attendant).
COMPUTING = "Computing the paytable's return to player: play opens when it is known"


class RtpGate:
    """At power-up: when the paytable in force has no proven record, play waits (the
    :data:`RTP_GATE` gate on every station, with :data:`COMPUTING`) while the record is
    computed in the maths child and signed with ``key``; then play opens if the main game
    and Trips lie within ``bounds`` (percent), else the gate stays shut saying why."""

    def __init__(
        self,
        service: Gated,
        key: CabinetKey | None,
        bounds: tuple[float, float],
        *,
        cache: str | Path | None = None,
    ) -> None:
        self.service, self.key, self.bounds, self.cache = service, key, bounds, cache
        self.thread: threading.Thread | None = None
        self.seconds = 0.0

    def start(self) -> bool:
        """Shut the gate and start computing when the record is missing; True if it did."""
        table = self.service.paytable
        if known_rtp(table, self.key, cache=self.cache) is not None:
            return False
        if self.key is None:
            self.service.gate(RTP_GATE, "The paytable's return is not proven: no cabinet key")
            return True
        self.service.gate(RTP_GATE, COMPUTING)
        self.thread = threading.Thread(target=self._run, args=(table,), name="uth-rtp", daemon=True)
        self.thread.start()
        return True

    def _run(self, table: Paytable) -> None:
        assert self.key is not None
        started = time.monotonic()
        try:
            record = compute_record(table, self.key, cache=self.cache)
        except RtpRecordError as exc:
            log.error("%s", exc)
            self.service.gate(RTP_GATE, f"The paytable's return could not be computed: {exc}")
            return
        self.seconds = time.monotonic() - started
        lo, hi = self.bounds
        pct = record.percent()
        outside = [n for n in ("main_total", "trips") if not lo <= round(pct[n], 4) <= hi]
        if outside:
            self.service.gate(
                RTP_GATE,
                "The paytable's return is outside the approved "
                f"{lo:g}%-{hi:g}%: " + ", ".join(f"{n} {pct[n]:.3f}%" for n in outside),
            )
            return
        log.info("return of %s proven in %.1f s: %s", table.name, self.seconds, pct)
        self.service.gate(RTP_GATE, None)


def rtp_gate(service: Gated, config: CabinetConfig) -> RtpGate:
    """The gate of ``service`` on the cabinet or table host ``config`` (its key, its
    bounds, the PAR cache of its environment)."""
    key = cabinet_key(Path(config.key_path))
    return RtpGate(service, key, (float(config.rtp_min_pct), float(config.rtp_max_pct)))
