"""Configuration changes by a technician at a station: the paytable and the limits in
force, the players' strategy coach, and a paytable's export.  The one implementation
for the lone cabinet and the shared table.

A paytable or limits change needs a technician (or a manager) logged in at the station
it is made from, that station's main door open, no round open and every station at
zero credits with no payout pending (:meth:`TableState.require_quiet`); each change is
recorded with the person, the old and the new values.  A paytable goes live only with
its exact RTP known (the PAR cache), proven on this cabinet or table (a proof signed with
the ledger's key, :mod:`kiosk.game.paytables.par_proof`) and within the configured bounds
(:func:`kiosk.game.rules.settings.check_rtp`); its TOML text is stored in the ledger in the
same transaction, with the progressive meter's seed when the table has a progressive
(:func:`kiosk.service.progressive.seed_meter`: the service settles that bet end to end).
Limits are cents and only narrow the paytable's.  The coach is off
until turned on (``coach_changed``, restored at power-up).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from engine.uth.paytable import Limits, Paytable, PaytableError, load_paytable
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import ConfigurationError, WrongState
from kiosk.game.paytables.editor import list_paytables
from kiosk.game.rules.settings import check_rtp, paytable_change
from kiosk.ledger.kinds import EventKind
from kiosk.service.progressive import check_in_force, seed_meter
from kiosk.service.state import TableState


class Settings:
    """The paytable and limits in force and the coach (see the module)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        last = (
            state.ledger.last_event(EventKind.COACH_CHANGED) if state.ledger is not None else None
        )
        state.coach = last is not None and bool(last.detail.get("on"))

    def set_coach(self, n: int, on: bool) -> None:
        """Turn the strategy coach on or off (a technician or manager at station ``n``);
        recorded with the person.  Nothing is recorded when it is already so."""
        st = self.state
        st.require_ledger()
        operator = st.require_role(n, "technician")
        if st.coach == bool(on):
            return
        st.event(EventKind.COACH_CHANGED, {"operator": operator, "on": bool(on), **st.at(n)}, n)
        st.coach = bool(on)

    def set_paytable_file(self, n: int, operator: str, path: str | Path) -> dict[str, str]:
        """Put the paytable file ``path`` in force from station ``n`` (see the module);
        returns the old and the new SHA-256."""
        try:
            table = load_paytable(path)
        except PaytableError as exc:
            raise ConfigurationError(str(exc)) from None
        return self._put_in_force(n, operator, table)

    def set_paytable_offered(self, n: int, operator: str, sha256: str) -> dict[str, str]:
        """Put the paytables folder's table of SHA-256 ``sha256`` in force from station
        ``n``; returns the old and the new SHA-256."""
        st = self.state
        st.require_ledger()
        if sha256 == st.paytable.sha256:
            raise WrongState("that paytable is already in force", code=ErrorCode.SAME_PAYTABLE)
        found = next(
            (e.table for e in list_paytables(st) if e.table and e.table.sha256 == sha256), None
        )
        if found is None:
            raise WrongState(
                f"no paytable {sha256[:12]}… in the paytables folder", code=ErrorCode.NO_PAYTABLE
            )
        return self._put_in_force(n, operator, found)

    def _put_in_force(self, n: int, operator: str, table: Paytable) -> dict[str, str]:
        st = self.state
        ledger = st.require_ledger()
        st.require_quiet("the paytable changes")
        rtp = check_rtp(table, st.config, ledger.key, progressive=True)
        linked = st.config.progressive_link is not None  # the controller's meter, not the ledger's
        if not linked:
            check_in_force(ledger, table)
        old = st.paytable
        text, detail = paytable_change(old, table, operator, rtp)
        with ledger.transaction():
            ledger.store_paytable(table, text)
            st.event(EventKind.PAYTABLE_CHANGED, {**detail, **st.at(n)}, n)
            if not linked:
                seed_meter(st.event, ledger, table, n, operator)
        st.paytable, st.limits = table, table.limits
        for own in st.stations.values():
            own.reset_window()
        return {"old": old.sha256, "new": table.sha256}

    def set_limits(
        self,
        n: int,
        operator: str,
        *,
        ante_min: int | None = None,
        ante_max: int | None = None,
        trips_min: int | None = None,
        trips_max: int | None = None,
    ) -> None:
        """Narrow the table limits within the paytable's from station ``n`` (see the
        module).  Recorded with the person, the old and the new limits."""
        st = self.state
        st.require_ledger()
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
        detail = {
            "operator": operator,
            "old": old.model_dump(mode="json"),
            "new": new.model_dump(mode="json"),
            **st.at(n),
        }
        st.event(EventKind.LIMITS_CHANGED, detail, n)
        st.limits = new
        for own in st.stations.values():
            own.reset_window()
