"""The table's progressive, standalone: one meter for every station of the table (a lone
cabinet is a table of one), kept in the ledger and settled with the round.

**The wager.**  A station places the progressive's fixed wager (the paytable's
``[progressive].wager``, cents) with its Ante (:func:`kiosk.game.rules.betting.check_progressive`);
the deal takes it in the transaction that writes the round's rows: one
``progressive_wager`` event per wagering seat, against its row (coin in, off its
credits).  A round voided by a RAM clear refunds it (``progressive_refund``).

**The meter.**  The meter and the hidden reserve are differences of lifetime ledger
meters (:func:`kiosk.ledger.meters.progressive_levels`): meter = contributed + reset -
hit + adjusted up - adjusted down, reserve = reserved - reserve drawn.  Only a
``progressive_hit`` (an award on the meter) and a manager's countersigned adjustment
(:mod:`kiosk.service.progressive_adjust`) take anything off the meter.  Putting a paytable with a progressive in force lifts a meter below its
reset to the reset (``progressive_reset``, funded from the reserve first, the rest by the
operator), in the transaction that records the change.

**Settlement.**  The round's last decision settles the progressive in the transaction
that settles the round's rows, through the engine's one
:func:`engine.uth.progressive_settlement.settle_progressive` on each wagering seat's
first five cards (hole cards and flop): ``progressive_contribution``,
``progressive_reserve``, ``progressive_hit``, ``progressive_breakage``,
``progressive_reset``, ``progressive_reserve_drawn``, and each seat's award, credited
(``progressive_award``) or, at ``jackpot_limit`` cents or more, hand-paid
(``progressive_jackpot``, the station's jackpot tilt), judged on the award alone as the
casino's system is told of it.  The levels the ledger then holds are checked against
the settlement's before the transaction commits.  Table-wide events (contributions,
hits, resets) are written at station 1, as the host's events are; a wager and an award
at its seat's station.  Amounts are cents.

**Linked** (:mod:`kiosk.service.progressive_link`): the meter is the casino controller's
level (:class:`LinkedLevel`), and the ledger keeps no meter of it.  The deal records the
level's amount the table showed with each wager; the round's last decision settles
through the same :func:`settle_progressive` on the level's amount the table last took
(the deal's, when none was heard since a power-up), with no reserve: each wager's
contribution to the controller's level at its seat's station
(``progressive_link_contribution``, the paytable's ``contribution_bp`` of it: the meters
the controller reads), and each award on the level as ``progressive_link_win`` (group,
level, the level's amount it was judged on) before the seat's award itself, credited or
hand-paid as standalone.  The controller learns of a win from the SAS link (exception
54, or 51 when hand-paid) and takes it off its level; breakage and resets are its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from engine.money import format_cents as money
from engine.uth.paytable import Paytable
from engine.uth.progressive import WHOLE_BP, Progressive
from engine.uth.progressive_settlement import ProgressiveSettlement, settle_progressive
from engine.uth.round import BOARD_POSITIONS, HOLE_POSITIONS, UthRound
from kiosk.game.errors import ConfigurationError
from kiosk.game.vocabulary import Bets
from kiosk.ledger.errors import LedgerError
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.ledger.meters import progressive_levels
from kiosk.ledger.records import EventRecord
from kiosk.ledger.schema import STATIONS

#: The station of the table-wide progressive events (the host's events are station 1).
TABLE_STATION = 1

#: Records a seat's jackpot tilt: ``(seat, message)``, inside the settling transaction.
JackpotTilt = Callable[[int, str], None]


class Levels(NamedTuple):
    """The progressive meter players see and the hidden reserve, cents."""

    meter: int
    reserve: int


@dataclass(frozen=True)
class SettledProgressive:
    """One round's progressive settled: the engine's record and each seat's hand-paid
    award (cents)."""

    settlement: ProgressiveSettlement
    jackpots: dict[int, int]


def levels(ledger: Ledger) -> Levels:
    """The meter and the reserve the ledger's meters hold now (cents)."""
    meter, reserve = progressive_levels(ledger.meters)
    return Levels(meter, reserve)


