"""Trips needs no strategy: its return comes from how many seven-card hands fall in
each category, counted here by enumerating every hand of a deck."""

from __future__ import annotations

from math import comb

import numpy as np

from engine.hands.evaluator import category_batch, evaluate_batch
from engine.maths.par_flop import N_CATEGORIES
from engine.maths.par_tables import colex_subsets


def count_seven_card_categories(deck: tuple[int, ...]) -> np.ndarray:
    """How many seven-card hands of the sorted ``deck`` fall in each category (int64, by
    category; they add up to ``comb(len(deck), 7)``).

    Enumerates every hand: 133,784,560 for the full deck, about 10 s.
    """
    d = np.array(deck, dtype=np.uint8)
    n = len(d)
    fives = colex_subsets(n, 5)  # the 5-subsets of range(k) are a prefix (colex order)
    counts = np.zeros(N_CATEGORIES, np.int64)
    step = 1 << 18
    for a in range(n):
        for b in range(a + 1, n):
            above = d[b + 1 :]  # the hand's other five cards lie above its two lowest
            k = comb(len(above), 5)
            for start in range(0, k, step):
                rows = fives[start : min(k, start + step)]
                cards = np.empty((len(rows), 7), np.uint8)
                cards[:, 0] = d[a]
                cards[:, 1] = d[b]
                cards[:, 2:] = above[rows]
                counts += np.bincount(category_batch(evaluate_batch(cards)), minlength=N_CATEGORIES)
    return counts
