"""Seats played from another cabinet.

Several cabinets at one table (the next step)
---------------------------------------------
What is here: every seat goes through a controller, so a seat can be handed to a player
on another cabinet (:meth:`TournamentSession.attach_remote`), fed their moves
(:meth:`deliver`, checked by the rules when played: a refused move is dropped and the
player asked again), marked away or back (:meth:`set_connected`: the seat's bot plays
while they are away), and shown only its own cards (:meth:`view_for`).  ``listeners``
are called after every change, for a network layer to push each seat its new view.
What remains: one cabinet (or a server) must own the game and the deck -- the others
send moves and receive views, never the whole state; a transport with authenticated,
ordered, idempotent messages (move ids, the hand number and history length a move
answers, so a late or repeated move cannot land on the wrong decision); the away timer
(seed 000: about 45 s) and reconnection; the "Next hand" vote (every player still in, or
a timeout); remote seats in the saved state (today a resumed game rebuilds them as bots);
each cabinet's own records of the game; and an operator view of linked cabinets.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.holdem.actions import Action
from engine.holdem.seats import RemoteSeat
from engine.holdem.tournament import Tournament
from engine.holdem.views import PlayerView


class RemoteSeats:
    """Hands seats of ``tournament`` to players elsewhere and feeds them their moves.

    ``human_seat()`` is the local player's seat (never handed over); ``changed()`` is
    called after a change the screens show (a seat handed over, away or back)."""

    def __init__(self, tournament: Tournament, human_seat: Callable[[], int], changed: Callable[[], None]) -> None:
        self.t = tournament
        self.human_seat = human_seat
        self.changed = changed

    def attach(self, seat: int) -> RemoteSeat:
        """Hand a computer player's seat to a player on another cabinet (its bot stays as
        the fallback while they are away)."""
        if seat == self.human_seat():
            raise ValueError("the local player's seat")
        ctrl = self.t.controllers[seat]
        if isinstance(ctrl, RemoteSeat):
            return ctrl
        bot = getattr(ctrl, "bot", None)
        if bot is None:
            raise ValueError(f"seat {seat} has no computer player to fall back on")
        remote = RemoteSeat(bot)
        self.t.controllers[seat] = remote
        self.changed()
        return remote

    def deliver(self, seat: int, action: Action) -> None:
        """A remote player's move, as received (checked when its turn is played)."""
        ctrl = self.t.controllers[seat]
        if not isinstance(ctrl, RemoteSeat):
            raise ValueError(f"seat {seat} is not a remote seat")
        ctrl.deliver(action)

    def set_connected(self, seat: int, connected: bool) -> None:
        """Mark the seat's player away (its bot plays) or back."""
        ctrl = self.t.controllers[seat]
        if isinstance(ctrl, RemoteSeat):
            ctrl.set_connected(connected)
            self.changed()

    def view_for(self, seat: int) -> PlayerView:
        """What to send to the cabinet playing ``seat``: its own cards only, never the deck."""
        return self.t.view(seat)
