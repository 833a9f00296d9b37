"""One round of the progressive settled: awards, shares, breakage, resets, balance."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.hands.categories import HandCategory
from engine.uth.paytable import load_paytable
from engine.uth.progressive import PROGRESSIVE_LINES, Award, Awards, Progressive
from engine.uth.progressive_settlement import (
    ProgressiveInputError,
    settle_categories,
    settle_progressive,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "paytables"
EXAMPLE = load_paytable(DATA / "progressive-example.toml").progressive
ROYAL = HandCategory.ROYAL_FLUSH
SF = HandCategory.STRAIGHT_FLUSH


def test_a_royal_takes_the_meter_and_the_reserve_funds_the_reset():
    hands = {
        1: parse_cards("Ah Kh Qh Jh Th"),
        3: parse_cards("9h 8h Qh Jh Th"),
        4: parse_cards("2c 2d 2h 3c 3d"),
        6: parse_cards("2s 7d 9c Qh Kd"),
    }
    r = settle_progressive(EXAMPLE, 5_000_001, 1_500_000, hands)
    assert (r.to_meter, r.to_reserve, r.overflow) == (80, 8, 0)
    assert [(a.seat, a.hand, a.cents, a.on_meter) for a in r.awards] == [
        (1, ROYAL, 5_000_081, True),
        (3, SF, 100_000, True),  # 10% of the meter as the reset left it
        (4, HandCategory.FULL_HOUSE, 5_000, False),
    ]
    assert (r.resets, r.from_reserve, r.from_operator) == (1, 1_000_000, 0)
    assert (r.meter_after, r.reserve_after) == (900_000, 500_008)
    assert r.meter_at == ((ROYAL, 5_000_081), (SF, 1_000_000))
    assert r.paid_to(1) == 5_000_081 and r.paid_to(6) == 0


def test_the_operator_puts_in_what_the_reserve_lacks():
    r = settle_categories(EXAMPLE, 1_000_000, 10, {0: ROYAL})
    assert (r.from_reserve, r.from_operator, r.meter_after, r.reserve_after) == (
        12,
        999_988,
        1_000_000,
        0,
    )


def test_two_seats_share_the_meter_and_the_odd_cent_is_breakage():
    r = settle_categories(EXAMPLE, 99_999, 0, {0: SF, 2: SF, 5: SF})
    # meter 99,999 + 60 = 100,059; 10% is 10,005 (the fraction stays); 3,335 each.
    assert [a.cents for a in r.awards] == [3_335, 3_335, 3_335]
    assert (r.breakage, r.meter_after) == (0, 90_054)
    # meter 99,999 + 40 = 100,039; 10% is 10,003: 5,001 each and one cent of breakage.
    r = settle_categories(EXAMPLE, 99_999, 0, {0: SF, 2: SF})
    assert [a.cents for a in r.awards] == [5_001, 5_001] and r.breakage == 1
    assert r.meter_after == 90_036


def test_sequential_pays_in_seat_order_on_the_meter_left():
    seq = EXAMPLE.model_copy(update={"split": "sequential"})
    r = settle_categories(seq, 2_000_000, 0, {5: ROYAL, 2: ROYAL})
    assert [(a.seat, a.cents) for a in r.awards] == [(2, 2_000_040), (5, 1_000_000)]
    assert (r.resets, r.from_operator, r.meter_after, r.breakage) == (2, 1_999_996, 1_000_000, 0)


def test_contributions_above_the_ceiling_go_to_the_reserve():
    r = settle_categories(
        EXAMPLE, EXAMPLE.ceiling - 30, 0, {0: HandCategory.PAIR, 1: HandCategory.PAIR}
    )
    assert (r.to_meter, r.overflow, r.to_reserve, r.meter_after, r.reserve_after) == (
        30,
        10,
        14,
        EXAMPLE.ceiling,
        14,
    )


@pytest.mark.parametrize(
    ("meter", "reserve", "hands", "message"),
    [
        (-1, 0, {0: [0, 1, 2, 3, 4]}, "meter must be whole cents"),
        (5, 1.5, {0: [0, 1, 2, 3, 4]}, "reserve must be whole cents"),
        (EXAMPLE.ceiling + 1, 0, {0: [0, 1, 2, 3, 4]}, "above the ceiling"),
        (5, 0, {0: [0, 1, 2, 3]}, "seat 0: five distinct cards"),
        (5, 0, {0: [0, 1, 2, 3, 3]}, "seat 0: five distinct cards"),
        (5, 0, {2: [0, 1, 2, 3, 52]}, "seat 2: five distinct cards"),
    ],
)
def test_a_round_that_cannot_be_settled_is_refused(meter, reserve, hands, message):
    with pytest.raises(ProgressiveInputError, match=message):
        settle_progressive(EXAMPLE, meter, reserve, hands)


@st.composite
def tables(draw) -> Progressive:
    wager = draw(st.sampled_from([100, 200, 500, 1000]))
    contribution = draw(st.integers(1, 60)) * 100
    reserve = draw(st.integers(0, 100 - contribution // 100)) * 100
    reset = draw(st.integers(1, 10**7))
    lines = {}
    fixed_cap = reset
    for cat in PROGRESSIVE_LINES:
        kind = draw(st.sampled_from(["none", "meter", "fixed"]))
        if kind == "meter":
            lines[cat.name.lower()] = Award(meter_bp=draw(st.integers(1, 10_000)))
        elif kind == "fixed":
            fixed_cap = draw(st.integers(1, fixed_cap))
            lines[cat.name.lower()] = Award(cents=fixed_cap)
    if not any(a.on_meter for a in lines.values()):
        lines["royal_flush"] = Award(meter_bp=10_000)
    return Progressive(
        wager=wager,
        contribution_bp=contribution,
        reserve_bp=reserve,
        reset=reset,
        ceiling=draw(st.integers(reset, 10**9)),
        split=draw(st.sampled_from(["share", "sequential"])),
        awards=Awards(**lines),
    )


@settings(max_examples=400, deadline=None)
@given(
    table=tables(),
    data=st.data(),
    hands=st.dictionaries(
        st.integers(0, 6), st.sampled_from(list(HandCategory)), min_size=1, max_size=7
    ),
)
def test_every_round_balances_and_shares_equally(table, data, hands):
    meter = data.draw(st.integers(0, table.ceiling))
    reserve = data.draw(st.integers(0, 10**9))
    r = settle_categories(table, meter, reserve, hands)
    assert r.meter_before + r.to_meter + r.from_reserve + r.from_operator == (
        r.meter_after + r.meter_paid + r.breakage
    )
    assert r.reserve_before + r.to_reserve == r.reserve_after + r.from_reserve
    assert r.to_meter + r.to_reserve == len(hands) * (
        table.meter_contribution + table.reserve_contribution
    )
    assert 0 <= r.meter_after <= table.ceiling and r.reserve_after >= 0
    assert all(a.cents >= 0 for a in r.awards)
    lines = table.awards.lines()
    for cat, award in lines.items():
        seats = sorted(s for s, h in hands.items() if h == cat)
        paid = [a for a in r.awards if a.hand == cat]
        assert [a.seat for a in paid] == seats
        if award.cents is not None:
            assert all(a.cents == award.cents for a in paid)
        elif seats and table.split == "share":
            assert len({a.cents for a in paid}) == 1  # equal shares
            at = dict(r.meter_at)[cat]
            whole = at * award.meter_bp // 10_000
            assert whole - len(seats) < sum(a.cents for a in paid) <= whole
    assert not [a for a in r.awards if a.hand not in lines]
    if table.split == "sequential":
        assert r.breakage == 0
    else:
        meter_lines = {a.hand for a in r.awards if a.on_meter}
        counts = [sum(1 for h in hands.values() if h == c) for c in meter_lines]
        assert r.breakage <= sum(n - 1 for n in counts)
    assert r.resets == sum(
        (1 if table.split == "share" else sum(1 for h in hands.values() if h == c))
        for c, a in lines.items()
        if a.meter_bp == 10_000 and c in hands.values()
    )
