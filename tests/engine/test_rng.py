"""Statistical checks of the shuffle (fixed seeds, stated confidence)."""

import numpy as np
import pytest

from engine.rng import (
    SeededRandomSource,
    SystemRandomSource,
    deck_commitment,
    shuffle,
    shuffled_deck,
)

# Chi-square critical values at the 99.9% level (one-sided), so a correct shuffle
# fails each check with probability 0.001.
CHI2_999 = {51: 87.97}


def chi2_critical(dof: int, z: float) -> float:
    """Upper critical value of chi-square(dof) for a standard-normal quantile ``z``.

    Wilson-Hilferty approximation, accurate to well under 1% for dof >= 30.
    """
    a = 2 / (9 * dof)
    return dof * (1 - a + z * a**0.5) ** 3


def _deals(n: int, seed: int) -> np.ndarray:
    rng = SeededRandomSource(seed)
    return np.array([shuffled_deck(rng) for _ in range(n)], dtype=np.int8)


def test_every_deck_is_a_permutation():
    for deck in _deals(200, 1):
        assert sorted(deck.tolist()) == list(range(52))


def test_each_card_equally_likely_in_each_position():
    n = 26_000
    decks = _deals(n, 20261129)
    expected = n / 52
    counts = np.zeros((52, 52))
    for pos in range(52):
        counts[pos] = np.bincount(decks[:, pos], minlength=52)
    chi2 = ((counts - expected) ** 2 / expected).sum(axis=1)  # one test per position, 51 dof
    # Bonferroni over 52 positions, family-wise 99.9%: each position at p = 0.001/52,
    # whose one-sided normal quantile is z = 4.12.
    assert chi2.max() < chi2_critical(51, 4.12), chi2.max()
    # And all positions together: the sum of 52 chi2(51) is chi2(2652); mean 2652, sd 72.8.
    assert abs(chi2.sum() - 52 * 51) < 4 * np.sqrt(2 * 52 * 51)


def test_first_to_second_card_transition_has_no_bias():
    n = 104_000
    decks = _deals(n, 7)
    pairs = decks[:, 0].astype(int) * 52 + decks[:, 1]
    counts = np.bincount(pairs, minlength=52 * 52).reshape(52, 52)
    mask = ~np.eye(52, dtype=bool)  # a card never follows itself
    expected = n / (52 * 51)
    chi2 = ((counts[mask] - expected) ** 2 / expected).sum()
    dof = 52 * 51 - 1
    assert np.all(counts[~mask] == 0)
    assert abs(chi2 - dof) < 4.5 * np.sqrt(2 * dof), chi2


def test_a_biased_shuffle_is_detected():
    """The position test fails for the classic naive shuffle (swap with any position)."""

    class Naive:
        def __init__(self) -> None:
            self.rng = SeededRandomSource(3)

        def shuffle(self) -> list[int]:
            deck = list(range(52))
            for i in range(52):
                j = self.rng.randbelow(52)
                deck[i], deck[j] = deck[j], deck[i]
            return deck

    naive = Naive()
    n = 26_000
    decks = np.array([naive.shuffle() for _ in range(n)], dtype=np.int8)
    counts = np.bincount(decks[:, 0], minlength=52)
    expected = n / 52
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 > CHI2_999[51]


def test_randbelow_is_unbiased_for_awkward_ranges():
    rng = SeededRandomSource(11)
    n, k = 60_000, 3  # 3 is the worst case for modulo bias with 2 bits
    counts = np.bincount([rng.randbelow(k) for _ in range(n)], minlength=k)
    assert abs(counts - n / k).max() < 4 * np.sqrt(n / k)


def test_system_source_shuffles_and_stays_in_range():
    rng = SystemRandomSource()
    assert sorted(shuffled_deck(rng)) == list(range(52))
    assert all(0 <= rng.randbelow(7) < 7 for _ in range(1000))
    with pytest.raises(ValueError):
        rng.randbelow(0)


def test_same_seed_same_deck_and_commitment():
    a = shuffled_deck(SeededRandomSource(5))
    b = shuffled_deck(SeededRandomSource(5))
    assert a == b
    assert deck_commitment(a) == deck_commitment(b)
    assert deck_commitment(a) != deck_commitment(shuffle(a, SeededRandomSource(6)))
