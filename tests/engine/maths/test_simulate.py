"""The simulator: dealing, reproducibility, settlement, and agreement with the exact analysis.

Agreement is tested where the exact figures are cheap: on a reduced deck (the whole game,
every shipped paytable and strategy) and on full-deck sub-problems (a fixed hand and
board: the river decision; a fixed hand and flop: flop and river decisions).  Each
exact figure must lie in the simulation's 99% interval; an altered paytable must not.
Seeds are fixed, so the tests are deterministic.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest

from engine.cards import parse_cards
from engine.maths.optimal import OptimalStrategy, river_terms
from engine.maths.par import par
from engine.maths.par_flop import main_params
from engine.maths.par_report import cell_values
from engine.maths.simulate import deal, run, settled_cell_values, simulate
from engine.maths.strategies import STRATEGIES, get_strategy
from engine.uth.paytable import PAYTABLE_DIR, load_paytable, shipped_paytables
from kiosk.cli import main as cli

STANDARD = load_paytable(PAYTABLE_DIR / "standard.toml")
ALTERED = load_paytable(Path(__file__).resolve().parents[2] / "data" / "altered-blind-flush.toml")
SMALL_DECK = tuple(sorted(4 * r + s for r in range(5, 13) for s in range(2)))  # 7..A, two suits
# 2 3 4 6 7 8 T J in two suits: no straight (so no royal flush either), flushes, high-card
# hands: a game with a modest standard deviation, where a changed flush pay shows
FLUSH_DECK = tuple(sorted(4 * r + s for r in (0, 1, 2, 4, 5, 6, 8, 9) for s in range(2)))
TABLES = {p.stem: load_paytable(p) for p in shipped_paytables()}
RTPS = ("rtp_total_main_bet", "rtp_initial_main_bet", "trips")


@pytest.fixture(autouse=True, scope="module")
def _private_par_cache(tmp_path_factory):
    """Keep the tests' results out of the user's PAR cache (and its stale results out of them)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UTH_PAR_CACHE", str(tmp_path_factory.mktemp("par-cache")))
        yield


def exact_figure(rep, key):
    return rep.trips["rtp"] if key == "trips" else rep.main[key]


def inside(sim, key, value):
    lo, hi = sim.extra["ci99"][key]
    return lo <= value <= hi


# -- dealing -----------------------------------------------------------------------------------


def test_deal_is_distinct_and_uniform():
    rng = np.random.default_rng(1)
    n = 208_000
    cards = deal(rng, n, np.arange(52, dtype=np.uint8))
    s = np.sort(cards, axis=1)
    assert (np.diff(s.astype(int), axis=1) > 0).all()
    # every column uniform over the 52 cards: chi-square, 51 dof, 99.9% critical value 87.97
    for col in range(9):
        counts = np.bincount(cards[:, col], minlength=52)
        chi2 = ((counts - n / 52) ** 2 / (n / 52)).sum()
        assert chi2 < 87.97, (col, chi2)


def test_deal_with_fixed_cards_and_small_deck():
    rng = np.random.default_rng(2)
    fixed = parse_cards("As Kd 7h 8h 9h")
    cards = deal(rng, 5000, np.array(SMALL_DECK, np.uint8), fixed)
    assert (cards[:, :5] == fixed).all()
    assert set(np.unique(cards[:, 5:])) <= set(SMALL_DECK) - set(fixed)
    assert (np.diff(np.sort(cards, axis=1).astype(int), axis=1) > 0).all()


# -- reproducibility and settlement ------------------------------------------------------------


def test_reproducible_for_a_seed_and_worker_count():
    a = run(STANDARD, 30_000, STRATEGIES["simple"], seed=9, workers=2, batch=4096)
    b = run(STANDARD, 30_000, STRATEGIES["simple"], seed=9, workers=2, batch=4096)
    c = run(STANDARD, 30_000, STRATEGIES["simple"], seed=10, workers=2, batch=4096)
    assert np.array_equal(a.counts, b.counts) and np.array_equal(a.money, b.money)
    assert not np.array_equal(a.counts, c.counts)
    assert a.rounds == 30_000 and int(a.counts.sum()) == 30_000


def test_settlement_pays_what_the_analysis_assumes():
    """Each cell's money, as settle paid it, is the analysis's payoff for that cell."""
    tally = run(STANDARD, 200_000, STRATEGIES["simple"], seed=4)
    got = settled_cell_values(tally, STANDARD.pay_denominator)
    want = cell_values(STANDARD)
    seen = 0
    for f in want:
        for m in range(5):
            for k in range(10):
                for o in range(6):
                    if tally.counts[m, k, o]:
                        assert got[f][m][k][o] == want[f][m][k][o], (f, m, k, o)
                        seen += 1
    assert seen > 300


# -- agreement with the exact analysis: reduced deck, whole game --------------------------------


@pytest.fixture(scope="module")
def small_exact(tmp_path_factory):
    cache = tmp_path_factory.mktemp("par")
    return {
        (name, s): par(t, s, deck=SMALL_DECK, workers=1, cache=cache)
        for name, t in TABLES.items()
        for s in STRATEGIES
    }


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("table", sorted(TABLES))
def test_small_deck_simulation_agrees_with_exact(table, strategy, small_exact):
    exact = small_exact[(table, strategy)]
    sim = simulate(TABLES[table], 60_000, strategy, seed=21, deck=SMALL_DECK)
    for key in RTPS:
        assert inside(sim, key, exact_figure(exact, key)), (
            key,
            exact_figure(exact, key),
            sim.extra["ci99"][key],
        )
    assert sim.main["decisions"]["4x"] == pytest.approx(exact.main["decisions"]["4x"], abs=0.01)


