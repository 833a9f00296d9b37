"""A friends client wired to a :class:`~kiosk.friends.game.FriendsGame` in this process,
for the seat port's link end (:class:`kiosk.friends.seat.link.LinkSeat`) without a
socket: ``poll`` receives the host's latest table for ``seat`` (a new message only when
it differs, as the host sends a seat its table when it changed), ``act`` and
``next_hand`` are played by the host's rules as the game server plays a friend's."""

from __future__ import annotations

from typing import Any

from engine.holdem.actions import Action, ActionKind
from kiosk.friends import tables
from kiosk.friends.game import FriendsGame


class GameLink:
    def __init__(self, game: FriendsGame, seat: int) -> None:
        self.game, self.seat = game, seat
        self.state: dict[str, Any] | None = None
        self.closed = self.gave_up = self.reopening = False
        self.can_reopen = True
        self.welcome = {"token": "t", "name": game.name_of(seat), "seat": seat}
        self.code = game.code
        self.refused: dict[str, Any] | None = None
        self.sent: list[tuple[str, int | None]] = []

    def poll(self) -> bool:
        s = self.game.session
        assert s is not None
        if s.is_over:
            msg = tables.results_for(self.game, s, self.seat)
        else:
            msg = tables.table_for(self.game, self.seat)
        if msg == self.state:
            return False
        self.state = msg
        return True

    def act(self, action: str, amount: int | None = None) -> bool:
        self.sent.append((action, amount))
        assert self.game.session is not None
        self.game.session.act(Action(ActionKind(action), amount))
        return True

    def next_hand(self) -> bool:
        assert self.game.session is not None
        self.game.session.next_hand()
        return True

    def leave(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True
