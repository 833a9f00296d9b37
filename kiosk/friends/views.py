"""The messages the host sends a web seat, built from that seat's own view only.

Every table message is made from :meth:`TournamentSession.view_for` of the receiving
seat (a :class:`PlayerView`: its own two cards, the board and the public records) plus
public facts (names, chips, places, who is away); no other seat's hole cards and no deck
ever reach this module, except the hands shown at a showdown, which are public.
Chips are whole tournament points.  Cards are two-character names (``"As"``); a hand
name is ``{"cat": category, "ranks": [rank, ...]}`` (ranks 0 = two .. 12 = ace), which
the page words in the player's language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.cards import card_name
from engine.hands.categories import hand_class
from engine.hands.evaluator import evaluate
from engine.holdem.pots import pot_levels
from engine.holdem.records import (
    BetMade,
    BlindPosted,
    BoardDealt,
    Called,
    Checked,
    Folded,
    HandShown,
    PotAwarded,
    Raised,
)
from engine.holdem.stats import GameSummary
from engine.holdem.views import LegalActions, PlayerView

Json = dict[str, Any]
#: Fractions of the pot offered by the raise panel.
PRESETS = (("half", 0.5), ("three_quarters", 0.75), ("pot", 1.0))


def cards(values: tuple[int, ...] | list[int]) -> list[str]:
    return [card_name(c) for c in values]


def hand_of(strength: int) -> Json:
    """A hand's name as data: its category and significant ranks."""
    cat, ranks = hand_class(int(strength))
    return {"cat": int(cat), "ranks": [int(r) for r in ranks]}


def best_hand(hole: tuple[int, ...], board: tuple[int, ...]) -> Json | None:
    """The name of the best hand of ``hole`` with ``board`` (from the flop on)."""
    if len(hole) != 2 or len(board) < 3:
        return None
    return hand_of(int(evaluate([*hole, *board])))


def last_moves(view: PlayerView) -> dict[int, str]:
    """Each seat's last move in this hand: fold, check, call, bet, raise, allin or a blind."""
    out: dict[int, str] = {}
    for r in view.actions:
        if isinstance(r, Folded):
            out[r.seat] = "fold"
        elif isinstance(r, Checked):
            out[r.seat] = "check"
        elif isinstance(r, Called):
            out[r.seat] = "allin" if r.all_in else "call"
        elif isinstance(r, BetMade):
            out[r.seat] = "allin" if r.all_in else "bet"
        elif isinstance(r, Raised):
            out[r.seat] = "allin" if r.all_in else "raise"
        elif isinstance(r, BlindPosted):
            out[r.seat] = "sb" if r.blind == "small" else "bb"
    return out


def round_moves(view: PlayerView) -> dict[int, str]:
    """Each seat's move in this betting round, as :func:`last_moves` words it (no
    blind): a new card on the board clears every move but a fold and an all in."""
    out: dict[int, str] = {}
    for r in view.actions:
        if isinstance(r, BoardDealt):
            out = {s: m for s, m in out.items() if m in ("fold", "allin")}
        else:
            out.update(last_moves_of((r,)))
    return out


def last_moves_of(records: tuple[object, ...]) -> dict[int, str]:
    """:func:`last_moves` of some records."""
    out: dict[int, str] = {}
    for r in records:
        if isinstance(r, Folded):
            out[r.seat] = "fold"
        elif isinstance(r, Checked):
            out[r.seat] = "check"
        elif isinstance(r, Called | BetMade | Raised):
            kind = {Called: "call", BetMade: "bet", Raised: "raise"}[type(r)]
            out[r.seat] = "allin" if r.all_in else kind
    return out


def middle_pots(view: PlayerView) -> list[int]:
    """The pots in the middle now, main pot first: only the chips gathered from finished
    betting rounds (this round's bets sit in front of the seats); a top layer only one
    seat can win is left out (it goes back to that seat)."""
    gathered = [c - b for c, b in zip(view.committed, view.bets, strict=True)]
    live = [s for s in range(len(view.in_hand)) if view.in_hand[s]]
    pots = pot_levels(gathered, live)
    if len(pots) > 1 and len(pots[-1].eligible) == 1:
        pots = pots[:-1]
    return [p.amount for p in pots]


def legal_of(la: LegalActions) -> Json:
    """What the seat may do now, with the raise panel's amounts (round totals)."""
    presets: Json = {"min": la.min_to, "all_in": la.max_to}
    for key, fraction in PRESETS:
        presets[key] = la.pot_fraction_to(fraction)
    return {
        "can_fold": la.can_fold,
        "can_check": la.can_check,
        "can_call": la.can_call,
        "call_amount": la.call_amount,
        "can_bet": la.can_bet,
        "can_raise": la.can_raise,
        "min_to": la.min_to,
        "max_to": la.max_to,
        "bet": la.bet,
        "stack": la.stack,
        "pot": la.pot,
        "big_blind": la.big_blind,
        "small_blind": la.small_blind,
        "presets": presets,
    }


