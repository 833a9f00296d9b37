"""How a player plays, in the usual poker figures, counted from its decisions.

Each decision is given as the view the player decided on and the record of what it did
(:meth:`StyleTracker.decision`), each hand dealt as whether it put chips in by choice
before the flop (:meth:`StyleTracker.hand_dealt`).  Players are keyed by any name (a
personality, a seat).

* **VPIP**: hands with chips put in by choice before the flop, per hand dealt.
* **PFR**: hands with a raise before the flop, per hand dealt.
* **Aggression factor**: (bets + raises) / calls after the flop.
* **Fold to a big bet**: folds after the flop when facing a bet over half the pot (the
  pot before that bet), per such decision.
* **Bluff rate**: bets and raises after the flop with a weak hand -- equity against the
  players still in (random hands, :data:`BLUFF_SAMPLES` deals) under
  :data:`BLUFF_SHARE` of a fair share ``1 / (players in)`` -- per 100 hands dealt.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.holdem.actions import Action, Street
from engine.holdem.equity import RandomLike, estimate_equity, numpy_generator
from engine.holdem.hand import HoldemHand
from engine.holdem.records import BetMade, Called, Folded, Raised, Record
from engine.holdem.views import PlayerView
from engine.rng import SeededRandomSource

BIG_BET = 0.5  # a bet over half the pot before it is "big"
BLUFF_SHARE = 0.6  # equity under this share of a fair share makes a bet a bluff
BLUFF_SAMPLES = 300


@dataclass(slots=True)
class StyleCounts:
    """One player's counts; the figures are properties (0 when nothing was counted)."""

    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    bets_raises: int = 0  # after the flop
    calls: int = 0  # after the flop
    big_bets_faced: int = 0
    big_bets_folded: int = 0
    bluffs: int = 0

    @property
    def vpip(self) -> float:
        return self.vpip_hands / self.hands if self.hands else 0.0

    @property
    def pfr(self) -> float:
        return self.pfr_hands / self.hands if self.hands else 0.0

    @property
    def aggression_factor(self) -> float:
        return self.bets_raises / self.calls if self.calls else float(self.bets_raises)

    @property
    def fold_to_big_bet(self) -> float:
        return self.big_bets_folded / self.big_bets_faced if self.big_bets_faced else 0.0

    @property
    def bluffs_per_100(self) -> float:
        return 100.0 * self.bluffs / self.hands if self.hands else 0.0


def big_bet_ratio(view: PlayerView) -> float:
    """The bet ``view``'s seat faces, over the pot before that bet was made (0: no bet)."""
    legal = view.legal
    if legal is None or legal.call_amount <= 0:
        return 0.0
    faced = view.current_bet - legal.bet
    return faced / max(1, legal.pot - faced)


class Player(Protocol):
    def decide(self, view: PlayerView) -> Action: ...


class StyleTracker:
    """Counts :class:`StyleCounts` per player key.  ``rng`` seeds the bluff check's deals."""

    def __init__(self, *, rng: RandomLike = None) -> None:
        self.counts: dict[Hashable, StyleCounts] = {}
        self._rng = numpy_generator(rng)
        self._raised: set[Hashable] = set()

    def of(self, key: Hashable) -> StyleCounts:
        return self.counts.setdefault(key, StyleCounts())

    def decision(self, key: Hashable, view: PlayerView, record: Record) -> None:
        """``key`` decided on ``view`` and did ``record``."""
        c = self.of(key)
        aggressive = isinstance(record, BetMade | Raised)
        if view.street is Street.PREFLOP:
            if aggressive:
                self._raised.add(key)
            return
        if aggressive:
            c.bets_raises += 1
            if self._weak(view):
                c.bluffs += 1
        elif isinstance(record, Called):
            c.calls += 1
        if big_bet_ratio(view) > BIG_BET:
            c.big_bets_faced += 1
            c.big_bets_folded += isinstance(record, Folded)

    def hand_dealt(self, key: Hashable, voluntary: bool) -> None:
        """A hand ``key`` was dealt is over; ``voluntary``: it put chips in by choice."""
        c = self.of(key)
        c.hands += 1
        c.vpip_hands += voluntary
        if key in self._raised:
            c.pfr_hands += 1
            self._raised.discard(key)

    def _weak(self, view: PlayerView) -> bool:
        opponents = max(1, view.opponents)
        e = estimate_equity(
            view.hole_cards, view.board, opponents, samples=BLUFF_SAMPLES, rng=self._rng
        ).equity
        return e < BLUFF_SHARE / (opponents + 1)


def measure_styles(
    players: Sequence[tuple[str, Player]],
    hands: int,
    *,
    seed: int = 7,
    stack: int = 3000,
    blinds: tuple[int, int] = (10, 20),
) -> StyleTracker:
    """Play ``hands`` hands between ``players`` (2 to 6, each with a name) with every stack
    reset to ``stack`` chips before each hand, the seats shuffled every lap of the button
    so each player sits everywhere, and count each one's style.  Reproducible: the deals
    and the seating come from ``seed``."""
    tracker = StyleTracker(rng=seed)
    deals = SeededRandomSource(seed)
    shuffle = random.Random(seed)
    n = len(players)
    order = list(range(n))
    for h in range(hands):
        if h % n == 0:
            shuffle.shuffle(order)
        hand = HoldemHand([stack] * n, h % n, blinds[0], blinds[1], rng=deals)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            name, player = players[order[seat]]
            view = hand.view(seat)
            tracker.decision(name, view, hand.act(player.decide(view), seat=seat))
        for seat in range(n):
            tracker.hand_dealt(players[order[seat]][0], hand.voluntary[seat])
    return tracker
