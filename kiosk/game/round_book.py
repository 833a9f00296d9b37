"""The round's life in the ledger for any set of seats: the deal, each seat's decision
(and, with the last one, every seat's settlement), voiding, and the open round rebuilt
at power-up.  The single cabinet (seat 1, :mod:`kiosk.service.play`) and the
table (seats 1-7, :mod:`kiosk.service.play`) run their rounds through it; they keep only
what differs (the cabinet's decision values and coach, the table's window and timers).

Every change of a round is committed to the ledger before it takes effect in memory: a
decision is applied to a copy of the round, the seat's row (and, when the copy is over,
every seat's row) is written in one transaction, then the caller takes the copy as its
round.  The deck is shuffled with the caller's :class:`~engine.rng.RandomSource` and its
salted SHA-256 commitment is committed with every seat's row before any card is shown.
Each seat is settled by the engine's one ``settle()`` (inside
:class:`~engine.uth.round.UthRound`); a seat's return of ``jackpot_limit`` cents or more
is hand-paid and its jackpot tilt is recorded in the settling transaction.  Amounts are
cents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import IllegalActionError
from engine.money import format_cents as money
from engine.rng import RandomSource
from engine.uth.dealing import deal_round
from engine.uth.paytable import Paytable
from engine.uth.replay import InputRecord, replay
from engine.uth.round import PLAY_MULTIPLE, Action, BetsPlaced, Decision, Phase, UthRound
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import InsufficientCredits, WrongState
from kiosk.game.rows import dealt_columns, settled_columns
from kiosk.game.snapshot import ActionOffer
from kiosk.game.vocabulary import Bets
from kiosk.ledger.errors import LedgerCorruptError
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.records import append_decision, parse_decisions
from kiosk.ledger.round_rows import RoundChange

if TYPE_CHECKING:
    from engine.maths.decision_values import DecisionValues

#: Records a seat's jackpot tilt: ``(seat, message)``, inside the settling transaction.
JackpotTilt = Callable[[int, str], None]
#: The caller's own settlement of the round (the progressive), inside the settling
#: transaction: ``(settled round, seat -> row id)`` -> each seat's hand-paid cents.
AlsoSettle = Callable[[UthRound, dict[int, int]], Mapping[int, int]]

_ORDER = {Phase.PREFLOP: 0, Phase.FLOP: 1, Phase.RIVER: 2}


@dataclass(frozen=True)
class OpenRound:
    """A round just dealt or rebuilt at power-up: the round, each seat's row id and bets
    (cents), and the deck's commitment."""

    round: UthRound
    row_ids: dict[int, int]
    commitment: str
    bets: dict[int, Bets] = field(default_factory=dict)

    @property
    def first_id(self) -> int:
        """The round's first row id (the round's id at a table of one)."""
        return min(self.row_ids.values())


@dataclass(frozen=True)
class Decided:
    """One seat's decision, committed: the round after it, the engine's record, the
    seat's row id, and each seat's hand-paid jackpot (cents) when it settled the round."""

    round: UthRound
    decision: Decision
    row_id: int
    jackpots: dict[int, int]

    @property
    def settled(self) -> bool:
        return self.round.phase is Phase.SETTLED


def affordable(rnd: UthRound, seat: int, credits: int) -> tuple[ActionOffer, ...]:
    """The decisions legal for ``seat`` now that ``credits`` (cents) cover, with the Play
    each wagers (cents)."""
    ante = rnd.view(seat).ante
    found = (ActionOffer(a, PLAY_MULTIPLE.get(a, 0) * ante) for a in rnd.legal_actions(seat))
    return tuple(o for o in found if o.play <= credits)


def checked_action(
    rnd: UthRound, seat: int, action: Action | str, offers: Iterable[ActionOffer]
) -> Action:
    """``action`` as the engine's :class:`Action` when ``seat`` may take it now and it is
    one of ``offers`` (what the seat can afford); raises :class:`WrongState` (unknown or
    not legal) or :class:`InsufficientCredits`."""
    try:
        action = Action(action)
    except ValueError:
        raise WrongState(f"unknown action {action!r}") from None
    legal = rnd.legal_actions(seat)
    if action not in legal:
        raise WrongState(
            f"{action.value} is not allowed now ({', '.join(a.value for a in legal)})",
            code=ErrorCode.ACTION_NOT_ALLOWED,
            params={"action": action.value},
        )
    if action not in {o.action for o in offers}:
        raise InsufficientCredits(
            f"not enough credits for {action.value}", params={"action": action.value}
        )
    return action


def jackpot_message(cents: int) -> str:
    return f"Jackpot {money(cents)}: an attendant pays it by hand"


