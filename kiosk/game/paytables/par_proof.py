"""Signed proofs of exact RTPs: the cabinet's word that a PAR report is its own.

The PAR cache (:mod:`engine.maths.cache`) is a folder anyone with file access can write,
so a report in it proves nothing by itself.  A *proof* is a small JSON file kept beside
the report (``par-<sha256>-optimal-52-v<N>.proof``) holding an HMAC-SHA256 under the
cabinet key (:class:`kiosk.ledger.key.CabinetKey`) over the paytable's SHA-256 and the
report's canonical JSON (:func:`proof_text`).  It is written by :func:`sign_proof` only
when the cabinet's own code computed the report (``uth paytable check FILE`` with the
cabinet's configuration, or a computation on the cabinet).

:func:`verify_proof` holds a report to its table: the report must exist, be the exact
full-deck analysis under optimal play, name this table's SHA-256, and carry a proof
whose MAC checks under this cabinet's key.  So a report copied under another table's
name, edited by hand (figures or hash), or signed by another cabinet is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from engine.maths.cache import cache_dir, report_path, store_report
from engine.maths.par_report import ParReport
from engine.maths.par_tables import FULL_DECK
from engine.uth.paytable import Paytable
from kiosk.ledger.key import CabinetKey

#: The layout of the signed text and of the proof file.
PROOF_VERSION = 1
#: The strategy whose RTP a paytable change relies on.
STRATEGY = "optimal"


class ProofError(ValueError):
    """A paytable's exact RTP is not proven on this cabinet; the message says why."""


def canonical_json(report: ParReport) -> str:
    """The report as JSON with sorted keys and no spaces: the bytes a proof signs."""
    return json.dumps(report.to_dict(), sort_keys=True, separators=(",", ":"))


def proof_text(paytable_sha256: str, report: ParReport) -> str:
    """The text a proof MACs: a version line, the table's SHA-256 and the report."""
    return f"uth par proof v{PROOF_VERSION}\n{paytable_sha256}\n{canonical_json(report)}"


def proof_path(table: Paytable, cache: str | Path | None = None) -> Path:
    """The proof file of ``table``'s full-deck optimal report, beside the report."""
    report = report_path(table, STRATEGY, FULL_DECK, cache_dir(cache))
    return report.with_suffix(".proof")


def _check_report(table: Paytable, report: ParReport) -> None:
    if report.paytable_sha256 != table.sha256:
        raise ProofError(
            f"the PAR report names paytable {report.paytable_sha256[:12]}…, "
            f"not {table.name} ({table.sha256[:12]}…)"
        )
    if not report.exact or report.strategy != STRATEGY or report.deck_size != len(FULL_DECK):
        raise ProofError(
            "the PAR report is not the exact full-deck analysis under optimal play "
            f"(strategy {report.strategy}, exact {report.exact}, deck {report.deck_size})"
        )


def sign_proof(
    key: CabinetKey, table: Paytable, report: ParReport, *, cache: str | Path | None = None
) -> Path:
    """Keep ``report`` in the PAR cache with this cabinet's proof beside it; returns the
    proof's path.  Call it only with a report the cabinet's code computed from ``table``.

    Raises :class:`ProofError` if the report is not ``table``'s exact full-deck optimal
    analysis, :class:`OSError` if the proof cannot be written (a report that cannot be
    written leaves a proof that :func:`verify_proof` refuses)."""
    _check_report(table, report)
    report = ParReport.from_dict(json.loads(report.to_json()))  # as a reader will see it
    directory = cache_dir(cache)
    store_report(report, report_path(table, STRATEGY, FULL_DECK, directory))
    body = {
        "version": PROOF_VERSION,
        "paytable_sha256": table.sha256,
        "report_sha256": hashlib.sha256(canonical_json(report).encode()).hexdigest(),
        "key": key.fingerprint,
        "mac": key.mac(proof_text(table.sha256, report)),
    }
    path = proof_path(table, directory)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(body, indent=2) + "\n")
    tmp.replace(path)
    return path


def _read_json(path: Path, what: str) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ProofError(f"there is no {what} ({path.name})") from None
    except (OSError, ValueError) as exc:
        raise ProofError(f"the {what} {path.name} is unreadable ({exc})") from None
    if not isinstance(data, dict):
        raise ProofError(f"the {what} {path.name} is not a JSON object")
    return data


def verify_proof(
    key: CabinetKey | None, table: Paytable, *, cache: str | Path | None = None
) -> dict[str, float]:
    """The proven RTP of ``table`` under optimal play (fractions of 1, keys as
    :meth:`ParReport.rtps`), read from its report in the PAR cache and checked against
    the proof beside it under ``key``.  Raises :class:`ProofError` with the reason."""
    if key is None:
        raise ProofError("the ledger holds no cabinet key to check a proof with")
    directory = cache_dir(cache)
    data = _read_json(report_path(table, STRATEGY, FULL_DECK, directory), "PAR report")
    try:
        report = ParReport.from_dict(data)
    except TypeError as exc:
        raise ProofError(f"the PAR report is malformed ({exc})") from None
    _check_report(table, report)
    proof = _read_json(proof_path(table, directory), "signed proof of the PAR report")
    mac = proof.get("mac")
    if proof.get("version") != PROOF_VERSION or not isinstance(mac, str):
        raise ProofError("the signed proof of the PAR report is malformed")
    if not key.check(proof_text(table.sha256, report), mac):
        if proof.get("key") != key.fingerprint:
            raise ProofError("the PAR report's proof was not signed with this cabinet's key")
        raise ProofError(
            "the PAR report or its proof was altered after signing (the MAC does not match)"
        )
    try:
        return {k: float(v) for k, v in report.rtps().items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise ProofError(f"the PAR report lacks its RTP figures ({exc})") from None


def proven_rtp(
    key: CabinetKey | None, table: Paytable, *, cache: str | Path | None = None
) -> dict[str, float] | None:
    """:func:`verify_proof`'s figures, or None when ``table``'s RTP is not proven."""
    try:
        return verify_proof(key, table, cache=cache)
    except ProofError:
        return None
