"""The seat port: what a table screen needs from a tournament seat, wherever its game
runs: in this process (:class:`kiosk.friends.seat.local.LocalSeat`) or on another
cabinet, over the friends link (:class:`kiosk.friends.seat.link.LinkSeat`).

The screen asks the port for the table as this seat sees it (:class:`TableView`, a
typed snapshot both ends make: cards are :mod:`engine.cards` ints, a hand's name a
:class:`~engine.hands.categories.HandCategory`, a move an
:class:`~engine.holdem.actions.ActionKind`, chips whole tournament points), for the
seat's options (:class:`~engine.holdem.views.LegalActions`, round totals), and sends
its decision as the engine's :class:`~engine.holdem.actions.Action`.  ``version()``
changes whenever what the view shows may have changed (the screen draws a still frame
once and again only on a change); ``changed()`` says whether it did since last asked.

The port is the tournament's vocabulary, so it lives here, beside the session; its two
ends use the friends package (the link's client, the hosted game), so they live there,
side by side (:mod:`kiosk.friends.seat`); the screens see only this module.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from engine.hands.categories import HandCategory
from engine.holdem.actions import Action, ActionKind
from engine.holdem.views import LegalActions


class Phase(StrEnum):
    """Where the seat's game is."""

    WAITING = "waiting"  # no hand dealt yet
    LOBBY = "lobby"  # seated, before the first deal
    PLAY = "play"  # a hand is being played
    HAND_OVER = "hand_over"  # a hand is finished, the next not dealt
    OVER = "over"  # the tournament is over


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat as every player sees it.  ``last`` is its last move in this hand (a
    blind is ``None``: its chips show as a bet); ``move`` its move in this betting round
    (a new card on the board clears all but a fold and an all in); ``cards`` its hole
    cards when the viewer may see them (its own, or shown at a showdown), else empty;
    ``dealt`` it was dealt into this hand; ``person`` a person plays it from another
    screen (a friend, or the host seen from a joined seat), not the computer."""

    seat: int
    name: str
    chips: int
    bet: int
    folded: bool
    place: int | None
    away: bool
    last: ActionKind | None
    cards: tuple[int, ...] = ()
    move: ActionKind | None = None
    dealt: bool = True
    person: bool = False


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at a showdown: its seat, its two cards, its category."""

    seat: int
    cards: tuple[int, ...]
    category: HandCategory


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """A finished hand: the pots awarded (chips, main pot first), the chips each seat
    won, the hands shown; ``winners`` every seat that took chips, once, in the order
    the pots were awarded (main pot first, each pot's winners clockwise from the
    button's left)."""

    pots: tuple[int, ...]
    won: tuple[int, ...]
    shown: tuple[ShownHand, ...]
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Standing:
    seat: int
    name: str
    place: int


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as seat ``you`` sees it now.

    ``hand`` is the hand's number; ``decision`` names the decision being made (the
    hand and how many records it has: a new one is a new turn); ``your_turn`` this seat
    decides now; ``category`` the name of its best hand (from the flop on); ``pots``
    every chip put in this hand, main pot first; ``middle`` the pots in the middle now
    (chips gathered from finished betting rounds, main pot first, a top layer only one
    seat can win left out); ``button``, ``small_blind_seat`` and ``big_blind_seat`` the
    dealer's and the blinds' seats; ``blinds_in`` hands left at these blinds, this one
    included (``None``: they never go up); ``turn_s`` whole seconds left on a
    friend's clock; ``host_away`` the host left and the game waits for them;
    ``next_open`` this seat may still ask for the next hand; ``starts_in`` (lobby)
    seconds before the game deals by itself; ``standings`` (over) every place."""

    phase: Phase
    you: int
    code: str = ""
    hand: int = 0
    blinds: tuple[int, int] = (0, 0)
    board: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()
    category: HandCategory | None = None
    seats: tuple[SeatRow, ...] = ()
    to_act: int | None = None
    your_turn: bool = False
    pots: tuple[int, ...] = ()
    outcome: HandOutcome | None = None
    decision: tuple[int, int] = (0, 0)
    turn_s: int | None = None
    host_away: bool = False
    next_open: bool = False
    starts_in: int | None = None
    standings: tuple[Standing, ...] = ()
    middle: tuple[int, ...] = ()
    button: int | None = None
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    blinds_in: int | None = None


class SeatPort(Protocol):
    """A seat at a tournament table, as a screen drives it (see the module's text)."""

    def advance(self, dt: float) -> None:
        """Let the game move on by ``dt`` seconds (computer players, friends' moves,
        the link's messages)."""

    def view(self) -> TableView | None:
        """The table as this seat sees it (``None``: nothing to show yet)."""

    def legal(self) -> LegalActions | None:
        """This seat's options now (``None``: not its turn)."""

    def act(self, action: Action) -> None:
        """Send this seat's decision.  Raises :class:`~engine.errors.IllegalActionError`
        when the rules refuse it here and now (nothing changed); a game elsewhere
        checks it there and says so in a later view."""

    def next_hand(self) -> None:
        """Ask for the next hand (a vote where friends play)."""

    def version(self) -> Hashable:
        """Equal to the last value while nothing the view shows has changed."""

    def changed(self) -> bool:
        """Whether :meth:`version` moved since the last call."""


class Versioned:
    """:meth:`SeatPort.changed` over :meth:`SeatPort.version`, for both ends."""

    _seen: Hashable = None

    def version(self) -> Hashable:
        raise NotImplementedError

    def changed(self) -> bool:
        now = self.version()
        moved = now != self._seen
        self._seen = now
        return moved