def first_five(rnd: UthRound, seat: int) -> list[int]:
    """``seat``'s five cards the progressive is judged on: its hole cards, then the flop."""
    return [rnd.deck[i] for i in (*HOLE_POSITIONS[seat], *BOARD_POSITIONS[:3])]


def wager_events(ledger: Ledger, row_ids: Mapping[int, int]) -> dict[int, EventRecord]:
    """Each seat's ``progressive_wager`` event in the round of ``row_ids`` (seat -> its
    row), one read of the ledger: seats without one are left out."""
    by_row = {row: seat for seat, row in row_ids.items()}
    found: dict[int, EventRecord] = {}
    for ev in ledger.events((EventKind.PROGRESSIVE_WAGER,), last=len(STATIONS)):
        seat = by_row.get(ev.round_id) if ev.round_id is not None else None
        if seat is not None:
            found[seat] = ev
    return found


def round_wagers(ledger: Ledger, row_ids: Mapping[int, int]) -> dict[int, int]:
    """Each seat's progressive wager (cents) in the round of ``row_ids`` (seat -> its
    row), as the ledger records it: seats without one are left out."""
    return {seat: ev.amount for seat, ev in wager_events(ledger, row_ids).items()}


@dataclass(frozen=True)
class LinkedLevel:
    """The casino controller's level a linked round is settled on: its SAS group
    (1..255), its level (1..32) and its amount (cents) as the table took it."""

    group: int
    level: int
    meter: int

    def detail(self) -> dict[str, int]:
        return {"group": self.group, "level": self.level, "meter": self.meter}


def dealt_level(wagers: Iterable[EventRecord]) -> LinkedLevel | None:
    """The linked level a round was dealt on, as its ``wagers`` events recorded it
    (None: a standalone round)."""
    for ev in wagers:
        found = ev.detail.get("linked")
        if isinstance(found, dict):
            return LinkedLevel(int(found["group"]), int(found["level"]), int(found["meter"]))
    return None


@dataclass
class LinkedMeter:
    """A linked progressive's level (:mod:`kiosk.service.progressive_link`): the
    controller's last amount taken (cents; None before the first), and how many
    broadcasts the table refused."""

    group: int
    level: int
    meter: int | None = None
    refused: int = 0


class EventWriter(Protocol):
    """Writes one event as :meth:`kiosk.service.state.TableState.event` (``amount`` in
    cents); returns its id."""

    def __call__(
        self,
        kind: EventKind,
        detail: Mapping[str, object],
        station: int,
        *,
        amount: int = 0,
        txn: str | None = None,
        round_id: int | None = None,
        at: str | None = None,
    ) -> int: ...


