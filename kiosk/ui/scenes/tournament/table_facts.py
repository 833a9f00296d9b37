"""What the tournament table shows, read from the session (no drawing): the winners'
cards, each seat's last move, the dealer and blind markers, the status line."""

from __future__ import annotations

from typing import Any

from engine.hands.evaluator import best_five
from engine.holdem.pots import pot_levels
from engine.holdem.records import HandShown
from kiosk.tournament.session import TournamentSession
from kiosk.ui.i18n import _
from kiosk.ui.scenes.tournament.common import chips, seat_name


def winning_cards(s: TournamentSession) -> set[int]:
    """At a showdown: the cards of the winners' best five (the rest are dimmed)."""
    if not s.hand_over or s.t.last_result is None or not s.t.last_result.showdown:
        return set()
    h = s.t.hand
    res = s.t.last_result
    winners = {w for p in res.pots for w in p.winners}
    out: set[int] = set()
    for shown in res.shown:
        if shown.seat in winners:
            out.update(best_five([*shown.cards, *h.board]))  # type: ignore[union-attr]
    return out


def real_pots(s: TournamentSession) -> list[int]:
    """The pots in the middle now, main pot first, in chips: only the chips gathered from
    finished betting rounds make pots (the bets of the round being played sit in front
    of the players, and an all-in's chips nobody has matched yet are not a side pot).  A
    top layer only one player can win is left out: it goes back to that player."""
    h = s.t.hand
    if h is None:
        return []
    gathered = [c - b for c, b in zip(h.committed, h.bets, strict=True)]
    pots = pot_levels(gathered, h.live)
    if len(pots) > 1 and len(pots[-1].eligible) == 1:
        pots = pots[:-1]
    return [p.amount for p in pots]


def last_actions(s: TournamentSession) -> dict[int, Any]:
    h = s.t.hand
    out: dict[int, Any] = {}
    if h is None:
        return out
    for r in h.history:
        kind = type(r).__name__
        if kind == "BoardDealt":
            out = {k: v for k, v in out.items() if type(v).__name__ == "Folded" or getattr(v, "all_in", False)}
        elif kind in ("Folded", "Checked", "Called", "BetMade", "Raised"):
            out[r.seat] = r  # type: ignore[union-attr]
    return out


def markers(s: TournamentSession, seat: int) -> list[str]:
    h = s.t.hand
    if h is None or not h.dealt_in[seat]:
        return []
    out = []
    if h.button == seat:
        out.append("D")
    if h.small_blind_seat == seat:
        out.append(_("SB"))
    if h.big_blind_seat == seat:
        out.append(_("BB"))
    return out


def result_for(s: TournamentSession, seat: int) -> tuple[str, bool] | None:
    if not s.hand_over or s.t.last_result is None:
        return None
    res = s.t.last_result
    won = res.won[seat]
    if won > 0:
        return _("Wins {amount}").format(amount=chips(won)), True
    return None


def shown_cards_of(s: TournamentSession) -> dict[int, tuple[int, int]]:
    h = s.t.hand
    if h is None:
        return {}
    return {r.seat: r.cards for r in h.history if isinstance(r, HandShown)}


def strength_of(s: TournamentSession, seat: int) -> int | None:
    h = s.t.hand
    return h.strengths.get(seat) if h is not None else None


def status(s: TournamentSession) -> str:
    if s.store_error:
        return _("This game cannot be saved right now.")
    if s.is_over:
        return _("The tournament is over.")
    if s.playing_out:
        return _("You are out. Finishing the tournament…")
    if s.hand_over:
        return _("Touch NEXT HAND when you are ready.") if not s.human_out else ""
    seat = s.t.to_act
    if seat is None:
        return ""
    if seat == s.human_seat:
        return _("Your turn")
    if s.remote.is_away(seat):
        return _("Computer playing for {name}…").format(name=seat_name(s, seat))
    if s.seat_kind(seat) == "remote":
        return _("Waiting for {name}…").format(name=seat_name(s, seat))
    return _("{name} is thinking…").format(name=seat_name(s, seat))
