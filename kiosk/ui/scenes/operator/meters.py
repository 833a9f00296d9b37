"""The meters page: every lifetime meter named, grouped and translated.

Groups, in order: money in, money out, games, bills by denomination (lowest first),
tickets, hand pays; then the balance of where the money went
(:func:`kiosk.ledger.meters.balance`).  A meter holds cents or a count
(:data:`kiosk.ledger.meters.METERS`); amounts are shown as money, counts as numbers.

The meters come through the operator port (:class:`~kiosk.station.operator_port.
MeterReadings`: this station's and the table's), asked for again whenever the screen's
snapshot changes and no request is in flight; TABLE and THIS STATION choose which are
shown (the table's first: at a lone cabinet they are its own).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

import pygame

from kiosk.ledger.meters import CREDITS, balance
from kiosk.station.operator_port import MeterReadings
from kiosk.ui.i18n import N_, _
from kiosk.ui.round_words import RESULT_WORDS
from kiosk.ui.scenes.operator.intents import ShowMeters
from kiosk.ui.scenes.operator.page import LEFT, ROW_H, ROW_Y, TOP, Desk, Page, heading, rows
from kiosk.ui.scenes.operator.status import waiting
from kiosk.ui.widgets import Button

#: ``bill.<cents>``: the count of bills of one denomination.
BILL_PREFIX = "bill."


@dataclass(frozen=True)
class MeterLine:
    """One line of a group: ``label`` (an untranslated message, or a text already in
    words), the ``amount`` in cents (None when the line is a count only) and the
    ``count`` (None when the line is an amount only)."""

    label: str
    amount: int | None
    count: int | None = None
    translate: bool = True


@dataclass(frozen=True)
class MeterGroup:
    title: str  # an untranslated message
    lines: tuple[MeterLine, ...]


def bill_denominations(meters: Mapping[str, int]) -> list[int]:
    """The denominations (cents) with a ``bill.<cents>`` meter, lowest first."""
    out = []
    for name in meters:
        tail = name.removeprefix(BILL_PREFIX)
        if name.startswith(BILL_PREFIX) and tail.isdigit():
            out.append(int(tail))
    return sorted(out)


def meter_groups(meters: Mapping[str, int], money: Callable[[int], str]) -> list[MeterGroup]:
    """The meters as the page shows them (cents and counts; ``money`` writes a
    denomination's name)."""
    m = {k: meters.get(k, 0) for k in (
        "bills_in", "bills_in_count", "tickets_in", "tickets_in_count", "tickets_out",
        "tickets_out_count", "handpay", "handpay_count", "jackpot", "jackpot_count",
        "coin_in", "coin_out", "games_played", "games_won", "games_lost", "games_pushed",
        "games_voided", "cashout_started", "cashout_failed", "ram_clear_credits", "ram_clears", CREDITS)}
    bal = balance(meters)
    bills = tuple(MeterLine(money(d), d * meters[f"{BILL_PREFIX}{d}"], meters[f"{BILL_PREFIX}{d}"], False)
                  for d in bill_denominations(meters))
    return [
        MeterGroup(N_("Money in"), (
            MeterLine(N_("Bills"), m["bills_in"], m["bills_in_count"]),
            MeterLine(N_("Tickets in"), m["tickets_in"], m["tickets_in_count"]),
            MeterLine(N_("Total in"), bal["credits_in"]),
        )),
        MeterGroup(N_("Money out"), (
            MeterLine(N_("Tickets out"), m["tickets_out"], m["tickets_out_count"]),
            MeterLine(N_("Hand pays"), m["handpay"], m["handpay_count"]),
            MeterLine(N_("Jackpots"), m["jackpot"], m["jackpot_count"]),
            MeterLine(N_("Total out"), bal["credits_out"]),
        )),
        MeterGroup(N_("Games"), (
            MeterLine(N_("Played"), None, m["games_played"]),
            *(MeterLine(RESULT_WORDS[r], None, m[f"games_{r}"]) for r in ("won", "lost", "pushed")),
            MeterLine(N_("Voided"), None, m["games_voided"]),
            MeterLine(N_("Wagered"), m["coin_in"]),
            MeterLine(N_("Paid to credits"), m["coin_out"]),
            MeterLine(N_("House net win"), bal["house_net_win"]),
        )),
        MeterGroup(N_("Bills by denomination"), bills or (MeterLine(N_("None yet"), None),)),
        MeterGroup(N_("Tickets"), (
            MeterLine(N_("Printed"), m["tickets_out"], m["tickets_out_count"]),
            MeterLine(N_("Redeemed"), m["tickets_in"], m["tickets_in_count"]),
        )),
        MeterGroup(N_("Hand pays"), (
            MeterLine(N_("Cancelled credits"), m["handpay"], m["handpay_count"]),
            MeterLine(N_("Jackpots"), m["jackpot"], m["jackpot_count"]),
        )),
        MeterGroup(N_("Credits and balance"), (
            MeterLine(N_("Credit meter"), m[CREDITS]),
            MeterLine(N_("Payout pending"), bal["payout_pending"]),
            MeterLine(N_("RAM cleared"), m["ram_clear_credits"], m["ram_clears"]),
            MeterLine(N_("Balanced"), None, None),
        )),
    ]


#: Columns of groups: which groups (by index) stack in each column.
COLUMNS = ((0, 1, 6), (2, 4), (3, 5))
COL_W, COL_GAP = 386, 21
LINE = 22  # text size of a line, design units


#: Whose meters the page shows: the table's or this station's.
SCOPES = {"table": N_("Table"), "station": N_("This station")}


class MetersPage(Page):
    id = "meters"

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.readings: MeterReadings | None = None
        self.scope = "table"
        self._version = -1  # the snapshot's version the readings were asked for at

    def keep(self, readings: MeterReadings) -> None:
        self.readings = readings

    def ask(self) -> None:
        desk = self.desk
        port = desk.port
        if not port.busy:
            self._version = desk.app.model.version
            desk.request(lambda done: port.meters(port.station, done), self.keep)

    def open(self) -> None:
        self.readings, self.scope = None, "table"
        self.ask()

    def update(self, dt: float) -> None:
        if self._version != self.desk.app.model.version:
            self.ask()

    def meters(self) -> Mapping[str, int] | None:
        """The meters shown (cents or counts), None until the port answers."""
        r = self.readings
        if r is None:
            return None
        return r.table if self.scope == "table" else r.meters

    def look(self) -> Hashable:
        found = self.meters()
        return self.scope, None if found is None else tuple(sorted(found.items()))

    def buttons(self) -> list[Button]:
        return [
            Button(f"meters_{scope}", (240 + i * 270, ROW_Y, 260, ROW_H), _(title), ShowMeters(scope),
                   style="selected" if scope == self.scope else "plain")
            for i, (scope, title) in enumerate(SCOPES.items())
        ]

    def on_intent(self, intent: object) -> bool:
        if not (isinstance(intent, ShowMeters) and intent.scope in SCOPES):
            return False
        self.scope = intent.scope
        return True

    def value(self, line: MeterLine, balanced: bool) -> str:
        """A line's value: money, then the count in brackets (or the count alone)."""
        if line.label == "Balanced":
            return _("yes") if balanced else _("NO")
        desk = self.desk
        if line.amount is None:
            return f"{line.count:,}" if line.count is not None else ""
        text = desk.money(line.amount)
        return f"{text}  ({line.count:,})" if line.count is not None else text

    def draw(self, surface: pygame.Surface) -> None:
        desk = self.desk
        meters = self.meters()
        if meters is None:
            waiting(self, surface)
            return
        groups = meter_groups(meters, lambda c: desk.money(c, True))
        balanced = bool(balance(meters).get("balanced"))
        for col, indices in enumerate(COLUMNS):
            x, y = LEFT + col * (COL_W + COL_GAP), float(TOP)
            for i in indices:
                group = groups[i]
                y = heading(desk, surface, _(group.title), x, y, COL_W, size=22)
                lines = [(_(ln.label) if ln.translate else ln.label, self.value(ln, balanced))
                         for ln in group.lines[:9]]
                y = rows(desk, surface, lines, x=x, y=y, width=COL_W, size=LINE, gap=1.4, label_share=0.55) + 8