class TableProgressive:
    """The progressive's ledger life at a table: the wagers at the deal, settlement with
    the round, refunds at a void, the seed when a paytable is put in force (see the
    module).  ``event`` writes one event as :meth:`kiosk.service.state.TableState.event`."""

    def __init__(self, event: EventWriter, jackpot_limit: int, tilt: JackpotTilt) -> None:
        self._event = event
        self.jackpot_limit = jackpot_limit
        self.tilt = tilt

    # -- the deal ------------------------------------------------------------------------
    def take_wagers(
        self,
        paytable: Paytable,
        bets: Mapping[int, Bets],
        row_ids: Mapping[int, int],
        at: str,
        linked: LinkedLevel | None = None,
    ) -> None:
        """Inside the deal's transaction: each seat's progressive wager of ``bets``
        against its row of ``row_ids`` (``linked``: the controller's level the table
        shows, recorded with each wager)."""
        for seat, placed in sorted(bets.items()):
            if not placed.progressive:
                continue
            if paytable.progressive is None or placed.progressive != paytable.progressive.wager:
                raise LedgerError(f"seat {seat}: a progressive wager the paytable does not offer")
            detail: dict[str, object] = {"paytable": paytable.sha256}
            if linked is not None:
                detail["linked"] = linked.detail()
            self._event(
                EventKind.PROGRESSIVE_WAGER,
                detail,
                seat,
                amount=placed.progressive,
                round_id=row_ids[seat],
                at=at,
            )

    # -- settlement ----------------------------------------------------------------------
    def settle(
        self,
        ledger: Ledger,
        rnd: UthRound,
        row_ids: Mapping[int, int],
        at: str,
        linked: LinkedLevel | None = None,
    ) -> SettledProgressive | None:
        """Inside the transaction settling ``rnd`` (its rows ``row_ids``): the round's
        progressive, settled and recorded; None when no seat wagered on it.  ``linked``:
        the controller's level the table took last (a linked round dealt on a level
        settles on it, or on the deal's amount when none was taken since)."""
        events = wager_events(ledger, row_ids)
        wagers = {seat: ev.amount for seat, ev in events.items()}
        if not wagers:
            return None
        table = rnd.paytable.progressive
        if table is None or any(w != table.wager for w in wagers.values()):
            raise LedgerError("the round's progressive wagers are not its paytable's")
        hands = {seat: first_five(rnd, seat) for seat in sorted(wagers)}
        dealt = dealt_level(events.values())
        if dealt is not None:
            same = linked is not None and (linked.group, linked.level) == (dealt.group, dealt.level)
            level = linked if same and linked is not None else dealt
            return self._settle_linked(ledger, table, level, wagers, hands, row_ids, at)
        before = levels(ledger)
        done = settle_progressive(table, before.meter, before.reserve, hands)
        first = min(row_ids.values())
        self._record(table, done, row_ids, first, at)
        jackpots = self._pay(done, row_ids, at)
        after = levels(ledger)
        if after != (done.meter_after, done.reserve_after):
            raise LedgerError(
                f"the progressive would stand at {after} after round {first}, "
                f"not at meter {done.meter_after}, reserve {done.reserve_after}"
            )
        return SettledProgressive(done, jackpots)

    def _settle_linked(
        self,
        ledger: Ledger,
        table: Progressive,
        level: LinkedLevel,
        wagers: Mapping[int, int],
        hands: Mapping[int, list[int]],
        row_ids: Mapping[int, int],
        at: str,
    ) -> SettledProgressive:
        before = levels(ledger)
        done = settle_progressive(table, min(level.meter, table.ceiling), 0, hands)
        for seat, cents in sorted(wagers.items()):
            share = cents * table.contribution_bp // WHOLE_BP
            if share:
                detail: dict[str, object] = {"wager": cents, **level.detail()}
                self._event(
                    EventKind.PROGRESSIVE_LINK_CONTRIBUTION,
                    detail,
                    seat,
                    amount=share,
                    round_id=row_ids[seat],
                    at=at,
                )
        jackpots = self._pay(done, row_ids, at, level)
        if levels(ledger) != before:
            raise LedgerError("a linked round moved the ledger's own progressive meter")
        return SettledProgressive(done, jackpots)

    def _table_event(
        self, kind: EventKind, amount: int, detail: Mapping[str, object], first: int, at: str
    ) -> None:
        self._event(kind, detail, TABLE_STATION, amount=amount, round_id=first, at=at)

    def _record(
        self,
        table: Progressive,
        done: ProgressiveSettlement,
        row_ids: Mapping[int, int],
        first: int,
        at: str,
    ) -> None:
        seats = sorted(row_ids)
        detail: dict[str, object]
        if done.to_meter:
            detail = {"wagers": done.wagers, "meter_before": done.meter_before}
            self._table_event(EventKind.PROGRESSIVE_CONTRIBUTION, done.to_meter, detail, first, at)
        if done.to_reserve:
            detail = {"wagers": done.wagers, "overflow": done.overflow}
            self._table_event(EventKind.PROGRESSIVE_RESERVE, done.to_reserve, detail, first, at)
        hit = done.meter_paid + done.breakage
        if done.meter_at:
            detail = {
                "lines": [{"hand": c.name.lower(), "meter": m} for c, m in done.meter_at],
                "awards": [
                    {"seat": a.seat, "hand": a.hand.name.lower(), "cents": a.cents}
                    for a in done.awards
                    if a.on_meter
                ],
                "breakage": done.breakage,
                "split": table.split,
                "seats": seats,
            }
            self._table_event(EventKind.PROGRESSIVE_HIT, hit, detail, first, at)
        if done.breakage:
            detail = {"split": table.split}
            self._table_event(EventKind.PROGRESSIVE_BREAKAGE, done.breakage, detail, first, at)
        for _ in range(done.resets):
            detail = {"reason": "award", "reset": table.reset}
            self._table_event(EventKind.PROGRESSIVE_RESET, table.reset, detail, first, at)
        if done.from_reserve:
            detail = {"resets": done.resets, "from_operator": done.from_operator}
            self._table_event(
                EventKind.PROGRESSIVE_RESERVE_DRAWN, done.from_reserve, detail, first, at
            )

    def _pay(
        self,
        done: ProgressiveSettlement,
        row_ids: Mapping[int, int],
        at: str,
        linked: LinkedLevel | None = None,
    ) -> dict[int, int]:
        jackpots: dict[int, int] = {}
        meter_at = dict(done.meter_at)
        for award in done.awards:
            detail: dict[str, object] = {
                "hand": award.hand.name.lower(),
                "on_meter": award.on_meter,
            }
            hand_paid = award.cents >= self.jackpot_limit
            if linked is not None and award.on_meter:
                detail["linked"] = {"group": linked.group, "level": linked.level}
                win = {
                    "group": linked.group,
                    "level": linked.level,
                    "meter": meter_at.get(award.hand, linked.meter),
                    "hand": award.hand.name.lower(),
                    "hand_paid": hand_paid,
                }
                self._event(
                    EventKind.PROGRESSIVE_LINK_WIN,
                    win,
                    award.seat,
                    amount=award.cents,
                    round_id=row_ids[award.seat],
                    at=at,
                )
            kind = EventKind.PROGRESSIVE_JACKPOT if hand_paid else EventKind.PROGRESSIVE_AWARD
            self._event(
                kind, detail, award.seat, amount=award.cents, round_id=row_ids[award.seat], at=at
            )
            if hand_paid:
                jackpots[award.seat] = jackpots.get(award.seat, 0) + award.cents
                self.tilt(
                    award.seat,
                    f"Progressive jackpot {money(award.cents)}: an attendant pays it by hand",
                )
        return jackpots

    # -- a void --------------------------------------------------------------------------
    def refund(self, ledger: Ledger, row_ids: Mapping[int, int], at: str) -> None:
        """Inside the transaction voiding the round of ``row_ids``: each seat's
        progressive wager back on its credits."""
        for seat, cents in sorted(round_wagers(ledger, row_ids).items()):
            detail = {"reason": "void"}
            self._event(
                EventKind.PROGRESSIVE_REFUND,
                detail,
                seat,
                amount=cents,
                round_id=row_ids[seat],
                at=at,
            )


