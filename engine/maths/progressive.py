"""Exact figures of the progressive bet (:mod:`engine.uth.progressive`).

The bet is judged on five cards (two hole cards and the flop), so each award hand's
probability is its count among the C(52, 5) = 2,598,960 five-card hands, counted here
in closed form (the tests count them again by enumerating every hand).

With the meter at ``M`` cents, one wager of ``w`` cents returns, as a share of the wager,

    R(M) = F + k * M,   F = sum(p_i * cents_i) / w,   k = sum(p_i * meter_bp_i) / (10000 w)

over the fixed lines ``i`` and the meter lines respectively (exact fractions, before
the rounding of an award down to the cent).  The break-even meter solves ``R(M) = 1``.

Over the long run every cent put in the meter is paid out, so while the meter stays
below its ceiling the bet returns ``F + contribution_bp / 10000 + reset * p_reset / w``
where ``p_reset`` is the chance per wager of a line that takes the whole meter (each
such hit puts ``reset`` cents back in, from the reserve or the operator).  Breakage and
the fractions of a cent left by rounding are not counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from engine.hands.categories import HandCategory
from engine.uth.progressive import WHOLE_BP, Progressive

#: Five-card hands of a 52-card deck.
FIVE_CARD_HANDS = comb(52, 5)

_STRAIGHTS = 10  # A-5 up to T-A


def five_card_counts() -> dict[HandCategory, int]:
    """The number of five-card hands of each category, counted in closed form."""
    c = HandCategory
    flushes = 4 * comb(13, 5)
    straight_flushes = _STRAIGHTS * 4
    counts = {
        c.ROYAL_FLUSH: 4,
        c.STRAIGHT_FLUSH: straight_flushes - 4,
        c.FOUR_OF_A_KIND: 13 * 48,
        c.FULL_HOUSE: 13 * comb(4, 3) * 12 * comb(4, 2),
        c.FLUSH: flushes - straight_flushes,
        c.STRAIGHT: _STRAIGHTS * 4**5 - straight_flushes,
        c.THREE_OF_A_KIND: 13 * comb(4, 3) * comb(12, 2) * 4**2,
        c.TWO_PAIR: comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
        c.PAIR: 13 * comb(4, 2) * comb(12, 3) * 4**3,
        c.HIGH_CARD: (comb(13, 5) - _STRAIGHTS) * (4**5 - 4),
    }
    assert sum(counts.values()) == FIVE_CARD_HANDS
    return counts


@dataclass(frozen=True)
class ProgressiveFigures:
    """The exact figures of one progressive table.  Money in cents, returns as a share
    of the wager (1 = everything back)."""

    table: Progressive
    counts: dict[HandCategory, int]

    @classmethod
    def of(cls, table: Progressive) -> ProgressiveFigures:
        return cls(table, five_card_counts())

    def probability(self, category: HandCategory) -> Fraction:
        """Chance that one wager's five cards make ``category``."""
        return Fraction(self.counts[category], FIVE_CARD_HANDS)

    @property
    def fixed_return(self) -> Fraction:
        """``F``: the return of the fixed lines, whatever the meter."""
        lines = self.table.awards.lines().items()
        total = sum(self.counts[c] * a.cents for c, a in lines if a.cents is not None)
        return Fraction(total, FIVE_CARD_HANDS * self.table.wager)

    @property
    def meter_slope(self) -> Fraction:
        """``k``: the return added by each cent of meter."""
        lines = self.table.awards.lines().items()
        total = sum(self.counts[c] * a.meter_bp for c, a in lines if a.meter_bp is not None)
        return Fraction(total, FIVE_CARD_HANDS * WHOLE_BP * self.table.wager)

    def return_at(self, meter: int | Fraction) -> Fraction:
        """The return of one wager with the meter at ``meter`` cents."""
        return self.fixed_return + self.meter_slope * meter

    @property
    def break_even(self) -> Fraction:
        """The meter (cents) at which the bet returns exactly the wager (0 if the fixed
        lines alone return that much).  It may be above the ceiling: then never."""
        return max(Fraction(0), (1 - self.fixed_return) / self.meter_slope)

    @property
    def reset_probability(self) -> Fraction:
        """Chance per wager of a line that takes the whole meter (and resets it)."""
        lines = self.table.awards.lines().items()
        return sum((self.probability(c) for c, a in lines if a.meter_bp == WHOLE_BP), Fraction(0))

    @property
    def top_probability(self) -> Fraction:
        """Chance per wager of the top award (the strongest line on the meter)."""
        return self.probability(self.table.top)

    @property
    def wagers_between_top(self) -> Fraction:
        """Expected wagers from one top award to the next (all stations together)."""
        return 1 / self.top_probability

    def hours_between_top(self, wagers_per_hour: int) -> Fraction:
        """Expected hours between top awards at ``wagers_per_hour`` (all stations)."""
        if wagers_per_hour <= 0:
            raise ValueError(f"wagers per hour must be positive, not {wagers_per_hour}")
        return self.wagers_between_top / wagers_per_hour

    @property
    def long_run_return(self) -> Fraction:
        """The return over the long run while the ceiling is not reached (see module)."""
        t = self.table
        resets = t.reset * self.reset_probability / t.wager
        return self.fixed_return + Fraction(t.contribution_bp, WHOLE_BP) + resets

    @property
    def reserve_cover(self) -> Fraction:
        """The reserve's contributions over what the resets need, per wager (1 = exact;
        below 1 the operator puts in the rest; 0 without a reset line)."""
        need = self.table.reset * self.reset_probability
        return Fraction(self.table.reserve_contribution) / need if need else Fraction(0)

    def expected_meter_at_top(self, seats: int = 1) -> Fraction:
        """Expected meter (cents, after the round's contributions, before its awards)
        when the top award is hit, for a table of ``seats`` wagering seats each round
        and any number of such tables on the meter, the ceiling not reached.

        Exact for one seat a table: a round's lines are exclusive and rounds
        independent.  With more seats each seat's lines are counted as if no other
        seat could hit a meter line in the same round; the error is of the order of the
        chance of two seats on one meter line in one round (shared flop).
        """
        if not 1 <= seats <= 7:
            raise ValueError(f"a table has 1 to 7 seats, not {seats}")
        t = self.table
        c = Fraction(seats * t.meter_contribution)
        lines = t.awards.lines()
        p = seats * self.top_probability
        others = [
            (seats * self.probability(cat), Fraction(a.meter_bp, WHOLE_BP))
            for cat, a in lines.items()
            if a.meter_bp is not None and cat != t.top
        ]
        # A lower line of 100% sets the meter to the reset rather than to nothing.
        refill = sum((q * t.reset for q, s in others if s == 1), Fraction(0))
        if lines[t.top].meter_bp != WHOLE_BP:
            # No reset at the top: the meter at a hit is the stationary meter,
            # m = m (1 - drain) + c + refill.
            drain = p * Fraction(lines[t.top].meter_bp or 0, WHOLE_BP)
            drain += sum((q * s for q, s in others), Fraction(0))
            return (c + refill) / drain
        # From a reset: m_1 = reset + c, m_{n+1} = r m_n + c + refill given no top award
        # before, where r = 1 - sum(q_j s_j), q_j the chance of line j given no top award.
        r = 1 - sum((q / (1 - p) * s for q, s in others), Fraction(0))
        m1 = t.reset + c
        if r == 1:
            return m1 + c * (1 - p) / p
        fixed = (c + refill / (1 - p)) / (1 - r)
        return fixed + (m1 - fixed) * p / (1 - (1 - p) * r)

    def curve_levels(self, points: int = 8) -> list[int]:
        """Meter levels (cents) for a return curve: from the reset to the ceiling or
        twice the break-even meter, whichever is lower, plus the break-even meter."""
        t = self.table
        high = min(t.ceiling, max(t.reset + 1, int(2 * self.break_even)))
        step = Fraction(high - t.reset, points - 1)
        levels = {int(t.reset + i * step) for i in range(points)}
        if t.reset <= self.break_even <= t.ceiling:
            levels.add(int(self.break_even))
        return sorted(levels)

    def to_dict(self, wagers_per_hour: tuple[int, ...] = (60, 420, 1680)) -> dict:
        """The figures as JSON-ready values (fractions as floats, cents as ints)."""
        t = self.table
        lines = t.awards.lines()
        be = self.break_even
        return {
            "wager": t.wager,
            "cards": t.cards,
            "contribution_bp": t.contribution_bp,
            "reserve_bp": t.reserve_bp,
            "reset": t.reset,
            "ceiling": t.ceiling,
            "split": t.split,
            "hands": FIVE_CARD_HANDS,
            "lines": [
                {
                    "hand": cat.name.lower(),
                    "count": self.counts[cat],
                    "probability": float(self.probability(cat)),
                    "meter_bp": a.meter_bp,
                    "cents": a.cents,
                }
                for cat, a in lines.items()
            ],
            "fixed_return": float(self.fixed_return),
            "return_per_meter_dollar": float(self.meter_slope * 100),
            "return_at_reset": float(self.return_at(t.reset)),
            "break_even_meter": float(be),
            "break_even_reachable": be <= t.ceiling,
            "long_run_return": float(self.long_run_return),
            "reserve_cover": float(self.reserve_cover),
            "top": t.top.name.lower(),
            "wagers_between_top": float(self.wagers_between_top),
            "hours_between_top": {
                str(w): float(self.hours_between_top(w)) for w in wagers_per_hour
            },
            "expected_meter_at_top": float(self.expected_meter_at_top()),
            "return_curve": [
                {"meter": m, "return": float(self.return_at(m))} for m in self.curve_levels()
            ],
        }


