"""The host's game for friends on their phones: the rules' side of the web seats.

:class:`FriendsGame` wraps the cabinet's :class:`TournamentSession` (the engine's rules,
the deck, the pacing, the computer players) and adds what remote players need: seats
taken by name (a computer player's seat, with its chips), each connection's messages
checked before they reach the rules, the away timer, Leave the game, the Next hand vote
and, per connection, the messages to send (each seat only its own view, see
:mod:`kiosk.friends.views`).

A friend has :attr:`FriendsTimers.turn_s` for a move (:mod:`kiosk.friends.turns`).
When the host cabinet leaves (:meth:`host_left`) the game waits for it
(:attr:`FriendsTimers.host_wait_s`, seed 003: 10 minutes; friends see that it waits)
and then ends for everyone, ranked by their chips.  The roster (names, seat tokens) is
part of the session's saved state, so :meth:`resumed` puts a game back after a power cut
and friends take their seats again with their tokens.

It does no I/O and takes no locks: one thread owns it (the cabinet's frame loop, or
:class:`kiosk.friends.host.FriendsHost`'s loop) and calls :meth:`connect`,
:meth:`receive`, :meth:`disconnect` and :meth:`update`, then takes :meth:`outgoing`.
Connections are numbered by the caller.  Chips are whole tournament points.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

from engine.errors import IllegalActionError
from engine.holdem.bots import Bot, random_personality
from engine.holdem.config import TournamentConfig
from engine.holdem.seats import BotSeat, RemoteSeat
from engine.rng import RandomSource, SystemRandomSource
from kiosk.friends import tables
from kiosk.friends.codes import NameRefused, clean_name, new_code
from kiosk.friends.messages import Act, Join, Leave, NextHand, Refusal, Resume, SetLang, to_action
from kiosk.friends.outbox import Outbox
from kiosk.friends.roster import Friend, FriendsTimers, Roster
from kiosk.friends.turns import TurnClock, TurnKey
from kiosk.friends.vote import NextHandVote
from kiosk.tournament.session import AI_DELAYS, TournamentSession
from kiosk.tournament.settings import TournamentSettings
from kiosk.tournament.store import TournamentStore

log = logging.getLogger("kiosk.friends")

Json = dict[str, Any]
Message = Join | Resume | Act | NextHand | Leave | SetLang
HostPlays = Literal["screen", "bot"]


class FriendsGame:
    """One game that friends join from the link: in the lobby until :meth:`start`,
    then the tournament, then its results.

    ``host_plays``: ``screen`` (the cabinet's player taps; the screen calls
    :meth:`vote_local` for Next hand) or ``bot`` (a computer player plays the cabinet's
    seat: the demo, tests, benches).  ``clock`` gives monotonic seconds."""

    def __init__(
        self,
        settings: TournamentSettings | TournamentConfig,
        *,
        human_seat: int = 0,
        ai_speed: str | None = None,
        code: str | None = None,
        host_plays: HostPlays = "screen",
        timers: FriendsTimers | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: RandomSource | None = None,
        bot_samples: int | None = None,
        store: TournamentStore | None = None,
        start_after_s: float | None = None,
    ) -> None:
        if isinstance(settings, TournamentSettings):
            self.config = settings.config()
            self.ai_speed = ai_speed or settings.ai_speed
        else:
            self.config = settings
            self.ai_speed = ai_speed or "normal"
        self.human_seat = human_seat
        self.code = code or new_code()
        self.timers = timers or FriendsTimers()
        self.roster = Roster(self.timers)
        self.clock = clock
        self.rng = rng or SystemRandomSource()
        self.bot_samples = bot_samples
        self.store = store
        self.port: int | None = None  # the port friends' links name (kept in the saved game)
        self.turns = TurnClock(self.timers.turn_s, self.timers.expiries_away)
        self.host_gone_at: float | None = None  # when the host cabinet left (monotonic)
        self._wait_minute: int | None = None
        self.session: TournamentSession | None = None
        self.vote: NextHandVote | None = None
        self.host_plays = host_plays
        self._host_bot: Bot | None = None
        self._host_wait = 0.0
        self._conns: dict[int, str] = {}  # open connection -> language before a seat
        self.outbox = Outbox()
        self._rev = 0  # bumped by every change the session does not see
        self.finished_at: float | None = None
        self.closed = False
        self.start_after_s = start_after_s  # the lobby deals by itself this long after the first seat
        self.starts_at: float | None = None  # when the lobby deals by itself (monotonic s)
        self._starts_second: int | None = None

    # -- queries ------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def over(self) -> bool:
        return self.session is not None and self.session.is_over

    def friends(self) -> list[Friend]:
        return self.roster.friends()

    def free_seats(self) -> list[int]:
        """Computer players' seats a friend may take now (still in the game)."""
        taken = {f.seat for f in self.roster.friends()}
        out = []
        for seat in range(len(self.config.seats)):
            if seat == self.human_seat or seat in taken:
                continue
            if self.session is not None:
                t = self.session.t
                if seat in t.places or not isinstance(t.controllers[seat], BotSeat | RemoteSeat):
                    continue
            out.append(seat)
        return out

    def name_of(self, seat: int) -> str:
        friend = self.roster.at(seat)
        if friend is not None:
            return friend.name
        return self.config.seats[seat].name

    def status_of(self, seat: int, viewer: int | None = None) -> str:
        """``you``, ``host``, ``friend``, ``away``, ``left`` or ``computer``."""
        if seat == viewer:
            return "you"
        if seat == self.human_seat:
            return "host"
        friend = self.roster.at(seat)
        if friend is None:
            return "computer"
        if friend.left:
            return "left"
        return "away" if friend.away else "friend"

    # -- the lobby ----------------------------------------------------------------------
    def set_starts_at(self, when: float | None) -> None:
        """The host deals by itself at ``when`` (monotonic seconds; ``None``: when the
        host taps Start); the lobby shows the countdown.  With ``start_after_s`` the
        first friend to sit down sets it."""
        self.starts_at = when
        self._rev += 1

    def starts_in(self) -> int | None:
        """Whole seconds until the host deals by itself (``None``: the host taps Start)."""
        if self.starts_at is None:
            return None
        return max(0, int(self.starts_at - self.clock() + 0.999))

    def start(self) -> TournamentSession:
        """Deal the first hand: friends who joined sit in their seats (by name, played
        from their phones); seats nobody took are played by the computer."""
        if self.session is not None:
            return self.session
        seats = list(self.config.seats)
        seated = [f for f in self.roster.friends() if not f.left]  # one who left is never attached
        for friend in seated:
            seats[friend.seat] = replace(seats[friend.seat], name=friend.name, kind="remote")
        config = replace(self.config, seats=tuple(seats))
        session = TournamentSession.start(config, rng=self.rng, bot_samples=self.bot_samples,
                                          human_seat=self.human_seat, store=self.store)
        self.session = session
        session.set_ai_speed(self.ai_speed)
        self.config = config
        self.session = session
        for friend in seated:
            session.remote.attach(friend.seat, friend.name)
            session.set_connected(friend.seat, not friend.away)
        if self.host_plays == "bot":
            seed = self.rng.randbelow(1 << 63)
            name = config.seats[self.human_seat].name
            self._host_bot = Bot("normal", random_personality(name, seed), rng=seed ^ 7,
                                 samples=self.bot_samples)
        log.info("friends game %s started: %d friend(s)", self.code, len(seated))
        self._rev += 1
        self._persist()
        return session

    @classmethod
    def resumed(
        cls,
        session: TournamentSession,
        *,
        timers: FriendsTimers | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: RandomSource | None = None,
        host_plays: HostPlays = "screen",
    ) -> FriendsGame:
        """The friends game of a resumed ``session`` (its saved state holds the roster):
        every seat as it was; friends have :attr:`FriendsTimers.away_s` to open their
        link again before the computer plays for them."""
        saved = session.state.friends or {}
        game = cls(session.t.config, human_seat=session.human_seat, ai_speed=session.ai_speed,
                   code=str(saved.get("code") or new_code()), host_plays=host_plays, timers=timers,
                   clock=clock, rng=rng, store=session.store)
        game.port = saved.get("port")
        game.session = session
        now = clock()
        for data in saved.get("friends", []):
            friend = Friend.from_dict(data, now)
            game.roster.restore(friend)
            if friend.left:
                session.remote.release(friend.seat)
            else:
                session.remote.attach(friend.seat, friend.name)
                session.set_connected(friend.seat, not friend.away)
        if host_plays == "bot":
            game._host_bot = Bot("normal", random_personality(session.player_name, 1), rng=game.rng.randbelow(1 << 63),
                                 samples=game.bot_samples)
        log.info("friends game %s resumed at hand %d", game.code, session.t.hand_number)
        return game

    def _persist(self) -> None:
        """Keep the roster in the session's saved state (and save it)."""
        s = self.session
        if s is None:
            return
        s.state.friends = {"code": self.code, "port": self.port,
                           "friends": [f.to_dict() for f in self.roster.friends()]}
        s.save()

    # -- the host cabinet ---------------------------------------------------------------
    def host_left(self) -> None:
        """The host cabinet left the game: it waits ``host_wait_s`` for it."""
        if self.host_gone_at is None and not self.over:
            self.host_gone_at = self.clock()
            log.info("friends game %s: the host left; waiting for it", self.code)
            self._rev += 1

    def host_back(self) -> None:
        """The host cabinet is back: the game goes on, and a friend's decision on the
        table has the time it had when the host left (nobody could move meanwhile)."""
        if self.host_gone_at is not None:
            self.turns.stood_still(self.clock() - self.host_gone_at)
            self.host_gone_at = None
            log.info("friends game %s: the host is back", self.code)
            self._rev += 1

    def host_wait_left(self) -> float | None:
        """Seconds the game still waits for the host (``None``: the host is here)."""
        if self.host_gone_at is None:
            return None
        return max(0.0, self.timers.host_wait_s - (self.clock() - self.host_gone_at))

    def turn_left(self) -> float | None:
        """Seconds left for the friend to act (``None``: no friend's turn), the clock first
        watching the decision on the table now: a state is never sent without its clock."""
        now = self.clock()
        if self.session is not None:
            self.turns.watch(self._turn_key(self.session), now)
        return self.turns.seconds_left(now)

    # -- connections --------------------------------------------------------------------
    def connect(self, conn: int) -> None:
        self._conns[conn] = "en"
        self._send(conn, {"type": "hello", "code": self.code, "started": self.started,
                          "free": len(self.free_seats()), "over": self.over})

    def disconnect(self, conn: int) -> None:
        self._conns.pop(conn, None)
        self.outbox.forget(conn)
        friend = self.roster.drop(conn, self.clock())
        if friend is not None:
            log.info("friends game %s: %s (seat %d) disconnected", self.code, friend.name, friend.seat)
            self._rev += 1

    def receive(self, conn: int, message: Message) -> None:
        """One decoded message from ``conn``; a refusal goes to ``conn`` only, with the
        table as it is (the player is asked again)."""
        try:
            if isinstance(message, Join):
                self._join(conn, message)
            elif isinstance(message, Resume):
                self._resume(conn, message)
            elif isinstance(message, SetLang):
                self._conns[conn] = message.lang
                friend = self.roster.of(conn)
                if friend is not None:
                    friend.lang = message.lang
            else:
                friend = self._seated(conn)
                if isinstance(message, Act):
                    self._act(friend, message)
                elif isinstance(message, NextHand):
                    self._next(friend.seat, message.hand)
                elif isinstance(message, Leave):
                    self._leave(friend)
        except Refusal as exc:
            self.refuse(conn, exc)

    def refuse(self, conn: int, exc: Refusal) -> None:
        """Tell ``conn`` (only) why, log it, and send the table again."""
        friend = self.roster.of(conn)
        who = f"{friend.name} (seat {friend.seat})" if friend is not None else f"connection {conn}"
        log.warning("friends game %s: %s refused: %s", self.code, who, exc)
        self._send(conn, {"type": "refused", "code": exc.code, "detail": exc.detail})
        self.outbox.forget(conn)

    def _seated(self, conn: int) -> Friend:
        friend = self.roster.of(conn)
        if friend is None:
            raise Refusal("seat.none", "take a seat first")
        return friend

    def _join(self, conn: int, msg: Join) -> None:
        if self.over:
            raise Refusal("game.over", "this game has ended")
        try:
            name = clean_name(msg.name)
        except NameRefused as exc:
            raise Refusal(exc.reason, exc.detail) from None
        friend = self.roster.take(conn, name, msg.lang, self.free_seats(), msg.seat)
        log.info("friends game %s: %s takes seat %d", self.code, name, friend.seat)
        if self.session is None and self.starts_at is None and self.start_after_s is not None:
            self.set_starts_at(self.clock() + self.start_after_s)
        if self.session is not None:
            self.session.remote.attach(friend.seat, name)
            self.session.set_connected(friend.seat, True)
            self._persist()
        self._welcome(conn, friend)

    def _resume(self, conn: int, msg: Resume) -> None:
        friend = self.roster.resume(conn, msg.token)
        friend.away = False
        if self.session is not None:
            self.session.set_connected(friend.seat, True)
            # the clock of the decision on the table is the one the seat left (never a
            # fresh one), and the state the seat gets next already carries it
            self._turn_timer(self.session, self.clock())
            self._persist()
        log.info("friends game %s: %s back in seat %d", self.code, friend.name, friend.seat)
        self._welcome(conn, friend)

    def _welcome(self, conn: int, friend: Friend) -> None:
        self._rev += 1
        self._send(conn, {"type": "welcome", "seat": friend.seat, "name": friend.name,
                          "token": friend.token, "code": self.code})

    def _leave(self, friend: Friend) -> None:
        conns = self.roster.leave(friend, free_seat=self.session is None)
        if self.session is not None:
            self.session.remote.release(friend.seat)
        if self.vote is not None:
            self.vote.voters = self.vote.voters - {friend.seat}
        log.info("friends game %s: %s left seat %d for good", self.code, friend.name, friend.seat)
        for conn in conns:
            self._send(conn, {"type": "closed", "reason": "left"})
            self.outbox.close(conn, "left the game")
            self.outbox.forget(conn)
        self._rev += 1
        self._persist()

    # -- moves --------------------------------------------------------------------------
    def _act(self, friend: Friend, msg: Act) -> None:
        s = self.session
        if s is None:
            raise Refusal("move.lobby", "the game has not started yet")
        if self.host_gone_at is not None:
            raise Refusal("game.waiting", "the game waits for the host")
        t = s.t
        if t.hand is None or s.hand_over or msg.hand != t.hand_number:
            raise Refusal("move.stale", "that hand is over")
        if t.to_act != friend.seat:
            raise Refusal("move.turn", "it is not your turn")
        if msg.seq != len(t.hand.history):
            raise Refusal("move.stale", "the table has moved on: look again")
        if friend.away:
            raise Refusal("move.away", "the computer is playing your seat: open the link again")
        action = to_action(msg)
        try:
            t.hand.verify_action(action, friend.seat)
        except IllegalActionError as exc:
            raise Refusal("move.illegal", exc.reason) from None
        s.deliver(friend.seat, action)
        self.turns.moved(friend.seat)
        s.update(0.0)  # the seat's controller plays it now

    def vote_local(self) -> bool:
        """The cabinet player tapped Next hand; False when there is no vote."""
        return self._next(self.human_seat, None)

    def _next(self, seat: int, hand: int | None) -> bool:
        vote = self.vote
        if self.host_gone_at is not None and seat != self.human_seat:
            raise Refusal("game.waiting", "the game waits for the host")
        if vote is None or (hand is not None and hand != vote.hand):
            if seat == self.human_seat:
                return False
            raise Refusal("next.stale", "that hand is not the one on the table")
        counted = vote.cast(seat)
        self._rev += 1
        self._decide_vote()
        return counted

    def _voters(self) -> frozenset[int]:
        s = self.session
        assert s is not None
        places = s.t.places
        out = {f.seat for f in self.roster.friends() if not f.left and not f.away and f.connected
               and f.seat not in places}
        if self.host_plays == "screen" and self.human_seat not in places:
            out.add(self.human_seat)
        return frozenset(out)

    def _decide_vote(self) -> None:
        s, vote = self.session, self.vote
        if s is None or vote is None:
            return
        # nobody's tap counts (every person is out or away): a short look at the result
        wait = self.timers.next_hand_s if vote.voters else min(self.timers.next_hand_s, self.timers.unattended_s)
        if not vote.decided(self.clock(), wait):
            return
        self.vote = None
        self._rev += 1
        s.next_hand()

    # -- time ---------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance ``dt`` seconds: away timers, the cabinet's computer player (``bot``),
        the session (computer players, pacing), the Next hand vote, the end of the game."""
        now = self.clock()
        for friend in self.roster.due_away(now):
            friend.away = True
            log.info("friends game %s: %s away, the computer plays seat %d", self.code, friend.name,
                     friend.seat)
            if self.session is not None:
                self.session.set_connected(friend.seat, False)
                self._persist()
            self._rev += 1
        s = self.session
        if s is None and self.starts_at is not None and now >= self.starts_at:
            if any(not f.left for f in self.roster.friends()):
                s = self.start()
            else:
                self.set_starts_at(None)  # everyone left: the countdown starts again with the next seat
        if s is None:
            second = self.starts_in()
            if second != self._starts_second:  # the lobby's countdown, sent every second
                self._starts_second = second
                self._rev += 1
            return
        if self.host_gone_at is not None:
            minute = int((self.timers.host_wait_s - (now - self.host_gone_at)) // 60)
            if minute != self._wait_minute:  # friends' countdown, sent again every minute
                self._wait_minute = minute
                self._rev += 1
            if not s.is_over and now - self.host_gone_at >= self.timers.host_wait_s:
                self._end_without_host()
            self._finish_check(s, now)
            return
        self._play_host(dt)
        self._turn_timer(s, now)
        s.update(dt)
        self._turn_timer(s, now)  # a turn the computer players just reached has its clock in this table
        if s.hand_over and not s.is_over:
            if self.vote is None or self.vote.hand != s.t.hand_number:
                self.vote = NextHandVote(s.t.hand_number, now, self._voters())
                if self.host_plays == "bot":
                    self.vote.cast(self.human_seat)
                self._rev += 1
            self._decide_vote()
        self._finish_check(s, now)

    def _finish_check(self, s: TournamentSession, now: float) -> None:
        if s.is_over and not s.recorded:
            s.update(0.0)  # records the game for the cabinet's player
        if s.is_over and self.finished_at is None:
            self.finished_at = now
            log.info("friends game %s over: %s is the champion", self.code,
                     self.name_of(s.t.champion if s.t.champion is not None else 0))
            self._rev += 1

    def _turn_timer(self, s: TournamentSession, now: float) -> None:
        """Start the clock of a friend's move; it runs while their connection is down
        and a reconnect never starts it again for the same decision.  When it runs out,
        connected or not, the seat's computer player makes that one move (and the seat
        is away after too many in a row): closing the socket never holds the table
        longer than the clock."""
        key = self._turn_key(s)
        if key != self.turns.key:
            self._rev += 1
        self.turns.watch(key, now)
        if key is None or not self.turns.expired(now):
            return
        t, seat = s.t, key[2]
        friend = self.roster.at(seat)
        assert friend is not None
        ctrl = t.controllers[seat]
        assert isinstance(ctrl, RemoteSeat)
        action = ctrl.fallback.decide(s.view_for(seat))
        away = self.turns.expire(seat)
        log.info("friends game %s: %s's time ran out; the computer plays %s", self.code, friend.name,
                 action.kind.value)
        s.deliver(seat, action)
        if away:
            friend.away = True
            s.set_connected(seat, False)
            log.info("friends game %s: %s away after %d moves out of time", self.code, friend.name,
                     self.timers.expiries_away)
            self._persist()
        self._rev += 1

    def _turn_key(self, s: TournamentSession) -> TurnKey | None:
        """The decision a friend's clock times, (hand, length of its history, seat);
        ``None`` when no friend is to act (a computer player, an away seat, between hands)."""
        t = s.t
        seat = t.to_act
        friend = self.roster.at(seat) if seat is not None else None
        if (seat is None or friend is None or friend.away or friend.left
                or s.hand_over or t.hand is None
                or not isinstance(t.controllers[seat], RemoteSeat)):
            return None
        return (t.hand_number, len(t.hand.history), seat)

    def _end_without_host(self) -> None:
        """The host did not come back: the game ends for everyone, the players still in
        ranked by their chips at the start of the hand being played (more chips, better
        place; equal chips, the lower seat)."""
        s = self.session
        assert s is not None
        t = s.t
        alive = sorted((seat for seat in range(t.n_seats) if seat not in t.places),
                       key=lambda seat: (-t.stacks[seat], seat))
        for place, seat in enumerate(alive, start=1):
            t.places[seat] = place
        self.vote = None
        log.info("friends game %s: the host did not come back; the game ends", self.code)
        s.save()
        self._rev += 1

    def _play_host(self, dt: float) -> None:
        s = self.session
        if self._host_bot is None or s is None or not s.my_turn:
            self._host_wait = 0.0
            return
        self._host_wait += dt
        if self._host_wait < AI_DELAYS[s.ai_speed]:
            return
        view = s.view()
        if view is not None:
            s.act(self._host_bot.decide(view))
        self._host_wait = 0.0

    @property
    def finished(self) -> bool:
        """The game is over and its results have stayed up for ``finish_s``."""
        return self.finished_at is not None and self.clock() - self.finished_at >= self.timers.finish_s

    # -- what to send -------------------------------------------------------------------
    def outgoing(self) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """``(messages, closes)`` since the last call: JSON texts per connection, and
        connections to close with a reason.  Each seat's table is sent when it changed."""
        s = self.session
        self.outbox.publish((s.version if s is not None else -1, self._rev), self._conns, self.message_for)
        return self.outbox.take()

    def _send(self, conn: int, msg: Json) -> None:
        self.outbox.send(conn, msg)

    def message_for(self, conn: int) -> Json | None:
        """The table as ``conn``'s seat may see it (``None`` before it has a seat)."""
        friend = self.roster.of(conn)
        if friend is None:
            return None
        s = self.session
        if s is None:
            return self._lobby(friend)
        if s.is_over:
            return self._results(friend.seat)
        return self.table_for(friend.seat)

    def table_for(self, seat: int) -> Json:
        """The ``state`` message for ``seat``, made from its own view only."""
        return tables.table_for(self, seat)

    def _lobby(self, friend: Friend) -> Json:
        return tables.lobby_for(self, friend.seat)

    def _results(self, seat: int) -> Json:
        s = self.session
        assert s is not None
        return tables.results_for(self, s, seat)
