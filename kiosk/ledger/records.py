"""Frozen records read back from the ledger: rounds (with their decisions), events,
tickets and the verification report; and a round row's history as the engine's records.

A round row's ``decisions`` column is a JSON list of the engine's
:class:`~engine.uth.round.Decision` records in their dict form
(:func:`engine.uth.replay.record_to_dict`) each with its ``at`` stamp::

    [{"type": "decision", "seat": 1, "phase": "preflop", "action": "check",
      "play": 0, "at": "2025-01-31T12:00:00.123Z"}, ...]

A decision taken with its exact values (:mod:`engine.maths.decision_values`) also holds
``"values"`` (each legal action's value), ``"ev"`` (the value of the action taken),
``"best"`` (the optimal action) and ``"best_ev"`` (its value): net Antes of the main
game, each an exact ``"N/D"`` text.  Rows
written before this form hold ``[phase, action, play cents, at]`` lists, and entries
without values; all read the same (:func:`parse_decisions`).  The :class:`~engine.uth.round.BetsPlaced` record is
not stored: it is the row's ``seat``, ``ante``, ``blind`` and ``trips`` columns
(:func:`round_inputs`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine.cards import card_name, format_cards, parse_cards
from engine.rng import deck_commitment
from engine.uth.paytable import Paytable
from engine.uth.replay import InputRecord, record_from_dict, record_to_dict, replay
from engine.uth.round import Action, BetsPlaced, Decision, Phase, UthRound, stake_total
from kiosk.ledger.chain import dumps
from kiosk.ledger.meters import RoundResult, round_result
from kiosk.ledger.tickets import TICKET_COLUMNS

if TYPE_CHECKING:
    from engine.maths.decision_values import DecisionValues

_CARD_CODES = {card_name(c): c for c in range(52)}


def value_text(value: Fraction) -> str:
    """An exact value as stored: ``"numerator/denominator"``."""
    return f"{value.numerator}/{value.denominator}"


def parse_value(text: str) -> Fraction:
    """The exact value of :func:`value_text`'s form; raises ``ValueError``."""
    num, sep, den = text.partition("/")
    if not sep:
        raise ValueError(f"not an exact value N/D: {text!r}")
    return Fraction(int(num), int(den))


#: How an action is named in recall ("Play 4x", "Check", ...).
ACTION_LABELS = {
    Action.PLAY_4X: "Play 4x",
    Action.PLAY_3X: "Play 3x",
    Action.PLAY_2X: "Play 2x",
    Action.PLAY_1X: "Play 1x",
    Action.CHECK: "Check",
    Action.FOLD: "Fold",
}


@dataclass(frozen=True)
class DecisionRecord:
    """One decision of a stored round: the engine's :class:`Decision` fields and when it
    was taken (UTC stamp).  ``play`` is the Play bet this decision placed, cents (0 for
    check / fold).  ``values``: the exact value of each legal action at this decision
    (net Antes of the main game, then optimal play), empty when not known (rows written
    without them); ``best`` the optimal action."""

    seat: int
    phase: Phase
    action: Action
    play: int
    at: str
    values: Mapping[Action, Fraction] = field(default_factory=dict)
    best: Action | None = None

    @classmethod
    def of(
        cls, decision: Decision, at: str, values: DecisionValues | None = None
    ) -> DecisionRecord:
        """The stored form of the engine's ``decision`` taken at ``at``, with the exact
        ``values`` of its spot when known."""
        d = decision
        if values is None:
            return cls(d.seat, d.phase, d.action, d.play, at)
        return cls(d.seat, d.phase, d.action, d.play, at, dict(values.values), values.best)

    @property
    def ev(self) -> Fraction | None:
        """The exact value of the action taken, Antes (None when not known)."""
        return self.values.get(self.action)

    @property
    def best_ev(self) -> Fraction | None:
        """The exact value of the optimal action, Antes (None when not known)."""
        return None if self.best is None else self.values.get(self.best)

    @property
    def loss(self) -> Fraction | None:
        """How much less than the optimal action this one is worth, Antes (0 optimal)."""
        if self.ev is None or self.best_ev is None:
            return None
        return self.best_ev - self.ev

    def value_text(self) -> str | None:
        """The decision against its best alternative, for recall: ``"Play 1x: 0.21 Ante
        better than Fold"`` or ``"Check: 0.35 Ante worse than Play 4x (optimal)"``; None
        when the values are not known."""
        ev, label = self.ev, ACTION_LABELS[self.action]
        if ev is None or self.best is None or len(self.values) < 2:
            return None
        if self.action == self.best:
            other = max((a for a in self.values if a != self.action), key=self.values.__getitem__)
            margin = ev - self.values[other]
            word = "better than" if margin else "as good as"
            return f"{label}: {float(margin):.2f} Ante {word} {ACTION_LABELS[other]}"
        loss = self.best_ev - ev if self.best_ev is not None else 0
        return f"{label}: {float(loss):.2f} Ante worse than {ACTION_LABELS[self.best]} (optimal)"

    @property
    def decision(self) -> Decision:
        """The engine's record of this decision."""
        return Decision(seat=self.seat, phase=self.phase, action=self.action, play=self.play)

    def _values(self) -> dict[str, Any]:
        if not self.values or self.best is None:
            return {}
        return {
            "ev": value_text(self.values[self.action]),
            "best": self.best.value,
            "best_ev": value_text(self.values[self.best]),
            "values": {a.value: value_text(v) for a, v in self.values.items()},
        }

    def as_entry(self) -> dict[str, Any]:
        """The JSON-ready entry of the ``decisions`` column."""
        return {**record_to_dict(self.decision), "at": self.at, **self._values()}

    def as_dict(self) -> dict[str, Any]:
        """Phase, action, Play cents and time, and the exact values when known (the form
        recall and export show)."""
        return {
            "phase": self.phase.value,
            "action": self.action.value,
            "play": self.play,
            "at": self.at,
            **self._values(),
        }


