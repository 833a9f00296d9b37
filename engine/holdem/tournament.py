"""Sit-and-go tournaments of No-limit Hold'em, with seat controllers and records.

Everyone starts with the same chips; the blinds go up one level every N hands (hands
1..N at the starting blinds, N+1..2N at the next level, staying at the last level); the
button moves one seat left after every hand, skipping players who are out; a player
with no chips at the end of a hand is out; two out in the same hand are ranked by the
chips they started that hand with (fewer finishes lower; equal stacks: the seat nearer
the left of the button finishes lower).  The last player with chips is the champion.

**Chips are points only**: nothing here touches credits or meters.

The state is plain data: :meth:`Tournament.to_dict` / :meth:`Tournament.from_dict`
round-trip through JSON after any action (the hand in progress included), so the ledger
can save the game after every action and resume it exactly.

Seats are driven by :class:`SeatController` objects -- :class:`BotSeat`,
:class:`HumanSeat` (the local touch screen) and :class:`RemoteSeat` (an interface for
online play; the transport is not written yet).  Controllers are not part of the saved
state: they are rebuilt from the seat specs.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Protocol

from engine.errors import IllegalActionError
from engine.hands.evaluator import describe
from engine.holdem.bots import (
    PERSONALITIES,
    SEED003_PLAYERS,
    Bot,
    Difficulty,
    random_personality,
)
from engine.holdem.hand import (
    MAX_SEATS,
    MIN_SEATS,
    Action,
    BetMade,
    Called,
    HandResult,
    HoldemHand,
    LegalActions,
    PlayerView,
    Raised,
    Record,
    Street,
    record_to_dict,
)
from engine.rng import RandomSource, SystemRandomSource

# --------------------------------------------------------------------------- tables


@dataclass(frozen=True, slots=True)
class BlindLevel:
    small: int
    big: int


BLIND_LEVELS: tuple[BlindLevel, ...] = tuple(
    BlindLevel(s, b)
    for s, b in (
        (5, 10),
        (10, 20),
        (15, 30),
        (20, 40),
        (25, 50),
        (30, 60),
        (40, 80),
        (50, 100),
        (75, 150),
        (100, 200),
        (150, 300),
        (200, 400),
        (300, 600),
        (400, 800),
        (500, 1000),
        (750, 1500),
        (1000, 2000),
        (1500, 3000),
        (2000, 4000),
        (3000, 6000),
        (5000, 10000),
    )
)
"""Every table uses the same levels; a table picks the starting level."""

STARTING_LEVELS = (0, 1, 2, 4, 7)  # the starting blinds a player may choose: 5/10 .. 50/100


def level_index(blinds: tuple[int, int] | BlindLevel) -> int:
    """The index in :data:`BLIND_LEVELS` of the given blinds."""
    level = blinds if isinstance(blinds, BlindLevel) else BlindLevel(*blinds)
    try:
        return BLIND_LEVELS.index(level)
    except ValueError:
        raise ValueError(f"{level.small}/{level.big} is not a blind level") from None


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One of the tables on the title screen (seed 000).  ``hands_per_level`` None: the
    blinds never go up.  ``players`` is the allowed range of seats."""

    key: str
    name: str
    description: str
    starting_chips: int
    starting_level: int
    hands_per_level: int | None
    players: tuple[int, int] = (MIN_SEATS, MAX_SEATS)
    default_players: int = 6

    @property
    def starting_blinds(self) -> BlindLevel:
        return BLIND_LEVELS[self.starting_level]


TABLES: dict[str, TableSpec] = {
    t.key: t
    for t in (
        TableSpec(
            "classic",
            "Classic",
            "1,500 chips, blinds 10/20 going up every 10 hands.",
            1500,
            1,
            10,
        ),
        TableSpec(
            "turbo",
            "Turbo",
            "1,000 chips, blinds 25/50 going up every 5 hands: fast and wild.",
            1000,
            4,
            5,
        ),
        TableSpec(
            "deep",
            "Deep Stack",
            "5,000 chips, blinds 10/20 going up every 15 hands.",
            5000,
            1,
            15,
        ),
        TableSpec(
            "steady",
            "Steady Blinds",
            "2,000 chips, blinds 10/20 that never go up.",
            2000,
            1,
            None,
        ),
        TableSpec(
            "heads_up",
            "Heads-Up",
            "Just you and one opponent: 1,500 chips, blinds 10/20 going up every 10 hands.",
            1500,
            1,
            10,
            players=(2, 2),
            default_players=2,
        ),
        TableSpec(
            "custom",
            "Custom",
            "Your own starting chips, starting blinds and blind increase.",
            1500,
            1,
            10,
        ),
    )
}
"""Seed 000's six tables (its list is missing; these are our definitions)."""