class RoundBook:
    """Deals, decides, settles and voids rounds in ``ledger`` rows, one row per seat.
    ``jackpot_limit``: cents; ``jackpot_tilt`` records a seat's jackpot tilt."""

    def __init__(self, rng: RandomSource, jackpot_limit: int, jackpot_tilt: JackpotTilt) -> None:
        self.rng = rng
        self.jackpot_limit = jackpot_limit
        self.jackpot_tilt = jackpot_tilt

    def deal(
        self,
        ledger: Ledger,
        paytable: Paytable,
        bets: Mapping[int, Bets],
        credits: Mapping[int, int],
        at: str,
    ) -> OpenRound:
        """Shuffle, salt and deal ``bets`` (seat -> its bets, the Blind mirrors the Ante);
        every seat's row (with its station's ``credits`` before, cents) and the deck's
        commitment are committed in one transaction before the round is returned."""
        placed = [
            BetsPlaced(seat=s, ante=b.ante, blind=b.ante, trips=b.trips) for s, b in bets.items()
        ]
        dealt = deal_round(self.rng, paytable, placed)
        rnd = dealt.round
        rows = [dealt_columns(rnd, credits[s], at, seat=s) for s in bets]
        ids = ledger.begin_rounds(rows, dealt.deck, dealt.salt)
        commitment = ledger.open_rounds[0]["commitment"]
        return OpenRound(rnd, dict(zip(bets, ids, strict=True)), commitment, dict(bets))

    def decide(
        self,
        ledger: Ledger,
        rnd: UthRound,
        seat: int,
        action: Action,
        at: str,
        values: DecisionValues | None = None,
        also: Callable[[Decision, int], None] | None = None,
        also_settle: AlsoSettle | None = None,
    ) -> Decided:
        """Apply ``seat``'s ``action`` (checked by the caller) to a copy of ``rnd`` and
        commit it at ``at``: the decision (with its exact ``values`` when known), the
        seat's Play and credits after, and when the copy is over every seat's settlement
        and jackpot tilts, in one transaction with ``also(decision, row_id)`` (the
        caller's own records) and, when it settles the round, ``also_settle`` (whose
        hand-paid cents join each seat's jackpot).  ``rnd`` is left as it was."""
        rows = {r["seat"]: r for r in ledger.open_rounds}
        row = rows[seat]
        new = rnd.copy()
        decision = new.act(seat, action)
        changes: dict[int, RoundChange] = {
            row["id"]: {
                "play": new.view(seat).play,
                "decisions": append_decision(row["decisions"], seat, decision, at, values),
                "credits_after": row["credits_before"] - new.staked(seat),
            }
        }
        result = new.outcome()
        jackpots: dict[int, int] = {}
        if result is not None:
            for s, r in rows.items():
                columns = settled_columns(result, r["credits_before"], at, self.jackpot_limit, s)
                changes.setdefault(r["id"], {}).update(columns)
                if columns["jackpot"]:
                    jackpots[s] = columns["jackpot"]
        with ledger.transaction():
            ledger.update_rounds(changes)
            if also is not None:
                also(decision, row["id"])
            for s, cents in jackpots.items():
                self.jackpot_tilt(s, jackpot_message(cents))
            if result is not None and also_settle is not None:
                ids = {s: r["id"] for s, r in rows.items()}
                for s, cents in also_settle(new, ids).items():
                    jackpots[s] = jackpots.get(s, 0) + cents
        return Decided(new, decision, row["id"], jackpots)

    @staticmethod
    def void(ledger: Ledger, rnd: UthRound, at: str) -> int | None:
        """Void the open round ``rnd`` (inside the caller's ledger transaction): every
        seat's stake goes back on its meter.  Returns its first row id (None when no
        round is open)."""
        rows = ledger.open_rounds
        if not rows:
            return None
        changes: dict[int, RoundChange] = {
            r["id"]: {
                "state": "voided",
                "settled_at": at,
                "outcome": "void",
                "paid": rnd.staked(r["seat"]),
                "jackpot": 0,
                "credits_after": r["credits_before"],
            }
            for r in rows
        }
        ledger.update_rounds(changes)
        return min(changes)


def reopen(ledger: Ledger) -> OpenRound | None:
    """The open round of ``ledger`` replayed from every seat's row (same deck, same bets,
    the decisions so far); None when no round is open.  Raises
    :class:`LedgerCorruptError` when the rows do not replay to their stored state."""
    rows = ledger.open_rounds
    if not rows:
        return None
    deck, _salt = ledger.recovery_deck(rows[0]["id"])
    table = ledger.paytable(rows[0]["paytable_sha256"])
    bets: list[InputRecord] = [
        BetsPlaced(seat=r["seat"], ante=r["ante"], blind=r["blind"], trips=r["trips"]) for r in rows
    ]
    decisions = [d for r in rows for d in parse_decisions(r["decisions"], r["seat"])]
    decisions.sort(key=lambda d: (_ORDER[d.phase], d.at))  # seats decide apart in a phase
    try:
        rnd = replay(table, deck, [*bets, *(d.decision for d in decisions)])
    except IllegalActionError as exc:
        raise LedgerCorruptError(
            f"the open round cannot be replayed: {exc}", f"rounds {rows[0]['id']}"
        ) from None
    if rnd.phase == Phase.SETTLED or any(rnd.view(r["seat"]).play != r["play"] for r in rows):
        raise LedgerCorruptError(
            "the open round does not replay to its stored state", f"rounds {rows[0]['id']}"
        )
    return OpenRound(
        rnd,
        {r["seat"]: r["id"] for r in rows},
        rows[0]["commitment"],
        {r["seat"]: Bets(r["ante"], r["trips"]) for r in rows},
    )
