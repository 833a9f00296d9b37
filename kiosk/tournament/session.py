"""The kiosk's tournament controller: one cabinet's game of sit-and-go Hold'em, headless.

The screens (:mod:`kiosk.ui.scenes.tournament`) drive a :class:`TournamentSession`
and draw what it says; tests drive it with no screen at all.  The rules are the engine's
(:mod:`engine.holdem.tournament`, :mod:`engine.holdem.hand`); the session only adds what a cabinet
needs around them:

* **Seats through one interface** (remote seats: :mod:`kiosk.tournament.remote`).  Every seat is driven by an
  :class:`engine.holdem.tournament.SeatController`: the local player (``HumanSeat``: the screen
  calls :meth:`TournamentSession.act`), a computer player (``BotSeat``) or a player on
  another cabinet (``RemoteSeat``: a network layer calls :meth:`deliver` and
  :meth:`set_connected`; while away the seat's fallback bot plays).  The session asks
  whichever controller's turn it is, so a seat changes hands without the rest knowing.
* **Pacing.**  Computer players take :data:`AI_DELAYS` seconds over a move (AI speed
  slow, normal, fast) and new board cards get a moment on the table; the result of a
  hand stays until :meth:`next_hand`.  Once the local player is out, the rest of the
  game is played out at once (in slices of at most :data:`FAST_BUDGET` seconds a frame)
  to settle the final standings.
* **Equity assist** for the local player (1,500 random deals) is computed in slices of
  :data:`EQUITY_SLICE` deals per :meth:`update`, so a frame never waits for it, and only
  when cards come out or somebody folds.
* **Persistence.**  After every action, every new hand and every change of preference,
  the whole game is saved (:class:`kiosk.tournament.store.TournamentStore`, one SQLite
  transaction).  :meth:`TournamentSession.resume` picks it up after a power cut.  A
  finished game is recorded (and its save deleted) in one transaction.

Chips are points: nothing here touches credits, meters or the ledger's tables.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalActionError
from engine.hands.evaluator import evaluate
from engine.holdem.actions import Action
from engine.holdem.blinds import BLIND_LEVELS
from engine.holdem.config import TournamentConfig
from engine.holdem.equity import ASSIST_SAMPLES, Equity, estimate_equity, numpy_generator
from engine.holdem.records import Record, record_to_dict
from engine.holdem.seats import HumanSeat, RemoteSeat, SeatController
from engine.holdem.stats import GameSummary
from engine.holdem.tournament import Tournament
from engine.holdem.views import LegalActions, PlayerView
from engine.rng import RandomSource
from kiosk.tournament.records import Event, HandLog, SessionState
from kiosk.tournament.remote import RemoteSeats
from kiosk.tournament.settings import SPEEDS, TournamentSettings
from kiosk.tournament.store import TournamentStore, TournamentStoreError

log = logging.getLogger(__name__)

#: Seconds a computer player takes over one move, by AI speed.
AI_DELAYS: dict[str, float] = {"slow": 1.6, "normal": 0.9, "fast": 0.35}
#: Extra seconds new board cards stay before the next computer move, by AI speed.
BOARD_PAUSE: dict[str, float] = {"slow": 1.0, "normal": 0.6, "fast": 0.25}
#: Deals of the equity assist computed per :meth:`TournamentSession.update`.
EQUITY_SLICE = 300
#: Seconds of bot play per update while the rest of the game is played out.
FAST_BUDGET = 0.008


@dataclass
class _EquityJob:
    key: tuple[Any, ...]
    done: int = 0
    win: float = 0.0
    tie: float = 0.0
    share: float = 0.0
    opponents: int = 0


class TournamentSession:
    """One cabinet's tournament: the local player in ``human_seat``, the others bots or
    remote players.  Call :meth:`update` every frame; the screen calls :meth:`act` and
    :meth:`next_hand`.  ``version`` changes whenever anything shown changes."""

    def __init__(
        self,
        tournament: Tournament,
        *,
        game_id: str | None = None,
        store: TournamentStore | None = None,
        state: SessionState | None = None,
        rng: RandomSource | None = None,
        equity_samples: int = ASSIST_SAMPLES,
        equity_slice: int = EQUITY_SLICE,
    ) -> None:
        self.t = tournament
        self.game_id = game_id or uuid.uuid4().hex
        self.store = store
        self.state = state or SessionState()
        self.equity_samples = equity_samples
        self.equity_slice = max(1, equity_slice)
        self._eq_rng = numpy_generator(rng.randbelow(1 << 63) if rng is not None else None)
        self._eq_job: _EquityJob | None = None
        self._equity: Equity | None = None
        self.version = 0
        self._wait = 0.0  # seconds the seat to act has been thinking
        self._pause = 0.0  # extra seconds before the next computer move (new cards)
        self.events: list[Event] = []
        self.store_error: str | None = None
        self.summary: GameSummary | None = None
        self.recorded = False
        self.listeners: list[Callable[[TournamentSession], None]] = []
        self.remote = RemoteSeats(tournament, lambda: self.state.human_seat, lambda: self._changed(save=False))
        self._seen = self._observe()

    # -- making one -----------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        settings: TournamentSettings | TournamentConfig,
        *,
        store: TournamentStore | None = None,
        rng: RandomSource | None = None,
        bot_samples: int | None = None,
        human_seat: int = 0,
        **kwargs: Any,
    ) -> TournamentSession:
        """A new game: the button goes to a random player and the first hand is dealt
        (and saved: it replaces any saved game)."""
        if isinstance(settings, TournamentSettings):
            config = settings.config()
            state = SessionState(human_seat, settings.ai_speed, settings.equity_assist,
                                 four_colour=settings.four_colour)
        else:
            config = settings
            state = SessionState(human_seat)
        t = Tournament(config, rng=rng, bot_samples=bot_samples)
        session = cls(t, store=store, state=state, rng=rng, **kwargs)
        session._deal()
        return session

    @classmethod
    def resume(
        cls,
        store: TournamentStore,
        *,
        rng: RandomSource | None = None,
        bot_samples: int | None = None,
        **kwargs: Any,
    ) -> TournamentSession | None:
        """The saved game exactly as it was at its last action, or ``None``."""
        loaded = store.load()
        if loaded is None:
            return None
        game_id, data, session_data = loaded
        t = Tournament.from_dict(data, rng=rng, bot_samples=bot_samples)
        session = cls(t, game_id=game_id, store=store, state=SessionState.from_dict(session_data), rng=rng,
                      **kwargs)
        if t.is_over:
            session._finish()
        return session

    # -- queries ----------------------------------------------------------------------------
    @property
    def human_seat(self) -> int:
        return self.state.human_seat

    @property
    def ai_speed(self) -> str:
        return self.state.ai_speed

    @property
    def equity_assist(self) -> bool:
        return self.state.equity_assist

    @property
    def four_colour(self) -> bool:
        """The deck the local player chose: 4 colours (True) or 2."""
        return self.state.four_colour

    @property
    def player_name(self) -> str:
        """The local player's name: their records and this saved game belong to it."""
        return self.t.config.seats[self.human_seat].name

    def settings(self) -> TournamentSettings:
        """The setup that plays this game's table again (Play again)."""
        return TournamentSettings.of_game(self.t.config, self.human_seat, ai_speed=self.ai_speed,
                                          equity_assist=self.equity_assist, four_colour=self.four_colour)

    @property
    def is_over(self) -> bool:
        return self.t.is_over

    @property
    def hand_over(self) -> bool:
        return self.t.hand_over

    @property
    def human_out(self) -> bool:
        return self.human_seat in self.t.places and self.t.places[self.human_seat] != 1

    @property
    def playing_out(self) -> bool:
        """The local player is out and the rest of the game is being played out."""
        return self.state.fast_forward and not self.is_over

    @property
    def my_turn(self) -> bool:
        return self.t.to_act == self.human_seat and not self.hand_over

    def view(self) -> PlayerView | None:
        """What the local player may see of the hand (``None`` before the first deal)."""
        return self.t.view(self.human_seat) if self.t.hand is not None else None

    def legal(self) -> LegalActions | None:
        return self.t.legal_actions() if self.my_turn else None

    def seat_kind(self, seat: int) -> str:
        """``local``, ``bot`` or ``remote`` (a remote seat's bot plays while it is away)."""
        if seat == self.human_seat:
            return "local"
        return getattr(self.t.controllers.get(seat), "kind", "bot")

    def controller(self, seat: int) -> SeatController:
        return self.t.controllers[seat]

    def equity(self) -> tuple[Equity | None, bool]:
        """``(estimate, computing)``: the estimate for the cards shown now (``None`` while
        it is being worked out, when the assist is off or the player holds no cards)."""
        if not self.equity_assist:
            return None, False
        job = self._eq_job
        if job is None:
            return None, False
        return self._equity, self._equity is None

    def hand_name_strength(self) -> int | None:
        """Strength of the local player's best hand with the board (flop onwards)."""
        v = self.view()
        if v is None or len(v.hole_cards) != 2 or len(v.board) < 3:
            return None
        return int(evaluate([*v.hole_cards, *v.board]))

    def history(self) -> list[HandLog]:
        """Every hand so far, oldest first, the hand being played included."""
        out = []
        for entry in self.t.hand_log:
            n = int(entry["hand"])
            out.append(HandLog(n, int(entry["button"]), tuple(entry["blinds"]), entry["records"],
                               self.state.my_holes.get(n), entry.get("result"), False))
        h = self.t.hand
        if h is not None and not h.is_over:
            recs = [record_to_dict(r) for r in h.public_history(viewer=None)]
            out.append(HandLog(self.t.hand_number, h.button, (h.small_blind, h.big_blind), recs,
                               self.state.my_holes.get(self.t.hand_number), None, True))
        return out

    def pop_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    # -- the local player ----------------------------------------------------------------------
    def act(self, action: Action) -> Record:
        """The local player's move (through its seat controller, like any other seat).

        Raises :class:`IllegalActionError` (nothing changes) if it is not their turn or the
        rules do not allow it."""
        seat = self.human_seat
        if not self.my_turn or self.t.hand is None:
            raise IllegalActionError("it is not your turn")
        self.t.hand.verify_action(action, seat)
        ctrl = self.t.controllers[seat]
        if not isinstance(ctrl, HumanSeat):
            raise IllegalActionError("this seat is not played from this cabinet")
        ctrl.submit(action)
        return self._step(seat)

    def fold(self) -> Record:
        la = self.legal()
        return self.act(Action.check() if la is not None and la.can_check else Action.fold())

    def check_or_call(self) -> Record:
        la = self.legal()
        return self.act(Action.check() if la is None or la.can_check else Action.call())

    def all_in(self) -> Record:
        return self.act(Action.all_in())

    def next_hand(self) -> bool:
        """"Next hand": deal it (or, the local player being out and no remote player
        still in, play the game out)."""
        if self.is_over or not self.hand_over:
            return False
        if self.human_out and not self.remote.players_in():
            if not self.state.fast_forward:
                self.state.fast_forward = True
                self._changed()
            return True
        self._deal()
        return True

    def set_ai_speed(self, speed: str) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"AI speed is one of {', '.join(SPEEDS)}")
        self.state.ai_speed = speed
        self._changed()

    def set_four_colour(self, on: bool) -> None:
        """The deck: 4 colours (diamonds blue, clubs green) or the usual 2."""
        self.state.four_colour = bool(on)
        self._changed()

    def set_equity_assist(self, on: bool) -> None:
        self.state.equity_assist = bool(on)
        self._eq_job, self._equity = None, None
        self._changed()

    # -- remote seats (another cabinet: :class:`kiosk.tournament.remote.RemoteSeats`) ------------
    def attach_remote(self, seat: int) -> RemoteSeat:
        return self.remote.attach(seat)

    def deliver(self, seat: int, action: Action) -> None:
        self.remote.deliver(seat, action)

    def set_connected(self, seat: int, connected: bool) -> None:
        self.remote.set_connected(seat, connected)

    def view_for(self, seat: int) -> PlayerView:
        return self.remote.view_for(seat)

    # -- time ----------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance ``dt`` seconds: one slice of the equity assist, then whatever seat is due."""
        if self.is_over:
            if not self.recorded:
                self._finish()
            return
        self.state.play_time_s += dt
        self._equity_slice()
        if self.state.fast_forward:
            self._play_out()
            return
        if self.t.hand is None or self.hand_over:
            return
        seat = self.t.to_act
        if seat is None or seat == self.human_seat:
            return
        ctrl = self.t.controllers[seat]
        if isinstance(ctrl, RemoteSeat) and ctrl.connected:
            if ctrl.inbox:
                try:
                    self._step(seat)
                except IllegalActionError:
                    pass  # refused (logged) and dropped: the player is asked again
            return
        self._wait += dt
        if self._wait < AI_DELAYS[self.ai_speed] + self._pause:
            return
        self._step(seat)

    def _play_out(self) -> None:
        start = time.perf_counter()
        while not self.is_over and time.perf_counter() - start < FAST_BUDGET:
            if self.hand_over:
                self.t.start_hand()
                self._changed(save=False)
                continue
            seat = self.t.to_act
            if seat is None:
                break
            if not self.t.step():
                break  # a remote player is to act: wait for them
            self._changed(save=self.hand_over)  # saved once a hand (the local player is out)
        if self.is_over:
            self._finish()

    def _step(self, seat: int) -> Record:
        """Let ``seat``'s controller play its move; returns the record."""
        n = len(self.t.hand.history) if self.t.hand is not None else 0
        try:
            done = self.t.step()
        except IllegalActionError as exc:  # a remote player's move the rules refuse: dropped
            log.warning("seat %s: move refused: %s", seat, exc.reason)
            self._wait = 0.0
            raise
        if not done or self.t.hand is None:
            raise IllegalActionError("the seat did not move")
        record = next(r for r in self.t.hand.history[n:] if getattr(r, "seat", None) == seat)
        self._wait = 0.0
        self._changed()
        return record

    def _deal(self) -> None:
        self.t.start_hand()
        h = self.t.hand
        hole = h.hole_cards[self.human_seat] if h is not None else None
        if hole is not None:
            self.state.my_holes[self.t.hand_number] = (hole[0], hole[1])
        self._wait = 0.0
        self._changed()

    # -- bookkeeping ------------------------------------------------------------------------------
    def _observe(self) -> tuple[Any, ...]:
        h = self.t.hand
        return (self.t.hand_number, len(h.board) if h is not None else 0, len(h.history) if h is not None else 0,
                self.t.hand_over, self.t.level_for_hand(max(1, self.t.hand_number)), frozenset(self.t.places))

    def _changed(self, save: bool = True) -> None:
        """Note what changed (events, pacing), save, tell the listeners."""
        before, now = self._seen, self._observe()
        self._seen = now
        h = self.t.hand
        self._pause = 0.0
        if h is not None:
            if now[0] != before[0]:
                self.events.append(Event("hand", data=now[0]))
                self._pause = BOARD_PAUSE[self.ai_speed]  # the cards are dealt: a moment to look
                if now[4] != before[4] and now[0] > 1:
                    self.events.append(Event("blinds_up", data=BLIND_LEVELS[now[4]]))
            start = before[2] if now[0] == before[0] else 0
            for r in h.history[start:]:
                if type(r).__name__ in ("Folded", "Checked", "Called", "BetMade", "Raised"):
                    self.events.append(Event("action", r.seat, r))  # type: ignore[union-attr]
            if now[1] > (before[1] if now[0] == before[0] else 0):
                self.events.append(Event("board", data=now[1]))
                self._pause = BOARD_PAUSE[self.ai_speed]
            if now[3] and not before[3]:
                self.events.append(Event("hand_over", data=self.t.hand_number))
        for seat in sorted(now[5] - before[5], key=lambda x: -self.t.places[x]):
            if self.t.places[seat] != 1:  # the champion is not out
                self.events.append(Event("out", seat, self.t.places[seat]))
        if self.is_over and self.t.champion not in before[5]:
            self.events.append(Event("game_over", self.t.champion))
        self.version += 1
        if save:
            self.save()
        for cb in list(self.listeners):
            cb(self)

    def save(self) -> None:
        if self.store is None or self.recorded:
            return
        try:
            self.store.save(self.game_id, self.t.to_dict(), self.state.to_dict())
            self.store_error = None
        except TournamentStoreError as exc:
            log.error("tournament not saved: %s", exc.reason)
            self.store_error = exc.reason

    def _finish(self) -> None:
        """Record the finished game (and drop its save) once."""
        if self.recorded or not self.is_over:
            return
        self.summary = self.t.summary(self.human_seat, duration_s=self.state.play_time_s)
        if self.store is not None:
            try:
                self.store.finish(self.game_id, self.summary, player=self.player_name, state=self.t.to_dict(),
                                  session=self.state.to_dict())
            except Exception as exc:  # noqa: BLE001 - a store error, or sqlite's own
                log.error("tournament not recorded: %s", exc)
                self.store_error = str(exc)
                return
        self.recorded = True
        self.version += 1

    def abandon(self) -> None:
        """"Abandon this game": deleted without being recorded."""
        if self.store is not None:
            try:
                self.store.discard()
            except Exception as exc:  # noqa: BLE001
                log.error("abandoned tournament not deleted: %s", exc)
        self.recorded = True  # nothing more is saved or recorded

    # -- equity --------------------------------------------------------------------------------
    def _equity_slice(self) -> None:
        if not self.equity_assist:
            return
        v = self.view()
        if v is None or self.hand_over or len(v.hole_cards) != 2 or not v.in_hand[v.seat]:
            if self._eq_job is not None:
                self._eq_job, self._equity = None, None
                self.version += 1
            return
        key = (tuple(v.hole_cards), tuple(v.board), v.opponents)
        job = self._eq_job
        if job is None or job.key != key:
            job = self._eq_job = _EquityJob(key, opponents=v.opponents)
            self._equity = None
            self.version += 1
        if self._equity is not None:
            return
        n = min(self.equity_slice, self.equity_samples - job.done)
        e = estimate_equity(v.hole_cards, v.board, v.opponents, samples=n, rng=self._eq_rng)
        job.win += e.win * n
        job.tie += e.tie * n
        job.share += e.equity * n
        job.done += n
        if job.done >= self.equity_samples:
            d = job.done
            self._equity = Equity(job.win / d, job.tie / d, job.share / d, d, job.opponents)
            self.version += 1
