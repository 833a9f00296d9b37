"""What a station's table screen adds to the cabinet's: a strip in the dealer's corner
with the running countdown (the betting window's or the decision timer's), the notice
when the table decided for this seat ("Time ran out: checked for you"), and every other
seat's status and Ante, each in a cell of its own (:func:`cells`): up to six other seats,
two to a row until the dealer's hand shows, then three to a row with their status only
in the narrower strip between the dealer's hand and the board (where one head line
fits: the countdown, else the notice).

The words are the dealer display's (:func:`kiosk.ui.dealer_display.seat_state` and
:func:`~kiosk.ui.dealer_display.countdown`), read from a :class:`TableSnapshot` made of
the station's own snapshot (:func:`table_view`).  The table scene calls :func:`draw` and
adds :func:`signature` to what its base layer depends on; both do nothing on a cabinet
that is not a station.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from engine.uth.round import Action
from kiosk.service.display import TableSnapshot
from kiosk.service.snapshot import SeatStatus
from kiosk.station.port import StationView
from kiosk.ui import theme
from kiosk.ui.dealer_display import countdown, seat_state
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, money
from kiosk.ui.round_words import net_text
from kiosk.ui.scenes.table.geometry import BOARD_Y, DEALER_Y
from kiosk.ui.widgets import DamageSurface

#: The strip, design units: right of the dealer's cards, above the board.
LEFT, WIDTH = 600, 312
#: (top, height, columns, rows, head step) of the strip before the dealer's hand shows
#: (below the word "Dealer"): every other seat with its status and Ante, two to a row.
OPEN = (142, 122, 2, 3, 18)
#: ... and once it shows, between whether the dealer qualifies and the board: every
#: other seat's status, three to a row.
SETTLED = (DEALER_Y + 98, BOARD_Y - DEALER_Y - 100, 3, 2, 17)
#: Text sizes and margins, design units.
HEAD, TEXT, PAD_X, PAD_Y, GAP, NUMBER_W = 17, 16, 6, 3, 4, 14


def view_of(host: SceneHost) -> StationView | None:
    """The station's view when the screens run at a station (else None)."""
    return host.model.controller.station_view()


def table_view(view: StationView) -> TableSnapshot:
    """The station's snapshot as the dealer display's words read it."""
    snap = view.snapshot
    return TableSnapshot(
        round_open=snap.round_open,
        round_id=snap.round_id,
        phase=snap.phase,
        board=snap.board,
        dealer=snap.dealer,
        seats=snap.seats,
        results=(snap.result,) if snap.result is not None else (),
        betting_seconds=view.betting_seconds,
        decision_seconds=view.decision_seconds,
        stopped=not view.connected,
    )


def timeout_notice(view: StationView) -> str:
    """The notice when the table decided for this seat in the round on show, or ""."""
    snap = view.snapshot
    out = snap.timed_out
    if out is None or not snap.in_round or out.round_id != snap.round_id:
        return ""
    if out.action is Action.FOLD:
        return _("Time ran out: folded for you")
    return _("Time ran out: checked for you")


def lines(view: StationView) -> list[tuple[str, tuple[int, int, int]]]:
    """The strip's head lines: the countdown (or what the seat waits for), the notice."""
    snap = view.snapshot
    table = table_view(view)
    out: list[tuple[str, tuple[int, int, int]]] = []
    timer = countdown(table)
    if not view.connected:
        timer = _("The table host cannot be reached")
    elif not timer and snap.ready and not snap.round_open:
        timer = _("Waiting for the other seats")
    elif snap.round_open and view.betting_seconds is None and (not snap.in_round or not snap.offers):
        timer = _("Waiting for the other seats")  # the decision clock is the others' now
    if timer:
        out.append((timer, theme.LOSE if table.stopped else theme.CREAM))
    notice = timeout_notice(view)
    if notice:
        out.append((notice, theme.GOLD))
    return out


def _status(seat: SeatStatus, table: TableSnapshot) -> str:
    """A seat's status in words; a seat that folded stays "Folded" once settled."""
    if seat.in_round and seat.folded and not seat.tilted:
        return _("Folded")
    return seat_state(seat, table)


def _colour(seat: SeatStatus) -> tuple[int, int, int]:
    if seat.tilted:
        return theme.LOSE
    if seat.net is not None and seat.net > 0 and not seat.folded:
        return theme.WIN
    return theme.MUTED if seat.folded or not (seat.in_round or seat.ante) else theme.CREAM


