"""A paytable with a progressive for the screen tests: the example's main game and a
progressive of a $1 wager (15 cents of each to the meter, 5 to the reserve, reset
$1,000), signed with a table's key and put in force at its station 1 by a technician.

Imported as ``support.progressive_paytable`` (``tests/`` is on the import path)."""

from __future__ import annotations

import re
from pathlib import Path

from support.signed_paytables import signed

from kiosk.game.commands import OperatorLogin, SetDoor, SetPaytable
from kiosk.service.table import Table

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "paytables" / "progressive-example.toml"
TECHNICIAN = "2222"
WAGER, TO_METER, RESET = 100, 15, 100_000

PROGRESSIVE = f"""
[progressive]
wager = {WAGER}
cards = "first_five"
contribution_bp = 1500
reserve_bp = 500
reset = {RESET}
ceiling = 10000000
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


def progressive_paytable(folder: Path) -> Path:
    """The paytable file, written in ``folder``."""
    text = EXAMPLE.read_text(encoding="utf-8")
    main = text[: text.index("[progressive]")]
    main = re.sub(r'name = ".*"', 'name = "Standard with a test progressive"', main, count=1)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "progressive-test.toml"
    path.write_text(main + PROGRESSIVE, encoding="utf-8")
    return path


def put_in_force(table: Table, path: Path) -> None:
    """The paytable at ``path`` signed and put in force (a technician at station 1)."""
    signed(table.ledger.key, path)
    table.execute(1, SetDoor(True))
    table.execute(1, OperatorLogin(TECHNICIAN))
    table.execute(1, SetPaytable(str(path)))
    table.execute(1, SetDoor(False))
