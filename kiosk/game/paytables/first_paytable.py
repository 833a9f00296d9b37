"""The first paytable of a new ledger is held to the same bounds as every paytable put
in force later (:func:`kiosk.game.rules.settings.check_rtp`).

Its figures are its proven record (:mod:`kiosk.game.paytables.rtp_record`: the one signed on
this cabinet, or the program's shipped one).  A table with no record yet is held to the
Trips bound alone, exactly, from the published counts of the 133,784,560 seven-card
hands by category (no enumeration needed): its whole record is computed at power-up
before play opens (:class:`kiosk.game.paytables.rtp_record.RtpGate`), which keeps play shut
if the main game lies outside the bounds.  A table with a progressive is taken as it is
written: the new ledger seeds its meter at its reset (:meth:`kiosk.ledger.ledger.Ledger.create`).
"""

from __future__ import annotations

from pathlib import Path

from engine.hands.categories import SEVEN_CARD_COUNTS, SEVEN_CARD_HANDS
from engine.uth.paytable import Paytable, PaytableError, load_paytable
from kiosk.config import CabinetConfig
from kiosk.game.paytables.rtp_record import cabinet_key, known_rtp, trips_rtp
from kiosk.game.rules.settings import BOUNDED_RTPS

__all__ = [
    "SEVEN_CARD_COUNTS",
    "SEVEN_CARD_HANDS",
    "check_first_paytable",
    "first_paytable",
    "trips_rtp",
]


def check_first_paytable(table: Paytable, config: CabinetConfig) -> None:
    """Raise :class:`PaytableError` naming the figure when ``table`` may not be the
    first paytable of a new ledger on the cabinet ``config`` (see the module docstring)."""
    where = str(table.source_name or config.paytable)
    record = known_rtp(table, cabinet_key(Path(config.key_path)))
    figures = dict(record.figures) if record is not None else {}
    figures["trips"] = float(trips_rtp(table))
    lo, hi = config.rtp_min_pct, config.rtp_max_pct
    for name in BOUNDED_RTPS:
        if name in figures and not lo <= round(figures[name] * 100, 4) <= hi:
            raise PaytableError(
                where,
                name,
                f"not put in force: {name} RTP {figures[name] * 100:.3f}% is outside the "
                f"approved {lo}%-{hi}%",
            )


def first_paytable(config: CabinetConfig) -> Paytable:
    """The configured paytable for a new ledger, checked (:func:`check_first_paytable`)."""
    table = load_paytable(Path(config.paytable))
    check_first_paytable(table, config)
    return table
