"""The river table: rebuilt on samples of boards, every look-up equals the exact river values.

The whole table (every board class) is built and checked in the slow set
(``test_par.py``); here samples of its classes are rebuilt from scratch and compared
with :func:`engine.maths.optimal.river_terms`, which enumerates the 990 dealer hands.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.maths.cache import load_river_base
from engine.maths.optimal import OptimalStrategy, river_terms
from engine.maths.par_flop import main_params
from engine.maths.river_table import (
    HOLE_CELLS,
    N_BOARD_CLASSES,
    RiverTable,
    board_keys,
    build_river_base,
    build_river_table,
    card_types,
    hash_index,
    hash_lookup,
)
from engine.uth.paytable import PAYTABLE_DIR, load_paytable, parse_paytable

STANDARD = load_paytable(PAYTABLE_DIR / "standard.toml")
ALTERED = load_paytable(Path(__file__).resolve().parents[2] / "data" / "altered-blind-flush.toml")
# the Blind pays 50:1 on straights and 20:1 on quads: more pay-dependent spots are played
GENEROUS = parse_paytable(
    (PAYTABLE_DIR / "standard.toml")
    .read_text()
    .replace('straight = "1:1"', 'straight = "50:1"')
    .replace('four_of_a_kind = "10:1"', 'four_of_a_kind = "20:1"'),
    "generous",
)


def random_spots(n: int, seed: int, suited_board: int = 0) -> np.ndarray:
    """``(n, 7)`` distinct cards: hole, then board; ``suited_board`` board cards of one suit."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), np.int64)
    for i in range(n):
        if suited_board:
            suit = int(rng.integers(4))
            same = rng.choice(13, suited_board, replace=False) * 4 + suit
            rest = [c for c in rng.permutation(52) if c not in same][: 7 - suited_board]
            out[i] = np.concatenate([rest[:2], same, rest[2:]])
        else:
            out[i] = rng.permutation(52)[:7]
    return out


def exact_plays(spots: np.ndarray, table) -> np.ndarray:
    A, C, fold = river_terms(spots[:, :2], spots[:, 2:], main_params(table))
    return A + C > fold


@pytest.mark.parametrize("suited_board", [0, 3, 4, 5])
@pytest.mark.parametrize(
    "table", [STANDARD, ALTERED, GENEROUS], ids=["standard", "altered", "generous"]
)
def test_rebuilt_sample_equals_the_exact_river_values(suited_board, table):
    spots = random_spots(150, seed=suited_board + 7, suited_board=suited_board)
    river = build_river_table(main_params(table), spots[:, 2:])
    got = river.plays(spots[:, :2], spots[:, 2:])
    want = exact_plays(spots, table)
    assert np.array_equal(got, want)
    assert 0 < want.mean() <= 1


def test_one_base_serves_every_blind_table_of_a_qualifier():
    """Only spots with a straight or better and a negative margin depend on the Blind's pays."""
    boards = np.array(
        [
            parse_cards("7c 7d 7h 7s 2c"),
            parse_cards("9h 8h 7h 6h 2c"),
            parse_cards("Kd Ks 4d 4s 4c"),
        ]
    )
    base = build_river_base(main_params(STANDARD).qualify, boards)
    assert len(base.dep_x) > 0 and (base.dep_category >= 4).all()
    assert (base.dep_x <= 0).all() and (base.dep_w > 0).all()
    rng = np.random.default_rng(3)
    for table in (STANDARD, ALTERED, GENEROUS):
        river = base.for_params(main_params(table))
        for b in boards:
            unseen = np.array([c for c in range(52) if c not in b])
            holes = np.array([rng.choice(unseen, 2, replace=False) for _ in range(120)])
            spots = np.concatenate([holes, np.broadcast_to(b, (len(holes), 5))], axis=1)
            assert np.array_equal(
                river.plays(spots[:, :2], spots[:, 2:]), exact_plays(spots, table)
            )
    # quads on the board: a kicker that wins against some dealer hands is played for 20:1
    quads = np.array([parse_cards("5c 3d 7c 7d 7h 7s 2c")])
    assert not build_river_table(main_params(STANDARD), quads[:, 2:]).plays(
        quads[:, :2], quads[:, 2:]
    )[0]
    assert (
        exact_plays(quads, GENEROUS)[0]
        == base.for_params(main_params(GENEROUS)).plays(quads[:, :2], quads[:, 2:])[0]
    )