SEED003_TABLE = TableSpec(
    "seed003",
    "Texas Hold'em",
    "Six players start with 1,500 chips each. The blinds go up "
    "every few hands. Be the last one with chips.",
    1500,
    1,
    5,
    players=(6, 6),
)


# --------------------------------------------------------------------------- seats


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: ``kind`` is "human", "bot" or "remote" (a remote seat falls back
    to a bot of ``difficulty`` while away)."""

    name: str
    kind: str = "bot"
    difficulty: str = Difficulty.NORMAL.value
    personality: str | None = None  # a PERSONALITIES key; None: a random one per game
    icon: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("human", "bot", "remote"):
            raise ValueError(f"unknown seat kind {self.kind!r}")
        Difficulty(self.difficulty)
        if self.personality is not None and self.personality not in PERSONALITIES:
            raise ValueError(f"unknown personality {self.personality!r}")


class SeatController(Protocol):
    """Drives one seat.  ``decide`` returns an action, or ``None`` while waiting for input
    (a person); it is only ever given the seat's own :class:`PlayerView`."""

    kind: ClassVar[str]

    def decide(self, view: PlayerView) -> Action | None: ...


class BotSeat:
    kind: ClassVar[str] = "bot"

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def decide(self, view: PlayerView) -> Action | None:
        return self.bot.decide(view)


class HumanSeat:
    """The local player: the screen calls :meth:`submit`; the table picks it up."""

    kind: ClassVar[str] = "human"

    def __init__(self) -> None:
        self.pending: Action | None = None

    def submit(self, action: Action) -> None:
        self.pending = action

    def decide(self, view: PlayerView) -> Action | None:
        action, self.pending = self.pending, None
        return action


class RemoteSeat:
    """A seat played from another device (interface only).

    The network layer calls :meth:`deliver` with the player's actions and
    :meth:`set_connected`; while the player is away (seed 000: ~45 s) the ``fallback`` bot
    plays the seat.  Still to do: the transport, authentication of the sender, sending
    each seat its own :class:`PlayerView`, the away timer and the "Next hand" vote.
    """

    kind: ClassVar[str] = "remote"

    def __init__(self, fallback: Bot) -> None:
        self.fallback = fallback
        self.connected = True
        self.inbox: deque[Action] = deque()

    def deliver(self, action: Action) -> None:
        self.inbox.append(action)

    def set_connected(self, connected: bool) -> None:
        self.connected = connected

    def decide(self, view: PlayerView) -> Action | None:
        if self.inbox:
            return self.inbox.popleft()
        if not self.connected:
            return self.fallback.decide(view)
        return None


