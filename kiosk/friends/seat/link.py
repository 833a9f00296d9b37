"""The seat port over the friends link: a seat in a game another cabinet hosts, as its
:class:`~kiosk.friends.client.FriendsClient` receives it.

The host's ``state`` message is read here, once, into a
:class:`~kiosk.tournament.seat_port.TableView` (cards to ints, a hand's name to its
category, a move to its :class:`~engine.holdem.actions.ActionKind`); nothing after it
reads the message.  A decision goes to the host, whose rules check it; a refusal comes
back on the client (``refused``) and a later view.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from engine.cards import parse_card
from engine.hands.categories import HandCategory
from engine.holdem.actions import Action, ActionKind
from engine.holdem.views import LegalActions
from kiosk.friends.client import FriendsClient
from kiosk.tournament.seat_port import (
    HandOutcome,
    Phase,
    SeatRow,
    ShownHand,
    Standing,
    TableView,
    Versioned,
)

Json = dict[str, Any]
#: A seat's last move as the host words it (a blind, ``sb`` or ``bb``, is no move).
MOVES = {kind.value: kind for kind in ActionKind}


def _cards(names: list[str] | None) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names or ())


def legal_from_message(legal: Json | None, seat: int) -> LegalActions | None:
    """The :class:`LegalActions` of a table message's ``legal`` (see
    :func:`kiosk.friends.views.legal_of`), for the seat that received it."""
    if legal is None:
        return None
    return LegalActions(
        seat=seat,
        can_fold=bool(legal["can_fold"]),
        can_check=bool(legal["can_check"]),
        can_call=bool(legal["can_call"]),
        call_amount=int(legal["call_amount"]),
        can_bet=bool(legal["can_bet"]),
        can_raise=bool(legal["can_raise"]),
        min_to=int(legal["min_to"]),
        max_to=int(legal["max_to"]),
        current_bet=int(legal["bet"]) + int(legal["call_amount"]),
        bet=int(legal["bet"]),
        stack=int(legal["stack"]),
        pot=int(legal["pot"]),
        big_blind=int(legal["big_blind"]),
        small_blind=int(legal["small_blind"]),
    )


def _seat(s: Json) -> SeatRow:
    place = s.get("place")
    return SeatRow(
        seat=int(s["seat"]),
        name=str(s["name"]),
        chips=int(s["chips"]),
        bet=int(s.get("bet") or 0),
        folded=bool(s.get("folded")),
        place=int(place) if place else None,
        away=s.get("status") == "away",
        last=MOVES.get(str(s.get("last"))),
        cards=_cards(s.get("cards")),
        move=MOVES.get(str(s.get("move"))),
        dealt=bool(s.get("dealt", True)),
        person=s.get("status") in ("host", "friend", "away", "left"),
    )


def _outcome(result: Json | None) -> HandOutcome | None:
    if result is None:
        return None
    shown = tuple(
        ShownHand(int(h["seat"]), _cards(h["cards"]), HandCategory(int(h["hand"]["cat"])))
        for h in result.get("shown") or ()
    )
    pots = tuple(int(p["amount"]) for p in result.get("pots") or ())
    winners = tuple(dict.fromkeys(int(w) for p in result.get("pots") or () for w in p["winners"]))
    return HandOutcome(pots, tuple(int(n) for n in result["won"]), shown, winners)


def view_of(m: Json) -> TableView:
    """The :class:`TableView` of one ``state`` message of the host."""
    phase = Phase(str(m.get("phase")))
    you = int(m["you"])
    if phase is Phase.LOBBY:
        starts_in = m.get("starts_in")
        return TableView(
            phase,
            you,
            code=str(m.get("code", "")),
            starts_in=int(starts_in) if starts_in is not None else None,
        )
    if phase is Phase.OVER:
        standings = tuple(
            Standing(int(s["seat"]), str(s["name"]), int(s["place"])) for s in m["standings"]
        )
        return TableView(phase, you, code=str(m.get("code", "")), standings=standings)
    hand = m.get("hand_name")
    vote = m.get("vote") or {}
    to_act, turn_s = m.get("to_act"), m.get("turn_s")
    small, big = m["blinds"]
    return TableView(
        phase,
        you,
        hand=int(m["hand"]),
        blinds=(int(small), int(big)),
        board=_cards(m["board"]),
        cards=_cards(m["cards"]),
        category=HandCategory(int(hand["cat"])) if hand is not None else None,
        seats=tuple(_seat(s) for s in m["seats"]),
        to_act=int(to_act) if to_act is not None else None,
        your_turn=bool(m.get("your_turn")),
        pots=tuple(int(p) for p in m.get("pots") or ()),
        outcome=_outcome(m.get("result")),
        decision=(int(m["hand"]), int(m["seq"])),
        turn_s=int(turn_s) if turn_s is not None else None,
        host_away=m.get("host_wait_s") is not None,
        next_open=bool(vote.get("counts")) and not vote.get("voted"),
        middle=tuple(int(p) for p in m.get("middle") or ()),
        button=_seat_or_none(m.get("button")),
        small_blind_seat=_seat_or_none(m.get("sb")),
        big_blind_seat=_seat_or_none(m.get("bb")),
        blinds_in=_seat_or_none(m.get("blinds_in")),
    )


def _seat_or_none(value: Any) -> int | None:
    return int(value) if value is not None else None


class LinkSeat(Versioned):
    """The seat ``client`` holds in a game hosted elsewhere (see the module's text)."""

    def __init__(self, client: FriendsClient) -> None:
        self.client = client
        self._state: Json | None = None
        self._view: TableView | None = None
        self._received = 0  # state messages read so far

    def advance(self, dt: float) -> None:
        self.client.poll()

    def _read(self) -> TableView | None:
        m = self.client.state
        if m is not self._state:
            self._state, self._received = m, self._received + 1
            self._view = view_of(m) if m is not None else None
        return self._view

    def view(self) -> TableView | None:
        return self._read()

    def legal(self) -> LegalActions | None:
        v = self._read()
        if v is None or v.phase is not Phase.PLAY or not v.your_turn or self._state is None:
            return None
        return legal_from_message(self._state.get("legal"), v.you)

    def act(self, action: Action) -> None:
        self.client.act(action.kind.value, action.amount)

    def next_hand(self) -> None:
        self.client.next_hand()

    def version(self) -> Hashable:
        self._read()
        c = self.client
        refused = c.refused.get("detail") if c.refused is not None else None
        return self._received, c.closed, c.gave_up, refused
