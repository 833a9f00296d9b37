"""A paytable of the package's folder with an exact report of it signed by a cabinet's or
a table's key, so that a change to it is allowed (the figures are the tests' own: main
game 99.47 % per total wager, Trips 96.5 %).

Imported as ``support.signed_paytables`` (``tests/`` is on the import path).  Point
``UTH_PAR_CACHE`` at the test's folder first: the report and its proof are written there.
"""

from __future__ import annotations

from pathlib import Path

from engine.maths.par_report import ParReport
from engine.uth.paytable import Paytable, load_paytable
from kiosk.game.paytables.par_proof import sign_proof
from kiosk.ledger.key import CabinetKey


def signed(key: CabinetKey, path: Path) -> Paytable:
    """The paytable at ``path``, its report stored and signed with ``key``."""
    table = load_paytable(path)
    bets = {"ante": {"rtp": 0.51}, "blind": {"rtp": -0.07}, "play": {"rtp": 1.21}}
    report = ParReport(
        strategy="optimal",
        paytable_sha256=table.sha256,
        paytable_name=table.name,
        exact=True,
        main={"rtp_total_main_bet": 0.9947, "rtp_initial_main_bet": 0.9782, "bets": bets},
        trips={"rtp": 0.965},
        preflop={"hands": 169},
        seconds=12.5,
    )
    sign_proof(key, table, report)
    return table


def ship_none(monkeypatch) -> None:
    """The program ships no record of any table (as for tables of the casino's own):
    only what a cabinet's key signed is proven."""
    from kiosk.game.paytables import rtp_record

    def none(table: Paytable, root: Path | None = None) -> rtp_record.RtpRecord:
        raise rtp_record.RtpRecordError(f"{table.name} is not a shipped paytable")

    monkeypatch.setattr(rtp_record, "shipped_record", none)
