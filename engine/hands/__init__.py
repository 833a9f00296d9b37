"""Poker hands: the ten categories, the 7,462 distinct five-card strengths, and the
table-driven evaluator of 5 to 7 cards (one at a time or in numpy batches).

A strength is an int from :data:`STRENGTH_MIN` (7-5-4-3-2 offsuit) to
:data:`STRENGTH_MAX` (a royal flush); a higher strength wins.  The lookup tables are
:mod:`engine.hands.tables` (shipped in ``data/``).
"""

from engine.hands.categories import (
    STRENGTH_MAX,
    STRENGTH_MIN,
    HandCategory,
    HandClass,
    category,
    category_floors,
    describe,
    hand_class,
)
from engine.hands.evaluator import best_five, category_batch, evaluate, evaluate_batch

__all__ = [
    "STRENGTH_MAX",
    "STRENGTH_MIN",
    "HandCategory",
    "HandClass",
    "best_five",
    "category",
    "category_batch",
    "category_floors",
    "describe",
    "evaluate",
    "evaluate_batch",
    "hand_class",
]
