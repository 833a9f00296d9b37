"""The one port between the casino's slot system link and the game service.

The SAS link (:mod:`kiosk.sas`) knows nothing of rounds, tilts or devices: it reads and
asks through :class:`GamePort`, which the game service implements
(:class:`~kiosk.service.table.Table`: :mod:`kiosk.sas.game_port`).

Units and invariants
--------------------
* Money is integer cents; SAS credits are cents too (accounting denomination 1 cent).
* ``meters(station)`` are the ledger's own meters of that station by the names of
  :mod:`kiosk.ledger.meters` (lifetime meters never decrease) plus ``credits`` (the
  credit meter, the one that goes down).  The link never computes money of its own: every
  meter it reports is one of these, or a sum of them.
* Events and rounds are the ledger's rows, read-only, in id order; ids never repeat.
  The link derives its exceptions from them and remembers how far it has read, so a
  restart neither loses nor repeats one.
* Stations are numbered 1..7; a lone cabinet is station 1.

Threading
---------
The poll thread never calls the port: it answers from a mirror the link keeps.  The
link's updater thread calls the port's methods, which may take the game's lock for as
long as a ledger commit takes.  The callback given to :meth:`GamePort.subscribe` is
called after every change, possibly under the game's lock, from any thread: it only
wakes the updater.

TITO with system validation (what the game service does, in order)
-------------------------------------------------------------------
*Cash-out to a ticket* (long polls 57 / 58, exception 57 then 3D):

1. The player cashes out; the game service records the cash-out (credits off the meter)
   and, when the link offers system validation (:attr:`Capabilities.system_validation`
   is the game's to declare), holds the ticket: :meth:`GamePort.pending_cashout` returns
   it until a validation number is delivered.
2. The link raises exception 57; the host reads 57 and answers 58 with a system ID and a
   16-digit number; the link calls :meth:`GamePort.deliver_validation` once with the
   18 digits (system ID first), or with None when the host denied it (system ID 00) or
   did not answer within :data:`VALIDATION_TIMEOUT_S`.
3. The game service records the ticket ``pending`` with that number (never a number of
   its own for this cash-out), prints it, and records it issued when the printer reports
   it done (the ticket out, exception 3D); a denied, timed-out or unprintable cash-out
   goes back to the credit meter or to a handpay, as the cabinet's own rules say.  A
   validation delivered after the ticket was printed, or for a cash-out no longer
   pending, changes nothing (the call is refused with :class:`PortRefused`).  If the
   link is gone, the game service stops waiting after its own deadline (no longer than
   a minute) and pays by handpay: the player's money is never held by the link.

*Ticket in from another machine* (exception 67, long polls 70 / 71, exception 68):

1. A ticket the game service cannot redeem by itself waits in the validator's escrow:
   :meth:`GamePort.ticket_in_escrow` returns it (its escrow id and 18-digit number).
2. The link raises 67; the host reads 70 and answers 71 (valid, with the amount, or a
   refusal).  The link calls :meth:`GamePort.redeem_ticket` (or
   :meth:`GamePort.refuse_ticket`) once for the escrow id.
3. ``redeem_ticket`` records "redeeming ticket N for A cents, escrow E" in the ledger
   *before* the validator is told to stack; the game credits it once, from that record,
   when the validator reports it stacked (keyed by the escrow id, so a repeated report
   or call credits nothing more); a ticket returned instead is recorded returned.  After
   a power cut the validator's report at power-up settles it the same way.
4. :meth:`GamePort.redemption` tells the link how it ended; the link raises 68 and
   answers the host's status 71 from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

#: Seconds the link waits for the host's validation number before it delivers a denial.
VALIDATION_TIMEOUT_S = 10.0


class PortRefused(Exception):
    """The game service refused a request of the link (``reason`` says why); nothing
    changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class MachineInfo:
    """Who the machine is, for long polls 1F and 54.  ``paytable_id`` at most 6 ASCII
    characters, ``base_pct`` the theoretical return in hundredths of a percent (9947 for
    99.47 %, 0 when not known), ``max_bet`` cents, ``serial`` at most 40 ASCII
    characters, ``asset_number`` a 32-bit number, ``expiry_days`` how long a ticket
    printed here is valid (0: no expiry)."""

    game_id: str = "UT"
    additional_id: str = "000"
    paytable_id: str = ""
    base_pct: int = 0
    max_bet: int = 0
    serial: str = ""
    asset_number: int = 0
    expiry_days: int = 0


@dataclass(frozen=True)
class Capabilities:
    """What the game service can do for the link.  A feature it cannot do is reported
    off in long poll A0 and its long polls are answered as SAS says for "not now"."""

    system_validation: bool = False
    ticket_redemption: bool = False
    note_acceptor_control: bool = False


@dataclass(frozen=True)
class GameEvent:
    """One ledger event as the link reads it: ``amount`` cents, ``detail`` the event's
    own detail."""

    id: int
    kind: str
    station: int
    amount: int
    at: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    txn: str | None = None


@dataclass(frozen=True)
class RoundRow:
    """One seat's row of a round: ``state`` open, settled or voided; ``staked`` and
    ``paid`` cents (``paid`` what settlement put on the credit meter, ``jackpot`` what an
    attendant pays instead); ``started_at`` and ``ended_at`` UTC stamps as the ledger's
    (``ended_at`` empty while open), which order its exceptions among the events'."""

    id: int
    station: int
    state: str
    staked: int
    paid: int = 0
    jackpot: int = 0
    started_at: str = ""
    ended_at: str = ""


@dataclass(frozen=True)
class PendingCashout:
    """A cash-out waiting for the host's validation number (long poll 57)."""

    cashout_id: str
    amount: int
    restricted: bool = False