def format_figures(
    fig: ProgressiveFigures, wagers_per_hour: tuple[int, ...] = (60, 420, 1680)
) -> str:
    """The figures as text for ``uth par``."""
    d = fig.to_dict(wagers_per_hour)
    t = fig.table
    out = [
        f"Progressive: {t.wager / 100:,.2f} wager on the first five cards; "
        f"{t.contribution_bp / 100:g}% to the meter, {t.reserve_bp / 100:g}% to the reserve; "
        f"reset {t.reset / 100:,.2f}, ceiling {t.ceiling / 100:,.2f}; split: {t.split}",
        f"  {'hand':<16}{'count':>10}{'probability':>16}  award",
    ]
    for line in d["lines"]:
        award = (
            f"{line['meter_bp'] / 100:g}% of the meter"
            if line["meter_bp"] is not None
            else f"{line['cents'] / 100:,.2f}"
        )
        out.append(f"  {line['hand']:<16}{line['count']:>10,}{line['probability']:>16.4e}  {award}")
    out += [
        f"  return = {d['fixed_return']:.6f} + {d['return_per_meter_dollar']:.4e} "
        "x meter (dollars)",
        f"  at the reset: {100 * d['return_at_reset']:.3f}%; "
        f"break-even meter: {d['break_even_meter'] / 100:,.2f}"
        + ("" if d["break_even_reachable"] else " (above the ceiling: never)"),
        f"  long-run return (ceiling not reached): {100 * d['long_run_return']:.3f}%; "
        f"the reserve covers {100 * d['reserve_cover']:.1f}% of the resets",
        f"  top award ({d['top']}): one in {d['wagers_between_top']:,.0f} wagers; expected "
        f"meter at a hit {d['expected_meter_at_top'] / 100:,.2f}",
        "  hours between top awards: "
        + ", ".join(f"{float(h):,.0f} at {w} wagers/h" for w, h in d["hours_between_top"].items()),
        "  return curve: "
        + ", ".join(
            f"{p['meter'] / 100:,.0f}: {100 * p['return']:.2f}%" for p in d["return_curve"]
        ),
    ]
    return "\n".join(out)
