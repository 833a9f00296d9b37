"""What the tournament table shows, read from the seat port's
:class:`~kiosk.tournament.seat_port.TableView` (no drawing), the same at both ends: the
winners' cards, each seat's move, the dealer and blind markers, the hands' strengths,
the line about whose turn it is, the winners' lines."""

from __future__ import annotations

from engine.hands.evaluator import best_five, evaluate
from engine.holdem.actions import ActionKind
from kiosk.tournament.seat_port import Phase, SeatRow, TableView
from kiosk.ui import theme
from kiosk.ui.i18n import N_, PersonMessage, _, hand_name
from kiosk.ui.scenes.tournament.common import chips

#: The winner of a pot, about the player at this cabinet or another.
WINS_WITH = PersonMessage(
    N_("You win {amount} with {hand}"), N_("{name} wins {amount} with {hand}")
)
WINS = PersonMessage(N_("You win {amount}"), N_("{name} wins {amount}"))

Colour = tuple[int, int, int]


def name_of(v: TableView, seat: int) -> str:
    """The player at this screen is "You" in every language; the others their names."""
    return _("You") if seat == v.you else v.seats[seat].name


def hand_over(v: TableView) -> bool:
    return v.phase is Phase.HAND_OVER and v.outcome is not None


def winning_cards(v: TableView) -> set[int]:
    """At a showdown: the cards of the winners' best five (the rest are dimmed)."""
    if not hand_over(v) or v.outcome is None:
        return set()
    winners = set(v.outcome.winners) or {s for s, n in enumerate(v.outcome.won) if n > 0}
    out: set[int] = set()
    for shown in v.outcome.shown:
        if shown.seat in winners:
            out.update(best_five([*shown.cards, *v.board]))
    return out


def shown_strength(v: TableView, seat: int) -> int | None:
    """The strength of the hand ``seat`` showed at this hand's showdown (``None``: none)."""
    if v.outcome is None:
        return None
    for shown in v.outcome.shown:
        if shown.seat == seat:
            return int(evaluate([*shown.cards, *v.board]))
    return None


def my_strength(v: TableView) -> int | None:
    """The strength of this seat's best hand with the board (flop onwards)."""
    if len(v.cards) != 2 or len(v.board) < 3:
        return None
    return int(evaluate([*v.cards, *v.board]))


def move_text(row: SeatRow) -> str:
    """A seat's move in this betting round, short, for its panel ("Raise to 120")."""
    match row.move:
        case ActionKind.ALL_IN:
            return _("All in")
        case ActionKind.FOLD:
            return _("Fold")
        case ActionKind.CHECK:
            return _("Check")
        case ActionKind.CALL:
            return _("Call {amount}").format(amount=chips(row.bet))
        case ActionKind.BET:
            return _("Bet {amount}").format(amount=chips(row.bet))
        case ActionKind.RAISE:
            return _("Raise to {amount}").format(amount=chips(row.bet))
    return ""


def markers(v: TableView, row: SeatRow) -> list[str]:
    """The dealer's and the blinds' markers of a seat dealt into the hand."""
    if v.phase is Phase.WAITING or not row.dealt:
        return []
    out = []
    if v.button == row.seat:
        out.append("D")
    if v.small_blind_seat == row.seat:
        out.append(_("SB"))
    if v.big_blind_seat == row.seat:
        out.append(_("BB"))
    return out


def won_text(v: TableView, seat: int) -> str | None:
    """What ``seat`` won in the hand just finished (``None``: nothing)."""
    if not hand_over(v) or v.outcome is None:
        return None
    won = v.outcome.won[seat]
    return _("Wins {amount}").format(amount=chips(won)) if won > 0 else None


def status(v: TableView) -> str:
    """Whose turn it is, or what the table waits for."""
    if v.host_away:
        return _("The host has left: the game waits for them.")
    if v.phase is Phase.HAND_OVER:
        return _("Touch NEXT HAND when you are ready.")
    seat = v.to_act
    if seat is None:
        return ""
    if seat == v.you:
        return _("Your turn")
    row = v.seats[seat]
    if row.away:
        return _("Computer playing for {name}…").format(name=row.name)
    if row.person:
        return _("Waiting for {name}…").format(name=row.name)
    return _("{name} is thinking…").format(name=row.name)


def result_lines(v: TableView) -> list[tuple[str, Colour]]:
    """Who won what in the hand just finished, the biggest first (with the hand shown)."""
    if v.outcome is None:
        return []
    out = []
    totals = v.outcome.won
    order = v.outcome.winners or tuple(seat for seat, n in enumerate(totals) if n > 0)
    won = sorted(((totals[seat], seat) for seat in order), key=lambda x: -x[0])
    for amount, seat in won:
        you = seat == v.you
        colour = theme.WIN if you else theme.CREAM
        name = name_of(v, seat)
        strength = shown_strength(v, seat)
        if strength is not None:
            text = WINS_WITH.format(
                is_you=you, name=name, amount=chips(amount), hand=hand_name(strength)
            )
        else:
            text = WINS.format(is_you=you, name=name, amount=chips(amount))
        out.append((text, colour))
    return out
