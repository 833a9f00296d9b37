"""Seats played from elsewhere: a friend's phone or another cabinet, both through the
host's game server (:mod:`kiosk.friends`).

Every seat goes through a controller, so a computer player's seat can be handed to a
remote player (:meth:`RemoteSeats.attach`, with the name everyone at the table sees),
fed their moves (:meth:`RemoteSeats.deliver`, checked by the rules when played),
marked away or back (:meth:`RemoteSeats.set_connected`: the seat's bot plays while they
are away), handed back to the computer for good (:meth:`RemoteSeats.release`), and shown
only its own cards (:meth:`RemoteSeats.view_for`).  The session's ``listeners`` are
called after every change, for a network layer to push each seat its new view.

A remote seat is saved with the game (its seat spec says ``remote``; the friends' names
and seat tokens are in the session's state, see :class:`kiosk.tournament.records.SessionState`),
so a resumed game rebuilds it as a remote seat.  Remote players keep their results on
their own device (the web seat's results page); the cabinet records its own player's.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.holdem.actions import Action
from engine.holdem.seats import BotSeat, RemoteSeat
from engine.holdem.tournament import Tournament
from engine.holdem.views import PlayerView


class RemoteSeats:
    """Hands seats of ``tournament`` to players elsewhere and feeds them their moves.

    ``human_seat()`` is the local player's seat (never handed over); ``changed()`` is
    called after a change the screens show (a seat handed over, away, back or released).
    ``names`` holds the name each remote player chose (seat -> name)."""

    def __init__(self, tournament: Tournament, human_seat: Callable[[], int], changed: Callable[[], None]) -> None:
        self.t = tournament
        self.human_seat = human_seat
        self.changed = changed
        self.names: dict[int, str] = {}

    def attach(self, seat: int, name: str | None = None) -> RemoteSeat:
        """Hand a computer player's seat to a remote player (its bot stays as the
        fallback while they are away); ``name`` replaces the seat's name on every screen."""
        if seat == self.human_seat():
            raise ValueError("the local player's seat")
        ctrl = self.t.controllers[seat]
        if isinstance(ctrl, RemoteSeat) and (name is None or self.names.get(seat) == name):
            return ctrl
        if isinstance(ctrl, RemoteSeat):
            remote = ctrl
        else:
            bot = getattr(ctrl, "bot", None)
            if bot is None:
                raise ValueError(f"seat {seat} has no computer player to fall back on")
            remote = RemoteSeat(bot)
            self.t.controllers[seat] = remote
        if name is not None:
            self.names[seat] = name
        self.changed()
        return remote

    def release(self, seat: int) -> None:
        """The remote player left for good: the seat's computer player takes it back
        (the seat keeps the player's name)."""
        ctrl = self.t.controllers[seat]
        if isinstance(ctrl, RemoteSeat):
            self.t.controllers[seat] = BotSeat(ctrl.fallback)
            self.changed()

    def deliver(self, seat: int, action: Action) -> None:
        """A remote player's move, as received (checked when its turn is played)."""
        ctrl = self.t.controllers[seat]
        if not isinstance(ctrl, RemoteSeat):
            raise ValueError(f"seat {seat} is not a remote seat")
        ctrl.deliver(action)

    def set_connected(self, seat: int, connected: bool) -> None:
        """Mark the seat's player away (its bot plays) or back."""
        ctrl = self.t.controllers[seat]
        if isinstance(ctrl, RemoteSeat) and ctrl.connected != connected:
            ctrl.set_connected(connected)
            self.changed()

    def is_remote(self, seat: int) -> bool:
        return isinstance(self.t.controllers.get(seat), RemoteSeat)

    def is_away(self, seat: int) -> bool:
        """A remote seat whose player is away ("Computer playing")."""
        ctrl = self.t.controllers.get(seat)
        return isinstance(ctrl, RemoteSeat) and not ctrl.connected

    def display_name(self, seat: int) -> str:
        """The name every screen shows for ``seat``."""
        return self.names.get(seat, self.t.names[seat])

    def players_in(self) -> bool:
        """Whether a remote player who is not away still has chips in the game."""
        return any(
            isinstance(ctrl, RemoteSeat) and ctrl.connected and seat not in self.t.places
            for seat, ctrl in self.t.controllers.items()
        )

    def view_for(self, seat: int) -> PlayerView:
        """What to send to the player of ``seat``: its own cards only, never the deck."""
        return self.t.view(seat)
