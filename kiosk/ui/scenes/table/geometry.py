"""Where things are on the table, in design units (1280x720), and how long they take."""

from __future__ import annotations

from kiosk.game.vocabulary import Spot
from kiosk.ui.cards import CardRenderer
from kiosk.ui.i18n import N_

CARD_W = 92
CARD_H = CardRenderer.height(CARD_W)
GAP = 12
COL_X = 386  # left edge of every card row
DEALER_Y = 108
BOARD_Y = 268
PLAYER_Y = 414
NAME_X = COL_X + 2 * CARD_W + GAP + 22  # hand names right of the two-card rows
NAME_W = 920 - NAME_X
SHOE = (1190, 120)
#: Where the dealer takes lost stakes and pays winnings from.
DEALER_TRAY = (700, 118)
BAR_Y = 556
SPOTS: dict[str, tuple[float, float, float]] = {  # centre x, centre y, radius
    "trips": (172, 180, 60),
    "ante": (92, 332, 60),
    "blind": (252, 332, 60),
    "play": (172, 478, 60),
    "progressive": (58, 180, 38),  # left of Trips; on the felt only when offered
}
SPOT_LABELS = {
    "trips": N_("TRIPS"),
    "ante": N_("ANTE"),
    "blind": N_("BLIND"),
    "play": N_("PLAY"),
    "progressive": N_("PROGRESSIVE"),
}
#: Where each spot's name is printed, outside its ring so that chips never cover it:
#: (anchor, design x, design y, width).  Above the Ante and the Blind, right of Trips
#: and Play (the felt between the spots and the cards).
LABEL_AT: dict[str, tuple[str, float, float, float]] = {
    "trips": ("midleft", 242, 166, 134),
    "ante": ("center", 92, 259, 124),
    "blind": ("center", 252, 259, 124),
    "play": ("midleft", 242, 464, 134),
    "progressive": ("center", 58, 232, 100),
}
#: Where each spot's result (+$5.00, PUSH, LOSE) shows: under the Ante and the Blind,
#: under the name of Trips and of Play (anchor, design x, design y).
TAG_AT: dict[str, tuple[str, float, float]] = {
    "trips": ("midleft", 242, 194),
    "ante": ("center", 92, 406),
    "blind": ("center", 252, 406),
    "play": ("midleft", 242, 492),
    "progressive": ("center", 58, 126),
}
#: The banner that celebrates a hit of the progressive meter (design rectangle): over
#: the felt between the dealer's cards and the board.
HIT_BANNER = (300, 226, 620, 84)
#: The spots a chip can be placed on (the Blind follows the Ante; Play is a decision; the
#: progressive takes its one fixed wager, when the paytable in force offers it).
BETTABLE: tuple[Spot, ...] = ("ante", "trips", "progressive")
#: The progressive meter's plaque, at the top of the pays column (design rectangle), and
#: where the printed pays begin under it.
METER_PLAQUE = (934, 104, 330, 58)
PAYS_TOP, PAYS_TOP_UNDER_METER = 108.0, 170.0
PAYS_X, PAYS_W = 934, 330
#: The card slots: dealer ``d0 d1``, board ``b0..b4``, player ``p0 p1``.
SLOTS = ("d0", "d1", "b0", "b1", "b2", "b3", "b4", "p0", "p1")
#: The meters on the rail: (design rectangle, which) for credit, bet and win.
METER_RECTS: tuple[tuple[float, float, float, float], ...] = (
    (16, 564, 340, 48), (366, 564, 236, 48), (612, 564, 236, 48))

# -- timing (seconds at normal speed) --------------------------------------------------------
FLY = 0.28
DEAL_GAP = 0.17
FLIP = 0.22
REVEAL_PAUSE = 0.35
#: Between the dealer's two cards turning over: the first is face up before the second turns.
DEALER_GAP = FLIP + 0.38


def slot_pos(slot: str) -> tuple[float, float]:
    """The top-left corner of a card slot (``"d0"``, ``"b3"``, ``"p1"``)."""
    kind, i = slot[0], int(slot[1:])
    y = {"d": DEALER_Y, "b": BOARD_Y, "p": PLAYER_Y}[kind]
    return COL_X + i * (CARD_W + GAP), y


def spot_at(design: tuple[float, float], progressive: bool = False) -> Spot | None:
    """The bettable spot under a design point, if any (the progressive's only when
    ``progressive``: the table offers it)."""
    dx, dy = design
    for spot in BETTABLE:
        if spot == "progressive" and not progressive:
            continue
        x, y, r = SPOTS[spot]
        if (dx - x) ** 2 + (dy - y) ** 2 <= r * r:
            return spot
    return None