# -- put in force ----------------------------------------------------------------------
def check_in_force(ledger: Ledger, paytable: Paytable) -> None:
    """Refuse (:class:`ConfigurationError`) putting ``paytable`` in force when the meter
    already stands above its progressive's ceiling."""
    table = paytable.progressive
    now = levels(ledger)
    if table is not None and now.meter > table.ceiling:
        raise ConfigurationError(
            f"the progressive meter stands at {money(now.meter)}, above "
            f"{paytable.name}'s ceiling of {money(table.ceiling)}"
        )


def seed_meter(
    event: EventWriter, ledger: Ledger, paytable: Paytable, station: int, operator: str
) -> None:
    """Inside the transaction putting ``paytable`` in force from ``station``: a meter
    below its progressive's reset lifted to the reset, from the reserve first, the rest
    put in by the operator (``event`` writes one event as
    :meth:`kiosk.service.state.TableState.event`)."""
    table = paytable.progressive
    if table is None:
        return
    now = levels(ledger)
    short = table.reset - now.meter
    if short <= 0:
        return
    drawn = min(now.reserve, short)
    detail = {
        "reason": "in_force",
        "reset": table.reset,
        "paytable": paytable.sha256,
        "operator": operator,
        "from_operator": short - drawn,
    }
    event(EventKind.PROGRESSIVE_RESET, detail, station, amount=short)
    if drawn:
        detail = {"resets": 1, "from_operator": short - drawn}
        event(EventKind.PROGRESSIVE_RESERVE_DRAWN, detail, station, amount=drawn)
