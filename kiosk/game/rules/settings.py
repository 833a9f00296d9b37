"""Configuration changes by a technician: the paytable and the table limits in force,
and the player's strategy coach (off until turned on; recorded like the others and
restored at power-up from the last ``coach_changed`` event).

Both change only at zero credits, with no round and no payout in progress; each change
is recorded with the operator, the old and the new values.  A paytable goes live only
with its exact RTP known (the PAR cache), proven on this cabinet (a proof signed with the
ledger's key, :mod:`kiosk.game.paytables.par_proof`) and within the configured bounds.  Limits
are cents and may only narrow the paytable's.
"""

from __future__ import annotations

import logging
from pathlib import Path

from engine.maths.cache import cached_par, cached_rtp
from engine.uth.paytable import Paytable
from kiosk.config import CabinetConfig
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import ConfigurationError
from kiosk.game.paytables.par_proof import ProofError
from kiosk.game.paytables.rtp_record import RtpRecordError, rtp_record
from kiosk.ledger.key import CabinetKey

log = logging.getLogger(__name__)

#: RTP figures of the PAR cache held to the configured bounds: the main game per total
#: wager, and Trips.
BOUNDED_RTPS = ("main_total", "trips")


def proof_of(table: Paytable, key: CabinetKey | None) -> dict[str, float]:
    """The RTP figures of ``table`` (fractions of 1) of its proven record
    (:func:`kiosk.game.paytables.rtp_record.rtp_record`: signed with this cabinet's key, or
    shipped with the program); raises :class:`~kiosk.game.paytables.par_proof.ProofError` with
    the reason it has none."""
    try:
        return dict(rtp_record(table, key).figures)
    except RtpRecordError as exc:
        raise ProofError(str(exc)) from None


#: Why a paytable with a ``[progressive]`` section is not put in force outside the game
#: service's own paytable change (:mod:`kiosk.service.settings`, which takes, records and
#: settles the wager; the operator's editor puts its drafts in force through it): a
#: table in force must be played as it is written.
PROGRESSIVE_NOT_OFFERED = "this cabinet does not offer the progressive bet yet"


def require_playable(table: Paytable) -> Paytable:
    """``table`` when this cabinet plays every bet it offers; else refused
    (:class:`ConfigurationError`, code ``bet_not_offered``) naming the file and section."""
    if table.progressive is not None:
        where = table.source_name or table.name
        raise ConfigurationError(
            f"{where}: progressive: {PROGRESSIVE_NOT_OFFERED}", code=ErrorCode.BET_NOT_OFFERED
        )
    return table


def check_rtp(
    table: Paytable, config: CabinetConfig, key: CabinetKey | None, *, progressive: bool = False
) -> dict[str, float]:
    """RTP of ``table`` (percent) from its proven record, with the main game (per total
    wager) and Trips checked against ``config``'s bounds.

    Refused: a table whose exact RTP is not known (not computed yet, or the maths
    unavailable; code ``rtp_unknown``), and one whose figures are not proven with ``key``
    (no proof, a proof of another cabinet, a report altered or filed under another table;
    code ``rtp_unproven``); and one with a bet the cabinet does not play
    (:func:`require_playable`) unless ``progressive``: the caller plays the progressive
    (the game service's paytable change)."""
    if not progressive:
        require_playable(table)
    unknown = ConfigurationError(
        f"the exact RTP of {table.name} {table.version} is not known: "
        f"run `uth paytable check {table.source_name or 'FILE'}` first",
        code=ErrorCode.RTP_UNKNOWN,
    )
    try:
        figures = proof_of(table, key)
    except ProofError:
        figures = None
    if not figures:
        try:
            cached = cached_rtp(table)
        except Exception as exc:  # noqa: BLE001 - any failure means the RTP is not proven
            log.warning("RTP of %s unavailable: %s", table.name, exc)
            raise unknown from None
        if not cached:
            raise unknown
        _require_proof(table, cached, key)  # raises: figures of the cache alone
        figures = cached
    pct = {str(k): round(float(v) * 100, 4) for k, v in figures.items()}
    lo, hi = config.rtp_min_pct, config.rtp_max_pct
    for name in BOUNDED_RTPS:
        if name in pct and not lo <= pct[name] <= hi:
            raise ConfigurationError(
                f"{table.name} {table.version}: {name} RTP {pct[name]:.3f}% is outside the approved {lo}%-{hi}%"
            )
    return pct


def _require_proof(table: Paytable, figures: dict[str, float], key: CabinetKey | None) -> None:
    """Refuse ``figures`` unless they are the ones ``key`` signed for ``table``."""
    try:
        proven = proof_of(table, key)
    except ProofError as exc:
        reason = str(exc)
    else:
        differ = sorted(k for k, v in figures.items() if k in proven and proven[k] != v)
        if not differ:
            return
        reason = f"the PAR report's {', '.join(differ)} RTP is not the one signed"
    log.warning("RTP of %s %s refused: %s", table.name, table.version, reason)
    raise ConfigurationError(
        f"the exact RTP of {table.name} {table.version} is not proven on this cabinet: "
        f"{reason}; run `uth paytable check {table.source_name or 'FILE'} --config "
        "<this cabinet's configuration>` to compute and sign it",
        code=ErrorCode.RTP_UNPROVEN,
    )


def paytable_change(
    old: Paytable, table: Paytable, operator: str, rtp: dict[str, float]
) -> tuple[str, dict[str, object]]:
    """The TOML text of ``table`` (read from its file) and the detail of the
    :attr:`~kiosk.ledger.kinds.EventKind.PAYTABLE_CHANGED` event that puts it in force
    instead of ``old``: the operator, the RTP (percent), the old table and the new one with
    its text and its PAR sheet."""
    text = Path(table.source_name).read_text(encoding="utf-8")
    sheet = cached_par(table, "optimal")
    detail: dict[str, object] = {
        "operator": operator,
        "rtp": rtp,
        "old": {"sha256": old.sha256, "name": old.name, "version": old.version},
        "new": {
            "sha256": table.sha256,
            "name": table.name,
            "version": table.version,
            "source": table.source_name,
            "toml": text,
            "par": sheet.to_dict() if sheet is not None else None,
        },
    }
    return text, detail