@dataclass(frozen=True)
class ValidationRecord:
    """A ticket printed at the station (long poll 4D): its 18-digit number (system ID
    first), amount cents, sequence number, the UTC stamp it was printed at, expiry date
    (``YYYY-MM-DD``) or None.  ``validation_type`` (SAS 6.02 table 15.13c): 00 a cashable
    ticket printed, 40 a cash-out paid by hand with no receipt: the ticket's number was
    voided, printed or not, and the host must never honour it."""

    event_id: int
    validation: str
    amount: int
    sequence: int
    at: str
    expires_on: str | None = None
    validation_type: int = 0x00


@dataclass(frozen=True)
class TicketInEscrow:
    """A ticket in a validator's escrow, waiting for the host (long poll 70)."""

    escrow_id: str
    validation: str


@dataclass(frozen=True)
class LinkedProgressive:
    """The machine's progressive linked through the casino's progressive controller: its
    SAS group (1..255) and the level (1..32) whose broadcast amount is its meter."""

    group: int
    level: int


@dataclass(frozen=True)
class LinkedWin:
    """A win on the linked progressive's level at a station (SAS long polls 84 and 1B):
    the level's group and number, the cents won, whether it is hand-paid and its handpay
    still waits for the attendant, and its ledger event's id (which win it is)."""

    group: int
    level: int
    cents: int
    hand_paid: bool
    event_id: int
    handpay_pending: bool = False


class RedemptionState(StrEnum):
    """Where a redemption is: authorised and being stacked, credited, or returned."""

    STACKING = "stacking"
    CREDITED = "credited"
    RETURNED = "returned"


@dataclass(frozen=True)
class Redemption:
    """How the redemption of escrow ``escrow_id`` stands (``amount`` cents credited or
    to credit)."""

    escrow_id: str
    validation: str
    amount: int
    state: RedemptionState
    reason: str = ""


class GamePort(Protocol):
    """What the SAS link needs from the game service (see the module's text)."""

    def stations(self) -> tuple[int, ...]:
        """The station numbers this port serves (a lone cabinet: ``(1,)``)."""
        ...

    def machine_info(self) -> MachineInfo: ...

    def capabilities(self) -> Capabilities: ...

    def meters(self, station: int) -> Mapping[str, int]:
        """The station's ledger meters (cents or counts) and ``credits``."""
        ...

    def events_after(self, event_id: int, limit: int) -> Sequence[GameEvent]:
        """Ledger events with id above ``event_id``, oldest first, at most ``limit`` (the
        latest ``limit`` when more came: the caller sees the gap in the ids)."""
        ...

    def rounds_after(self, round_id: int, limit: int) -> Sequence[RoundRow]:
        """Round rows with id above ``round_id`` as they stand now, oldest first."""
        ...

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after every change; returns an unsubscribe function."""
        ...

    def set_enabled(self, station: int, enabled: bool, by: str) -> None:
        """Long polls 01 / 02: stop play at ``station`` after the round in progress (cash
        out still allowed), or let it resume; recorded with ``by`` (the link's name).
        Raises :class:`PortRefused` when it cannot be done now."""
        ...

    def set_note_acceptance(self, station: int, enabled: bool, by: str) -> None:
        """Long polls 06 / 07: the station's bill validator takes notes or not
        (recorded).  Raises :class:`PortRefused` when the game cannot."""
        ...

    # -- TITO with system validation ------------------------------------------------
    def pending_cashout(self, station: int) -> PendingCashout | None: ...

    def deliver_validation(self, station: int, cashout_id: str, validation: str | None) -> None:
        """The host's 18-digit validation number for ``cashout_id`` (None: denied).
        Raises :class:`PortRefused` when that cash-out no longer waits for one."""
        ...

    def validation_records(self, station: int, limit: int) -> Sequence[ValidationRecord]:
        """The latest ``limit`` tickets printed at ``station``, oldest first."""
        ...

    def ticket_in_escrow(self, station: int) -> TicketInEscrow | None: ...

    def redeem_ticket(self, station: int, escrow_id: str, amount: int, restricted: bool) -> None:
        """The host says the ticket in escrow ``escrow_id`` is worth ``amount`` cents:
        record it, stack it, credit it once.  Idempotent by ``escrow_id``.  Raises
        :class:`PortRefused` (nothing recorded) when it cannot be taken (credit limit,
        the escrow is gone)."""
        ...

    def refuse_ticket(self, station: int, escrow_id: str, code: int) -> None:
        """The host refused the ticket (its SAS transfer code): return it, recorded."""
        ...

    def redemption(self, station: int, escrow_id: str) -> Redemption | None: ...

    # -- the linked progressive (SAS 6.02 long polls 80 / 86, exception 53) ----------------
    def progressive_link(self) -> LinkedProgressive | None:
        """The group and level the machine's progressive is linked to (None:
        standalone, or no progressive: the broadcasts are not listened to)."""
        ...

    def progressive_levels(self, group: int, levels: Sequence[tuple[int, int]], by: str) -> None:
        """The controller's broadcast of ``group``: ``levels`` ((level, cents), ...).
        The game shows the linked level's amount (or refuses it, logged) and lets play
        resume if the broadcasts had stopped."""
        ...

    def progressive_win(self, station: int) -> LinkedWin | None:
        """``station``'s last win on the linked progressive's level (None: none)."""
        ...

    def progressive_lost(self, group: int, by: str) -> None:
        """No broadcast of ``group`` for :data:`devices.sas.progressive.BROADCAST_TIMEOUT_S`
        seconds: play suspended at every station (recorded) until the next."""
        ...