# --------------------------------------------------------------------------- config


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    table: str
    seats: tuple[SeatSpec, ...]
    starting_chips: int
    starting_level: int
    hands_per_level: int | None

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a tournament has {MIN_SEATS} to {MAX_SEATS} players, not {n}")
        if type(self.starting_chips) is not int or self.starting_chips <= 0:
            raise ValueError("starting chips must be a positive whole number")
        if not 0 <= self.starting_level < len(BLIND_LEVELS):
            raise ValueError("no such blind level")
        if self.hands_per_level is not None and self.hands_per_level < 1:
            raise ValueError("blinds go up every 1 or more hands")

    @classmethod
    def for_table(
        cls,
        table: str,
        seats: Sequence[SeatSpec],
        *,
        starting_chips: int | None = None,
        starting_blinds: tuple[int, int] | None = None,
        hands_per_level: int | None | str = "table",
    ) -> TournamentConfig:
        """A config for one of :data:`TABLES`; only Custom takes the overrides."""
        spec = SEED003_TABLE if table == SEED003_TABLE.key else TABLES[table]
        lo, hi = spec.players
        if not lo <= len(seats) <= hi:
            raise ValueError(f"the {spec.name} table seats {lo} to {hi} players")
        if table != "custom" and (
            starting_chips is not None or starting_blinds is not None or hands_per_level != "table"
        ):
            raise ValueError("only the Custom table takes its own chips and blinds")
        return cls(
            table=table,
            seats=tuple(seats),
            starting_chips=starting_chips if starting_chips is not None else spec.starting_chips,
            starting_level=(
                level_index(starting_blinds) if starting_blinds else spec.starting_level
            ),
            hands_per_level=(
                spec.hands_per_level if hands_per_level == "table" else hands_per_level  # type: ignore[arg-type]
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "seats": [asdict(s) for s in self.seats],
            "starting_chips": self.starting_chips,
            "starting_level": self.starting_level,
            "hands_per_level": self.hands_per_level,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        return cls(
            table=data["table"],
            seats=tuple(SeatSpec(**s) for s in data["seats"]),
            starting_chips=data["starting_chips"],
            starting_level=data["starting_level"],
            hands_per_level=data["hands_per_level"],
        )


def seed003_config(human_name: str = "You") -> TournamentConfig:
    """Seed 003: you and five computer players (Ike on your left, then Max, Rosa, Jules and
    Nina), 1,500 chips each, blinds 10/20 going up every 5 hands."""
    seats = [SeatSpec(human_name, kind="human")]
    seats += [SeatSpec(name, "bot", Difficulty.NORMAL.value, name) for name in SEED003_PLAYERS]
    return TournamentConfig.for_table(SEED003_TABLE.key, seats)


# --------------------------------------------------------------------------- stats


@dataclass(slots=True)
class SeatStats:
    """One player's numbers in one game."""

    hands_played: int = 0
    hands_won: int = 0  # hands in which they won chips from a pot
    biggest_pot: int = 0  # most chips won in one hand
    best_hand: int | None = None  # best strength shown at a showdown
    vpip_hands: int = 0  # hands with chips put in by choice before the flop
    bets_raises: int = 0  # for the aggression factor
    calls: int = 0

    @property
    def vpip(self) -> float:
        return self.vpip_hands / self.hands_played if self.hands_played else 0.0

    @property
    def aggression_factor(self) -> float:
        return self.bets_raises / self.calls if self.calls else float(self.bets_raises)


# --------------------------------------------------------------------------- tournament


class Tournament:
    """A sit-and-go in progress.

    Typical screen loop::

        t = Tournament(config)            # the button goes to a random player
        t.start_hand()
        while not t.is_over:
            t.run_bots()                  # bots (and away remote seats) act
            if t.hand_over:               # result on the table until "Next hand"
                t.start_hand(); continue
            seat, legal = t.to_act, t.legal_actions()
            t.act(seat, Action.raise_to(legal.min_to))   # the human's choice
    """

    def __init__(
        self,
        config: TournamentConfig,
        *,
        rng: RandomSource | None = None,
        button: int | None = None,
        controllers: dict[int, SeatController] | None = None,
        bot_samples: int | None = None,
    ) -> None:
        self.config = config
        self.rng: RandomSource = rng if rng is not None else SystemRandomSource()
        n = len(config.seats)
        self.stacks: list[int] = [config.starting_chips] * n
        self.button: int = button if button is not None else self.rng.randbelow(n)
        self.hand_number = 0  # hands started
        self.hand: HoldemHand | None = None
        self.places: dict[int, int] = {}  # seat -> finishing place (1 = champion)
        self.out_order: list[int] = []  # seats in the order they went out
        self.stats: list[SeatStats] = [SeatStats() for _ in range(n)]
        self.hand_log: list[dict[str, Any]] = []  # public history of finished hands
        self.last_result: HandResult | None = None
        self.personalities: list[str | None] = [s.personality for s in config.seats]
        self.started_at = time.time()
        self._bot_samples = bot_samples
        self.controllers = controllers if controllers is not None else self._make_controllers()

    def _make_controllers(self) -> dict[int, SeatController]:
        out: dict[int, SeatController] = {}
        for seat, spec in enumerate(self.config.seats):
            if spec.kind == "human":
                out[seat] = HumanSeat()
                continue
            seed = self.rng.randbelow(1 << 63)
            personality: Any = spec.personality or random_personality(spec.name, seed ^ 1)
            bot = Bot(spec.difficulty, personality, rng=seed, samples=self._bot_samples)
            out[seat] = BotSeat(bot) if spec.kind == "bot" else RemoteSeat(bot)
        return out

    # ------------------------------------------------------------------ queries

    @property
    def n_seats(self) -> int:
        return len(self.config.seats)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.config.seats]

    @property
    def players_left(self) -> list[int]:
        return [s for s in range(self.n_seats) if self.stacks_now[s] > 0]

    @property
    def stacks_now(self) -> list[int]:
        """Chips in front of each seat right now (during a hand: behind, bets excluded)."""
        if self.hand is not None and not self.hand.is_over:
            return list(self.hand.stacks)
        return list(self.stacks)

    @property
    def is_over(self) -> bool:
        return self.champion is not None

    @property
    def champion(self) -> int | None:
        for seat, place in self.places.items():
            if place == 1:
                return seat
        return None

    @property
    def hand_over(self) -> bool:
        """A hand was played and its result is on the table (waiting for "Next hand")."""
        return self.hand is not None and self.hand.is_over

    def level_for_hand(self, number: int) -> int:
        """Blind level index for hand ``number`` (1-based)."""
        per = self.config.hands_per_level
        up = 0 if per is None else (number - 1) // per
        return min(self.config.starting_level + up, len(BLIND_LEVELS) - 1)

    @property
    def blinds(self) -> BlindLevel:
        """Blinds of the current hand (or of the next one between hands)."""
        number = (
            self.hand_number
            if self.hand is not None and not self.hand.is_over
            else (self.hand_number + 1)
        )
        return BLIND_LEVELS[self.level_for_hand(max(1, number))]

    @property
    def hands_to_next_level(self) -> int | None:
        """Hands left at these blinds, this one included (None: they never go up)."""
        per = self.config.hands_per_level
        if per is None or self.level_for_hand(self._display_number) == len(BLIND_LEVELS) - 1:
            return None
        return per - (self._display_number - 1) % per

    @property
    def _display_number(self) -> int:
        if self.hand is not None and not self.hand.is_over:
            return self.hand_number
        return self.hand_number + 1

    @property
    def to_act(self) -> int | None:
        return self.hand.to_act if self.hand is not None else None

    def legal_actions(self) -> LegalActions | None:
        return self.hand.legal_actions() if self.hand is not None else None

    def view(self, seat: int) -> PlayerView:
        if self.hand is None:
            raise IllegalActionError("no hand has been dealt yet")
        return self.hand.view(seat)

    def standings(self) -> list[tuple[int, int | None, int]]:
        """(seat, place or None if still in, chips) best first."""
        stacks = self.stacks_now
        alive = sorted(
            (s for s in range(self.n_seats) if s not in self.places),
            key=lambda s: -stacks[s],
        )
        done = sorted(self.places, key=lambda s: self.places[s])
        return [(s, None, stacks[s]) for s in alive] + [(s, self.places[s], 0) for s in done]

    # ------------------------------------------------------------------ playing

    def start_hand(self, *, deck: Sequence[int] | None = None) -> HoldemHand:
        """Deal the next hand (the button moves left, skipping players who are out).

        ``deck`` (tests, audits) fixes the cards in dealing order; by default the deck is
        shuffled with the tournament's random source.
        """
        if self.is_over:
            raise IllegalActionError("the tournament is over")
        if self.hand is not None and not self.hand.is_over:
            raise IllegalActionError("a hand is still being played")
        if self.hand is not None:
            self.button = self._next_alive(self.button)
        elif self.stacks[self.button] == 0:
            self.button = self._next_alive(self.button)
        self.hand_number += 1
        level = BLIND_LEVELS[self.level_for_hand(self.hand_number)]
        self.hand = HoldemHand(
            self.stacks, self.button, level.small, level.big, deck=deck, rng=self.rng
        )
        for seat in self.hand.players:
            self.stats[seat].hands_played += 1
        if self.hand.is_over:  # everyone all in from the blinds
            self._finish_hand()
        return self.hand

    next_hand = start_hand

    def _next_alive(self, seat: int) -> int:
        n = self.n_seats
        for i in range(1, n + 1):
            s = (seat + i) % n
            if self.stacks[s] > 0:
                return s
        raise AssertionError("nobody has chips")

    def act(self, seat: int, action: Action) -> Record:
        """Perform ``seat``'s action (the same checks as the hand: whose turn, legality)."""
        if self.hand is None or self.hand.is_over:
            raise IllegalActionError("no hand is being played: deal the next hand")
        postflop = self.hand.street is not Street.PREFLOP
        record = self.hand.act(action, seat=seat)
        if postflop:  # the aggression factor counts actions after the flop
            stats = self.stats[seat]
            if isinstance(record, BetMade | Raised):
                stats.bets_raises += 1
            elif isinstance(record, Called):
                stats.calls += 1
        if self.hand.is_over:
            self._finish_hand()
        return record

    def step(self) -> bool:
        """Let the seat to act decide; returns False if it is waiting for input."""
        seat = self.to_act
        if seat is None:
            return False
        action = self.controllers[seat].decide(self.view(seat))
        if action is None:
            return False
        self.act(seat, action)
        return True

    def run_bots(self, max_actions: int = 10_000) -> int:
        """Play every decision the controllers can make now; returns how many were made."""
        done = 0
        while done < max_actions and self.step():
            done += 1
        return done

    def play_to_end(self, max_hands: int = 100_000) -> int:
        """Bots only: play hands until there is a champion; returns the champion's seat."""
        for _ in range(max_hands):
            if self.is_over:
                break
            self.start_hand()
            self.run_bots()
            if not self.hand_over:
                raise IllegalActionError("a seat is waiting for a person")
        assert self.champion is not None
        return self.champion

    def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.is_over
        result = hand.result()
        self.last_result = result
        before = list(self.stacks)
        self.stacks = list(result.final_stacks)
        if sum(self.stacks) != sum(before):
            raise AssertionError("chips not conserved")
        for seat in hand.players:
            st = self.stats[seat]
            if hand.voluntary[seat]:
                st.vpip_hands += 1
            if result.won[seat] > 0:
                st.hands_won += 1
                st.biggest_pot = max(st.biggest_pot, result.won[seat])
        for shown in result.shown:
            st = self.stats[shown.seat]
            if st.best_hand is None or shown.strength > st.best_hand:
                st.best_hand = shown.strength
        # eliminations: fewer chips at the start of the hand finishes lower
        busted = [s for s in hand.players if self.stacks[s] == 0]
        if busted:
            remaining = sum(1 for s in range(self.n_seats) if before[s] > 0)
            order = list(hand.players)
            # best first: more chips at the start of the hand, then further from the left
            # of the button, finishes higher
            busted.sort(key=lambda s: (before[s], order.index(s)), reverse=True)
            for i, seat in enumerate(busted):
                self.places[seat] = remaining - len(busted) + 1 + i
            self.out_order.extend(reversed(busted))
        alive = [s for s in range(self.n_seats) if self.stacks[s] > 0]
        if len(alive) == 1:
            self.places[alive[0]] = 1
        self.hand_log.append(
            {
                "hand": self.hand_number,
                "button": hand.button,
                "blinds": [hand.small_blind, hand.big_blind],
                "records": [record_to_dict(r) for r in hand.public_history(viewer=None)],
                "result": result.to_dict(),
            }
        )

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        """JSON-able state (the hand in progress included, with its deck: keep it private)."""
        return {
            "version": 1,
            "config": self.config.to_dict(),
            "stacks": list(self.stacks),
            "button": self.button,
            "hand_number": self.hand_number,
            "hand": self.hand.to_dict() if self.hand is not None else None,
            "places": {str(k): v for k, v in self.places.items()},
            "out_order": list(self.out_order),
            "stats": [asdict(s) for s in self.stats],
            "hand_log": self.hand_log,
            "started_at": self.started_at,
        }

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        *,
        rng: RandomSource | None = None,
        controllers: dict[int, SeatController] | None = None,
        bot_samples: int | None = None,
    ) -> Tournament:
        """Resume a saved game.  Bots are rebuilt (their random streams restart)."""
        config = TournamentConfig.from_dict(data["config"])
        t = cls(
            config,
            rng=rng,
            button=data["button"],
            controllers=controllers,
            bot_samples=bot_samples,
        )
        t.stacks = list(data["stacks"])
        t.hand_number = data["hand_number"]
        t.places = {int(k): v for k, v in data["places"].items()}
        t.out_order = list(data["out_order"])
        t.stats = [SeatStats(**s) for s in data["stats"]]
        t.hand_log = list(data["hand_log"])
        t.started_at = data.get("started_at", t.started_at)
        if data["hand"] is not None:
            t.hand = HoldemHand.from_dict(data["hand"])
            if t.hand.is_over:
                t.last_result = t.hand.result()
        return t

    # ------------------------------------------------------------------ records

    def summary(self, seat: int, *, duration_s: float | None = None) -> GameSummary:
        """The record of this finished game for the player in ``seat``."""
        if not self.is_over:
            raise IllegalActionError("the tournament is not over")
        st = self.stats[seat]
        opponents = [
            s.difficulty for i, s in enumerate(self.config.seats) if i != seat and s.kind != "human"
        ]
        return GameSummary(
            table=self.config.table,
            players=self.n_seats,
            place=self.places[seat],
            hands_played=st.hands_played,
            hands_won=st.hands_won,
            vpip_hands=st.vpip_hands,
            biggest_pot=st.biggest_pot,
            best_hand=st.best_hand,
            ai_strengths=sorted(set(opponents)),
            duration_s=duration_s if duration_s is not None else time.time() - self.started_at,
            finished_at=time.time(),
            online=any(s.kind == "remote" for s in self.config.seats),
        )


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One finished game from one player's side (what the Records screen keeps)."""

    table: str
    players: int
    place: int
    hands_played: int
    hands_won: int
    vpip_hands: int
    biggest_pot: int
    best_hand: int | None
    ai_strengths: list[str] = field(default_factory=list)
    duration_s: float = 0.0
    finished_at: float = 0.0
    online: bool = False

    @property
    def won(self) -> bool:
        return self.place == 1

    @property
    def best_hand_name(self) -> str | None:
        """The best hand in words ("Two pair, kings and sevens")."""
        return describe(self.best_hand) if self.best_hand is not None else None


