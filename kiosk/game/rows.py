"""A seat of a round as ledger row columns, at the deal and at settlement (cents); a
single cabinet's seat is seat 1."""

from __future__ import annotations

from engine.cards import format_cards
from engine.uth.round import RoundSettled, UthRound
from engine.uth.settlement import Outcome
from kiosk.game.vocabulary import SEAT
from kiosk.ledger.round_rows import DealtColumns, RoundChange


def dealt_columns(rnd: UthRound, credits_before: int, at: str, seat: int = SEAT) -> DealtColumns:
    """The row's columns of ``seat`` at the deal: bets, hole cards, its station's credits."""
    view = rnd.view(seat)
    return {
        "started_at": at,
        "seat": seat,
        "paytable": f"{rnd.paytable.name} {rnd.paytable.version}",
        "paytable_sha256": rnd.paytable.sha256,
        "ante": view.ante,
        "blind": view.ante,
        "trips": view.trips,
        "play": 0,
        "decisions": "[]",
        "player_hole": format_cards(view.hole, ""),
        "credits_before": credits_before,
        "credits_after": credits_before - rnd.staked(seat),
    }


def settled_columns(
    result: RoundSettled, credits_before: int, at: str, jackpot_limit: int, seat_number: int = SEAT
) -> RoundChange:
    """The row's columns of seat ``seat_number`` filled at settlement.  A return of
    ``jackpot_limit`` cents or more is hand-paid (``jackpot``) instead of credited."""
    seat = result.seat(seat_number)
    returned = seat.returned
    jackpot = returned if returned >= jackpot_limit else 0
    return {
        "state": "settled",
        "settled_at": at,
        "dealer_hole": format_cards(result.dealer_hole, ""),
        "board": format_cards(result.board, ""),
        "player_hand": seat.hand_name,
        "player_category": seat.category.name.lower(),
        "dealer_hand": result.dealer_hand_name,
        "dealer_category": result.dealer_category.name.lower(),
        "dealer_qualifies": int(result.dealer_qualifies),
        "outcome": Outcome(seat.outcome).name.lower(),
        "ante_return": seat.ante_return,
        "blind_return": seat.blind_return,
        "play_return": seat.play_return,
        "trips_return": seat.trips_return,
        "breakage": seat.breakage,
        "breakage_unit": result.breakage_unit,
        "paid": returned - jackpot,
        "jackpot": jackpot,
        "credits_after": credits_before - seat.staked + returned - jackpot,
    }
