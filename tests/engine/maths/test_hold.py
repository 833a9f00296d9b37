"""The hold report on simulated sessions settled by the cabinet's own ``settle()``: a
player who sees the dealer's cards raises the flag, an optimal player does not."""

from __future__ import annotations

import numpy as np
import pytest

from engine.hands.evaluator import evaluate_batch
from engine.maths.hold import BETS, FLAG_MIN_ROUNDS, hold_report
from engine.maths.optimal import OptimalStrategy
from engine.maths.par import main_analysis
from engine.uth.paytable import PAYTABLE_DIR, load_paytable
from engine.uth.settlement import settle

STANDARD = load_paytable(PAYTABLE_DIR / "standard.toml")
#: The standard table's exact RTPs under optimal play (``uth par``).
RTPS = {
    "ante": 0.8342297023699553,
    "blind": 0.6853047267362755,
    "play": 1.2130907085876306,
    "trips": 0.9650206271934519,
    "main_total": 0.994737810430313,
}
ROUNDS = 20_000
ANTE, TRIPS = 500, 500


@pytest.fixture(scope="module")
def strategy() -> OptimalStrategy:
    return OptimalStrategy(STANDARD, analysis=main_analysis(STANDARD, "optimal", workers=1))


def session(strategy: OptimalStrategy, seed: int, sees_dealer: bool):
    """``ROUNDS`` rounds of optimal play (at the river, with ``sees_dealer``, playing
    exactly when the hand does not lose to the dealer's) settled by ``settle()``."""
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((ROUNDS, 52)), axis=1)[:, :9]
    holes, dealer, board = cards[:, 0:2], cards[:, 2:4], cards[:, 4:9]
    ps = evaluate_batch(np.concatenate([holes, board], axis=1).astype(np.uint8)).astype(np.int64)
    ds = evaluate_batch(np.concatenate([dealer, board], axis=1).astype(np.uint8)).astype(np.int64)
    mult = np.asarray(strategy.preflop_batch(holes), np.int64)
    rest = np.flatnonzero(mult == 0)
    bet2 = np.asarray(strategy.flop_batch(holes[rest], board[rest, :3]), bool)
    mult[rest[bet2]] = 2
    river = rest[~bet2]
    if sees_dealer:
        plays = ps[river] >= ds[river]
    else:
        plays = np.asarray(strategy.river_batch(holes[river], board[river]), bool)
    mult[river[plays]] = 1
    folded = mult == 0
    s = settle(ANTE, mult * ANTE, TRIPS, folded, ps, ds, STANDARD)
    stakes = {"ante": np.full(ROUNDS, ANTE), "blind": np.full(ROUNDS, ANTE),
              "play": mult * ANTE, "trips": np.full(ROUNDS, TRIPS)}
    returns = {b: getattr(s, f"{b}_return") for b in BETS}
    return stakes, returns


def test_an_optimal_player_stays_inside_every_band(strategy):
    stakes, returns = session(strategy, seed=20261201, sees_dealer=False)
    report = hold_report(stakes, returns, RTPS, np.zeros(ROUNDS))
    assert not report.flagged, report.as_dict()
    main = report.row("main")
    assert main.rounds == ROUNDS >= FLAG_MIN_ROUNDS
    assert main.interval[0] < 1 - RTPS["main_total"] < main.interval[1]
    assert main.decisions == pytest.approx(1 - RTPS["main_total"])


def test_a_player_who_sees_the_dealers_cards_raises_the_flag(strategy):
    stakes, returns = session(strategy, seed=20261201, sees_dealer=True)
    report = hold_report(stakes, returns, RTPS)
    assert report.flagged
    assert report.row("main").flagged and report.row("main").actual < report.row("main").band[0]
    assert not report.row("trips").flagged  # Trips takes no decision


def test_no_flag_below_ten_thousand_rounds(strategy):
    stakes, returns = session(strategy, seed=7, sees_dealer=True)
    short = {b: v[:9_999] for b, v in stakes.items()}, {b: v[:9_999] for b, v in returns.items()}
    report = hold_report(*short, RTPS)
    assert not report.flagged and report.row("main").rounds == 9_999
