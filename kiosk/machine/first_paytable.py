"""The first paytable of a new ledger is held to the same bounds as every paytable put
in force later (:func:`kiosk.machine.settings.check_rtp`).

An installed cabinet needs its exact RTP proven on this cabinet, as a change does
(``systemd/install.sh`` runs ``uth paytable check`` on the shipped tables).  Elsewhere
(demo, the bench) the figures known are checked: the PAR cache's when it holds the
table, and the Trips RTP always, exactly, from the published counts of the 133,784,560
seven-card hands by category (no enumeration needed).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from engine.hands.categories import SEVEN_CARD_COUNTS, SEVEN_CARD_HANDS
from engine.maths.cache import cached_rtp
from engine.uth.paytable import Paytable, PaytableError, load_paytable
from kiosk.config import CabinetConfig
from kiosk.ledger.key import CabinetKey, KeyFileError
from kiosk.machine.errors import MachineError
from kiosk.machine.settings import BOUNDED_RTPS, check_rtp


def trips_rtp(table: Paytable) -> Fraction:
    """The exact Trips RTP of ``table`` (return per unit staked, a fraction of 1)."""
    return sum(
        (Fraction(SEVEN_CARD_COUNTS[k], SEVEN_CARD_HANDS) * (1 + p.ratio)
         for k, p in table.trips.lines().items()),
        Fraction(0),
    )  # fmt: skip


def check_first_paytable(table: Paytable, config: CabinetConfig) -> None:
    """Raise :class:`PaytableError` naming the figure when ``table`` may not be the
    first paytable of a new ledger on the cabinet ``config`` (see the module docstring)."""
    where = str(table.source_name or config.paytable)
    if config.installed:
        try:
            key = CabinetKey.load(config.key_path)
            check_rtp(table, config, key)
        except (MachineError, KeyFileError) as exc:
            raise PaytableError(where, "(rtp)", f"not put in force: {exc}") from None
        return
    figures = {str(k): float(v) for k, v in (cached_rtp(table) or {}).items()}
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
