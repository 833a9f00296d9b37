"""The tables a friends game sends: the lobby, a seat's table in play and the results,
each made for one seat (its own view only, see :mod:`kiosk.friends.views`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.holdem.config import TournamentConfig
from kiosk.friends import views
from kiosk.friends.roster import FriendsTimers
from kiosk.friends.vote import NextHandVote
from kiosk.tournament.session import TournamentSession
from kiosk.tournament.settings import DEFAULT_NAME

Json = dict[str, Any]


class FriendsGame(Protocol):
    """What the tables are made from (:class:`kiosk.friends.game.FriendsGame`)."""

    session: TournamentSession | None
    vote: NextHandVote | None
    clock: Callable[[], float]
    timers: FriendsTimers
    code: str
    config: TournamentConfig

    def name_of(self, seat: int) -> str: ...

    def status_of(self, seat: int, viewer: int | None = None) -> str: ...

    def turn_left(self) -> float | None: ...

    def host_wait_left(self) -> float | None: ...

    def starts_in(self) -> int | None: ...


def names_of(game: FriendsGame, n_seats: int) -> list[str]:
    """Each seat's name as a friend sees it: the cabinet player who typed none (whose
    name is the cabinet's own "You") has an empty name, which the page shows as the
    Host in the friend's language; nobody else is ever called "You" on a friend's phone."""
    out = []
    for i in range(n_seats):
        name = game.name_of(i)
        out.append("" if name == DEFAULT_NAME and game.status_of(i) == "host" else name)
    return out


def table_for(game: FriendsGame, seat: int) -> Json:
    """The ``state`` message for ``seat``, made from its own view only."""
    s = game.session
    assert s is not None
    t = s.t
    view = s.view_for(seat)
    result = None
    if s.hand_over and t.last_result is not None:
        result = views.result_of(view, t.last_result.won)
    vote = None
    if game.vote is not None:
        vote = views.vote_of(game.vote.waiting(), seat in game.vote.voted, seat in game.vote.voters,
                             game.vote.seconds_left(game.clock(), game.timers.next_hand_s))
    hand = t.hand
    turn = game.turn_left()
    wait = game.host_wait_left()
    msg = views.table_message(
        view,
        hand=t.hand_number,
        seq=len(hand.history) if hand is not None else 0,
        names=names_of(game, t.n_seats),
        status=lambda i: game.status_of(i, seat),
        stacks=t.stacks_now,
        places=dict(t.places),
        result=result,
        blinds_in=t.hands_to_next_level,
        vote=vote,
    )
    # every seat sees whose turn it is (the view names only the viewer's own)
    msg["to_act"] = t.to_act if t.hand is not None and not s.hand_over else None
    msg["turn_s"] = round(turn) if turn is not None else None
    msg["host_wait_s"] = round(wait) if wait is not None else None
    return msg


def lobby_for(game: FriendsGame, seat: int) -> Json:
    """The lobby for ``seat``: every seat's name and status, and the countdown to the deal."""
    names = names_of(game, len(game.config.seats))
    seats = [(names[i], game.status_of(i, seat)) for i in range(len(game.config.seats))]
    msg = views.lobby_message(seat, game.code, seats, game.config.starting_chips)
    msg["starts_in"] = game.starts_in()
    return msg


def results_for(game: FriendsGame, s: TournamentSession, seat: int) -> Json:
    """The ``over`` table for ``seat``: every place, and the seat's own summary."""
    t = s.t
    names = names_of(game, t.n_seats)
    standings = [{"seat": i, "name": names[i], "place": place, "status": game.status_of(i, seat)}
                 for i, place in sorted(t.places.items(), key=lambda kv: kv[1])]
    return {
        "type": "state",
        "phase": "over",
        "you": seat,
        "code": game.code,
        "table": t.config.table,
        "hands": t.hand_number,
        "standings": standings,
        "summary": views.summary_of(t.summary(seat, duration_s=s.state.play_time_s)),
    }
