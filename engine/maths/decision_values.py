"""The exact value of every legal action at each of a seat's decisions, and the best one.

A value is the seat's expected net return of the main game (Ante + Blind + Play; Trips
does not depend on a decision) in Antes, given what the seat sees, when it takes the
action and then plays optimally: an exact :class:`~fractions.Fraction`.  Folding on the
river is worth exactly ``-2`` (Ante and Blind lost).

* pre-flop (4x, 3x, check): from the exact optimal analysis of the paytable
  (:meth:`engine.maths.par_main.MainAnalysis.option_ev`): the average over every deal of
  the hand's class, denominator ``class size x deals per hand x cell unit``;
* flop (2x, check): over the 1,081 turn-river pairs and the 990 dealer hands of each,
  the river played optimally after a check (:func:`engine.maths.optimal.flop_values`),
  denominator ``pay scale x 1,070,190``; about 0.1 s;
* river (1x, fold): over the 990 dealer hands (:func:`engine.maths.optimal.river_values`),
  denominator ``pay scale x 990``; under a millisecond.

The best action is the optimal strategy's: the more aggressive action only when its
value is strictly higher (as the analysis decides), so a tie names check or fold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import comb

from engine.maths.optimal import flop_values, river_values
from engine.maths.par_flop import MainParams, main_params
from engine.maths.par_main import MainAnalysis
from engine.maths.par_report import cell_values
from engine.maths.par_tables import pair_index_table
from engine.maths.strategy import FULL_DECK
from engine.uth.paytable import Paytable
from engine.uth.round import LEGAL_BY_PHASE, Action, Phase, SeatView

#: Dealer hands on the river and turn-river pairs on the flop (full deck).
RIVER_DEALS = comb(45, 2)
FLOP_DEALS = comb(47, 2) * RIVER_DEALS


@dataclass(frozen=True)
class DecisionValues:
    """The exact value (net Antes, see the module) of each legal action at one decision."""

    phase: Phase
    values: Mapping[Action, Fraction]

    @property
    def best(self) -> Action:
        """The optimal action: the most aggressive one strictly better than every more
        passive one (check / fold on a tie)."""
        legal = LEGAL_BY_PHASE[self.phase]
        best = legal[-1]
        for action in reversed(legal[:-1]):
            if self.values[action] > self.values[best]:
                best = action
        return best

    @property
    def best_value(self) -> Fraction:
        return self.values[self.best]

    def value(self, action: Action) -> Fraction:
        """The value of ``action``; ``KeyError`` if it is not legal at this decision."""
        return self.values[Action(action)]

    def loss(self, action: Action) -> Fraction:
        """How much less than the best action ``action`` is worth, Antes (0 when optimal)."""
        return self.best_value - self.value(action)


class DecisionValuer:
    """Exact decision values for one paytable on the full deck.

    ``analysis`` is the optimal analysis of ``table`` (:func:`engine.maths.par.main_analysis`),
    needed for pre-flop values only; flop and river values are computed from the cards.
    """

    def __init__(self, table: Paytable, analysis: MainAnalysis | None = None) -> None:
        self.table = table
        self.analysis = analysis
        if analysis is not None and analysis.deck != FULL_DECK:
            raise ValueError("decision values need the full-deck analysis")

    @cached_property
    def params(self) -> MainParams:
        return main_params(self.table)

    @cached_property
    def _preflop_table(self) -> list[dict[Action, Fraction]]:
        if self.analysis is None:
            raise ValueError("pre-flop values need the optimal analysis of the paytable")
        names = {"4x": Action.PLAY_4X, "3x": Action.PLAY_3X, "check": Action.CHECK}
        return [
            {names[k]: v for k, v in evs.items()}
            for evs in self.analysis.option_ev(cell_values(self.table))
        ]

    def preflop(self, hole: Sequence[int]) -> DecisionValues:
        """Values of 4x, 3x and check with the two cards ``hole``."""
        table = self._preflop_table
        assert self.analysis is not None  # _preflop_table needs it
        a, b = sorted(int(c) for c in hole)
        cls = int(self.analysis.hand_class[pair_index_table()[a * 52 + b]])
        return DecisionValues(Phase.PREFLOP, table[cls])

    def flop(self, hole: Sequence[int], flop: Sequence[int]) -> DecisionValues:
        """Values of 2x and check (then the river played optimally) with ``hole`` on ``flop``."""
        bet2, check = flop_values(hole, flop, self.params)
        unit = self.params.scale * FLOP_DEALS
        return DecisionValues(
            Phase.FLOP, {Action.PLAY_2X: Fraction(bet2, unit), Action.CHECK: Fraction(check, unit)}
        )

    def river(self, hole: Sequence[int], board: Sequence[int]) -> DecisionValues:
        """Values of 1x and fold with ``hole`` on the five-card ``board``."""
        play, fold = river_values(hole, board, self.params)
        unit = self.params.scale * RIVER_DEALS
        return DecisionValues(
            Phase.RIVER, {Action.PLAY_1X: Fraction(play, unit), Action.FOLD: Fraction(fold, unit)}
        )

    def at(self, phase: Phase, hole: Sequence[int], board: Sequence[int]) -> DecisionValues:
        """The values of the decision of ``phase`` with ``hole``; ``board`` holds at least
        the cards the seat sees then (0, 3 or 5; extra cards are ignored)."""
        if phase is Phase.PREFLOP:
            return self.preflop(hole)
        if phase is Phase.FLOP:
            return self.flop(hole, board[:3])
        if phase is Phase.RIVER:
            return self.river(hole, board[:5])
        raise ValueError(f"no decision in phase {phase}")

    def for_view(self, view: SeatView) -> DecisionValues:
        """The values of the decision ``view`` (a seat's view of a round) is at."""
        return self.at(view.phase, view.hole, view.board)
