"""``uth deal``: deal and settle one demo round in the terminal."""

from __future__ import annotations

import argparse

from engine.cards import format_cards
from engine.paytable import PAYTABLE_DIR, PaytableError, load_paytable
from engine.rng import SeededRandomSource, SystemRandomSource, deck_commitment, shuffled_deck
from engine.uth import Action, UthRound


def _money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def demo_decision(round_: UthRound, seat: int) -> Action:
    """A plain demo policy: 4x with a pair or an ace, 2x with a pair on the flop, else 1x."""
    view = round_.view(seat)
    ranks = [c >> 2 for c in (*view.hole, *view.board)]
    hole_ranks = [c >> 2 for c in view.hole]
    paired = any(ranks.count(r) >= 2 for r in hole_ranks)
    if Action.PLAY_4X in view.legal and (paired or 12 in hole_ranks):
        return Action.PLAY_4X
    if Action.PLAY_2X in view.legal and paired:
        return Action.PLAY_2X
    if Action.PLAY_1X in view.legal:
        return Action.PLAY_1X
    return Action.CHECK


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
    print(f"Ante {_money(bet.ante)}  Blind {_money(bet.blind)}  Trips {_money(bet.trips)}")
    rnd.deal()
    print(f"Your cards: {format_cards(rnd.view(1).hole)}   dealer: ?? ??")
    while rnd.to_act():
        phase, board = rnd.phase, rnd.board()
        if board:
            print(f"Board ({phase}): {format_cards(board)}")
        action = demo_decision(rnd, 1)
        rec = rnd.act(1, action)
        extra = f" ({_money(rec.play)})" if rec.play else ""
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
            print(f"  {spot.capitalize():6s} stake {_money(stake):>10s}  returns {_money(back):>10s}")
    print(f"Net {_money(seat.net)}   breakage {seat.breakage}/{result.breakage_unit} cent")
    print(f"Deck: {format_cards(deck)}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deal", help="deal and settle one demo round in the terminal")
    p.add_argument("--paytable", default=str(PAYTABLE_DIR / "standard.toml"))
    p.add_argument("--ante", type=int, default=1000, help="Ante in cents (default 1000)")
    p.add_argument("--trips", type=int, default=500, help="Trips in cents, 0 for none")
    p.add_argument("--seed", type=int, help="reproducible demo shuffle (default: cryptographic)")
    p.set_defaults(func=run)
