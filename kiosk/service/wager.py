"""A station's whole wager in one go: the chips its station kept until Deal, placed at the
service and dealt, or none of them.

Both ends of a station's port send their chips this way (the in-process station,
:mod:`kiosk.station.local`, and the table host for a station over the link,
:mod:`kiosk.tablehost.service`), so the service checks every chip again with its own
rules whichever way the wager came.  Amounts are cents.
"""

from __future__ import annotations

from kiosk.game import commands as cmd
from kiosk.game.errors import MachineError
from kiosk.game.vocabulary import Bets
from kiosk.service.table import Table


def place_wager(table: Table, station: int, bets: Bets) -> None:
    """Place ``bets`` for ``station`` and press Deal; on a refusal (raised) the station's
    chips at the service are taken back, so nothing of the wager stays placed."""
    table.execute(station, cmd.ClearBets())
    try:
        if bets.trips:
            table.execute(station, cmd.PlaceChip("trips", bets.trips))
        table.execute(station, cmd.PlaceChip("ante", bets.ante))
        if bets.progressive:  # after the Ante: the progressive is refused without one
            table.execute(station, cmd.PlaceChip("progressive", bets.progressive))
        table.execute(station, cmd.Deal())
    except MachineError:
        try:
            table.execute(station, cmd.ClearBets())
        except MachineError:
            pass  # the round was dealt meanwhile: nothing is pending
        raise
