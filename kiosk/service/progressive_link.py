"""The table's progressive linked through the casino's progressive controller: the meter
belongs to the controller, the game service shows what it last broadcast.

The configuration's ``[progressive_link]`` (:class:`kiosk.config.ProgressiveLink`) names
the SAS group and the level whose amount is the paytable's meter (level 1: the top meter
line; every meter line pays its share of that level).  The SAS link
(:mod:`kiosk.sas.progressive`) hears the controller's level broadcasts (long polls 80 and
86 of SAS 6.02) and hands them over as
:class:`~kiosk.service.device_commands.SystemProgressiveLevels`; it says
:class:`~kiosk.service.device_commands.SystemProgressiveLost` when the group's broadcasts stopped
for :data:`devices.sas.progressive.BROADCAST_TIMEOUT_S` seconds (the time SAS 6.02 gives
for exception 53, "no progressive information has been received for 5 seconds").

What the service does with them (nothing of it is money: the amount told is shown, and
is the amount a hit at the level would be paid on; the ledger keeps no meter of the
linked level):

* **An amount it takes** (:class:`LinkedMeter`): the group is the configured one, the
  paytable in force has a progressive, the amount is within the paytable's reset and
  ceiling.  A drop is taken only to the reset or above: a hit at another machine of the
  link, after which the controller broadcasts the level from its reset (SAS 6.02 tells a
  machine nothing of another machine's hit).  Anything else is refused, logged and counted (:attr:`LinkedMeter.refused`; nothing
  is said at the station, whose message line is the player's) and the last amount taken
  stands.
* **The wager is taken** once the level's amount is known (:func:`wager_offered`: not
  before the first broadcast after a power-up).  The deal records the amount shown with
  each wager, and the round settles on the level (:func:`linked_level`;
  :meth:`kiosk.service.progressive.TableProgressive.settle`): a win is paid on the
  level's amount the table took last, and the SAS link reports it to the controller
  (exception 54 and the win on long poll 84; 51 and long poll 1B when hand-paid).
* **Play suspended while the controller is silent**: the tilt
  :data:`PROGRESSIVE_LINK_TILT` at every station of the table (recorded; the SAS link
  raises exception 53 from it, once per loss), which lets a round in progress finish
  and takes no new bet or deal.  The next broadcast of the group clears it (recorded).
  Before the first broadcast after a power-up the meter is not known (the snapshot
  shows none).

Amounts are cents; levels 1..32; groups 1..255.
"""

from __future__ import annotations

import logging

from engine.money import format_cents as money
from engine.uth.progressive import Progressive
from kiosk.ledger.kinds import EventKind
from kiosk.service.progressive import LinkedLevel, LinkedMeter
from kiosk.service.state import TableState

log = logging.getLogger(__name__)

#: The tilt of a station whose progressive controller stopped broadcasting.
PROGRESSIVE_LINK_TILT = "sas:progressive_link"


def linked_meter(st: TableState) -> LinkedMeter | None:
    """The table's linked level (None: the progressive is standalone)."""
    link = st.config.progressive_link
    if link is None:
        return None
    found = st.progressive_link
    if found is None or (found.group, found.level) != (link.group, link.level):
        found = st.progressive_link = LinkedMeter(link.group, link.level)
    return found


def wager_offered(st: TableState) -> Progressive | None:
    """The progressive whose wager the table takes: the paytable's, standalone; linked,
    once the controller's level is known (none before its first broadcast since the
    power-up: a win could not be judged)."""
    if st.config.progressive_link is not None and linked_level(st) is None:
        return None
    return st.paytable.progressive


def linked_level(st: TableState) -> LinkedLevel | None:
    """The controller's level a linked round is dealt and settled on (None: standalone,
    or no amount taken since the power-up)."""
    linked = linked_meter(st)
    if linked is None or linked.meter is None:
        return None
    return LinkedLevel(linked.group, linked.level, linked.meter)


def shown_meter(st: TableState) -> int | None:
    """The meter a linked table shows: the controller's last amount taken, when the
    paytable in force has a progressive."""
    linked = linked_meter(st)
    if linked is None or st.paytable.progressive is None:
        return None
    return linked.meter


def _refuse(linked: LinkedMeter | None, reason: str) -> None:
    if linked is not None:
        linked.refused += 1
    log.warning("progressive broadcast refused: %s", reason)


def levels_heard(st: TableState, group: int, levels: tuple[tuple[int, int], ...], by: str) -> None:
    """The controller's broadcast of ``group``'s ``levels`` ((level, cents), ...): the
    link tilt cleared at every station, the linked level's amount taken or refused (see
    the module; an amount refused leaves the tilt cleared all the same: the controller
    is heard)."""
    linked = linked_meter(st)
    if linked is None or group != linked.group:
        mine = "none" if linked is None else linked.group
        return _refuse(linked, f"group {group} is not this table's linked group ({mine})")
    _clear_tilts(st, by)
    amounts = dict(levels)
    if linked.level not in amounts:
        return None
    cents = amounts[linked.level]
    table = st.paytable.progressive
    if table is None:
        return _refuse(
            linked, f"{st.paytable.name} has no progressive to show level {linked.level} on"
        )
    if cents > table.ceiling:
        return _refuse(
            linked,
            f"level {linked.level} at {money(cents)} is above the paytable's ceiling "
            f"{money(table.ceiling)}",
        )
    if cents < table.reset:
        return _refuse(
            linked,
            f"level {linked.level} at {money(cents)} is below the paytable's reset "
            f"{money(table.reset)}",
        )
    if linked.meter is not None and cents < linked.meter:
        log.info(
            "progressive level %d fell from %s to %s: reset after a hit on the link",
            linked.level, money(linked.meter), money(cents),
        )  # fmt: skip
    linked.meter = cents
    return None


def link_lost(st: TableState, group: int, by: str) -> None:
    """The controller of ``group`` fell silent: play suspended at every station (the
    tilt :data:`PROGRESSIVE_LINK_TILT`, recorded once per loss)."""
    linked = linked_meter(st)
    if linked is None or group != linked.group:
        return _refuse(linked, f"group {group} lost: not this table's linked progressive")
    st.require_ledger()
    for n, own in sorted(st.stations.items()):
        if PROGRESSIVE_LINK_TILT not in own.tilts:
            st.set_tilt(
                n,
                PROGRESSIVE_LINK_TILT,
                f"Progressive link down: no broadcast from the progressive controller ({by})",
            )


def _clear_tilts(st: TableState, by: str) -> None:
    for n, own in sorted(st.stations.items()):
        if PROGRESSIVE_LINK_TILT in own.tilts:
            st.require_ledger()
            st.event(EventKind.TILT_CLEARED, {"code": PROGRESSIVE_LINK_TILT, "by": by}, n)
            del own.tilts[PROGRESSIVE_LINK_TILT]
