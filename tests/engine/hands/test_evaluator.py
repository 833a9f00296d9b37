"""The evaluator against published counts and an independent reference implementation."""

from collections import Counter
from itertools import combinations
from math import comb

import numpy as np
import pytest

from engine.cards import format_cards, parse_cards
from engine.hands import tables as evaluator_tables
from engine.hands.evaluator import (
    HandCategory,
    best_five,
    category,
    category_batch,
    describe,
    evaluate,
    evaluate_batch,
)

C = HandCategory

# Published counts of the 2,598,960 five-card hands and 133,784,560 seven-card hands.
FIVE_CARD_COUNTS = {
    C.ROYAL_FLUSH: 4,
    C.STRAIGHT_FLUSH: 36,
    C.FOUR_OF_A_KIND: 624,
    C.FULL_HOUSE: 3_744,
    C.FLUSH: 5_108,
    C.STRAIGHT: 10_200,
    C.THREE_OF_A_KIND: 54_912,
    C.TWO_PAIR: 123_552,
    C.PAIR: 1_098_240,
    C.HIGH_CARD: 1_302_540,
}
SEVEN_CARD_COUNTS = {
    C.ROYAL_FLUSH: 4_324,
    C.STRAIGHT_FLUSH: 37_260,
    C.FOUR_OF_A_KIND: 224_848,
    C.FULL_HOUSE: 3_473_184,
    C.FLUSH: 4_047_644,
    C.STRAIGHT: 6_180_020,
    C.THREE_OF_A_KIND: 6_461_620,
    C.TWO_PAIR: 31_433_400,
    C.PAIR: 58_627_800,
    C.HIGH_CARD: 23_294_460,
}


