"""A simulation of the progressive meter over time, held to the exact figures.

``tables`` tables of ``stations`` seats (a lone cabinet is a table of one) share one
meter.  Each round every table deals from its own shuffled deck: each seat's two hole
cards, then the flop the seats share, and every seat places the progressive wager.
The tables' rounds are settled one after another (table 0, 1, ... of round 0, then of
round 1, ...).  A round in which no seat is on a meter line only adds its contributions,
so those are added in closed form (the meter capped at the ceiling, the rest to the
reserve) and the fixed awards tallied in numpy; every round with a seat on a meter line
is settled by :func:`engine.uth.progressive_settlement.settle_categories`, the cabinet's
own settlement.  Seeded: the same seed and shape give the same figures.

Checks against :class:`engine.maths.progressive.ProgressiveFigures`: the number of top
awards against ``wagers * p_top`` (a binomial 99% range: at one table two seats cannot
both hold a royal flush, or four of a kind, on one flop), and the mean meter at a top
award against the exact expectation (a 99% interval from the sample's spread).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine.hands.categories import HandCategory
from engine.hands.evaluator import category_batch, evaluate_batch
from engine.maths.progressive import ProgressiveFigures
from engine.uth.progressive import Progressive
from engine.uth.progressive_settlement import settle_categories

#: The normal quantile of a two-sided 99% interval.
Z99 = 2.5758293035489


@dataclass
class MeterSimulation:
    """What a run of the meter simulation saw.  Money in cents."""

    stations: int
    tables: int
    rounds: int
    seed: int
    wagers: int = 0
    hits: dict[HandCategory, int] = field(default_factory=dict)
    meter_at_top: list[int] = field(default_factory=list)
    paid: int = 0
    meter_paid: int = 0
    breakage: int = 0
    resets: int = 0
    from_operator: int = 0
    meter: int = 0
    reserve: int = 0

    def to_dict(self, figures: ProgressiveFigures) -> dict:
        """The run's figures and their checks against ``figures``."""
        top = figures.table.top
        p = float(figures.top_probability)
        expected = self.wagers * p
        half = Z99 * math.sqrt(self.wagers * p * (1 - p))
        at = np.asarray(self.meter_at_top, dtype=np.float64)
        exact_mean = float(figures.expected_meter_at_top(self.stations))
        out: dict = {
            "stations": self.stations,
            "tables": self.tables,
            "rounds": self.rounds,
            "seed": self.seed,
            "wagers": self.wagers,
            "hits": {c.name.lower(): n for c, n in sorted(self.hits.items(), reverse=True)},
            "hits_expected": {
                c.name.lower(): self.wagers * float(figures.probability(c))
                for c in sorted(self.hits, reverse=True)
            },
            "top": top.name.lower(),
            "top_hits": self.hits.get(top, 0),
            "top_hits_expected": expected,
            "top_hits_range99": [expected - half, expected + half],
            "top_hits_inside": abs(self.hits.get(top, 0) - expected) <= half,
            "return": self.paid / (self.wagers * figures.table.wager) if self.wagers else 0.0,
            "long_run_return": float(figures.long_run_return),
            "breakage": self.breakage,
            "resets": self.resets,
            "from_operator": self.from_operator,
            "meter_end": self.meter,
            "reserve_end": self.reserve,
            "meter_at_top_expected": exact_mean,
        }
        if at.size >= 2:
            mean, sd = float(at.mean()), float(at.std(ddof=1))
            half_m = Z99 * sd / math.sqrt(at.size)
            out.update(
                meter_at_top_mean=mean,
                meter_at_top_sd=sd,
                meter_at_top_ci99=[mean - half_m, mean + half_m],
                meter_at_top_inside=abs(mean - exact_mean) <= half_m,
                meter_at_top_quantiles={
                    str(q): float(np.quantile(at, q / 100)) for q in (5, 25, 50, 75, 95)
                },
            )
        return out


def deal_first_five(rng: np.random.Generator, rows: int, stations: int) -> np.ndarray:
    """``(rows, stations, 5)`` cards: each row a table's round from one shuffled deck,
    each seat's two hole cards then the shared flop."""
    need = 2 * stations + 3
    decks = rng.random((rows, 52)).argsort(axis=1)[:, :need].astype(np.uint8)
    holes = decks[:, : 2 * stations].reshape(rows, stations, 2)
    flop = np.broadcast_to(decks[:, None, 2 * stations :], (rows, stations, 3))
    return np.concatenate([holes, flop], axis=2)


