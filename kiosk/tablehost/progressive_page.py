"""The table's progressive as the operator's Progressive page shows it, read once from the
game service (:class:`~kiosk.link.messages.ProgressiveFigures`, cents and counts): the
paytable's progressive (its reset and ceiling) or none, linked or standalone, the meter
the stations show and the hidden reserve, and the lifetime meters
(:data:`kiosk.ledger.meters.PROGRESSIVE_METERS`), with the hand-paid jackpots counted
from their ledger events.  Linked, the contributions and the hits are this machine's
to and on the casino controller's level (the ledger keeps no meter of it)."""

from __future__ import annotations

from kiosk.ledger.kinds import EventKind
from kiosk.ledger.meters import progressive_levels
from kiosk.link.messages import ProgressiveFigures
from kiosk.service.table import Table


def progressive_figures(table: Table, station: int) -> ProgressiveFigures:
    """The progressive's page for an operator at ``station`` (see the module)."""
    paytable = table.paytable.progressive
    m = table.meter_readings()
    jackpots = table.read(lambda a: a.events((EventKind.PROGRESSIVE_JACKPOT,)))
    _meter, reserve = progressive_levels(m)
    linked = table.config.progressive_link is not None
    # linked: the controller keeps the level; the ledger what this machine fed it and won off it
    fed = "progressive_link_contributed" if linked else "progressive_contributed"
    hits = "progressive_link_wins" if linked else "progressive_hits"
    hit = "progressive_link_won" if linked else "progressive_hit"
    return ProgressiveFigures(
        offered=paytable is not None,
        linked=linked,
        reset=paytable.reset if paytable is not None else 0,
        ceiling=paytable.ceiling if paytable is not None else 0,
        meter=table.snapshot(station).progressive_meter,
        reserve=max(reserve, 0),
        wagers=m.get("progressive_wagers", 0),
        wagered=m.get("progressive_wagered", 0),
        contributed=m.get(fed, 0),
        reserved=m.get("progressive_reserved", 0),
        reserve_drawn=m.get("progressive_reserve_drawn", 0),
        resets=m.get("progressive_resets", 0),
        reset_cents=m.get("progressive_reset", 0),
        hits=m.get(hits, 0),
        hit_cents=m.get(hit, 0),
        awards=m.get("progressive_awards", 0),
        paid=m.get("progressive_paid", 0),
        jackpots=len(jackpots),
        jackpot_cents=sum(e.amount for e in jackpots),
        adjustments=m.get("progressive_adjustments", 0),
        adjusted_up=m.get("progressive_adjusted_up", 0),
        adjusted_down=m.get("progressive_adjusted_down", 0),
    )