def reference_key(cards):
    """An independent, obviously-correct five-card ranking key (no tables)."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    uniq = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(uniq) == 5:
        if uniq[0] - uniq[4] == 4:
            straight_top = uniq[0]
        elif uniq == [12, 3, 2, 1, 0]:
            straight_top = 3
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = [r for r, _ in groups]
    if straight_top is not None and flush:
        return (8, straight_top)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *ranks)
    if straight_top is not None:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *ranks)


def reference_best(cards):
    return max(reference_key(five) for five in combinations(cards, 5))


def _random_hands(n, k, seed):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_order_agrees_with_reference_on_random_pairs(k):
    hands = _random_hands(3000, k, seed=k).tolist()
    for a, b in zip(hands[::2], hands[1::2], strict=True):
        ea, eb = evaluate(a), evaluate(b)
        ra, rb = reference_best(a), reference_best(b)
        assert (ea > eb) == (ra > rb) and (ea == eb) == (ra == rb), (format_cards(a), format_cards(b))


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_agrees_with_scalar(k):
    hands = _random_hands(100_000, k, seed=100 + k)
    batch = evaluate_batch(hands)
    assert batch.dtype == np.uint16
    scalar = np.array([evaluate(h) for h in hands.tolist()])
    assert np.array_equal(batch, scalar)
    # other integer dtypes and a block boundary give the same answer
    assert np.array_equal(evaluate_batch(hands.astype(np.int64)), batch)


def test_batch_handles_chunk_edges_and_flush_heavy_input():
    flushy = np.array([parse_cards("2h 5h 9h Jh Kh 3c 3d"), parse_cards("As Ks Qs Js Ts 9s 8s")] * 40_000)
    got = evaluate_batch(flushy)
    assert set(got.tolist()) == {evaluate(flushy[0].tolist()), evaluate(flushy[1].tolist())}
    assert evaluate_batch(np.empty((0, 7), np.uint8)).shape == (0,)


def test_all_five_card_hands_give_7462_strengths_and_published_counts():
    combos = np.fromiter(
        (c for five in combinations(range(52), 5) for c in five), dtype=np.uint8
    ).reshape(-1, 5)
    assert len(combos) == 2_598_960
    strengths = evaluate_batch(combos)
    assert len(np.unique(strengths)) == 7462
    assert strengths.min() == 1 and strengths.max() == 7462
    counts = np.bincount(category_batch(strengths), minlength=10)
    assert {C(i): int(n) for i, n in enumerate(counts)} == FIVE_CARD_COUNTS


def _colex_combinations(n, k):
    rows = np.fromiter((c for t in combinations(range(n), k) for c in t), dtype=np.uint8).reshape(-1, k)
    return rows[np.lexsort(rows.T)]  # sorted by the largest element first: a prefix is comb(m, k)


@pytest.mark.heavy
@pytest.mark.slow
def test_all_seven_card_hands_give_published_counts():
    tail = _colex_combinations(50, 5)
    by_strength = np.zeros(7463, dtype=np.int64)
    total = 0
    for c0 in range(52):
        for c1 in range(c0 + 1, 47):
            m = comb(51 - c1, 5)
            block = np.empty((m, 7), dtype=np.uint8)
            block[:, 0] = c0
            block[:, 1] = c1
            block[:, 2:] = tail[:m] + (c1 + 1)
            by_strength += np.bincount(evaluate_batch(block), minlength=7463)
            total += m
    assert total == 133_784_560
    counts = Counter()
    for s in np.flatnonzero(by_strength):
        counts[category(int(s))] += int(by_strength[s])
    assert dict(counts) == SEVEN_CARD_COUNTS


def test_shipped_tables_match_regeneration():
    shipped = evaluator_tables.load()
    fresh = evaluator_tables.generate()
    assert shipped.keys() == fresh.keys()
    for name in fresh:
        assert np.array_equal(shipped[name], fresh[name]), name
    size = sum(a.nbytes for a in shipped.values())
    assert size < 4 * 1024 * 1024


@pytest.mark.heavy
def test_rank_keys_are_the_greedy_unique_sum_keys():
    assert tuple(evaluator_tables.find_keys(7)) == evaluator_tables.LOW_KEYS
    assert tuple(evaluator_tables.find_keys(6)) == evaluator_tables.HIGH_KEYS


@pytest.mark.parametrize(
    ("cards", "name", "cat"),
    [
        ("As Ks Qs Js Ts 2c 3d", "Royal flush", C.ROYAL_FLUSH),
        ("9h 8h 7h 6h 5h 2c 2d", "Straight flush, nine high", C.STRAIGHT_FLUSH),
        ("5d 4d 3d 2d Ad Kc Kh", "Straight flush, five high", C.STRAIGHT_FLUSH),
        ("7c 7d 7h 7s Kd", "Four of a kind, sevens", C.FOUR_OF_A_KIND),
        ("Kc Kd Ks 7c 7h 7d 2s", "Full house, kings over sevens", C.FULL_HOUSE),
        ("Ah Kh 2h 5h 9h 9c 9d", "Flush, ace high", C.FLUSH),
        ("9c 8d 7h 6s 5c 2d 2h", "Straight, nine high", C.STRAIGHT),
        ("Ah 2d 3c 4s 5h Kd Kc", "Straight, five high", C.STRAIGHT),
        ("Qc Qd Qh 2s 7d", "Three of a kind, queens", C.THREE_OF_A_KIND),
        ("Kh Kd 7s 7c 2h 3d 9c", "Two pair, kings and sevens", C.TWO_PAIR),
        ("Kh Kd 7s 8c 2h 3d 9c", "Pair of kings", C.PAIR),
        ("Ah Jd 7s 8c 2h 3d 9c", "High card, ace", C.HIGH_CARD),
    ],
)
def test_describe_and_category(cards, name, cat):
    s = evaluate(parse_cards(cards))
    assert describe(s) == name
    assert category(s) == cat


@pytest.mark.parametrize(
    ("cards", "five"),
    [
        ("Ah 2d 3c 4s 5h Kd Kc", "5h 4s 3c 2d Ah"),
        ("Kc Kd Ks 7c 7h 7d 2s", "Ks Kd Kc 7h 7c"),
        ("Kh Kd 7s 7c 2h 3d 9c", "Kh Kd 7s 7c 9c"),
        ("Ah Kh 2h 5h 9h 9c 9d", "Ah Kh 9h 5h 2h"),
    ],
)
def test_best_five(cards, five):
    got = best_five(parse_cards(cards))
    assert format_cards(got) == five
    assert evaluate(got) == evaluate(parse_cards(cards))


def test_wrong_sizes_are_refused():
    with pytest.raises(ValueError):
        evaluate(parse_cards("As Ks Qs Js"))
    with pytest.raises(ValueError):
        evaluate_batch(np.zeros((3, 4), np.uint8))
    with pytest.raises(ValueError):
        evaluate_batch(np.full((3, 7), 52))
