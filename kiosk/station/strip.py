"""What a station's table screen adds to the cabinet's: a strip in the dealer's corner
with the running countdown (the betting window's or the decision timer's), the notice
when the table decided for this seat ("Time ran out: checked for you"), and every other
seat's status and Ante.

The words are the dealer display's (:func:`kiosk.ui.dealer_display.seat_state` and
:func:`~kiosk.ui.dealer_display.countdown`), read from a :class:`TableSnapshot` made of
the station's own snapshot (:func:`table_view`).  The table scene calls :func:`draw` and
adds :func:`signature` to what its base layer depends on; both do nothing on a cabinet
that is not a station.
"""

from __future__ import annotations

import math
from typing import Any

from engine.uth.round import Action
from kiosk.station.controller import StationView
from kiosk.table.display import TableSnapshot
from kiosk.ui import theme
from kiosk.ui.dealer_display import countdown, seat_state
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, money
from kiosk.ui.widgets import DamageSurface

#: The strip, design units: right of the dealer's cards, above the board.
LEFT, TOP, WIDTH, HEIGHT = 600, 150, 312, 110
#: Other seats per column.
ROWS = 3
#: (top, height, rows) once the dealer's hand is shown: below its name.
SETTLED = (206, 56, 1)


def view_of(host: SceneHost) -> StationView | None:
    """The station's view when the screens run at a station (else None)."""
    station_view = getattr(host.model.machine, "station_view", None)
    if station_view is None:
        return None
    try:
        view = station_view()
    except ValueError:  # no snapshot from the host yet
        return None
    return view if isinstance(view, StationView) else None


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
    if timer:
        out.append((timer, theme.LOSE if table.stopped else theme.CREAM))
    notice = timeout_notice(view)
    if notice:
        out.append((notice, theme.GOLD))
    return out


def others(view: StationView) -> list[str]:
    """Each other seat as one short line: its number, status and Ante."""
    snap = view.snapshot
    table = table_view(view)
    rows = []
    for seat in snap.seats:
        if seat.seat == snap.station:
            continue
        text = _("Seat {n}").format(n=seat.seat) + " · " + seat_state(seat, table)
        if seat.ante:
            text += " · " + money(seat.ante, compact=True)
        rows.append(text)
    return rows


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


def draw(host: SceneHost, surface: DamageSurface) -> None:
    """Paint the strip (nothing when the screens are not a station's)."""
    view = view_of(host)
    if view is None:
        return
    ui, lay = host.painter, host.layout
    # below the dealer's hand name once it shows, in fewer rows
    top, height, rows_shown = (TOP, HEIGHT, ROWS) if not view.snapshot.dealer else SETTLED
    panel = ui.panel((lay.px(WIDTH), lay.px(height)), alpha=120, radius=12, border=theme.GOLD)
    surface.blit(panel, lay.pos(LEFT, top))
    y = top + 14
    for text, colour in lines(view):
        ui.fitted(surface, text, 17, colour, WIDTH - 16, bold=True, midleft=(LEFT + 8, y))
        y += 20
    rows = others(view)
    column = (WIDTH - 16) / 2
    for i, text in enumerate(rows[: 2 * rows_shown]):
        x = LEFT + 8 + (i // rows_shown) * column
        ui.fitted(
            surface, text, 14, theme.CREAM, column - 6, midleft=(x, y + (i % rows_shown) * 17)
        )
