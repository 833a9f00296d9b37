"""The cabinet's tournament: the store, the session being played and the setup choices.

The tournament (free play, chips are points) lives beside the casino game and never
reads or changes the credit meter.  One :class:`TournamentContext` per cabinet, made by
the composition root with the path of the cabinet's SQLite file (the tournament's tables
live there beside the ledger's) and handed to the screens.

A game with friends (:mod:`kiosk.friends`) is hosted through :meth:`invite` and
:meth:`start_friends`; :attr:`TournamentContext.friends` is then its
:class:`~kiosk.friends.cabinet.CabinetHost`, which the screens pump instead of updating
the session.  Its web server binds ``friends_bind`` (the LAN interface the operator
chooses) and the link names ``friends_advertise`` (default: the same address).  A seat
in a game another cabinet hosts is :attr:`TournamentContext.joined`, found among
``friends_hosts`` by its game code.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.tournament.export import (
    MOUNTS_FILE,
    ExportedHands,
    ExportError,
    export_finished,
    removable_media,
)
from kiosk.tournament.store import TournamentStore, TournamentStoreError

if TYPE_CHECKING:  # the game's code is imported when a game is first set up or played
    from engine.rng import RandomSource
    from kiosk.friends.cabinet import CabinetHost
    from kiosk.friends.client import FriendsClient
    from kiosk.friends.roster import FriendsTimers
    from kiosk.link.pairing import HostPairing
    from kiosk.tournament.session import TournamentSession
    from kiosk.tournament.settings import TournamentSettings

log = logging.getLogger(__name__)


class TournamentContext:
    """The store (opened on first use), the session and the setup screen's choices
    (``settings``: the chosen table, seed 003's game at first).  Resuming a saved game
    puts its setup back into ``settings``, so Play again plays its table again.

    ``db_path`` is the cabinet's SQLite file (``None``: games are played but neither
    saved nor recorded).  ``rng`` and ``bot_samples`` are for tests (reproducible deals,
    fast bots); a cabinet leaves them ``None`` (the OS generator, the strengths' own
    Monte-Carlo samples)."""

    def __init__(self, db_path: Path | None = None) -> None:
        self.db_path = db_path
        self._settings: TournamentSettings | None = None
        self.session: TournamentSession | None = None
        self.rng: RandomSource | None = None
        self.bot_samples: int | None = None
        self.equity_slice: int | None = None
        self._store: TournamentStore | None = None
        self.store_problem: str | None = None
        self.friends: CabinetHost | None = None
        self.friends_bind = "127.0.0.1"
        self.friends_port = 0
        self.friends_advertise: str | None = None
        self.friends_timers: FriendsTimers | None = None
        self.friends_hosts: list[
            str
        ] = []  # "host:port" of the venue's cabinets that may host a game
        self.friends_link_pairing: Path | None = None  # this cabinet's station pairing folder
        self.friends_link_host_pairing: Path | None = None  # the table host's pairing folder
        self.friends_link_port = 0  # where paired cabinets join this cabinet's games
        self.friends_link_hosts: list[str] = []  # "host:port" of the hosts' friends links
        self.joined: FriendsClient | None = None  # a seat in another cabinet's game
        self.joined_tokens: dict[str, str] = {}  # game code -> this cabinet's seat token there
        self.mounts_file: Path = MOUNTS_FILE  # where the mounted USB sticks are read from

    @property
    def settings(self) -> TournamentSettings:
        """The setup screen's choices (seed 003's table until one is chosen), made when
        first asked for: a cabinet whose player never opens the tournament never loads
        its code."""
        if self._settings is None:
            from engine.holdem.blinds import SEED003_TABLE
            from kiosk.tournament.settings import TournamentSettings

            self._settings = TournamentSettings(table=SEED003_TABLE.key)
        return self._settings

    @settings.setter
    def settings(self, settings: TournamentSettings) -> None:
        self._settings = settings

    @property
    def store(self) -> TournamentStore | None:
        """The tournament's tables (opened on first use; ``None`` if the file cannot be used)."""
        if self._store is None:
            if self.db_path is None:
                self.store_problem = "no database"
                return None
            try:
                self._store = TournamentStore.open(self.db_path)
                self.store_problem = None
            except TournamentStoreError as exc:
                log.error("tournament store: %s", exc.reason)
                self.store_problem = exc.reason
        return self._store

    def has_saved_game(self) -> bool:
        if self.session is not None and not self.session.is_over and not self.session.recorded:
            return True
        store = self.store
        return store is not None and store.has_saved_game()

    def saved_info(self) -> dict[str, Any] | None:
        s = self.session
        if s is not None and not s.is_over and not s.recorded:
            mine = s.t.config.seats[s.human_seat]
            return {
                "hand": s.t.hand_number,
                "players": s.t.n_seats,
                "left": len(s.t.players_left),
                "name": mine.name,
                "icon": mine.icon,
            }
        store = self.store
        if store is None:
            return None
        try:
            return store.saved_summary()
        except TournamentStoreError:
            return None

    def _kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {"rng": self.rng, "bot_samples": self.bot_samples}
        if self.equity_slice is not None:
            kw["equity_slice"] = self.equity_slice
        return kw

    def hosted(self, session: TournamentSession | None = None) -> CabinetHost | None:
        """The hosted friends game of ``session`` (default: the one in play), if any."""
        f = self.friends
        s = session if session is not None else self.session
        if f is None or s is None or f.session is not s:
            return None
        return f

    def pump_friends(self, dt: float) -> None:
        """One frame of the hosted game in play (the table's own pages call it)."""
        f = self.hosted()
        if f is not None:
            f.pump(dt)

    def leave_friends(self) -> None:
        """The cabinet's player left the hosted game: it waits for them."""
        f = self.hosted()
        if f is not None and not f.game.over:
            f.leave()

    def _link_pairing(self) -> HostPairing | None:
        """The table host's pairing, when paired cabinets may join through the link."""
        from kiosk.link.pairing import HostPairing

        folder = self.friends_link_host_pairing
        return HostPairing(folder) if folder is not None else None

    def invite(self) -> CabinetHost:
        """The friends game in its lobby (a new one, served at once, from
        :attr:`settings`; the same one while it has not started)."""
        f = self.friends
        if f is not None and not f.game.started:
            return f
        from kiosk.friends.cabinet import CabinetHost

        self.close_friends()
        self.friends = CabinetHost.open(
            self.settings,
            store=self.store,
            rng=self.rng,
            bot_samples=self.bot_samples,
            bind=self.friends_bind,
            port=self.friends_port,
            advertise=self.friends_advertise,
            timers=self.friends_timers,
            link_pairing=self._link_pairing(),
            link_port=self.friends_link_port,
        )
        return self.friends

    def start_friends(self) -> TournamentSession:
        """Deal the invited game's first hand; it becomes the game in play (replacing
        the saved one)."""
        f = self.friends
        if f is None:
            raise ValueError("no friends game to start")
        if self.session is not None and not self.session.recorded and self.session is not f.session:
            self.session.abandon()
        self.session = f.start()
        if self.session.store is None:
            self.session.store_error = self.store_problem or "no store"
        return self.session

    def close_friends(self) -> None:
        """Stop serving the hosted game (its friends' sockets close)."""
        if self.friends is not None:
            self.friends.close()
            self.friends = None

    def close_joined(self) -> None:
        """Close the connection to another cabinet's game (its seat's token is kept)."""
        if self.joined is not None:
            self.joined.close()
            self.joined = None

    def new_game(self) -> TournamentSession:
        from kiosk.tournament.session import TournamentSession

        self.close_friends()
        store = self.store
        self.session = TournamentSession.start(self.settings, store=store, **self._kwargs())
        if store is None:  # played, but not saved nor recorded: say so on the table
            self.session.store_error = self.store_problem or "no store"
        return self.session

    def resume(self) -> TournamentSession | None:
        """The game to continue (the one in play, else the saved one), with its setup put
        back into :attr:`settings`; ``None`` when there is none."""
        from kiosk.friends.cabinet import CabinetHost
        from kiosk.tournament.session import TournamentSession

        s = self.session
        if s is None or s.recorded:
            store = self.store
            if store is None:
                return None
            try:
                s = self.session = TournamentSession.resume(store, **self._kwargs())
            except (TournamentStoreError, ValueError, KeyError) as exc:
                log.error("the saved tournament cannot be resumed: %s", exc)
                s = self.session = None
        if s is not None:
            self.settings = s.settings()
            if s.state.friends is not None and self.hosted(s) is None:
                self.close_friends()
                try:
                    self.friends = CabinetHost.resume(
                        s,
                        bind=self.friends_bind,
                        advertise=self.friends_advertise,
                        timers=self.friends_timers,
                        link_pairing=self._link_pairing(),
                        link_port=self.friends_link_port,
                    )
                except (
                    OSError
                ) as exc:  # the port the links name is not free: the computer plays their seats
                    log.error("the friends game cannot be served again: %s", exc)
                    for seat in range(s.t.n_seats):
                        if s.remote.is_remote(seat):
                            s.set_connected(seat, False)
        return s

    def export_game(self, game_id: str) -> tuple[ExportedHands, bool]:
        """Export the kept hands of the finished game ``game_id`` (JSON and PHH) to the
        first mounted USB stick, else to the cabinet's own disk (beside its database);
        returns what was written and whether it went to a USB stick.  Raises
        :class:`~kiosk.tournament.export.ExportError`."""
        store = self.store
        if store is None or self.db_path is None:
            raise ExportError(self.store_problem or "no database")
        on_usb = bool(removable_media(self.mounts_file))
        done = export_finished(
            store, game_id, fallback=self.db_path.parent, mounts_file=self.mounts_file
        )
        return done, on_usb

    def close(self) -> None:
        self.close_friends()
        self.close_joined()
        if self._store is not None:
            self._store.close()
            self._store = None