def simulate_meter(
    table: Progressive,
    rounds: int,
    *,
    stations: int = 1,
    tables: int = 1,
    seed: int = 0,
    batch: int = 1 << 15,
    meter: int | None = None,
    reserve: int = 0,
) -> MeterSimulation:
    """Play ``rounds`` rounds at each of ``tables`` tables of ``stations`` seats on one
    meter (starting at ``meter``, default the reset, and ``reserve`` cents)."""
    if not 1 <= stations <= 7:
        raise ValueError(f"a table has 1 to 7 stations, not {stations}")
    if tables < 1 or rounds < 1 or batch < 1:
        raise ValueError("rounds, tables and batch must be positive")
    rng = np.random.default_rng(seed)
    run = MeterSimulation(stations, tables, rounds, seed)
    run.meter = table.reset if meter is None else meter
    run.reserve = reserve
    run.from_operator = run.meter if meter is None else 0
    lines = table.awards.lines()
    pays = np.zeros(len(HandCategory), dtype=np.int64)
    on_meter = np.zeros(len(HandCategory), dtype=bool)
    for cat, award in lines.items():
        on_meter[cat] = award.on_meter
        pays[cat] = award.cents or 0
    per_round = stations * table.meter_contribution
    per_round_reserve = stations * table.reserve_contribution
    done = 0  # table-rounds settled so far
    total = rounds * tables
    while done < total:
        rows = min(batch, total - done)
        cards = deal_first_five(rng, rows, stations)
        cats = category_batch(evaluate_batch(cards.reshape(-1, 5))).reshape(rows, stations)
        counts = np.bincount(cats.ravel(), minlength=len(HandCategory))
        for cat in lines:
            run.hits[cat] = run.hits.get(cat, 0) + int(counts[cat])
        events = np.flatnonzero(on_meter[cats].any(axis=1))
        quiet = np.ones(rows, dtype=bool)
        quiet[events] = False
        run.paid += int(pays[cats[quiet]].sum())
        previous = -1
        for row in (*events.tolist(), rows):
            gap = row - previous - 1  # quiet table-rounds since the last event
            if gap:
                lifted = run.meter + gap * per_round
                kept = min(lifted, table.ceiling)
                run.reserve += gap * per_round_reserve + lifted - kept
                run.meter = kept
            if row == rows:
                break
            hands = {s: HandCategory(int(c)) for s, c in enumerate(cats[row])}
            result = settle_categories(table, run.meter, run.reserve, hands)
            run.meter_at_top += [m for c, m in result.meter_at if c == table.top]
            run.paid += result.meter_paid + result.fixed_paid
            run.meter_paid += result.meter_paid
            run.breakage += result.breakage
            run.resets += result.resets
            run.from_operator += result.from_operator
            run.meter, run.reserve = result.meter_after, result.reserve_after
            previous = row
        done += rows
    run.wagers = total * stations
    return run


def format_simulation(data: dict) -> str:
    """A run's :meth:`MeterSimulation.to_dict` as text for ``uth simulate --progressive``."""
    out = [
        f"Progressive meter: {data['rounds']:,} rounds x {data['tables']} table(s) x "
        f"{data['stations']} station(s) = {data['wagers']:,} wagers, seed {data['seed']}",
        "  hits (exact expectation): "
        + ", ".join(
            f"{k} {v:,} ({data['hits_expected'][k]:,.1f})" for k, v in data["hits"].items()
        ),
        f"  top awards ({data['top']}): {data['top_hits']:,}; exact expectation "
        f"{data['top_hits_expected']:,.1f}, 99% range {data['top_hits_range99'][0]:,.1f} .. "
        f"{data['top_hits_range99'][1]:,.1f}: {'inside' if data['top_hits_inside'] else 'OUTSIDE'}",
    ]
    if "meter_at_top_mean" in data:
        lo, hi = data["meter_at_top_ci99"]
        q = data["meter_at_top_quantiles"]
        out += [
            f"  meter at a top award: mean {data['meter_at_top_mean'] / 100:,.2f} (99% "
            f"interval {lo / 100:,.2f} .. {hi / 100:,.2f}), exact "
            f"{data['meter_at_top_expected'] / 100:,.2f}: "
            + ("inside" if data["meter_at_top_inside"] else "OUTSIDE"),
            "  meter at a top award, quantiles: "
            + ", ".join(f"{k}% {v / 100:,.2f}" for k, v in q.items()),
        ]
    else:
        out.append("  meter at a top award: too few top awards for an interval")
    out.append(
        f"  return {100 * data['return']:.3f}% (long run, exact: "
        f"{100 * data['long_run_return']:.3f}%); resets {data['resets']}, "
        f"operator seed {data['from_operator'] / 100:,.2f}, breakage {data['breakage']} cents; "
        f"meter at the end {data['meter_end'] / 100:,.2f}, reserve {data['reserve_end'] / 100:,.2f}"
    )
    return "\n".join(out)
