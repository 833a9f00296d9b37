"""Sit-and-go tournaments of No-limit Hold'em.

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

Seats are driven by the controllers of :mod:`engine.holdem.seats` (not part of the saved
state: they are rebuilt from the seat specs).  The tables and blind levels are in
:mod:`engine.holdem.blinds`, the set-up in :mod:`engine.holdem.config`, the players'
numbers in :mod:`engine.holdem.stats`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from engine.errors import IllegalActionError
from engine.holdem.actions import Action, Street
from engine.holdem.blinds import BLIND_LEVELS, BlindLevel
from engine.holdem.bots import Bot, random_personality
from engine.holdem.config import TournamentConfig
from engine.holdem.hand import HoldemHand
from engine.holdem.records import BetMade, Called, HandResult, Raised, Record, record_to_dict
from engine.holdem.seats import BotSeat, HumanSeat, RemoteSeat, SeatController
from engine.holdem.stats import GameSummary, SeatStats
from engine.holdem.views import LegalActions, PlayerView
from engine.rng import RandomSource, SystemRandomSource


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
        # public history of finished hands: number, button, blinds, starting stacks, when
        # dealt (seconds since the epoch, None if unknown), public records, result
        self.hand_log: list[dict[str, Any]] = []
        self.last_result: HandResult | None = None
        self.personalities: list[str | None] = [s.personality for s in config.seats]
        self.started_at = time.time()
        self.hand_started_at: float | None = None  # when the hand being played was dealt
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
        self.hand_started_at = time.time()
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
                "stacks": list(hand.starting_stacks),
                "started_at": self.hand_started_at,
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
