"""``uth deal``: deal and settle one demo round in the terminal (the simple strategy decides)."""

from __future__ import annotations

import argparse

from engine.cards import format_cards
from engine.maths.strategies import STRATEGIES
from engine.money import format_cents
from engine.rng import SeededRandomSource, SystemRandomSource, deck_commitment, shuffled_deck
from engine.uth.paytable import PAYTABLE_DIR, PaytableError, load_paytable
from engine.uth.round import UthRound


def run(args: argparse.Namespace) -> int:
    try:
        table = load_paytable(args.paytable)
    except PaytableError as exc:
        print(f"error: {exc}")
        return 2
    rng = SeededRandomSource(args.seed) if args.seed is not None else SystemRandomSource()
    deck = shuffled_deck(rng)
    rnd = UthRound(table, deck)
    bet = rnd.place_bets(1, args.ante, args.trips)
    print(f"Paytable {table.name} {table.version}   deck commitment {deck_commitment(deck)}")
    print(f"Ante {format_cents(bet.ante)}  Blind {format_cents(bet.blind)}  Trips {format_cents(bet.trips)}")
    rnd.deal()
    simple = STRATEGIES["simple"]
    print(f"Your cards: {format_cards(rnd.view(1).hole)}   dealer: ?? ??")
    while rnd.to_act():
        phase, board = rnd.phase, rnd.board()
        if board:
            print(f"Board ({phase}): {format_cards(board)}")
        action = simple.decide(rnd.view(1))
        rec = rnd.act(1, action)
        extra = f" ({format_cents(rec.play)})" if rec.play else ""
        print(f"  {phase}: {action.value}{extra}")
    result = rnd.outcome()
    assert result is not None
    seat = result.seat(1)
    print(f"Board: {format_cards(result.board)}")
    qual = "qualifies" if result.dealer_qualifies else "does not qualify"
    print(f"Dealer: {format_cards(result.dealer_hole)}  {result.dealer_hand_name} ({qual})")
    print(f"You:    {format_cards(seat.hole)}  {seat.hand_name}  [{format_cards(seat.best_five)}]")
    print(f"Result: {seat.outcome.name}")
    for spot in ("ante", "blind", "play", "trips"):
        stake, back = getattr(seat, spot), getattr(seat, f"{spot}_return")
        if stake:
            print(f"  {spot.capitalize():6s} stake {format_cents(stake):>10s}  returns {format_cents(back):>10s}")
    print(f"Net {format_cents(seat.net)}   breakage {seat.breakage}/{result.breakage_unit} cent")
    print(f"Deck: {format_cards(deck)}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deal", help="deal and settle one demo round in the terminal")
    p.add_argument("--paytable", default=str(PAYTABLE_DIR / "standard.toml"))
    p.add_argument("--ante", type=int, default=1000, help="Ante in cents (default 1000)")
    p.add_argument("--trips", type=int, default=500, help="Trips in cents, 0 for none")
    p.add_argument("--seed", type=int, help="reproducible demo shuffle (default: cryptographic)")
    p.set_defaults(func=run)
