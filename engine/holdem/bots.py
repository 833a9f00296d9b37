"""Computer players for tournament Hold'em (seed 000 "Computer players", seed 003 names).

A bot decides from a :class:`engine.holdem.views.PlayerView` only -- its own two cards, the
board, stacks, bets, the pot and its legal actions -- so it cannot see anybody's cards or
the deck: :meth:`Bot.decide` is never given anything else.

* Before the flop it scores its cards with the Chen formula and plays more hands when
  few players are dealt in and near the button; it raises strong hands, calls playable
  ones, folds the rest, and with a short stack moves all in with a strong hand.
* After the flop it estimates its winning chances by Monte Carlo (the rest of the board
  and random hands for the players still in, :func:`engine.holdem.equity.estimate_equity`),
  compares them with the pot odds and checks, bets, calls, raises or folds; facing a big
  bet it assumes strength and gets more careful.
* Now and then it bluffs, and sometimes it checks a very strong hand to set a trap.

Strength (Easy, Normal, Hard) sets the accuracy: Easy deals 250 Monte-Carlo boards, adds
a large error to its estimates and calls far too much; Normal deals 300 with a small
error and plays short stacks all-in-or-fold; Hard deals 500 with no error, reads the
opponents' pre-flop ranges from their actions and takes a player who bet or raised on
this street to hold a hand that connects with the board.  A :class:`Personality` shifts
looseness, aggression (a bold player also bets fair hands and raises some calls), bluffs,
traps and caution (how much a bet over half the pot lowers its estimate).
``samples=0`` is a fast mode (made-hand heuristic instead of Monte Carlo) for long
simulations in CI.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

from engine.hands.evaluator import HandCategory, category, evaluate
from engine.holdem.actions import Action, Street
from engine.holdem.equity import RandomLike, estimate_equity, numpy_generator, pot_odds
from engine.holdem.records import BetMade, BlindPosted, BoardDealt, Called, Raised
from engine.holdem.views import LegalActions, PlayerView


class Difficulty(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class Personality:
    """How a computer player leans.  ``looseness`` adds Chen points (plays more hands);
    ``aggression`` 0..1 is the taste for betting/raising over checking/calling; ``bluff``
    and ``trap`` are per-decision probabilities; ``caution`` 0..1 is how much a big bet
    against it lowers its estimate."""

    name: str
    looseness: float = 0.0
    aggression: float = 0.5
    bluff: float = 0.05
    trap: float = 0.08
    caution: float = 0.5


PERSONALITIES: dict[str, Personality] = {
    # seed 003: "Rosa is careful, Max is bold, Jules plays a lot of hands, Nina likes to
    # bluff, and Ike is steady."
    "Ike": Personality("Ike", looseness=0.0, aggression=0.5, bluff=0.04, trap=0.08, caution=0.5),
    "Max": Personality("Max", looseness=0.8, aggression=0.9, bluff=0.07, trap=0.04, caution=0.2),
    "Rosa": Personality("Rosa", looseness=-1.5, aggression=0.35, bluff=0.02, trap=0.1, caution=1.0),
    "Jules": Personality(
        "Jules", looseness=2.5, aggression=0.45, bluff=0.04, trap=0.05, caution=0.15
    ),
    "Nina": Personality("Nina", looseness=0.6, aggression=0.5, bluff=0.2, trap=0.1, caution=0.4),
}
BALANCED = Personality("Balanced")
SEED003_PLAYERS = ("Ike", "Max", "Rosa", "Jules", "Nina")  # clockwise from the human's left


def random_personality(name: str, rng: RandomLike = None) -> Personality:
    """A personality "a little tighter or looser, more or less aggressive" (seed 000)."""
    gen = numpy_generator(rng)
    return Personality(
        name,
        looseness=float(np.round(gen.uniform(-1.0, 1.0), 2)),
        aggression=float(np.round(gen.uniform(0.3, 0.75), 2)),
        bluff=float(np.round(gen.uniform(0.02, 0.1), 3)),
        trap=float(np.round(gen.uniform(0.03, 0.12), 3)),
        caution=float(np.round(gen.uniform(0.3, 0.8), 2)),
    )


@dataclass(frozen=True, slots=True)
class _Skill:
    samples: int
    noise: float  # s.d. of the error added to the equity estimate
    call_margin: float  # equity above pot odds it wants before calling (negative: loose)
    preflop_noise: float  # s.d. of the error on the Chen score
    looseness: float  # extra Chen points
    push_fold: bool  # plays short stacks all-in-or-fold
    careful: float  # multiplier on the personality's caution
    reads_ranges: float | None  # None: opponents hold anything; else a shift of the
    # Chen floors it assumes for opponents from their pre-flop actions (0 = full read)
    aggression: float  # multiplier on the personality's aggression
    reads_bets: bool  # a player who bet or raised on this street holds a hand that
    # connects with the board (engine.holdem.equity.connects)


SKILLS = {
    Difficulty.EASY: _Skill(250, 0.15, -0.15, 2.5, 2.5, False, 0.0, None, 0.5, False),
    Difficulty.NORMAL: _Skill(300, 0.06, -0.04, 1.2, 0.8, True, 0.5, None, 0.9, False),
    Difficulty.HARD: _Skill(500, 0.0, 0.02, 0.0, 0.0, True, 1.0, 0.0, 1.0, True),
}

# Chen floors assumed for an opponent from what they did before the flop
_FLOOR_RAISED = 7.0
_FLOOR_CALLED_RAISE = 5.0
_FLOOR_LIMPED = 2.0


def chen_score(card1: int, card2: int) -> int:
    """Bill Chen's starting-hand points, rounded up (AA 20 ... 72 offsuit -1)."""
    r1, r2 = card1 >> 2, card2 >> 2
    hi, lo = max(r1, r2), min(r1, r2)

    def value(rank: int) -> float:
        return {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(rank, (rank + 2) / 2)

    if hi == lo:
        points = max(5.0, 2 * value(hi))
    else:
        points = value(hi)
        if card1 & 3 == card2 & 3:
            points += 2
        gap = hi - lo - 1
        points -= (0, 1, 2, 4)[gap] if gap < 4 else 5
        if gap <= 1 and hi < 10:  # both below a queen
            points += 1
    return math.ceil(points)


CHEN_TABLE = np.array(
    [[chen_score(a, b) if a != b else -99 for b in range(52)] for a in range(52)], dtype=np.int8
)
"""Chen points of every pair of cards (``CHEN_TABLE[c1, c2]``), for hand ranges."""


def opponent_floors(view: PlayerView, shift: float = 0.0) -> dict[int, float]:
    """The least Chen score each opponent still in is assumed to hold, read from the public
    pre-flop actions: a raise, a call of a raise, a limp; a blind that only checked or
    completed holds anything (-99).  ``shift`` is added to every floor."""
    floors: dict[int, float] = {}
    level = 0
    for r in view.actions:
        if isinstance(r, BlindPosted):
            level = max(level, view.big_blind)
        elif isinstance(r, BoardDealt):
            break
        elif isinstance(r, BetMade | Raised):
            floors[r.seat] = max(floors.get(r.seat, -99.0), _FLOOR_RAISED)
            level = r.total
        elif isinstance(r, Called):
            floor = _FLOOR_CALLED_RAISE if level > view.big_blind else _FLOOR_LIMPED
            if r.seat in (view.small_blind_seat, view.big_blind_seat) and level <= view.big_blind:
                floor = -99.0
            floors[r.seat] = max(floors.get(r.seat, -99.0), floor)
    return {
        s: floors.get(s, -99.0) + shift
        for s in range(len(view.stacks))
        if s != view.seat and view.in_hand[s]
    }


def bettors_this_street(view: PlayerView) -> list[bool]:
    """For each opponent still in (seat order): did they bet or raise on this street?"""
    start = 0
    for i, r in enumerate(view.actions):
        if isinstance(r, BoardDealt):
            start = i + 1
    aggressors = {r.seat for r in view.actions[start:] if isinstance(r, BetMade | Raised)}
    return [s in aggressors for s in range(len(view.stacks)) if s != view.seat and view.in_hand[s]]


_CATEGORY_EQUITY = {
    HandCategory.HIGH_CARD: 0.3,
    HandCategory.PAIR: 0.58,
    HandCategory.TWO_PAIR: 0.77,
    HandCategory.THREE_OF_A_KIND: 0.85,
    HandCategory.STRAIGHT: 0.88,
    HandCategory.FLUSH: 0.91,
    HandCategory.FULL_HOUSE: 0.96,
    HandCategory.FOUR_OF_A_KIND: 0.99,
    HandCategory.STRAIGHT_FLUSH: 1.0,
    HandCategory.ROYAL_FLUSH: 1.0,
}


def quick_equity(hole: Sequence[int], board: Sequence[int], opponents: int) -> float:
    """A rough, instant estimate from the made hand (the fast mode's stand-in for Monte
    Carlo): the category's heads-up value, much less if the board alone makes it."""
    mine = category(evaluate([*hole, *board]))
    e = _CATEGORY_EQUITY[mine]
    ranks = [c >> 2 for c in board]
    board_cat = HandCategory.HIGH_CARD
    if len(board) == 5:
        board_cat = category(evaluate(board))
    elif len(set(ranks)) < len(ranks):
        board_cat = HandCategory.PAIR
    if board_cat >= mine:
        e = min(e, 0.35)
    elif mine == HandCategory.PAIR and max(c >> 2 for c in hole) < max(ranks):
        if not (hole[0] >> 2 == hole[1] >> 2 or max(ranks) in {c >> 2 for c in hole}):
            e -= 0.12  # a low pair
    return float(e ** (max(1, opponents) ** 0.85))


class Bot:
    """A computer player: ``decide(view) -> Action``.

    ``rng``: numpy Generator, :class:`engine.rng.RandomSource`, seed or ``None``.
    ``samples`` overrides the strength's Monte-Carlo samples (0: fast heuristic).
    """

    def __init__(
        self,
        difficulty: Difficulty | str = Difficulty.NORMAL,
        personality: Personality | str | None = None,
        *,
        rng: RandomLike = None,
        samples: int | None = None,
    ) -> None:
        self.difficulty = Difficulty(difficulty)
        if isinstance(personality, str):
            personality = PERSONALITIES[personality]
        self.personality = personality or BALANCED
        skill = SKILLS[self.difficulty]
        if samples is not None:
            skill = replace(skill, samples=samples)
        self.skill = skill
        self._rng = numpy_generator(rng)

    def __repr__(self) -> str:
        return f"Bot({self.difficulty.value}, {self.personality.name})"

    # ------------------------------------------------------------------ helpers

    def _effective(self) -> Personality:
        p = self.personality
        return replace(p, aggression=min(1.0, p.aggression * self.skill.aggression))

    def _random(self) -> float:
        return float(self._rng.random())

    @staticmethod
    def _amount(la: LegalActions, to: float) -> Action:
        """A bet/raise to about ``to``, rounded to the small blind and made legal."""
        step = la.small_blind
        target = int(to) - int(to) % step if step > 1 else int(to)
        target = max(la.min_to, min(la.max_to, target))
        if target >= la.max_to or target >= 0.85 * la.max_to:
            return Action.all_in()
        return Action.bet(target) if la.can_bet else Action.raise_to(target)

    @staticmethod
    def _passive(la: LegalActions) -> Action:
        return Action.check() if la.can_check else Action.fold()

    # ------------------------------------------------------------------ decisions

    def decide(self, view: PlayerView) -> Action:
        la = view.legal
        if la is None:
            raise ValueError("it is not this bot's turn")
        if view.street is Street.PREFLOP:
            action = self._preflop(view, la)
        else:
            action = self._postflop(view, la)
        return action

    def _position_bonus(self, view: PlayerView) -> float:
        n = len(view.stacks)
        dealt = [s for s in range(n) if view.dealt_in[s]]
        # seats acting after us after the flop: fewer is better (the button is last)
        after = 0
        s = view.seat
        while True:
            s = (s + 1) % n
            if s == (view.button + 1) % n or s == view.seat:
                break
            if s in dealt:
                after += 1
        if view.seat == view.button:
            return 1.0
        return max(0.0, 0.5 - 0.25 * after)

    def _preflop(self, view: PlayerView, la: LegalActions) -> Action:
        p, skill = self._effective(), self.skill
        bb = view.big_blind
        score = chen_score(*view.hole_cards)
        adj = score + p.looseness + skill.looseness + self._position_bonus(view)
        adj += 0.5 * (6 - view.players_dealt)  # play more when few are left
        if skill.preflop_noise:
            adj += float(self._rng.normal(0.0, skill.preflop_noise))
        stack_bb = (la.stack + la.bet) / bb
        facing_bb = view.current_bet / bb
        price = pot_odds(la.call_amount, la.pot)
        big_call = la.call_amount >= 0.3 * (la.stack + la.bet) and facing_bb > 1
        if big_call and skill.reads_ranges is not None and skill.samples > 0:
            # a big pre-flop decision: its equity against what the raisers may hold
            return self._preflop_equity_call(view, la, price)
        # short stack: all in with a strong hand, else give up
        if skill.push_fold and stack_bb <= 10:
            threshold = 6.0 - 0.3 * (10 - stack_bb) - 0.4 * (6 - view.players_dealt)
            if facing_bb > 1:
                threshold = max(threshold, 3.0 + 12.0 * price)
            if adj >= threshold and la.can_bet_or_raise:
                return Action.all_in()
            if adj >= threshold:
                return Action.call() if la.can_call else Action.check()
            return self._passive(la)
        if facing_bb <= 1.0:  # nobody has raised
            if adj >= 9.5 - 1.5 * p.aggression and la.can_bet_or_raise:
                limpers = sum(
                    1
                    for s, b in enumerate(view.bets)
                    if b >= bb and s != view.big_blind_seat and s != view.seat
                )
                return self._amount(la, (3 + limpers) * bb)
            if adj >= 7.0 and la.can_call:
                return Action.call()
            if la.can_check and la.can_bet_or_raise and adj >= 8 and self._random() < p.aggression:
                return self._amount(la, 3 * bb)
            return self._passive(la)
        need = 4.0 + 12.0 * price
        need += skill.careful * p.caution * (1.0 if facing_bb > 8 else 0.0)
        if adj >= need + 3.0 and la.can_raise and self._random() < 0.4 + 0.6 * p.aggression:
            return self._amount(la, 3 * view.current_bet)
        if adj >= need:
            return Action.call()
        if adj >= need - skill.preflop_noise - 1 and self.difficulty is Difficulty.EASY:
            return Action.call()  # easy bots call too much
        return self._passive(la)

    def _preflop_equity_call(self, view: PlayerView, la: LegalActions, price: float) -> Action:
        floors = opponent_floors(view, self.skill.reads_ranges or 0.0)
        for seat in floors:  # a short stack's all-in is a wide range
            if view.all_in[seat] and view.committed[seat] <= 15 * view.big_blind:
                floors[seat] = min(floors[seat], 3.0)
        e = estimate_equity(
            view.hole_cards,
            (),
            max(1, view.opponents),
            samples=self.skill.samples,
            rng=self._rng,
            hand_scores=CHEN_TABLE,
            min_scores=list(floors.values()),
        ).equity
        e += float(self._rng.normal(0.0, self.skill.noise)) if self.skill.noise else 0.0
        p = self._effective()
        strong = 1.0 / (view.opponents + 1) + 0.25
        if e >= strong and la.can_raise and self._random() < 0.3 + 0.7 * p.aggression:
            return Action.all_in()
        if e >= price + self.skill.call_margin + 0.02 * p.caution:
            return Action.call()
        return self._passive(la)

    def _equity(self, view: PlayerView) -> float:
        opponents = view.opponents
        if self.skill.samples <= 0:
            e = quick_equity(view.hole_cards, view.board, opponents)
        else:
            floors = None
            if self.skill.reads_ranges is not None:
                floors = list(opponent_floors(view, self.skill.reads_ranges).values())
            connected = bettors_this_street(view) if self.skill.reads_bets else None
            e = estimate_equity(
                view.hole_cards,
                view.board,
                opponents,
                samples=self.skill.samples,
                rng=self._rng,
                hand_scores=CHEN_TABLE if floors else None,
                min_scores=floors,
                connected=connected,
            ).equity
        if self.skill.noise:
            e += float(self._rng.normal(0.0, self.skill.noise))
        return min(1.0, max(0.0, e))

    def _postflop(self, view: PlayerView, la: LegalActions) -> Action:
        p, skill = self._effective(), self.skill
        e = self._equity(view)
        opponents = max(1, view.opponents)
        fair = 1.0 / (opponents + 1)
        value = fair + 0.3 * (1 - fair)
        strong = fair + 0.5 * (1 - fair)
        pot = la.pot
        r = self._random()
        if la.can_check:
            if e >= value and la.can_bet_or_raise:
                if e >= strong and r < p.trap:
                    return Action.check()  # slow-play: set a trap
                if r < 0.55 + 0.45 * p.aggression:
                    size = 0.5 + 0.3 * p.aggression + (0.2 if e >= strong else 0.0)
                    return self._amount(la, la.bet + size * pot)
                return Action.check()
            bold = max(0.0, p.aggression - 0.5)  # a bold player bets fair hands too
            if la.can_bet_or_raise and e >= fair and r > 1.0 - bold:
                return self._amount(la, la.bet + 0.5 * pot)
            if la.can_bet_or_raise and r < p.bluff * (1.5 if opponents == 1 else 0.7):
                return self._amount(la, la.bet + 0.55 * pot)  # a bluff
            return Action.check()
        call = la.call_amount
        # the bet faced, relative to the pot before it was made
        ratio = (view.current_bet - la.bet) / max(1, pot - (view.current_bet - la.bet))
        if ratio > 0.5:  # a big bet: the bettor is probably strong
            wary = 0.5 + 0.5 * skill.careful
            e -= min(0.4, wary * p.caution * (1 + p.caution) * (0.15 + 0.2 * (ratio - 0.5)))
        price = pot_odds(call, pot)
        if e >= strong and la.can_raise:
            if r < p.trap:
                return Action.call()
            if r < 0.35 + 0.65 * p.aggression:
                return self._amount(
                    la, view.current_bet + (0.8 + 0.4 * p.aggression) * (pot + call)
                )
            return Action.call()
        if e >= price + skill.call_margin:
            bold = max(0.0, p.aggression - 0.5)  # a bold player raises some of its calls
            if la.can_raise and e >= fair and r > 1.0 - bold:
                return self._amount(la, view.current_bet + pot + call)
            return Action.call()
        if la.can_raise and r < p.bluff * 0.4 and opponents == 1:
            return self._amount(la, view.current_bet + pot + call)  # a bluff raise
        return Action.fold()
