"""Settling one round of the progressive bet: contributions, awards, resets, breakage.

:func:`settle_progressive` takes the meter and the reserve before the round (cents) and
each wagering seat's five cards (hole cards and flop); :func:`settle_categories` does
the same from the seats' hand categories (the simulator's entry; both are one code).
The rules are those of :mod:`engine.uth.progressive`.  The record balances:

    meter_before + to_meter + from_reserve + from_operator
        = meter_after + meter_paid + breakage
    reserve_before + to_reserve = reserve_after + from_reserve

where ``to_reserve`` includes ``overflow`` (contributions above the ceiling).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.hands.categories import HandCategory, category
from engine.hands.evaluator import evaluate
from engine.uth.progressive import WHOLE_BP, Progressive


class ProgressiveInputError(ValueError):
    """A round that cannot be settled (negative meter, a bad hand...); nothing settled."""


@dataclass(frozen=True)
class ProgressiveAward:
    """One seat's award: cents, from the meter or fixed, for its five-card hand."""

    seat: int
    hand: HandCategory
    cents: int
    on_meter: bool


@dataclass(frozen=True)
class ProgressiveSettlement:
    """What one round did to the meter and the reserve, and what each seat won (cents)."""

    meter_before: int
    reserve_before: int
    wagers: int
    to_meter: int
    to_reserve: int
    overflow: int
    awards: tuple[ProgressiveAward, ...]
    breakage: int
    resets: int
    from_reserve: int
    from_operator: int
    meter_after: int
    reserve_after: int
    #: The meter as each meter line was settled (after the contributions), by line.
    meter_at: tuple[tuple[HandCategory, int], ...]

    @property
    def meter_paid(self) -> int:
        return sum(a.cents for a in self.awards if a.on_meter)

    @property
    def fixed_paid(self) -> int:
        return sum(a.cents for a in self.awards if not a.on_meter)

    def paid_to(self, seat: int) -> int:
        return sum(a.cents for a in self.awards if a.seat == seat)


def _check_money(meter: int, reserve: int, table: Progressive) -> None:
    for name, value in (("meter", meter), ("reserve", reserve)):
        if type(value) is not int or value < 0:
            raise ProgressiveInputError(f"the {name} must be whole cents, not {value!r}")
    if meter > table.ceiling:
        raise ProgressiveInputError(f"meter {meter} is above the ceiling {table.ceiling}")


def settle_categories(
    table: Progressive, meter: int, reserve: int, hands: Mapping[int, HandCategory]
) -> ProgressiveSettlement:
    """Settle a round in which the seats of ``hands`` (seat -> its five-card category)
    each placed one wager of ``table.wager`` cents; ``meter`` and ``reserve`` in cents."""
    _check_money(meter, reserve, table)
    meter_before, reserve_before = meter, reserve
    n = len(hands)
    to_meter = n * table.meter_contribution
    to_reserve = n * table.reserve_contribution
    lifted = meter + to_meter
    overflow = max(0, lifted - table.ceiling)
    meter = lifted - overflow
    to_meter -= overflow
    to_reserve += overflow
    reserve += to_reserve
    awards: list[ProgressiveAward] = []
    meter_at: list[tuple[HandCategory, int]] = []
    breakage = resets = from_reserve = from_operator = 0

    def reset() -> int:
        nonlocal resets, from_reserve, from_operator, reserve
        taken = min(reserve, table.reset)
        reserve -= taken
        from_reserve += taken
        from_operator += table.reset - taken
        resets += 1
        return table.reset

    for line, award in table.awards.lines().items():
        seats = sorted(s for s, h in hands.items() if h == line)
        if not seats:
            continue
        if award.cents is not None:
            awards += [ProgressiveAward(s, line, award.cents, False) for s in seats]
            continue
        bp = award.meter_bp or 0
        meter_at.append((line, meter))
        if table.split == "share":
            amount = meter * bp // WHOLE_BP
            share = amount // len(seats)
            breakage += amount - share * len(seats)
            awards += [ProgressiveAward(s, line, share, True) for s in seats]
            meter -= amount
            if bp == WHOLE_BP:
                meter = reset()
        else:
            for s in seats:
                amount = meter * bp // WHOLE_BP
                awards.append(ProgressiveAward(s, line, amount, True))
                meter -= amount
                if bp == WHOLE_BP:
                    meter = reset()
    return ProgressiveSettlement(
        meter_before=meter_before,
        reserve_before=reserve_before,
        wagers=n,
        to_meter=to_meter,
        to_reserve=to_reserve,
        overflow=overflow,
        awards=tuple(awards),
        breakage=breakage,
        resets=resets,
        from_reserve=from_reserve,
        from_operator=from_operator,
        meter_after=meter,
        reserve_after=reserve,
        meter_at=tuple(meter_at),
    )


def settle_progressive(
    table: Progressive, meter: int, reserve: int, hands: Mapping[int, Sequence[int]]
) -> ProgressiveSettlement:
    """Settle a round from each wagering seat's five cards (its hole cards, then the
    flop; cards 0..51, distinct within a seat).  See :func:`settle_categories`."""
    categories: dict[int, HandCategory] = {}
    for seat, cards in hands.items():
        five = list(cards)
        if (
            len(five) != 5
            or len(set(five)) != 5
            or not all(type(c) is int and 0 <= c < 52 for c in five)
        ):
            raise ProgressiveInputError(f"seat {seat}: five distinct cards 0..51, not {five!r}")
        categories[seat] = category(evaluate(five))
    return settle_categories(table, meter, reserve, categories)
