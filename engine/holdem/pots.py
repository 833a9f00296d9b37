"""Main and side pots: formed by contribution levels, each split among its best hands.

Chips are whole numbers (tournament points).  Folded players' chips stay in the pots;
only players still in the hand are eligible to win them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


def pot_levels(committed: Sequence[int], live: Sequence[int]) -> list[Pot]:
    """The main pot then the side pots from each seat's ``committed`` chips.

    ``live``: the seats still in the hand, clockwise from the left of the button (each
    pot's ``eligible`` keeps that order).  The pots' amounts add up to every committed
    chip; a pot of no chips is left out.
    """
    levels = sorted({committed[s] for s in live})
    pots: list[Pot] = []
    prev = 0
    for i, level in enumerate(levels):
        amount = sum(min(c, level) - min(c, prev) for c in committed)
        if i == len(levels) - 1:
            amount += sum(c - level for c in committed if c > level)
        if amount > 0:
            pots.append(Pot(amount, tuple(s for s in live if committed[s] >= level)))
        prev = level
    return pots


def split_pot(pot: Pot, strengths: Mapping[int, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(winners, shares)``: the eligible seats with the best strength and their chips.

    A lone eligible seat wins without a strength.  Ties split the pot; the odd chips go
    one at a time to the winners in ``eligible`` order (clockwise from the left of the
    button).  The shares add up to ``pot.amount``.
    """
    eligible = pot.eligible
    winners: tuple[int, ...]
    if len(eligible) == 1:
        winners = eligible
    else:
        best = max(strengths[s] for s in eligible)
        winners = tuple(s for s in eligible if strengths[s] == best)
    share, odd = divmod(pot.amount, len(winners))
    return winners, tuple(share + (1 if i < odd else 0) for i in range(len(winners)))