def test_a_board_of_a_missing_class_is_not_looked_up():
    spots = random_spots(40, seed=1)
    river = build_river_table(main_params(STANDARD), spots[:20, 2:])
    play, known = river.lookup(spots[:, :2], spots[:, 2:])
    assert known[:20].all() and (~known).sum() >= 10  # random boards: other classes
    assert river.covers(spots[:20, 2:]) and not river.covers(spots[:, 2:])
    with pytest.raises(ValueError, match="not built for"):
        river.plays(spots[:, :2], spots[:, 2:])
    # the optimal strategy falls back to the exact values for them
    opt = OptimalStrategy(STANDARD)
    opt.river_table = river
    got = opt.river_batch_known(spots[:, :2], spots[:, 2:], np.zeros(len(spots)))
    assert np.array_equal(got, exact_plays(spots, STANDARD))


def test_types_and_keys():
    # no three cards of a suit: suits do not matter
    a = np.array([parse_cards("Ah Kd 7c 7s 2h")])
    b = np.array([parse_cards("As Kh 7d 7c 2d")])
    assert board_keys(a)[0] == board_keys(b)[0]
    assert (card_types(a, a) < 13).all()
    # three hearts: the hearts are flagged, a heart in the hand too
    c = np.array([parse_cards("Ah Kh 7h 7s 2c")])
    t = card_types(np.array([parse_cards("Qh Qs")]), c)
    assert t.tolist() == [[10 + 13, 10]]
    assert board_keys(c)[0] != board_keys(a)[0]
    assert HOLE_CELLS == 26 * 26


def test_hash_index_finds_every_key_and_no_other():
    rng = np.random.default_rng(0)
    keys = np.unique(rng.integers(0, 2**50, 40_000))
    slot_keys, slot_values = hash_index(keys)
    assert np.array_equal(hash_lookup(slot_keys, slot_values, keys), np.arange(len(keys)))
    others = keys[:1000] + 1
    others = others[~np.isin(others, keys)]
    assert (hash_lookup(slot_keys, slot_values, others) == -1).all()


def test_the_shipped_river_base_equals_a_rebuilt_sample(tmp_path):
    """The shipped base (qualifier "pair"): a sample of its board classes rebuilt from
    scratch gives the same rows and pay-dependent entries; its table answers random spots
    as the exact values do, for two Blind tables."""
    qualify = main_params(STANDARD).qualify
    shipped = load_river_base(qualify, cache=tmp_path)
    assert shipped is not None and shipped.whole and len(shipped.keys) == N_BOARD_CLASSES
    spots = np.concatenate([random_spots(60, seed=21), random_spots(20, seed=22, suited_board=4)])
    spots = np.concatenate([spots, [parse_cards("5c 3d 7c 7d 7h 7s 2c")]])
    rebuilt = build_river_base(qualify, spots[:, 2:])
    table = RiverTable("", shipped.keys, shipped.play)
    k = table.classes(spots[:, 2:])
    mine = RiverTable("", rebuilt.keys, rebuilt.play).classes(spots[:, 2:])
    assert (k >= 0).all() and (mine >= 0).all()
    assert np.array_equal(shipped.play[k], rebuilt.play[mine])
    shipped_deps = set(
        zip(shipped.keys[shipped.dep_class].tolist(), shipped.dep_cell.tolist(), strict=True)
    )
    rebuilt_deps = set(
        zip(rebuilt.keys[rebuilt.dep_class].tolist(), rebuilt.dep_cell.tolist(), strict=True)
    )
    assert rebuilt_deps and rebuilt_deps <= shipped_deps
    for t in (STANDARD, GENEROUS):
        random = random_spots(1500, seed=23)
        river = shipped.for_params(main_params(t))
        assert np.array_equal(river.plays(random[:, :2], random[:, 2:]), exact_plays(random, t))
