"""A round rebuilt from its records: the one replay path of the cabinet.

The engine is deterministic: a round is fully determined by its deck, the bets placed
(:class:`~engine.uth.round.BetsPlaced`) and the decisions taken
(:class:`~engine.uth.round.Decision`).  Resuming after a power cut, ``uth audit verify
--replay`` and game recall all rebuild a round with :func:`replay`.  The records are
stored as plain dicts (:func:`record_to_dict` / :func:`record_from_dict`); amounts are
integer cents.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.errors import IllegalActionError
from engine.uth.paytable import Paytable
from engine.uth.round import Action, BetsPlaced, Decision, Phase, UthRound

#: The records a round is rebuilt from: the player's inputs.
InputRecord = BetsPlaced | Decision


def replay(paytable: Paytable, deck: Sequence[int], records: Iterable[InputRecord]) -> UthRound:
    """Rebuild a round: place every :class:`BetsPlaced`, deal, then apply every
    :class:`Decision` in order.  Each decision must produce the same record again (same
    phase and Play); otherwise, or when a record is not legal, raises
    :class:`IllegalActionError` naming the record."""
    rnd = UthRound(paytable, deck)
    for record in records:
        if isinstance(record, BetsPlaced):
            if rnd.phase is not Phase.BETTING:
                raise IllegalActionError(f"bets after the deal: {record}")
            rnd.place_bets(record.seat, record.ante, record.trips)
            continue
        if rnd.phase is Phase.BETTING:
            rnd.deal()
        if rnd.phase is not record.phase:
            raise IllegalActionError(f"decision out of phase ({rnd.phase}): {record}")
        again = rnd.act(record.seat, record.action)
        if again != record:
            raise IllegalActionError(f"decision does not replay ({again}): {record}")
    if rnd.phase is Phase.BETTING and rnd.seats:
        rnd.deal()
    return rnd


def record_to_dict(record: InputRecord) -> dict[str, Any]:
    """A record as a JSON-ready dict with its ``type``."""
    if isinstance(record, BetsPlaced):
        return {
            "type": "bets",
            "seat": record.seat,
            "ante": record.ante,
            "blind": record.blind,
            "trips": record.trips,
        }
    return {
        "type": "decision",
        "seat": record.seat,
        "phase": record.phase.value,
        "action": record.action.value,
        "play": record.play,
    }


def record_from_dict(data: Mapping[str, Any]) -> InputRecord:
    """The inverse of :func:`record_to_dict`; a malformed dict raises ``ValueError``."""
    try:
        kind = data["type"]
        if kind == "bets":
            return BetsPlaced(
                seat=int(data["seat"]),
                ante=int(data["ante"]),
                blind=int(data["blind"]),
                trips=int(data["trips"]),
            )
        if kind == "decision":
            return Decision(
                seat=int(data["seat"]),
                phase=Phase(data["phase"]),
                action=Action(data["action"]),
                play=int(data["play"]),
            )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed round record {dict(data)!r}: {exc}") from None
    raise ValueError(f"unknown round record type {data.get('type')!r}")
