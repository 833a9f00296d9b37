"""Settlement of Ultimate Texas Hold'em bets: one function for one seat or ten million.

:func:`settle` takes numpy arrays (or plain ints) that broadcast together and returns
what each spot gives back, in cents.  The cabinet calls it with the scalars of one
round; the simulator calls it with arrays of millions of rounds: one source of truth.

Rules (seeds 002 and 004):

* the dealer qualifies with the paytable's qualifying hand (a pair) or better;
  when the dealer does not qualify the Ante is returned to every player still in,
  *then* the hands are compared (seed 004: « les enjeux de la case Mise (Ante) sont
  alors rendus aux Joueurs, puis les mains des Joueurs sont comparées »); the
  published RTPs of seed 002 (97.82% / 99.47%) hold only under this reading;
* player wins: Play pays 1:1; Ante pays 1:1 if the dealer qualifies, else pushes;
  Blind pays by its table when the hand is on it, else pushes;
* dealer wins: Blind and Play lose; the Ante loses too if the dealer qualifies;
* tie: Ante, Blind and Play push;
* fold: Ante and Blind lose (no Play was made);
* Trips pays by its table on the player's final hand, whatever the dealer holds and
  even after a fold; a hand below the table loses.

Money is integer cents.  A winning stake ``s`` on a pay ``N:D`` returns
``s + s * N // D``; the remainder ``s * N % D`` is *breakage*, reported in units of
``1 / paytable.pay_denominator`` cent so that it stays an exact integer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from engine.hands.categories import HandCategory
from engine.hands.evaluator import category_batch, category_floors
from engine.uth.paytable import Paytable


class Outcome(IntEnum):
    """The main bets' outcome for one seat."""

    LOSS = 0
    PUSH = 1
    WIN = 2
    FOLD = 3


@dataclass(frozen=True)
class PayArrays:
    """A paytable as lookup arrays indexed by :class:`HandCategory` (0 = no pay line)."""

    blind_num: np.ndarray
    blind_den: np.ndarray
    trips_num: np.ndarray
    trips_den: np.ndarray
    qualify_min_strength: int
    unit: int  # breakage unit: 1/unit of a cent


_PAY_ARRAYS: dict[str, PayArrays] = {}


def _build_pay_arrays(table: Paytable) -> PayArrays:
    n = len(HandCategory)
    bn, bd = np.zeros(n, np.int64), np.ones(n, np.int64)
    tn, td = np.zeros(n, np.int64), np.ones(n, np.int64)
    for cat, pay in table.blind.lines().items():
        bn[cat], bd[cat] = pay.numerator, pay.denominator
    for cat, pay in table.trips.lines().items():
        tn[cat], td[cat] = pay.numerator, pay.denominator
    for a in (bn, bd, tn, td):
        a.setflags(write=False)
    qualify = category_floors()[table.dealer.category]
    return PayArrays(bn, bd, tn, td, qualify, table.pay_denominator)


def pay_arrays(table: Paytable) -> PayArrays:
    """Lookup arrays for ``table``, cached by the paytable's SHA-256."""
    arrays = _PAY_ARRAYS.get(table.sha256)
    if arrays is None:
        arrays = _PAY_ARRAYS[table.sha256] = _build_pay_arrays(table)
    return arrays


@dataclass(frozen=True)
class Settlement:
    """What each spot returns, in cents, including the stake (0 when lost).

    All fields are numpy arrays of the broadcast shape of :func:`settle`'s inputs.
    Invariant: ``returned == ante_return + blind_return + play_return + trips_return``
    and ``net == returned - staked``.
    """

    outcome: np.ndarray
    dealer_qualifies: np.ndarray
    player_category: np.ndarray
    ante_return: np.ndarray
    blind_return: np.ndarray
    play_return: np.ndarray
    trips_return: np.ndarray
    breakage: np.ndarray  # units of 1/unit cent
    unit: int
    staked: np.ndarray
    returned: np.ndarray
    net: np.ndarray


def _pay(stake: np.ndarray, num: np.ndarray, den: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    product = stake * num
    return product // den, product % den


def settle(
    ante: np.ndarray | int,
    play: np.ndarray | int,
    trips: np.ndarray | int,
    folded: np.ndarray | bool,
    player_strength: np.ndarray | int,
    dealer_strength: np.ndarray | int,
    table: Paytable,
) -> Settlement:
    """Settle spots.  ``ante`` is also the Blind stake; ``play`` is 0 when folded.

    Amounts in cents (integers); strengths from :mod:`engine.hands.evaluator`.
    """
    pa = pay_arrays(table)
    ante = np.asarray(ante, dtype=np.int64)
    play = np.asarray(play, dtype=np.int64)
    trips = np.asarray(trips, dtype=np.int64)
    folded = np.asarray(folded, dtype=bool)
    ps = np.asarray(player_strength, dtype=np.int64)
    ds = np.asarray(dealer_strength, dtype=np.int64)
    if np.any(ante < 0) or np.any(play < 0) or np.any(trips < 0):
        raise ValueError("stakes must not be negative")
    if np.any(folded & (play != 0)):
        raise ValueError("a folded spot cannot have a Play bet")

    cat = category_batch(ps).astype(np.int64)
    qualifies = ds >= pa.qualify_min_strength
    win = ~folded & (ps > ds)
    tie = ~folded & (ps == ds)

    outcome = np.where(
        folded,
        Outcome.FOLD,
        np.where(win, Outcome.WIN, np.where(tie, Outcome.PUSH, Outcome.LOSS)),
    )
    keep = win | tie  # stake comes back
    ante_ret = np.where(keep | (~folded & ~qualifies), ante, 0) + np.where(win & qualifies, ante, 0)
    play_ret = np.where(keep, play, 0) + np.where(win, play, 0)
    blind_win, blind_rem = _pay(ante, pa.blind_num[cat], pa.blind_den[cat])
    blind_ret = np.where(keep, ante, 0) + np.where(win, blind_win, 0)
    blind_break = np.where(win, blind_rem * (pa.unit // pa.blind_den[cat]), 0)
    trips_hit = pa.trips_num[cat] > 0
    trips_win, trips_rem = _pay(trips, pa.trips_num[cat], pa.trips_den[cat])
    trips_ret = np.where(trips_hit, trips + trips_win, 0)
    trips_break = np.where(trips_hit, trips_rem * (pa.unit // pa.trips_den[cat]), 0)

    staked = 2 * ante + play + trips
    returned = ante_ret + blind_ret + play_ret + trips_ret
    return Settlement(
        outcome=outcome.astype(np.int8),
        dealer_qualifies=np.broadcast_to(qualifies, outcome.shape),
        player_category=cat.astype(np.int8),
        ante_return=ante_ret,
        blind_return=blind_ret,
        play_return=play_ret,
        trips_return=trips_ret,
        breakage=blind_break + trips_break,
        unit=pa.unit,
        staked=staked,
        returned=returned,
        net=returned - staked,
    )