def test_small_deck_altered_paytable_is_rejected(tmp_path):
    exact = par(STANDARD, "simple", deck=FLUSH_DECK, workers=1, cache=tmp_path)
    altered = par(ALTERED, "simple", deck=FLUSH_DECK, workers=1, cache=tmp_path)
    honest = simulate(STANDARD, 200_000, "simple", seed=22, deck=FLUSH_DECK)
    sim = simulate(ALTERED, 200_000, "simple", seed=22, deck=FLUSH_DECK)
    for key in ("rtp_initial_main_bet", "rtp_total_main_bet"):
        assert inside(honest, key, exact_figure(exact, key))
        assert inside(sim, key, exact_figure(altered, key))
        assert not inside(sim, key, exact_figure(exact, key))  # the altered table is caught
    assert inside(sim, "trips", exact.trips["rtp"])  # Trips is untouched


# -- agreement with the exact analysis: full-deck sub-problems ---------------------------------

RIVER_SPOTS = ["Ah 9h Kh 7h 2h 5c 8d", "Qc Jd Ts 9c 4h 3d 2s", "Kc 4d Ks 8h 8c 3d 2s"]
FLOP_SPOTS = ["Qs 9s 8s 4s 2d", "Kd 7c 7h 4s 2d"]


def exact_subgame(table, strategy, cards: list[int]) -> float:
    """Exact mean net (Antes) of a sub-problem starting at the flop (5 cards) or river (7)."""
    params = main_params(table)
    hole, board = cards[:2], cards[2:]
    unseen = [c for c in range(52) if c not in cards]
    boards = (
        np.array([board + list(tr) for tr in combinations(unseen, 7 - len(cards))])
        if len(board) < 5
        else np.array([board])
    )
    holes = np.broadcast_to(np.array(hole), (len(boards), 2))
    A, C, fold = river_terms(holes, boards, params)
    if len(board) == 3 and strategy.flop_one(tuple(hole), tuple(board)):
        total = (A + 2 * C).sum()
    else:
        play = strategy.river_batch(holes, boards)
        total = np.where(play, A + C, fold).sum()
    return float(total) / (len(boards) * comb(52 - 7, 2) * params.scale)


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("spot", RIVER_SPOTS + FLOP_SPOTS)
def test_full_deck_subproblem_simulation_agrees_with_exact(spot, strategy):
    cards = parse_cards(spot)
    s = get_strategy(strategy, STANDARD)
    exact = exact_subgame(STANDARD, s, cards)
    rounds = 20_000 if len(cards) == 7 else 40_000
    sim = simulate(STANDARD, rounds, s, seed=5, fixed=cards)
    lo, hi = sim.extra["ci99"]["rtp_initial_main_bet"]
    assert lo <= 1 + exact <= hi, (spot, strategy, 1 + exact, (lo, hi))


def test_full_deck_subproblem_altered_paytable_is_rejected():
    cards = parse_cards(RIVER_SPOTS[0])  # the player holds an ace-high flush
    exact = exact_subgame(STANDARD, STRATEGIES["simple"], cards)
    sim = simulate(ALTERED, 20_000, "simple", seed=5, fixed=cards)
    lo, hi = sim.extra["ci99"]["rtp_initial_main_bet"]
    assert not lo <= 1 + exact <= hi
    assert lo <= 1 + exact_subgame(ALTERED, STRATEGIES["simple"], cards) <= hi


def test_optimal_subproblem_without_analysis_uses_exact_values():
    s = OptimalStrategy(STANDARD)
    assert s.analysis is None
    cards = parse_cards(FLOP_SPOTS[0])
    sim = simulate(STANDARD, 2_000, s, seed=1, fixed=cards)
    assert s.analysis is None  # decided from exact flop values, no full analysis needed
    assert sim.rounds == 2_000


# -- command line ------------------------------------------------------------------------------


def test_cli_simulate_json(capsys):
    import json

    assert (
        cli(
            [
                "simulate",
                str(PAYTABLE_DIR / "standard.toml"),
                "--rounds",
                "20000",
                "--strategy",
                "simple",
                "--seed",
                "3",
                "--workers",
                "2",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == 20_000 and out["strategy"] == "simple" and out["exact"] is False
    for key in (
        "rtp_total_main_bet",
        "rtp_initial_main_bet",
        "house_edge_per_ante",
        "element_of_risk",
        "sd_antes",
        "decisions",
        "outcomes",
    ):
        assert key in out["main"]
    lo, hi = out["ci95"]["rtp_total_main_bet"]
    assert lo < out["main"]["rtp_total_main_bet"] < hi
    assert "rtp" in out["trips"] and "lines" in out["trips"]


def test_cli_simulate_text_and_errors(capsys):
    assert (
        cli(
            [
                "simulate",
                str(PAYTABLE_DIR / "standard.toml"),
                "--rounds",
                "5000",
                "--seed",
                "1",
                "--strategy",
                "cautious",
            ]
        )
        == 0
    )
    out = capsys.readouterr()
    assert "95% CI" in out.out and "simulated (5,000 rounds" in out.out
    assert out.err == ""  # no progress bar when not on a terminal
    assert (
        cli(["simulate", str(PAYTABLE_DIR / "standard.toml"), "--rounds", "0", "--seed", "1"]) == 2
    )
    assert (
        cli(
            [
                "simulate",
                str(PAYTABLE_DIR / "standard.toml"),
                "--rounds",
                "10",
                "--seed",
                "1",
                "--fixed",
                "As Kd 7h",
            ]
        )
        == 2
    )
