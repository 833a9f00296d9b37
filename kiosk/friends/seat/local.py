"""The seat port over the game in this process: the cabinet player's seat of a
:class:`~kiosk.tournament.session.TournamentSession` (computer players, and friends on
their phones or other cabinets when the cabinet hosts the game, in the other seats).

The view is made from the seat's own :class:`~engine.holdem.views.PlayerView` and the
public facts of the table, as the friends link's host makes a remote seat's message
(:mod:`kiosk.friends.views`): both ends of the port show the same facts.  A decision
goes to the session's rules, which refuse an illegal one before anything changes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

from engine.hands.categories import hand_class
from engine.holdem.actions import Action, ActionKind
from engine.holdem.records import BetMade, Called, Checked, Folded, HandShown, Raised, Record
from engine.holdem.views import LegalActions
from kiosk.friends.views import middle_pots, pots_of, round_moves
from kiosk.tournament.seat_port import (
    HandOutcome,
    Phase,
    SeatRow,
    ShownHand,
    Standing,
    TableView,
    Versioned,
)
from kiosk.tournament.session import TournamentSession

if TYPE_CHECKING:
    from kiosk.friends.cabinet import CabinetHost


def last_moves(records: tuple[Record, ...] | list[Record]) -> dict[int, ActionKind]:
    """Each seat's last move in this hand (all in when it put its last chip in), as
    :func:`kiosk.friends.views.last_moves` tells a remote seat (a blind is no move)."""
    out: dict[int, ActionKind] = {}
    for r in records:
        if isinstance(r, Folded):
            out[r.seat] = ActionKind.FOLD
        elif isinstance(r, Checked):
            out[r.seat] = ActionKind.CHECK
        elif isinstance(r, Called | BetMade | Raised):
            kind = {Called: ActionKind.CALL, BetMade: ActionKind.BET, Raised: ActionKind.RAISE}[
                type(r)
            ]
            out[r.seat] = ActionKind.ALL_IN if r.all_in else kind
    return out


#: A move as :mod:`kiosk.friends.views` words it.
MOVES = {kind.value: kind for kind in ActionKind}


class LocalSeat(Versioned):
    """The cabinet player's seat of ``session``; ``hosted()`` the friends' game the
    cabinet hosts around it (``None``: computer players only)."""

    def __init__(
        self, session: TournamentSession, hosted: Callable[[], CabinetHost | None] = lambda: None
    ) -> None:
        self.session = session
        self.hosted = hosted
        self._view: tuple[Hashable, TableView | None] | None = None  # (version, view)
        self._table: tuple[Hashable, TableView] | None = None  # (version, table)

    def advance(self, dt: float) -> None:
        hosted = self.hosted()
        if hosted is not None:
            hosted.pump(dt)
        else:
            self.session.update(dt)

    def turn_s(self) -> int | None:
        """Whole seconds left for a friend's move in a hosted game (``None``: no clock)."""
        hosted = self.hosted()
        left = hosted.game.turn_left() if hosted is not None else None
        return round(left) if left is not None else None

    def legal(self) -> LegalActions | None:
        return self.session.legal()

    def act(self, action: Action) -> None:
        self.session.act(action)

    def next_hand(self) -> None:
        hosted = self.hosted()
        if hosted is not None:
            hosted.next_hand()
        elif self.session.hand_over:
            self.session.next_hand()

    def version(self) -> Hashable:
        return id(self.session), self.session.version, self.turn_s()

    def view(self) -> TableView | None:
        version = self.version()
        if self._view is None or self._view[0] != version:
            self._view = (version, self._make_view())
        return self._view[1]

    def table(self) -> TableView:
        """The table as the cabinet's screen paints it: :meth:`view`, but the seats,
        the board and the last hand still shown before the first deal and after the
        end (the screen's own page shows the standings)."""
        version = self.version()
        if self._table is None or self._table[0] != version:
            self._table = (version, self._make_table())
        return self._table[1]

    def _make_view(self) -> TableView:
        s = self.session
        t, you = s.t, s.human_seat
        if s.is_over:
            names = [s.remote.display_name(i) for i in range(t.n_seats)]
            standings = tuple(
                Standing(i, names[i], p) for i, p in sorted(t.places.items(), key=lambda kv: kv[1])
            )
            return TableView(Phase.OVER, you, standings=standings)
        if t.hand is None:
            return TableView(Phase.WAITING, you)
        return self._make_table()

    def _make_table(self) -> TableView:
        s = self.session
        t, h, you = s.t, s.t.hand, s.human_seat
        names = [s.remote.display_name(i) for i in range(t.n_seats)]
        if h is None:
            seats = tuple(
                SeatRow(
                    seat=i,
                    name=names[i],
                    chips=t.stacks_now[i],
                    bet=0,
                    folded=False,
                    place=t.places.get(i),
                    away=s.remote.is_away(i),
                    last=None,
                    person=s.seat_kind(i) == "remote",
                    dealt=False,
                )
                for i in range(t.n_seats)
            )
            return TableView(
                Phase.WAITING,
                you,
                hand=t.hand_number,
                blinds=(t.blinds.small, t.blinds.big),
                seats=seats,
                blinds_in=t.hands_to_next_level,
            )
        pv = s.view_for(you)
        res = t.last_result if s.hand_over else None
        shown = {r.seat: r.cards for r in h.history if isinstance(r, HandShown)}
        moves = last_moves(pv.actions)
        now = {seat: MOVES[m] for seat, m in round_moves(pv).items()}
        seats = tuple(
            SeatRow(
                seat=i,
                name=names[i],
                chips=t.stacks_now[i],
                bet=h.bets[i],
                folded=h.dealt_in[i] and h.folded[i],
                place=t.places.get(i),
                away=s.remote.is_away(i),
                last=moves.get(i),
                cards=pv.hole_cards if i == you else shown.get(i, ()),
                move=now.get(i),
                dealt=h.dealt_in[i],
                person=s.seat_kind(i) == "remote",
            )
            for i in range(t.n_seats)
        )
        outcome = None
        if res is not None:
            outcome = HandOutcome(
                tuple(p.amount for p in res.pots),
                res.won,
                tuple(ShownHand(x.seat, x.cards, hand_class(x.strength)[0]) for x in res.shown),
                tuple(dict.fromkeys(w for p in res.pots for w in p.winners)),
            )
        strength = s.hand_name_strength()
        return TableView(
            Phase.HAND_OVER if s.hand_over else Phase.PLAY,
            you,
            hand=t.hand_number,
            blinds=(h.small_blind, h.big_blind),
            board=tuple(h.board),
            cards=pv.hole_cards,
            category=hand_class(strength)[0] if strength is not None else None,
            seats=seats,
            to_act=t.to_act if not s.hand_over else None,
            your_turn=s.my_turn,
            pots=tuple(pots_of(pv)),
            outcome=outcome,
            decision=(t.hand_number, len(h.history)),
            turn_s=self.turn_s(),
            next_open=s.hand_over,
            middle=tuple(middle_pots(pv)),
            button=h.button,
            small_blind_seat=h.small_blind_seat,
            big_blind_seat=h.big_blind_seat,
            blinds_in=t.hands_to_next_level,
        )
