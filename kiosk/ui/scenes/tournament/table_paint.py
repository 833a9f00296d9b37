"""The tournament table painted once for both ends of the seat port: the felt, the top
line (hand, blinds, the next level, whose turn with a friend's clock), the board and the
pots, the seats with their chips, bets and markers, this seat's cards and numbers, the
line above the buttons (or the raise slider) and the showdown, all read from one
:class:`~kiosk.tournament.seat_port.TableView`.  What differs between the ends (the
cabinet's menu and equity assist, a joined seat's lost host) is theirs, passed in as a
:class:`TableLook` or painted over this."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from engine.holdem.views import LegalActions
from kiosk.tournament.seat_port import Phase, TableView
from kiosk.ui import theme
from kiosk.ui.host import SceneHost
from kiosk.ui.i18n import _, count
from kiosk.ui.scenes.tournament.common import blinds_text
from kiosk.ui.scenes.tournament.table_controls import TOP_TEXT_W
from kiosk.ui.scenes.tournament.table_facts import Colour
from kiosk.ui.scenes.tournament.table_felt import TableFelt
from kiosk.ui.scenes.tournament.table_layout import seat_slots
from kiosk.ui.scenes.tournament.table_rail import RailPainter
from kiosk.ui.scenes.tournament.table_seats import SeatPainter


@dataclass(frozen=True, slots=True)
class TableLook:
    """One end's part of the picture: ``status`` the line about whose turn it is (the
    clock added when the view has one, unless ``clock`` is off); ``note`` a passing note
    shown instead; ``lines`` the end's own lines above the buttons (``None``: the
    table's); ``four_colour`` the deck; ``icon`` this seat's icon."""

    status: str
    note: str | None = None
    clock: bool = True
    lines: list[tuple[str, Colour]] | None = None
    four_colour: bool = False
    icon: int = 0


class TablePainter:
    """The table's painters for one host."""

    def __init__(self, host: SceneHost) -> None:
        self.app = host
        self.felt = TableFelt(host)
        self.seats = SeatPainter(host)
        self.rail = RailPainter(host)

    def draw(
        self,
        surface: pygame.Surface,
        v: TableView,
        look: TableLook,
        legal: LegalActions | None,
        panel: bool,
        amount: int,
    ) -> float | None:
        """The whole table; returns where more lines about this seat may go (see
        :meth:`RailPainter.draw_me`)."""
        surface.blit(self.felt.surface(), (0, 0))
        self.draw_top(surface, v, look)
        self.felt.draw_centre(surface, v, look.four_colour)
        for seat, slot in seat_slots(v).items():
            self.seats.draw_seat(surface, v, v.seats[seat], slot, look.four_colour)
        self.seats.draw_my_bet(surface, v)
        y = self.rail.draw_me(surface, v, look.icon, look.four_colour)
        self.rail.draw_right(surface, v, legal, panel, amount, look.status, look.lines)
        return y

    def draw_top(self, surface: pygame.Surface, v: TableView, look: TableLook) -> None:
        """The hand, the blinds, when they go up; the note or whose turn it is."""
        ui = self.app.painter
        parts = [_("Hand {n}").format(n=v.hand), blinds_text(*v.blinds)]
        left = v.blinds_in
        if left is not None and v.phase is not Phase.HAND_OVER:
            parts.append(
                _("Blinds go up after this hand")
                if left == 1
                else count("Next level in {n} hand", "Next level in {n} hands", left)
            )
        ui.fitted(
            surface, "  ·  ".join(parts), 28, theme.GOLD, TOP_TEXT_W, bold=True, topleft=(22, 12)
        )
        if look.note is not None:
            ui.fitted(surface, look.note, 21, theme.WIN, TOP_TEXT_W, bold=True, topleft=(24, 54))
            return
        line = look.status
        if look.clock and v.turn_s is not None:
            line += "  " + _("{n} s").format(n=v.turn_s)
        ui.fitted(surface, line, 21, theme.CREAM, TOP_TEXT_W, topleft=(24, 54))