def others(view: StationView) -> list[str]:
    """Each other seat as one short line: its number, status and Ante (its result once
    the dealer's hand shows)."""
    snap = view.snapshot
    table = table_view(view)
    rows = []
    for seat in snap.seats:
        if seat.seat == snap.station:
            continue
        text = _("Seat {n}").format(n=seat.seat) + " · " + _status(seat, table)
        rows.append(text + _detail(seat, bool(snap.dealer)))
    return rows


def _detail(seat: SeatStatus, settled: bool) -> str:
    """What follows a seat's status: its Ante, or its result once settled."""
    if settled:
        return "" if seat.net is None else " · " + signed(seat.net)
    return " · " + money(seat.ante, compact=True) if seat.ante else ""


def signed(cents: int) -> str:
    """A seat's result, the round's net in the words of :mod:`kiosk.ui.round_words`:
    ``+$30``, ``−$15`` or ``Push``."""
    return net_text(cents, lambda c: money(c, compact=True))


@dataclass(frozen=True)
class Cell:
    """One other seat in the strip: its number, the words beside it (its status, and
    its Ante before settlement), their colour, the cell's box (design units ``x, y, w,
    h``) and the text size (design units)."""

    seat: int
    label: str
    colour: tuple[int, int, int]
    rect: tuple[float, float, float, float]
    size: float


def frame(view: StationView) -> tuple[float, float, int, int, float]:
    """The strip's ``(top, height, columns, rows, head step)`` for the snapshot on show."""
    return SETTLED if view.snapshot.dealer else OPEN


def heads(view: StationView) -> list[tuple[str, tuple[int, int, int]]]:
    """The head lines drawn: :func:`lines`, only the first once the dealer's hand shows."""
    shown = lines(view)
    return shown[:1] if view.snapshot.dealer else shown


def cells(view: StationView) -> list[Cell]:
    """Every other seat's cell, in seat order, left to right then down."""
    snap = view.snapshot
    table = table_view(view)
    top, height, columns, rows, step = frame(view)
    first = top + PAD_Y + step * len(heads(view))
    width = (WIDTH - 2 * PAD_X + GAP) / columns
    tall = (top + height - PAD_Y - first) / rows
    out = []
    seats = [s for s in snap.seats if s.seat != snap.station]
    for i, seat in enumerate(seats[: columns * rows]):
        if snap.dealer and seat.net is not None and not seat.folded:
            label = signed(seat.net)  # a settled seat's result says it all in a small cell
        else:
            label = _status(seat, table) + ("" if snap.dealer else _detail(seat, False))
        x, y = LEFT + PAD_X + (i % columns) * width, first + (i // columns) * tall
        out.append(Cell(seat.seat, label, _colour(seat), (x, y, width - GAP, tall), TEXT))
    return out


def signature(host: SceneHost) -> tuple[Any, ...]:
    """What the strip shows, to the second: the table redraws its base when it changes."""
    view = view_of(host)
    if view is None:
        return ()
    seconds = view.betting_seconds if view.betting_seconds is not None else view.decision_seconds
    return (
        view.snapshot,
        view.connected,
        None if seconds is None else math.ceil(seconds),
    )


def caption(station: int) -> None:
    """Title the window with its station, so that a table's windows tell themselves apart."""
    title = _("Ultimate Texas Hold'em: station {n}").format(n=station)
    if pygame.display.get_init() and pygame.display.get_caption()[:1] != (title,):
        pygame.display.set_caption(title)


def draw(host: SceneHost, surface: DamageSurface) -> None:
    """Paint the strip (nothing when the screens are not a station's)."""
    view = view_of(host)
    if view is None:
        return
    caption(view.snapshot.station)
    ui, lay = host.painter, host.layout
    top, height, _columns, _rows, step = frame(view)
    ui.box(surface, lay.rect(LEFT, top, WIDTH, height), alpha=120, radius=12, border=theme.GOLD)
    y = top + PAD_Y + step / 2
    for text, colour in heads(view):
        ui.fitted(
            surface, text, HEAD, colour, WIDTH - 2 * PAD_X, bold=True, midleft=(LEFT + PAD_X, y)
        )
        y += step
    for cell in cells(view):
        x, y, w, h = cell.rect
        middle = y + h / 2
        ui.fitted(
            surface, str(cell.seat), cell.size, theme.GOLD, NUMBER_W, bold=True, midleft=(x, middle)
        )
        ui.fitted(
            surface,
            cell.label,
            cell.size,
            cell.colour,
            w - NUMBER_W,
            max_h=h,
            max_lines=1,
            midleft=(x + NUMBER_W, middle),
        )
