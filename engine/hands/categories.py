"""The 7,462 distinct five-card poker hands, ranked.

A hand *strength* is an ``int`` in ``1..7462``: higher beats lower, equal ties.  Each
strength stands for one equivalence class of five-card hands, described by its
category and its significant ranks (``HandClass``).  Ranks are 0..12 for 2..A.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache
from itertools import combinations
from typing import NamedTuple

from engine.cards import RANK_NAMES, RANK_PLURALS


class HandCategory(IntEnum):
    """Poker hand categories, weakest first.  ``ROYAL_FLUSH`` is the ace-high straight flush."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9


class HandClass(NamedTuple):
    """A class of equal five-card hands: category and significant ranks, most significant first.

    Straights and straight flushes carry only their top rank (3, the five, for the wheel).
    """

    category: HandCategory
    ranks: tuple[int, ...]


#: The published counts of the seven-card hands of a 52-card deck by category (their
#: total is :data:`SEVEN_CARD_HANDS`, C(52, 7)); the evaluator's tests check them.
SEVEN_CARD_COUNTS: dict[HandCategory, int] = {
    HandCategory.ROYAL_FLUSH: 4_324,
    HandCategory.STRAIGHT_FLUSH: 37_260,
    HandCategory.FOUR_OF_A_KIND: 224_848,
    HandCategory.FULL_HOUSE: 3_473_184,
    HandCategory.FLUSH: 4_047_644,
    HandCategory.STRAIGHT: 6_180_020,
    HandCategory.THREE_OF_A_KIND: 6_461_620,
    HandCategory.TWO_PAIR: 31_433_400,
    HandCategory.PAIR: 58_627_800,
    HandCategory.HIGH_CARD: 23_294_460,
}
SEVEN_CARD_HANDS = 133_784_560

STRENGTH_MIN = 1
STRENGTH_MAX = 7462

ACE = 12
WHEEL = (12, 3, 2, 1, 0)


def straight_high(rank_set: set[int] | frozenset[int]) -> int | None:
    """Top rank of the best straight in ``rank_set`` (3 for the wheel), or ``None``."""
    for high in range(ACE, 3, -1):
        if all(r in rank_set for r in range(high - 4, high + 1)):
            return high
    if all(r in rank_set for r in WHEEL):
        return 3
    return None


def _classes_in_order() -> list[HandClass]:
    """All hand classes from the weakest to the strongest."""
    C = HandCategory
    desc = list(range(ACE, -1, -1))
    straights = [h for h in range(3, ACE + 1)]  # 3 = wheel ... 12 = ace high
    no_straight = []
    for five in combinations(desc, 5):  # each tuple is descending
        if straight_high(set(five)) is None:
            no_straight.append(five)
    no_straight.sort()
    out: list[HandClass] = [HandClass(C.HIGH_CARD, t) for t in no_straight]
    pairs = []
    for p in range(13):
        for kick in combinations([r for r in desc if r != p], 3):
            pairs.append((p, *kick))
    out += [HandClass(C.PAIR, t) for t in sorted(pairs)]
    two = []
    for hi in range(13):
        for lo in range(hi):
            for k in range(13):
                if k not in (hi, lo):
                    two.append((hi, lo, k))
    out += [HandClass(C.TWO_PAIR, t) for t in sorted(two)]
    trips: list[tuple[int, ...]] = []
    for tr in range(13):
        for kick2 in combinations([r for r in desc if r != tr], 2):
            trips.append((tr, *kick2))
    out += [HandClass(C.THREE_OF_A_KIND, t) for t in sorted(trips)]
    out += [HandClass(C.STRAIGHT, (h,)) for h in straights]
    out += [HandClass(C.FLUSH, t) for t in no_straight]
    full = sorted((t, p) for t in range(13) for p in range(13) if p != t)
    out += [HandClass(C.FULL_HOUSE, t) for t in full]
    quads = sorted((q, k) for q in range(13) for k in range(13) if k != q)
    out += [HandClass(C.FOUR_OF_A_KIND, t) for t in quads]
    out += [HandClass(C.STRAIGHT_FLUSH, (h,)) for h in straights[:-1]]
    out.append(HandClass(C.ROYAL_FLUSH, (ACE,)))
    return out


@cache
def all_classes() -> tuple[HandClass, ...]:
    """Index ``s - 1`` holds the class of strength ``s``."""
    classes = tuple(_classes_in_order())
    assert len(classes) == STRENGTH_MAX
    return classes


@cache
def strength_of_class() -> dict[HandClass, int]:
    """Inverse of :func:`all_classes`."""
    return {hc: i + 1 for i, hc in enumerate(all_classes())}


@cache
def category_floors() -> tuple[int, ...]:
    """``floors[c]`` is the weakest strength of category ``c`` (ROYAL_FLUSH: 7462)."""
    floors = [0] * len(HandCategory)
    for i, hc in reversed(list(enumerate(all_classes()))):
        floors[hc.category] = i + 1
    return tuple(floors)


def hand_class(strength: int) -> HandClass:
    """The class (category and significant ranks) of ``strength``."""
    if not STRENGTH_MIN <= strength <= STRENGTH_MAX:
        raise ValueError(f"strength {strength} out of range 1..7462")
    return all_classes()[strength - 1]


def category(strength: int) -> HandCategory:
    """The category of ``strength``."""
    return hand_class(int(strength)).category


def describe(strength: int) -> str:
    """The name a player reads, for example ``"Two pair, kings and sevens"``."""
    cat, ranks = hand_class(int(strength))
    C = HandCategory
    name, plural = RANK_NAMES, RANK_PLURALS
    if cat == C.HIGH_CARD:
        return f"High card, {name[ranks[0]]}"
    if cat == C.PAIR:
        return f"Pair of {plural[ranks[0]]}"
    if cat == C.TWO_PAIR:
        return f"Two pair, {plural[ranks[0]]} and {plural[ranks[1]]}"
    if cat == C.THREE_OF_A_KIND:
        return f"Three of a kind, {plural[ranks[0]]}"
    if cat == C.STRAIGHT:
        return f"Straight, {name[ranks[0]]} high"
    if cat == C.FLUSH:
        return f"Flush, {name[ranks[0]]} high"
    if cat == C.FULL_HOUSE:
        return f"Full house, {plural[ranks[0]]} over {plural[ranks[1]]}"
    if cat == C.FOUR_OF_A_KIND:
        return f"Four of a kind, {plural[ranks[0]]}"
    if cat == C.STRAIGHT_FLUSH:
        return f"Straight flush, {name[ranks[0]]} high"
    return "Royal flush"
