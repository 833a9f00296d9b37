"""Chips before the deal: the Ante, Trips and progressive spots, and the one check of a
bet against the table limits and the credits (:func:`check_progressive` for the
progressive's fixed wager).

Chips placed are *pending*: they stay on the credit meter until the deal wagers them,
and they are not persisted (nothing was wagered yet).  A deal needs credits for Ante +
Blind + Trips + progressive plus a 1x Play (:func:`deal_cost`), so the player can always play at the
river.  Amounts are cents.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.money import format_cents as money
from engine.uth.paytable import Limits
from engine.uth.progressive import Progressive
from engine.uth.round import PLAY_MULTIPLE, Action
from kiosk.game.error_codes import BetRule, ErrorCode
from kiosk.game.errors import (
    BetOutOfLimits,
    InsufficientCredits,
    MachineError,
    PlayDisabled,
    WrongState,
)
from kiosk.game.vocabulary import LEDGER_TILT, Bets, Spot

SPOTS: tuple[Spot, ...] = ("ante", "trips", "progressive")


def deal_cost(bets: Bets) -> int:
    """Cents a deal of ``bets`` needs on the meter: what it stakes (Ante + Blind +
    Trips + progressive) plus the smallest Play (1x the Ante)."""
    return 2 * bets.ante + bets.trips + bets.progressive + PLAY_MULTIPLE[Action.PLAY_1X] * bets.ante


def check_bets(limits: Limits, credits: int, bets: Bets, *, complete: bool) -> None:
    """Refuse ``bets`` that break ``limits`` (:class:`BetOutOfLimits`, with the
    ``rule`` broken and its ``cents``) or that ``credits`` cannot cover
    (:class:`InsufficientCredits`, see :func:`deal_cost`).  ``complete``: the bets are
    about to be dealt, so the minimums apply too.

    This is the cabinet's one limits check: the limits in force lie within the
    paytable's, so bets it passes are always accepted by
    :meth:`engine.uth.round.UthRound.place_bets`.
    """
    ante, trips = bets.ante, bets.trips
    if ante > limits.ante_max:
        raise BetOutOfLimits(
            f"the Ante maximum is {money(limits.ante_max)}",
            params={"rule": BetRule.ANTE_MAX, "cents": limits.ante_max},
        )
    if trips > limits.trips_max:
        raise BetOutOfLimits(
            f"the Trips maximum is {money(limits.trips_max)}",
            params={"rule": BetRule.TRIPS_MAX, "cents": limits.trips_max},
        )
    if ante % limits.ante_step:
        raise BetOutOfLimits(
            f"the Ante goes in steps of {money(limits.ante_step)}",
            params={"rule": BetRule.ANTE_STEP, "cents": limits.ante_step},
        )
    if complete:
        if ante < limits.ante_min:
            raise BetOutOfLimits(
                f"the Ante minimum is {money(limits.ante_min)}",
                params={"rule": BetRule.ANTE_MIN, "cents": limits.ante_min},
            )
        if trips and trips < limits.trips_min:
            raise BetOutOfLimits(
                f"the Trips minimum is {money(limits.trips_min)}",
                params={"rule": BetRule.TRIPS_MIN, "cents": limits.trips_min},
            )
    need = deal_cost(bets)
    if need > credits:
        raise InsufficientCredits(
            f"{money(need)} needed (Ante, Blind, Trips{', progressive' if bets.progressive else ''}"
            f" and a 1x Play); credits {money(credits)}",
            params={"needed": need, "credits": credits},
        )


def check_chip(spot: str, cents: object) -> None:
    """Refuse a chip that is not one: an unknown spot (:class:`MachineError`) or an
    amount that is not a positive whole number of cents (:class:`BetOutOfLimits`;
    ``True`` is not a cent).  Every place a chip arrives calls this one check."""
    if spot not in SPOTS:
        raise MachineError(f"unknown spot {spot!r} (ante, trips or progressive)")
    if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
        raise BetOutOfLimits(f"a chip is a positive whole number of cents, not {cents!r}")


def check_progressive(table: Progressive | None, bets: Bets) -> None:
    """Refuse a progressive wager in ``bets`` that the paytable does not offer (``table``
    is its ``[progressive]`` section, None without one), that is not exactly its fixed
    wager, or that has no Ante with it (:class:`BetOutOfLimits`; rules
    ``progressive_not_offered``, ``progressive_wager`` with the wager's ``cents``, and
    ``no_ante`` with ``spot`` ``progressive``).  Bets without a progressive wager pass."""
    if not bets.progressive:
        return
    if table is None:
        raise BetOutOfLimits(
            "this paytable offers no progressive bet",
            params={"rule": BetRule.PROGRESSIVE_NOT_OFFERED},
        )
    if bets.progressive != table.wager:
        raise BetOutOfLimits(
            f"the progressive wager is exactly {money(table.wager)}",
            params={"rule": BetRule.PROGRESSIVE_WAGER, "cents": table.wager},
        )
    if not bets.ante:
        raise BetOutOfLimits(
            "the progressive is placed with an Ante: place an Ante first",
            params={"rule": BetRule.NO_ANTE, "spot": "progressive"},
        )


def require_ante(bets: Bets) -> None:
    """Refuse a deal of ``bets`` without an Ante (:class:`BetOutOfLimits`, rule
    ``no_ante``)."""
    if not bets.ante:
        raise BetOutOfLimits("place an Ante first", params={"rule": BetRule.NO_ANTE})


def require_previous(bets: Bets) -> None:
    """Refuse a rebet when ``bets`` (the previous round's) hold no Ante
    (:class:`WrongState`, code ``no_previous_bet``)."""
    if not bets.ante:
        raise WrongState("there is no previous bet to repeat", code=ErrorCode.NO_PREVIOUS_BET)


def require_playing(tilts: Mapping[str, str], door_open: bool) -> None:
    """Refuse play at a station stopped by ``tilts`` (code -> text, the service's first:
    :class:`PlayDisabled`, code ``ledger_fault`` for the ledger's, else ``tilted``) or
    with its main door open (code ``door_open``)."""
    if LEDGER_TILT in tilts:
        raise PlayDisabled(tilts[LEDGER_TILT], code=ErrorCode.LEDGER_FAULT)
    if tilts:
        code, message = next(iter(tilts.items()))
        raise PlayDisabled(
            f"machine tilted ({code}): {message}", code=ErrorCode.TILTED, params={"tilt": code}
        )
    if door_open:
        raise PlayDisabled("the door is open", code=ErrorCode.DOOR_OPEN)


def require_between_rounds(round_open: bool, payout_pending: bool) -> None:
    """Refuse what needs the table between rounds (:class:`WrongState`): a round is in
    progress, or a payout is pending at the station."""
    if round_open:
        raise WrongState("the round is in progress", code=ErrorCode.ROUND_IN_PROGRESS)
    if payout_pending:
        raise WrongState("a payout is in progress", code=ErrorCode.PAYOUT_IN_PROGRESS)


def require_not_dealt(ready: bool) -> None:
    """Refuse another chip once Deal was pressed (``ready``): the bets are placed."""
    if ready:
        raise WrongState("Deal was pressed: the bets are placed", code=ErrorCode.BETS_PLACED)
