"""Combinatorial index tables and suit symmetry for the exact analysis (:mod:`engine.maths.par`).

Subsets of ``m`` items are numbered in *colex* order (the combinatorial number system):
the sorted subset ``c0 < c1 < ... < c(k-1)`` has index ``sum(comb(c_j, j + 1))``.  So the
``k``-subsets of ``range(m')`` for ``m' < m`` are a prefix of those of ``range(m)``.

A *deck* is any set of cards closed under some suit permutations; the full 52-card deck
is closed under all 24.  Its symmetry group is the set of suit permutations that map
the deck onto itself; flops and two-card hands are grouped into orbits under it
(1,755 flop classes and 169 starting hands for the full deck).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations
from math import comb

import numpy as np

from engine.cards import RANK_CHARS

BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(64)], dtype=np.int64)
FULL_DECK: tuple[int, ...] = tuple(range(52))


@cache
def colex_subsets(m: int, k: int) -> np.ndarray:
    """All ``k``-subsets of ``range(m)`` as a ``(comb(m, k), k)`` uint8 array, in colex order.

    Built column-free by the recurrence "subsets of range(j), then those holding j".
    """
    levels = [np.zeros((1, 0), np.uint8)] + [np.zeros((0, i), np.uint8) for i in range(1, k + 1)]
    for j in range(m):
        for i in range(k, 0, -1):  # descending: level i - 1 is still "subsets of range(j)"
            with_j = np.empty((len(levels[i - 1]), i), np.uint8)
            with_j[:, :-1] = levels[i - 1]
            with_j[:, -1] = j
            levels[i] = np.concatenate([levels[i], with_j])
    out = levels[k]
    assert len(out) == comb(m, k)
    out.setflags(write=False)
    return out


def colex_index(sorted_rows: np.ndarray) -> np.ndarray:
    """Colex index (int64) of each row of an ``(N, k)`` array of ascending items."""
    rows = np.asarray(sorted_rows, dtype=np.int64)
    idx = np.zeros(rows.shape[:-1], dtype=np.int64)
    for j in range(rows.shape[-1]):
        idx += BINOM[rows[..., j], j + 1]
    return idx


def pair_index52(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Index ``0..1325`` of the two-card hand ``{a, b}`` (cards 0..51, any order)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    return BINOM[lo, 1] + BINOM[hi, 2]


def flop_index52(cards: np.ndarray) -> np.ndarray:
    """Index ``0..22099`` of each three-card set in an ``(N, 3)`` array (any order)."""
    return colex_index(np.sort(np.asarray(cards, dtype=np.int64), axis=-1))


@cache
def pair_index_table() -> np.ndarray:
    """``[52 * a + b]``: :func:`pair_index52` of cards ``a``, ``b`` (int32; 0 when a == b)."""
    a, b = np.divmod(np.arange(52 * 52), 52)
    out = np.where(a == b, 0, pair_index52(a, b)).astype(np.int32)
    out.setflags(write=False)
    return out


@cache
def flop_index_table() -> np.ndarray:
    """``[2704 * a + 52 * b + c]``: :func:`flop_index52` of cards ``a, b, c`` (int32;
    0 when two are equal)."""
    a, rest = np.divmod(np.arange(52**3), 52 * 52)
    b, c = np.divmod(rest, 52)
    three = np.stack([a, b, c], axis=1)
    distinct = (a != b) & (b != c) & (a != c)
    out = np.where(distinct, flop_index52(three), 0).astype(np.int32)
    out.setflags(write=False)
    return out


# -- the per-flop index tables ---------------------------------------------------------------


@dataclass(frozen=True)
class FlopIndex:
    """Index tables for one flop, in terms of the ``m`` cards left after it (local 0..m-1).

    ``pairs`` (``P = comb(m, 2)`` rows) serve both as turn-river pairs (boards, ``b``) and
    as two-card hands (``i``).  For a board ``b`` and a hand ``i``:

    * ``quad[b, i]``: colex index of the four cards ``b | i`` among ``comb(m, 4)``, or the
      sentinel ``comb(m, 4)`` when they overlap;
    * ``g1[b, i]`` / ``g2[b, i]``: flat index ``triple * m + card`` of the six-card set
      ``flop + b + x`` completed by ``y`` (and ``flop + b + y`` by ``x``), where
      ``i = (x, y)``: their rank among all completions of that six-card set gives the
      dealer hands sharing ``x`` (or ``y``) with the player;
    * ``g1_triple`` / ``g2_triple``: the triple alone (sentinel ``comb(m, 3)`` when invalid);
    * ``g_quad[g, z]``: the four cards ``triple g + z`` (sentinel when ``z`` is in ``g``);
    * ``b_triple[b, z]``: the three cards ``b + z`` (sentinel ``comb(m, 3)`` when ``z`` is in ``b``).
    """

    m: int
    pairs: np.ndarray
    triples: np.ndarray
    quads: np.ndarray
    quad: np.ndarray
    valid: np.ndarray
    g1: np.ndarray
    g2: np.ndarray
    g1_triple: np.ndarray
    g2_triple: np.ndarray
    g_quad: np.ndarray
    b_triple: np.ndarray
    valid_i32: np.ndarray  # ``valid`` as 0/1
    row_offset: np.ndarray  # (P, 1): b * P, to flatten per-row argsorts

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)


@cache
def flop_index(m: int) -> FlopIndex:
    """The tables for ``m`` remaining cards (49 for the full deck; cached)."""
    pairs = colex_subsets(m, 2).astype(np.int64)
    triples = colex_subsets(m, 3)
    quads = colex_subsets(m, 4)
    n_p, n_t, n_q = len(pairs), len(triples), len(quads)
    t, r = pairs[:, 0][:, None], pairs[:, 1][:, None]  # board b (rows)
    x, y = pairs[:, 0][None, :], pairs[:, 1][None, :]  # hand i (columns)
    valid = (t != x) & (t != y) & (r != x) & (r != y)
    four = np.stack(np.broadcast_arrays(t, r, x, y), axis=-1)
    four.sort(axis=-1)
    quad = np.where(valid, colex_index(four), n_q).astype(np.intp)
    del four

    def triple_of(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        s = np.stack(np.broadcast_arrays(a, b, c), axis=-1)
        s.sort(axis=-1)
        return colex_index(s)

    g1_triple = np.where(valid, triple_of(t, r, x), n_t).astype(np.intp)
    g2_triple = np.where(valid, triple_of(t, r, y), n_t).astype(np.intp)
    g1 = np.where(valid, g1_triple * m + y, 0).astype(np.intp)
    g2 = np.where(valid, g2_triple * m + x, 0).astype(np.intp)

    tr = triples.astype(np.int64)
    z = np.arange(m)[None, :]
    in_g = (tr[:, 0:1] == z) | (tr[:, 1:2] == z) | (tr[:, 2:3] == z)
    s4 = np.concatenate(
        [np.broadcast_to(tr[:, None, :], (n_t, m, 3)), np.broadcast_to(z[..., None], (n_t, m, 1))],
        axis=-1,
    )
    s4 = np.sort(s4, axis=-1)
    g_quad = np.where(in_g, n_q, colex_index(np.where(in_g[..., None], 0, s4))).astype(np.intp)

    zb = np.arange(m)[None, :]
    in_b = (pairs[:, 0:1] == zb) | (pairs[:, 1:2] == zb)
    b_triple = np.where(in_b, n_t, triple_of(pairs[:, 0:1], pairs[:, 1:2], np.where(in_b, 0, zb)))
    b_triple = b_triple.astype(np.intp)
    out = FlopIndex(
        m,
        pairs.astype(np.intp),
        triples.astype(np.intp),
        quads.astype(np.intp),
        quad,
        valid,
        g1,
        g2,
        g1_triple,
        g2_triple,
        g_quad,
        b_triple,
        valid.astype(np.int32),
        (np.arange(n_p, dtype=np.intp) * n_p)[:, None],
    )
    for a in vars(out).values():
        if isinstance(a, np.ndarray):
            a.setflags(write=False)
    return out


# -- suit symmetry ---------------------------------------------------------------------------


def _perm_cards(perm: tuple[int, ...]) -> np.ndarray:
    return np.array([4 * (c >> 2) + perm[c & 3] for c in range(52)], dtype=np.int64)


@dataclass(frozen=True)
class DeckSymmetry:
    """A deck (sorted card tuple), its suit symmetries and its orbits of flops and hands.

    ``card_maps[s]`` maps each card 0..51 under symmetry ``s``.  ``flops`` holds one
    canonical flop per orbit (ascending cards) and ``flop_weights`` the orbit sizes;
    ``hand_class[p]`` is the orbit (class) of the two-card hand with :func:`pair_index52`
    ``p`` (-1 outside the deck), ``class_names`` a name per class ("AKs", "T9o", "77")
    and ``class_sizes`` the number of hands in each class.
    """

    deck: tuple[int, ...]
    card_maps: np.ndarray
    flops: np.ndarray
    flop_weights: np.ndarray
    hand_class: np.ndarray
    class_names: tuple[str, ...]
    class_sizes: np.ndarray
    class_reps: np.ndarray  # (n_classes, 2) one hand per class, higher card first


def _hand_name(a: int, b: int) -> str:
    ra, rb = a >> 2, b >> 2
    if ra < rb:
        ra, rb = rb, ra
    if ra == rb:
        return RANK_CHARS[ra] * 2
    return RANK_CHARS[ra] + RANK_CHARS[rb] + ("s" if (a & 3) == (b & 3) else "o")


def _name_order(name: str) -> tuple[int, ...]:
    """Sort key: pairs from AA down, then suited, then offsuit, strongest first."""
    hi, lo = RANK_CHARS.index(name[0]), RANK_CHARS.index(name[1])
    kind = 0 if hi == lo else (1 if name[2:3] == "s" else 2)
    return (kind, -hi, -lo)


@cache
def deck_symmetry(deck: tuple[int, ...] = FULL_DECK) -> DeckSymmetry:
    """Symmetries and orbits of ``deck`` (sorted tuple of distinct cards)."""
    deck = tuple(sorted(set(int(c) for c in deck)))
    if len(deck) < 9:
        raise ValueError("a deck needs at least 9 cards (2 + 2 + 5)")
    in_deck = np.zeros(52, bool)
    in_deck[list(deck)] = True
    maps = []
    for perm in permutations(range(4)):
        cm = _perm_cards(perm)
        if np.array_equal(in_deck[cm], in_deck):  # deck maps onto itself
            maps.append(cm)
    card_maps = np.array(maps, dtype=np.int64)

    d = np.array(deck, dtype=np.int64)
    flops = d[colex_subsets(len(d), 3).astype(np.int64)]  # ascending cards
    images = np.sort(card_maps[:, flops], axis=-1)  # (S, F, 3)
    codes = (images[..., 0] * 52 + images[..., 1]) * 52 + images[..., 2]
    canon = codes.min(axis=0)
    uniq, counts = np.unique(canon, return_counts=True)
    canon_flops = np.stack([uniq // 2704, (uniq // 52) % 52, uniq % 52], axis=1)

    hands = d[colex_subsets(len(d), 2).astype(np.int64)]
    pidx = pair_index52(card_maps[:, hands[:, 0]], card_maps[:, hands[:, 1]])  # (S, H)
    canon_h = pidx.min(axis=0)
    uniq_h, inv_h, size_h = np.unique(canon_h, return_inverse=True, return_counts=True)
    reps = []
    names = []
    for u in uniq_h:
        j = int(np.flatnonzero(pidx.min(axis=0) == u)[0])
        a, b = int(hands[j, 0]), int(hands[j, 1])
        reps.append((max(a, b), min(a, b)))
        names.append(_hand_name(a, b))
    # order the classes as a reader expects (AA, KK, ..., AKs, ..., AKo, ...)
    if len(set(names)) == len(names):
        order = sorted(range(len(names)), key=lambda c: _name_order(names[c]))
    else:  # a deck whose symmetries split a name: keep every class, name it by its cards
        order = list(range(len(names)))
        names = [
            f"{n}:{RANK_CHARS[r[0] >> 2]}{'cdhs'[r[0] & 3]}{RANK_CHARS[r[1] >> 2]}{'cdhs'[r[1] & 3]}"
            for n, r in zip(names, reps, strict=True)
        ]
    rank_of_class = np.empty(len(order), np.int64)
    rank_of_class[order] = np.arange(len(order))
    hand_class = np.full(1326, -1, dtype=np.int64)
    hand_class[pair_index52(hands[:, 0], hands[:, 1])] = rank_of_class[inv_h]
    out = DeckSymmetry(
        deck=deck,
        card_maps=card_maps,
        flops=canon_flops.astype(np.int64),
        flop_weights=counts.astype(np.int64),
        hand_class=hand_class,
        class_names=tuple(names[c] for c in order),
        class_sizes=size_h[order].astype(np.int64),
        class_reps=np.array([reps[c] for c in order], dtype=np.int64),
    )
    for arr in (
        out.card_maps,
        out.flops,
        out.flop_weights,
        out.hand_class,
        out.class_sizes,
        out.class_reps,
    ):
        arr.setflags(write=False)
    return out


def board_orbits(
    flop: tuple[int, int, int], deck: tuple[int, ...], card_maps: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The flop's own suit symmetries, acting on its turn-river pairs (= hands).

    ``card_maps``: the deck's symmetries (:class:`DeckSymmetry`).
    Returns ``(rows, weights, pair_perms)``: one board per orbit, the orbit sizes, and
    each symmetry fixing the flop as a permutation of the ``P`` pair indices.
    """
    in_deck = np.zeros(52, bool)
    in_deck[list(deck)] = True
    in_deck[list(flop)] = False
    rem = np.flatnonzero(in_deck)
    fi = flop_index(len(rem))
    target = sorted(flop)
    perms = {tuple(cm[rem]) for cm in card_maps if sorted(int(c) for c in cm[list(flop)]) == target}
    m = len(rem)
    pair_id = np.zeros((m, m), np.intp)
    pair_id[fi.pairs[:, 0], fi.pairs[:, 1]] = np.arange(fi.n_pairs)
    pair_id[fi.pairs[:, 1], fi.pairs[:, 0]] = np.arange(fi.n_pairs)
    pair_perms = []
    for images in sorted(perms):
        local = np.searchsorted(rem, np.array(images))
        pair_perms.append(pair_id[local[fi.pairs[:, 0]], local[fi.pairs[:, 1]]])
    pp = np.array(pair_perms, np.intp)
    rep = pp.min(axis=0)
    rows, weights = np.unique(rep, return_counts=True)
    return rows.astype(np.intp), weights.astype(np.int64), pp


def hand_class_name(a: int, b: int) -> str:
    """Starting-hand name of two cards: ``"AA"``, ``"AKs"`` or ``"AKo"``."""
    return _hand_name(int(a), int(b))
