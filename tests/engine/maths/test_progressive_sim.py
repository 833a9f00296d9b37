"""The meter simulation held to the exact figures, at fixed seeds."""

from pathlib import Path

import numpy as np
import pytest

from engine.hands.categories import HandCategory
from engine.maths.progressive import ProgressiveFigures
from engine.maths.progressive_sim import deal_first_five, format_simulation, simulate_meter
from engine.uth.paytable import load_paytable

DATA = Path(__file__).resolve().parents[2] / "data" / "paytables"
#: Top award on four of a kind (one in 4,165 wagers), a 5% line on full houses.
QUADS = load_paytable(DATA / "progressive-quads.toml").progressive
FIGURES = ProgressiveFigures.of(QUADS)


def test_a_table_round_deals_hole_cards_and_one_shared_flop():
    cards = deal_first_five(np.random.default_rng(3), 1000, 7)
    assert cards.shape == (1000, 7, 5)
    assert (cards[:, :, 2:] == cards[:, :1, 2:]).all()  # one flop a table
    dealt = np.concatenate([cards[:, :, :2].reshape(1000, 14), cards[:, 0, 2:]], axis=1)
    assert all(len(set(row)) == 17 for row in dealt.tolist())


@pytest.mark.parametrize(("stations", "tables", "rounds"), [(1, 1, 840_000), (7, 3, 40_000)])
def test_the_simulated_meter_agrees_with_the_exact_figures(stations, tables, rounds):
    run = simulate_meter(QUADS, rounds, stations=stations, tables=tables, seed=20261206)
    d = run.to_dict(FIGURES)
    assert run.wagers == 840_000
    # Top awards: wagers x 624 / 2,598,960 = 201.7; the binomial 99% range is +-36.6.
    assert d["top_hits_expected"] == pytest.approx(201.69, abs=0.01)
    assert 165 <= d["top_hits"] <= 238 and d["top_hits_inside"]
    # Mean meter at a top award (cents): exact 118,558; the interval is the sample's.
    assert d["meter_at_top_expected"] == pytest.approx(118_558, abs=1)
    lo, hi = d["meter_at_top_ci99"]
    assert lo <= d["meter_at_top_expected"] <= hi and d["meter_at_top_inside"]
    assert hi - lo < 30_000
    # Every cent is somewhere: the operator's seeds and the contributions are in the
    # meter, the reserve, the meter awards or the breakage.
    into = run.from_operator + run.wagers * (QUADS.meter_contribution + QUADS.reserve_contribution)
    assert into == run.meter + run.reserve + run.meter_paid + run.breakage
    assert run.resets == d["top_hits"]
    # Full houses, one in 694 wagers: 1,210 expected; within three binomial standard
    # deviations (34.8 each; the shared flop widens the spread at seven seats).
    assert d["hits_expected"]["full_house"] == pytest.approx(1210.08, abs=0.01)
    assert abs(d["hits"]["full_house"] - 1210.08) < 105
    assert "top awards (four_of_a_kind)" in format_simulation(d)


def test_the_same_seed_gives_the_same_run_and_another_seed_another():
    a = simulate_meter(QUADS, 20_000, stations=3, tables=2, seed=5, batch=7_000)
    b = simulate_meter(QUADS, 20_000, stations=3, tables=2, seed=5, batch=7_000)
    c = simulate_meter(QUADS, 20_000, stations=3, tables=2, seed=6, batch=7_000)
    assert a == b and a.meter_at_top != c.meter_at_top
    assert sum(a.hits.values()) > 0 and HandCategory.FLUSH in a.hits


def test_the_ceiling_holds_the_meter_and_sends_the_rest_to_the_reserve():
    low = QUADS.model_copy(update={"ceiling": QUADS.reset + 100})
    run = simulate_meter(low, 30_000, stations=7, seed=1)
    assert max(run.meter_at_top) <= low.ceiling
    into = run.from_operator + run.wagers * (low.meter_contribution + low.reserve_contribution)
    assert into == run.meter + run.reserve + run.meter_paid + run.breakage


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"stations": 8}, "1 to 7 stations"),
        ({"stations": 0}, "1 to 7"),
        ({"tables": 0}, "positive"),
    ],
)
def test_a_shape_out_of_range_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate_meter(QUADS, 10, **kwargs)
