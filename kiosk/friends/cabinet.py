"""A friends game hosted by this cabinet, as its screens use it.

:class:`CabinetHost` holds the :class:`FriendsGame` and its :class:`FriendsHost`.  While
the cabinet's tournament screens show the game, the frame loop owns it and calls
:meth:`pump` (instead of ``session.update``); when the cabinet's player leaves the game
(Leave, or the game is interrupted by another screen), :meth:`leave` tells the friends
that the game waits for the host and hands the game to a thread of its own, and
:meth:`back` takes it back.  Chips are points: nothing here touches credits or meters.
"""

from __future__ import annotations

import logging

from engine.rng import RandomSource
from kiosk.friends.game import FriendsGame
from kiosk.friends.host import FriendsHost
from kiosk.friends.roster import Friend, FriendsTimers
from kiosk.link.pairing import HostPairing
from kiosk.tournament.session import TournamentSession
from kiosk.tournament.settings import TournamentSettings
from kiosk.tournament.store import TournamentStore

log = logging.getLogger("kiosk.friends")


class CabinetHost:
    """One hosted game: the lobby (:meth:`friends`, :meth:`can_start`), then the game
    (:attr:`session`).  Owned by one thread at a time: the frame loop, or the host's own
    loop between :meth:`leave` and :meth:`back`."""

    def __init__(self, game: FriendsGame, host: FriendsHost) -> None:
        self.game = game
        self.host = host

    @classmethod
    def open(
        cls,
        settings: TournamentSettings,
        *,
        store: TournamentStore | None = None,
        rng: RandomSource | None = None,
        bot_samples: int | None = None,
        bind: str = "127.0.0.1",
        port: int = 0,
        advertise: str | None = None,
        timers: FriendsTimers | None = None,
        link_pairing: HostPairing | None = None,
        link_port: int = 0,
    ) -> CabinetHost:
        """A new game in the lobby, served at once (its link and code are shown); with
        ``link_pairing`` paired cabinets may also join through the table link."""
        game = FriendsGame(settings, store=store, rng=rng, bot_samples=bot_samples, timers=timers)
        host = FriendsHost(
            game, bind=bind, port=port, advertise=advertise, link_pairing=link_pairing,
            link_port=link_port,
        )
        host.start()
        return cls(game, host)

    @classmethod
    def resume(
        cls,
        session: TournamentSession,
        *,
        bind: str = "127.0.0.1",
        advertise: str | None = None,
        timers: FriendsTimers | None = None,
        link_pairing: HostPairing | None = None,
        link_port: int = 0,
    ) -> CabinetHost:
        """The hosted game of a resumed ``session``, served on the port its friends'
        links name."""
        game = FriendsGame.resumed(session, timers=timers)
        host = FriendsHost(
            game, bind=bind, port=game.port or 0, advertise=advertise,
            link_pairing=link_pairing, link_port=link_port,
        )
        host.start()
        return cls(game, host)

    # -- the lobby ------------------------------------------------------------------------
    @property
    def link(self) -> str:
        return self.host.link

    @property
    def code(self) -> str:
        return self.game.code

    def friends(self) -> list[Friend]:
        """Friends who took a seat (and did not leave), in seat order."""
        return [f for f in self.game.friends() if not f.left]

    @property
    def can_start(self) -> bool:
        """Start is offered once at least one friend has joined."""
        return not self.game.started and bool(self.friends())

    def start(self) -> TournamentSession:
        """Deal the first hand; seats nobody took are played by the computer."""
        return self.game.start()

    @property
    def session(self) -> TournamentSession | None:
        return self.game.session

    # -- the game -------------------------------------------------------------------------
    def pump(self, dt: float) -> None:
        """One frame of the game: what friends sent, the clocks, the computer players."""
        if not self.host.in_background:
            self.host.pump(dt)

    def next_hand(self) -> bool:
        """The cabinet player's Next hand tap (a vote); False when there is no vote."""
        return self.game.vote_local()

    @property
    def waiting_for_host(self) -> bool:
        return self.game.host_gone_at is not None

    def leave(self) -> None:
        """The cabinet's player left the game: the friends are told it waits for the
        host, and the game runs on the host's own thread until :meth:`back`."""
        if self.host.in_background:
            return
        self.game.host_left()
        self.host.pump(0.0)
        self.host.run_in_background()

    def back(self) -> None:
        """The cabinet's player is back: the frame loop owns the game again."""
        self.host.pause_background()
        self.game.host_back()

    def close(self) -> None:
        """Stop serving: every friend's socket closes."""
        self.host.stop()