def _entry_values(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The exact values of a stored entry (none for an entry without them)."""
    if "values" not in entry:
        return {}
    try:
        values = {Action(a): parse_value(str(v)) for a, v in dict(entry["values"]).items()}
        return {"values": values, "best": Action(entry["best"])}
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"malformed decision values {dict(entry)!r}: {exc}") from None


def parse_decisions(text: str | None, seat: int) -> tuple[DecisionRecord, ...]:
    """The ``decisions`` column of a round row of seat ``seat`` (either stored form);
    a malformed column raises ``ValueError``."""
    out = []
    for entry in json.loads(text or "[]"):
        if isinstance(entry, Mapping):
            record = record_from_dict(entry)
            if not isinstance(record, Decision):
                raise ValueError(f"not a decision in the decisions column: {entry!r}")
            out.append(
                DecisionRecord(
                    record.seat,
                    record.phase,
                    record.action,
                    record.play,
                    str(entry.get("at", "")),
                    **_entry_values(entry),
                )
            )
            continue
        try:
            phase, action, play, at = entry
            out.append(DecisionRecord(seat, Phase(phase), Action(action), int(play), str(at)))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"malformed decision {entry!r}: {exc}") from None
    return tuple(out)


def dump_decisions(decisions: Iterable[DecisionRecord]) -> str:
    """The ``decisions`` column holding ``decisions`` (canonical JSON)."""
    return dumps([d.as_entry() for d in decisions])


def append_decision(
    column: str | None,
    seat: int,
    decision: Decision,
    at: str,
    values: DecisionValues | None = None,
) -> str:
    """The ``decisions`` column of a round of seat ``seat`` after ``decision`` (taken at
    ``at``, with the exact ``values`` of its spot when known), given the column before it;
    earlier entries are rewritten in the form above."""
    record = DecisionRecord.of(decision, at, values)
    return dump_decisions((*parse_decisions(column, seat), record))


def round_inputs(row: Mapping[str, Any]) -> list[InputRecord]:
    """The engine records a round row was played from: its :class:`BetsPlaced` (from the
    ``seat``, ``ante``, ``blind`` and ``trips`` columns, cents) then each
    :class:`Decision` of the ``decisions`` column, in order.  Feed them to
    :func:`engine.uth.replay.replay` with the round's deck and paytable (or use
    :func:`replay_row`).  A malformed ``decisions`` column raises ``ValueError``."""
    seat = int(row["seat"])
    bets = BetsPlaced(seat=seat, ante=row["ante"], blind=row["blind"], trips=row["trips"])
    return [bets, *(d.decision for d in parse_decisions(row["decisions"], seat))]


def replay_row(paytable: Paytable, deck: Sequence[int], row: Mapping[str, Any]) -> UthRound:
    """The round of ``row`` rebuilt by :func:`engine.uth.replay.replay` on ``deck``; raises
    :class:`~engine.errors.IllegalActionError` (a ``ValueError``) when its records do not
    replay."""
    return replay(paytable, deck, round_inputs(row))


@dataclass(frozen=True)
class RoundRecord:
    """One round as stored; cards as ints (see :mod:`engine.cards`).  Cents throughout.

    ``deck`` and ``salt`` are empty until the round is settled.
    """

    id: int
    state: str
    started_at: str
    settled_at: str | None
    seat: int
    paytable: str
    paytable_sha256: str
    ante: int
    blind: int
    trips: int
    play: int
    decisions: tuple[DecisionRecord, ...]
    commitment: str
    salt: str
    deck: tuple[int, ...]
    player_hole: tuple[int, ...]
    dealer_hole: tuple[int, ...]
    board: tuple[int, ...]
    player_hand: str | None
    player_category: str | None
    dealer_hand: str | None
    dealer_category: str | None
    dealer_qualifies: bool | None
    outcome: str | None
    ante_return: int
    blind_return: int
    play_return: int
    trips_return: int
    breakage: int
    breakage_unit: int
    paid: int
    jackpot: int
    credits_before: int
    credits_after: int
    hash: str
    #: the seat's progressive wager in the round and its award (cents; a hand-paid jackpot
    #: included), with the award's hand (its category's name, lower case): read from the
    #: ledger's events beside the row (:func:`kiosk.service.progressive_recall.with_progressive`)
    progressive: int = 0
    progressive_award: int = 0
    progressive_hand: str | None = None

    @property
    def staked(self) -> int:
        return stake_total(self.ante, self.blind, self.play, self.trips)

    @property
    def returned(self) -> int:
        return stake_total(self.ante_return, self.blind_return, self.play_return, self.trips_return)

    @property
    def net(self) -> int:
        """What the player won (positive) or lost (negative) on the round, cents."""
        return self.paid + self.jackpot - self.staked

    @property
    def result(self) -> RoundResult:
        """The settled round's result as the meters count it (:func:`round_result`)."""
        return round_result(self.staked, self.paid, self.jackpot)

    def inputs(self) -> list[InputRecord]:
        """The engine records the round was played from (see :func:`round_inputs`)."""
        bets = BetsPlaced(seat=self.seat, ante=self.ante, blind=self.blind, trips=self.trips)
        return [bets, *(d.decision for d in self.decisions)]

    def commitment_ok(self) -> bool:
        """Whether the published deck and salt hash to the commitment made at the deal."""
        return (
            bool(self.deck)
            and deck_commitment(self.deck, bytes.fromhex(self.salt)) == self.commitment
        )

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> RoundRecord:
        def cards(text: str | None) -> tuple[int, ...]:
            if not text:
                return ()
            try:
                return tuple(_CARD_CODES[text[i : i + 2]] for i in range(0, len(text), 2))
            except KeyError:
                return tuple(parse_cards(text))  # raises, naming the bad card

        q = row["dealer_qualifies"]
        return cls(
            id=row["id"],
            state=row["state"],
            started_at=row["started_at"],
            settled_at=row["settled_at"],
            seat=row["seat"],
            paytable=row["paytable"],
            paytable_sha256=row["paytable_sha256"],
            ante=row["ante"],
            blind=row["blind"],
            trips=row["trips"],
            play=row["play"],
            decisions=parse_decisions(row["decisions"], row["seat"]),
            commitment=row["commitment"],
            salt=row["salt"] or "",
            deck=cards(row["deck"]),
            player_hole=cards(row["player_hole"]),
            dealer_hole=cards(row["dealer_hole"]),
            board=cards(row["board"]),
            player_hand=row["player_hand"],
            player_category=row["player_category"],
            dealer_hand=row["dealer_hand"],
            dealer_category=row["dealer_category"],
            dealer_qualifies=None if q is None else bool(q),
            outcome=row["outcome"],
            ante_return=row["ante_return"] or 0,
            blind_return=row["blind_return"] or 0,
            play_return=row["play_return"] or 0,
            trips_return=row["trips_return"] or 0,
            breakage=row["breakage"] or 0,
            breakage_unit=row["breakage_unit"] or 1,
            paid=row["paid"] or 0,
            jackpot=row["jackpot"] or 0,
            credits_before=row["credits_before"],
            credits_after=row["credits_after"],
            hash=row["hash"],
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form with cards in text notation."""
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name in ("deck", "player_hole", "dealer_hole", "board"):
                value = format_cards(value)
            elif name == "decisions":
                value = [d.as_dict() for d in value]
            out[name] = value
        out["staked"], out["net"] = self.staked, self.net
        return out


@dataclass(frozen=True)
class EventRecord:
    id: int
    at: str
    kind: str
    amount: int
    round_id: int | None
    txn: str | None
    detail: dict[str, Any]
    hash: str
    station: int = 1  # the player station it is about (1-7)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> EventRecord:
        return cls(
            row["id"],
            row["at"],
            row["kind"],
            row["amount"],
            row["round_id"],
            row["txn"],
            json.loads(row["detail"]),
            row["hash"],
            int(row.get("station", 1)),
        )


@dataclass(frozen=True)
class TicketRecord:
    """One cash-out ticket issued by this cabinet (a ``tickets`` row).  Cents; times UTC."""

    validation: str
    sequence: int
    amount: int
    status: str  # pending | issued | void | redeemed
    issued_at: str
    expires_on: str | None  # YYYY-MM-DD, valid through that day; None: does not expire
    printed_at: str | None
    voided_at: str | None
    redeemed_at: str | None
    void_reason: str | None
    cashout_txn: str | None
    redeem_txn: str | None
    issue_event: int
    print_event: int | None
    close_event: int | None
    station: int = 1  # the station that issued it (its issue event's)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TicketRecord:
        return cls(**{c: row[c] for c in TICKET_COLUMNS}, station=int(row.get("station", 1)))

    def as_dict(self) -> dict[str, Any]:
        return {c: getattr(self, c) for c in TICKET_COLUMNS}


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    rounds: int
    events: int
    problem: str = ""  # the first mismatch, naming the row or meter
    meters: Mapping[str, int] | None = None
    tickets: int = 0
    #: Whether the rows' MACs were checked with the cabinet key (else integrity only).
    authenticated: bool = False