def pots_of(view: PlayerView) -> list[int]:
    """Every chip put in this hand (this round's bets included): the main pot, then a
    side pot above each all-in player's level."""
    live = [s for s in range(len(view.committed)) if view.in_hand[s]]
    caps = sorted({view.committed[s] for s in live if view.all_in[s]})
    out: list[int] = []
    prev = 0
    for cap in caps:
        amount = sum(min(c, cap) - min(c, prev) for c in view.committed)
        if amount > 0:
            out.append(amount)
        prev = cap
    rest = sum(c - min(c, prev) for c in view.committed)
    if rest > 0 or not out:
        out.append(rest)
    return out


def table_message(
    view: PlayerView,
    *,
    hand: int,
    seq: int,
    names: list[str],
    status: Callable[[int], str],
    stacks: list[int],
    places: dict[int, int],
    result: Json | None,
    blinds_in: int | None,
    vote: Json | None,
) -> Json:
    """The ``state`` message for ``view.seat`` (phase ``play`` or ``hand_over``).

    ``status(seat)`` is ``you``, ``host``, ``friend``, ``away``, ``left`` or ``computer``;
    ``stacks`` the chips behind each seat; ``result`` the public result of a finished hand
    (:func:`result_of`); ``blinds_in`` hands until the blinds go up; ``vote`` the Next
    hand vote (:func:`vote_of`)."""
    shown = {r.seat: r.cards for r in view.actions if isinstance(r, HandShown)}
    moves = last_moves(view)
    now = round_moves(view)
    seats = []
    for s, name in enumerate(names):
        own = s == view.seat and len(view.hole_cards) == 2
        seen = view.hole_cards if own else shown.get(s)
        seats.append({
            "seat": s,
            "name": name,
            "status": status(s),
            "chips": stacks[s],
            "bet": view.bets[s],
            "dealt": view.dealt_in[s],
            "folded": view.dealt_in[s] and not view.in_hand[s],
            "all_in": view.all_in[s],
            "place": places.get(s),
            "last": moves.get(s),
            "move": now.get(s),
            "cards": cards(seen) if seen else None,
        })
    to_act = view.legal.seat if view.legal is not None else None
    return {
        "type": "state",
        "phase": "hand_over" if result is not None else "play",
        "you": view.seat,
        "hand": hand,
        "seq": seq,
        "blinds": [view.small_blind, view.big_blind],
        "blinds_in": blinds_in,
        "button": view.button,
        "sb": view.small_blind_seat,
        "bb": view.big_blind_seat,
        "board": cards(view.board),
        "pots": pots_of(view),
        "middle": middle_pots(view),
        "to_act": to_act,
        "your_turn": to_act == view.seat,
        "cards": cards(view.hole_cards),
        "hand_name": best_hand(view.hole_cards, view.board),
        "legal": legal_of(view.legal) if view.legal is not None else None,
        "seats": seats,
        "result": result,
        "vote": vote,
    }


def result_of(view: PlayerView, won: tuple[int, ...]) -> Json:
    """The public result of a finished hand: the pots and who took them, the chips each
    seat won and the hands shown at the showdown."""
    pots = [
        {"amount": r.amount, "winners": list(r.winners), "index": r.index}
        for r in view.actions
        if isinstance(r, PotAwarded)
    ]
    shown = [
        {"seat": r.seat, "cards": cards(r.cards), "hand": hand_of(r.strength)}
        for r in view.actions
        if isinstance(r, HandShown)
    ]
    return {"pots": pots, "won": list(won), "shown": shown}


def vote_of(waiting: list[int], voted: bool, counts: bool, seconds: float) -> Json:
    return {"waiting": waiting, "voted": voted, "counts": counts, "seconds": round(seconds, 1)}


def summary_of(summary: GameSummary) -> Json:
    """One player's numbers for the results page."""
    return {
        "place": summary.place,
        "players": summary.players,
        "hands_played": summary.hands_played,
        "hands_won": summary.hands_won,
        "biggest_pot": summary.biggest_pot,
        "vpip_hands": summary.vpip_hands,
        "best_hand": hand_of(summary.best_hand) if summary.best_hand is not None else None,
        "best_strength": summary.best_hand,
        "duration_s": round(summary.duration_s),
    }


def lobby_message(seat: int, code: str, seats: list[tuple[str, str]], chips: int) -> Json:
    """The ``state`` message before the first deal: each seat's ``(name, status)``, and
    the chips everyone starts with."""
    return {
        "type": "state",
        "phase": "lobby",
        "you": seat,
        "code": code,
        "seats": [{"seat": i, "name": name, "status": status, "chips": chips}
                  for i, (name, status) in enumerate(seats)],
    }
