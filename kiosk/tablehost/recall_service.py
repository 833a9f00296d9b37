"""A station's own game recall: the player's History, answered by the table host.

A :class:`~kiosk.link.messages.RecallRequest` names no seat: :class:`RecallService`
answers for the seat of the link it came on, with that seat's last ``last`` (at most
:data:`~kiosk.link.messages.RECALL_ROUNDS`) rounds that are no longer open, most recent
first, in a :class:`~kiosk.link.messages.RecallReply` with the request's ``ref``.  A
round still open is never sent (its cards are in play).

Each round goes as :func:`round_json`: every :class:`RoundRecord` field in the wire form
of :func:`kiosk.service.wire.to_json`, the decisions as the ledger's ``decisions`` column
entries (exact values as ``"N/D"`` text), and the ``deck`` and ``salt`` left empty: the
deck holds every other seat's cards, so a station never receives it (the commitment is
checked at the host, ``uth audit verify``).  :func:`round_from_json` rebuilds the
record, checking every field's type, so the station's recall screen shows exactly the
host's row (cards, decisions, dealer, payouts).

A refusal (no ledger, a station not at the table) is a reply with ``ok`` False and a
``code``, logged; nothing changes.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import typing
from typing import TYPE_CHECKING, Any

from pydantic import JsonValue

from kiosk.ledger.records import RoundRecord, parse_decisions
from kiosk.link.messages import RECALL_ROUNDS, RecallReply, RecallRequest
from kiosk.service.wire import from_json, to_json

if TYPE_CHECKING:
    from kiosk.service.table import Table

log = logging.getLogger(__name__)

#: Fields of a round a station never receives (the deck holds the other seats' cards).
WITHHELD = ("deck", "salt")


def round_json(record: RoundRecord) -> dict[str, JsonValue]:
    """``record`` as a station receives it (see module): cents, cards as ints."""
    out: dict[str, JsonValue] = {}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        if f.name == "decisions":
            out[f.name] = [d.as_entry() for d in value]
        elif f.name in WITHHELD:
            out[f.name] = to_json(type(value)())
        else:
            out[f.name] = to_json(value)
    return out


@functools.cache
def _hints() -> dict[str, Any]:
    return typing.get_type_hints(RoundRecord)


def round_from_json(data: object) -> RoundRecord:
    """The :class:`RoundRecord` of :func:`round_json`'s form; raises :class:`ValueError`
    when a field is missing, unknown or of the wrong type."""
    names = {f.name for f in dataclasses.fields(RoundRecord)}
    if not isinstance(data, dict) or data.keys() != names:
        raise ValueError(f"a recalled round has the fields {sorted(names)}, got {data!r:.200}")
    seat = from_json(int, data["seat"])
    entries = data["decisions"]
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ValueError(f"a recalled round's decisions are a list of objects: {entries!r:.200}")
    try:
        decisions = parse_decisions(json.dumps(entries), seat)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed decisions of a recalled round: {exc}") from None
    hints = _hints()
    fields = {n: from_json(hints[n], v) for n, v in data.items() if n != "decisions"}
    return RoundRecord(decisions=decisions, **fields)


def rounds_from_reply(reply: RecallReply) -> list[RoundRecord]:
    """The rounds of an accepted ``reply``; raises :class:`ValueError` for a refused one
    or a round that does not rebuild."""
    if not reply.ok:
        raise ValueError(f"recall refused: {reply.code} {reply.detail}")
    return [round_from_json(r) for r in reply.rounds]


class RecallService:
    """Answers the stations' recall requests from ``table``'s ledger (see module)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.refusals = 0

    def answer(self, seat: int, body: RecallRequest) -> RecallReply:
        """The reply to ``body`` from the link of ``seat`` (the only seat it reads)."""
        if seat not in self.table.stations:
            return self._refuse(seat, body, "no_station", f"seat {seat} is not at this table")
        if self.table.ledger is None:
            return self._refuse(seat, body, "no_ledger", "the table keeps no ledger")
        last = min(body.last, RECALL_ROUNDS)
        # one more row than asked: the newest may be the round still open
        found = self.table.recall(last + 1, station=seat)
        rounds = [r for r in found if r.state != "open" and r.seat == seat][:last]
        return RecallReply(ref=body.ref, ok=True, rounds=[round_json(r) for r in rounds])

    def _refuse(self, seat: int, body: RecallRequest, code: str, detail: str) -> RecallReply:
        self.refusals += 1
        log.warning("recall %d of seat %d refused: %s %s", body.ref, seat, code, detail)
        return RecallReply(ref=body.ref, ok=False, code=code, detail=detail)
