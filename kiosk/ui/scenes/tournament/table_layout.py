"""Where things are on the tournament table, in design units (1280x720)."""

from __future__ import annotations

from kiosk.tournament.seat_port import TableView

OVAL = (60, 118, 1160, 384)
PANEL_W, PANEL_H = 244, 104
MINI_W = 54
#: Opponent slots: panel centre and where their bet sits.
SLOTS: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "A": ((150, 420), (345, 430)),
    "B": ((150, 196), (345, 205)),
    "C": ((640, 152), (640, 226)),
    "D": ((1130, 196), (935, 205)),
    "E": ((1130, 420), (935, 430)),
}
#: Which slots the opponents take, clockwise from the local player's left.
SLOT_ORDER = {1: "C", 2: "BD", 3: "BCD", 4: "ABDE", 5: "ABCDE"}
MY_BET = (640, 462)
BOARD_W = 82
BOARD_Y = 250
RAIL_Y = 512
MY_CARD_W = 92
ROW1, ROW2, ROW_H = 528, 624, 86
RIGHT_X = 446
SLIDER = (548, ROW1, 380, ROW_H)


def seat_slots(v: TableView) -> dict[int, str]:
    """Seat -> the slot (``SLOTS``) its panel takes, clockwise from the local player's left."""
    n = len(v.seats)
    if n < 2:
        return {}
    order = SLOT_ORDER[n - 1]
    human = v.you
    return {(human + 1 + i) % n: order[i] for i in range(n - 1)}