class PlayerRecords:
    """Every finished game kept on this cabinet for one player (latest ``keep`` games).

    Totals: games, wins and win rate, average place, play time, hands played and won,
    biggest pot, best hand, VPIP; places, results by table and by AI strength, recent games.
    """

    def __init__(self, games: Iterable[GameSummary] = (), *, keep: int = 60) -> None:
        self.keep = keep
        self.games: list[GameSummary] = list(games)[-keep:]

    def add(self, game: GameSummary) -> None:
        self.games.append(game)
        del self.games[: -self.keep]

    def totals(self) -> dict[str, Any]:
        g = self.games
        hands = sum(x.hands_played for x in g)
        best = max((x.best_hand for x in g if x.best_hand is not None), default=None)
        return {
            "games": len(g),
            "wins": sum(x.won for x in g),
            "win_rate": sum(x.won for x in g) / len(g) if g else 0.0,
            "average_place": sum(x.place for x in g) / len(g) if g else None,
            "play_time_s": sum(x.duration_s for x in g),
            "hands_played": hands,
            "hands_won": sum(x.hands_won for x in g),
            "biggest_pot": max((x.biggest_pot for x in g), default=0),
            "best_hand": best,
            "vpip": sum(x.vpip_hands for x in g) / hands if hands else 0.0,
            "places": {str(p): sum(1 for x in g if x.place == p) for p in range(1, 7)},
            "by_table": _group(g, lambda x: [x.table]),
            "by_ai_strength": _group(g, lambda x: x.ai_strengths),
        }

    def recent(self, count: int = 10) -> list[GameSummary]:
        return list(reversed(self.games[-count:]))

    def clear(self) -> None:
        """Delete all (cannot be undone)."""
        self.games.clear()

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "keep": self.keep, "games": [asdict(x) for x in self.games]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerRecords:
        return cls((GameSummary(**x) for x in data["games"]), keep=data.get("keep", 60))

    def export_json(self) -> str:
        """ "Export JSON": everything, with the totals."""
        return json.dumps({**self.to_dict(), "totals": self.totals()}, indent=2)


def _group(games: list[GameSummary], keys: Any) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for game in games:
        for key in keys(game):
            row = out.setdefault(key, {"games": 0, "wins": 0})
            row["games"] += 1
            row["wins"] += game.won
    return out


__all__ = [
    "BLIND_LEVELS",
    "BlindLevel",
    "BotSeat",
    "GameSummary",
    "HumanSeat",
    "PlayerRecords",
    "RemoteSeat",
    "SEED003_TABLE",
    "STARTING_LEVELS",
    "SeatController",
    "SeatSpec",
    "SeatStats",
    "TABLES",
    "TableSpec",
    "Tournament",
    "TournamentConfig",
    "level_index",
    "seed003_config",
]
