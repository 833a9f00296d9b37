"""A paytable change at the shared table, made by a technician at a station.

:func:`offered` lists the paytables the table may switch to: every ``*.toml`` of the
paytables folder, read as the cabinet's paytable page reads it
(:func:`~kiosk.machine.paytable_editor.list_paytables`), each with its exact RTP per bet
when known and whether the table's key proves it.

:class:`SetTablePaytable` (by the table's SHA-256, one of those offered) puts a paytable
in force only with the main door of the station it comes from open, no round open and
every station at zero credits with no payout pending (:meth:`TableState.require_quiet`),
and only with its RTP proven on this table and within the configured bounds
(:func:`kiosk.machine.settings.check_rtp`, the cabinet's rule).  It is recorded as the
cabinet records it (:func:`kiosk.machine.settings.paytable_change`: the old and the new
table, the new one's TOML text and PAR sheet, the RTP), its text stored in the ledger in
the same transaction; the limits in force become the new paytable's.  The host sends
every station the new paytable and limits with its next snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import JsonValue

from kiosk.machine.errors import WrongState
from kiosk.machine.paytable_editor import Keeper, Listing, list_paytables
from kiosk.machine.settings import PAYTABLE_EVENT, check_rtp, paytable_change
from kiosk.table.state import TableState


@dataclass(frozen=True)
class SetTablePaytable:
    """Put the offered paytable of SHA-256 ``sha256`` in force; ``operator`` is the
    person's name, recorded with the change."""

    sha256: str
    operator: str


def offered(keeper: Keeper) -> list[Listing]:
    """The paytables folder's tables (see module), by file name: ``keeper`` is the
    :class:`~kiosk.table.table.Table` or its state (its configuration and ledger)."""
    return list_paytables(keeper)


def listing_json(found: Listing, in_force: str) -> dict[str, JsonValue]:
    """One paytable of :func:`offered` as the operator page shows it: name, version,
    SHA-256, file, RTP per bet (percent, when known), ``proven``, ``in_force``, the
    Ante limits (cents); or the file and the reason it cannot be read."""
    if found.table is None:
        return {"file": found.path.name, "error": found.error[:200]}
    t = found.table
    rtp: dict[str, JsonValue] = {
        str(k): round(100 * float(v), 4) for k, v in (found.rtps or {}).items()
    }
    return {
        "file": found.path.name,
        "name": t.name,
        "version": t.version,
        "sha256": t.sha256,
        "rtp": rtp,
        "proven": found.proven,
        "in_force": t.sha256 == in_force,
        "ante_min": t.limits.ante_min,
        "ante_max": t.limits.ante_max,
    }


def change_paytable(st: TableState, station: int, c: SetTablePaytable) -> dict[str, str]:
    """Put ``c``'s paytable in force from ``station`` (see module); returns the old and
    the new SHA-256.  Raises a :class:`MachineError` before anything changes."""
    ledger = st.require_ledger()
    if not st.station(station).door_open:
        raise WrongState("a paytable change needs the main door open", code="door_closed")
    st.require_quiet("the paytable change")
    if c.sha256 == st.paytable.sha256:
        raise WrongState("that paytable is already in force", code="same_paytable")
    found = next((e.table for e in offered(st) if e.table and e.table.sha256 == c.sha256), None)
    if found is None:
        raise WrongState(
            f"no paytable {c.sha256[:12]}… in the paytables folder", code="no_paytable"
        )
    rtp = check_rtp(found, st.config, ledger.key)
    old = st.paytable
    text, detail = paytable_change(old, found, c.operator, rtp)
    with ledger.transaction():
        ledger.store_paytable(found, text)
        st.event(PAYTABLE_EVENT, {**detail, "at_station": station}, station)
    st.paytable, st.limits = found, found.limits
    for own in st.stations.values():
        own.reset_window()
    return {"old": old.sha256, "new": found.sha256}
