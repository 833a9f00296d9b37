"""A table with the example's main game and a test progressive in force (demo accounts:
attendant 1111, technician 2222, manager 3333), for the progressive's tests."""

from __future__ import annotations

import re
from pathlib import Path

from support.signed_paytables import signed

from kiosk.config import load_config
from kiosk.game.commands import OperatorLogin, SetDoor, SetPaytable
from kiosk.service.table import Table
from kiosk.service.timing import ManualClock

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "paytables" / "progressive-example.toml"
ATTENDANT, TECHNICIAN, MANAGER = "1111", "2222", "3333"
WAGER, RESET, CEILING = 100, 100_000, 10_000_000
#: Of each wager, cents to the meter and to the hidden reserve.
TO_METER, TO_RESERVE = 15, 5

#: 15 cents of each $1 wager to the meter, 5 to the reserve.
PROGRESSIVE = f"""
[progressive]
wager = {WAGER}
cards = "first_five"
contribution_bp = 1500
reserve_bp = 500
reset = {RESET}
ceiling = {CEILING}
split = "share"

[progressive.awards]
royal_flush = {{ meter_bp = 10000 }}
straight_flush = {{ meter_bp = 1000 }}
four_of_a_kind = {{ cents = 30000 }}
full_house = {{ cents = 5000 }}
flush = {{ cents = 4000 }}
straight = {{ cents = 3000 }}
three_of_a_kind = {{ cents = 900 }}
"""


def write_paytable(folder: Path, name: str = "progressive-test.toml") -> Path:
    """The example's main game with :data:`PROGRESSIVE`, written into ``folder``."""
    text = EXAMPLE.read_text(encoding="utf-8")
    main = text[: text.index("[progressive]")]
    main = re.sub(r'name = ".*"', 'name = "Standard with a test progressive"', main, count=1)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(main + PROGRESSIVE, encoding="utf-8")
    return path


def open_table(tmp_path: Path, stations, rng, **config) -> Table:
    cfg = load_config(db_path=tmp_path / "var" / "uth.db", **config)
    return Table.open(cfg, stations, rng=rng, clock=ManualClock())


def put_in_force(table: Table, path: Path) -> None:
    """A technician at station 1 puts ``path`` in force (signed with the ledger's key)."""
    signed(table.ledger.key, path)
    table.execute(1, SetDoor(True))
    table.execute(1, OperatorLogin(TECHNICIAN))
    table.execute(1, SetPaytable(str(path)))
    table.execute(1, SetDoor(False))
