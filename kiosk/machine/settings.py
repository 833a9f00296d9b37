"""Configuration changes by a technician: the paytable and the table limits in force.

Both change only at zero credits, with no round and no payout in progress; each change
is recorded with the operator, the old and the new values.  A paytable goes live only
with its exact RTP proven (the PAR cache) within the configured bounds.  Limits are
cents and may only narrow the paytable's.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import ValidationError

from engine.maths.cache import cached_rtp
from engine.uth.paytable import Limits, Paytable, PaytableError, load_paytable
from kiosk.machine.errors import ConfigurationError
from kiosk.machine.state import Bets, CabinetState

log = logging.getLogger("kiosk.machine.controller")

#: RTP figures of the PAR cache held to the configured bounds: the main game per total
#: wager, and Trips.
BOUNDED_RTPS = ("main_total", "trips")


class Settings:
    """The paytable and limits in force (``CabinetState.paytable`` / ``limits``)."""

    def __init__(self, state: CabinetState) -> None:
        self.state = state

    def set_paytable(self, path: str | Path) -> None:
        """Put another paytable in force (technician or manager; zero credits, no round).

        Its RTP is checked against the configured bounds; the change is recorded with the
        operator, the old and the new paytable."""
        st = self.state
        ledger = st.require_ledger()
        operator = st.require_role("technician")
        st.require_quiet("the paytable changes")
        try:
            table = load_paytable(path)
        except PaytableError as exc:
            raise ConfigurationError(str(exc)) from None
        rtp = self.check_rtp(table)
        old = st.paytable
        with ledger.transaction():
            ledger.store_paytable(table)
            st.event(
                "paytable_changed",
                {
                    "operator": operator,
                    "rtp": rtp,
                    "old": {"sha256": old.sha256, "name": old.name, "version": old.version},
                    "new": {
                        "sha256": table.sha256,
                        "name": table.name,
                        "version": table.version,
                        "source": table.source_name,
                    },
                },
            )
        st.paytable, st.limits = table, table.limits
        st.pending = Bets()

    def check_rtp(self, table: Paytable) -> dict[str, float]:
        """RTP of ``table`` (percent) from the PAR cache, with the main game (per total
        wager) and Trips checked against the configured bounds.  A table whose exact RTP
        is not known (not computed yet, or the maths unavailable) is refused."""
        unknown = ConfigurationError(
            f"the exact RTP of {table.name} {table.version} is not known: "
            f"run `uth paytable check {table.source_name or 'FILE'}` first",
            code="rtp_unknown",
        )
        try:
            figures = cached_rtp(table)
        except Exception as exc:  # noqa: BLE001 - any failure means the RTP is not proven
            log.warning("RTP of %s unavailable: %s", table.name, exc)
            raise unknown from None
        if not figures:
            raise unknown
        pct = {str(k): round(float(v) * 100, 4) for k, v in figures.items()}
        lo, hi = self.state.config.rtp_min_pct, self.state.config.rtp_max_pct
        for key in BOUNDED_RTPS:
            if key in pct and not lo <= pct[key] <= hi:
                raise ConfigurationError(
                    f"{table.name} {table.version}: {key} RTP {pct[key]:.3f}% is outside the approved {lo}%-{hi}%"
                )
        return pct

    def set_limits(
        self,
        *,
        ante_min: int | None = None,
        ante_max: int | None = None,
        trips_min: int | None = None,
        trips_max: int | None = None,
    ) -> None:
        """Narrow the table limits within the paytable's (technician or manager; zero
        credits, no round).  Recorded with the operator, old and new limits."""
        st = self.state
        st.require_ledger()
        operator = st.require_role("technician")
        st.require_quiet("the limits change")
        old = st.limits
        update = {
            k: v
            for k, v in (
                ("ante_min", ante_min),
                ("ante_max", ante_max),
                ("trips_min", trips_min),
                ("trips_max", trips_max),
            )
            if v is not None
        }
        try:
            new = Limits.model_validate({**old.model_dump(), **update})
        except ValidationError as exc:
            raise ConfigurationError(exc.errors()[0]["msg"].removeprefix("Value error, ")) from None
        base = st.paytable.limits
        if (
            new.ante_min < base.ante_min
            or new.ante_max > base.ante_max
            or new.trips_min < base.trips_min
            or new.trips_max > base.trips_max
        ):
            raise ConfigurationError(
                f"limits must stay within the paytable's: Ante {base.ante_min}-{base.ante_max}, "
                f"Trips {base.trips_min}-{base.trips_max} cents"
            )
        st.event(
            "limits_changed",
            {
                "operator": operator,
                "old": old.model_dump(mode="json"),
                "new": new.model_dump(mode="json"),
            },
        )
        st.limits = new
        st.pending = Bets()
