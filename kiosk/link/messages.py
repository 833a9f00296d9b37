"""The messages of the table link: one envelope, a discriminated union of bodies.

On the wire a message is one JSON text frame::

    {"v": 1, "type": "decide", "seq": 12, "ack": 40, "body": {...}}

* ``v``: the protocol version (:data:`PROTOCOL_VERSION`); any other is refused.
* ``type``: names the body; it selects the body model (the discriminator).
* ``seq``: the sender's sequence number on this link, 1, 2, 3... for application
  messages, which are acknowledged, resent after a reconnect and delivered once, in order.
  Control messages (challenge, hello, pairing, welcome, heartbeat, error) carry ``seq`` 0:
  they belong to one connection and are never resent.
* ``ack``: the last ``seq`` the sender has delivered from its peer (0 for none).

Every model is strict (no coercion: an amount is a JSON integer, never ``"5"`` or
``5.0``) and forbids unknown fields.  Amounts are integer cents.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from devices.host import DeviceEventKind, PrintOutcome
from engine.uth.round import MAX_SEATS, Action, Phase
from kiosk.link.outcomes import ACCEPTED, EscrowEnd, MoneyOutcome

#: 2: a station's money reports are typed bodies (no ``device_event``), an escrow's
#: answer carries its amount and outcome as fields.
PROTOCOL_VERSION = 2

Seat = Annotated[int, Field(ge=1, le=MAX_SEATS)]
#: A station's name, fixed at pairing: lower-case letters, digits and dashes.
StationId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")]
Cents = Annotated[int, Field(ge=0)]
PositiveCents = Annotated[int, Field(gt=0)]
RoundId = Annotated[int, Field(ge=1)]
HostSeq = Annotated[int, Field(ge=0)]
Hex32 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
Hex16 = Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]
Text = Annotated[str, Field(max_length=512)]
Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_.-]{0,47}$")]


class _Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# --- control: one connection's handshake and upkeep -------------------------------------


class Challenge(_Model):
    """Host -> station, first frame of every connection: 32 random bytes (hex)."""

    type: Literal["challenge"] = "challenge"
    nonce: Hex32


class Hello(_Model):
    """Station -> host: who it is and the proof of its key.

    ``mac`` = HMAC-SHA256(station key, nonce || station id || protocol version), see
    :func:`kiosk.link.auth.hello_mac`.  ``session`` names this run of the station's link
    (resumed when the host still holds it); ``last_seen`` is the last host ``seq`` the
    station delivered."""

    type: Literal["hello"] = "hello"
    station_id: StationId
    seat: Seat
    session: Hex16
    last_seen: HostSeq
    mac: Hex32


class PairRequest(_Model):
    """Station -> host, during a pairing window: the proof that the technician typed the
    code shown on the host, bound to the certificate the station sees."""

    type: Literal["pair_request"] = "pair_request"
    station_id: StationId
    seat: Seat
    client_nonce: Hex32
    proof: Hex32


class PairGranted(_Model):
    """Host -> station: the station's key (32 bytes, hex), the host certificate's SHA-256
    fingerprint, and the host's proof that it knows the code."""

    type: Literal["pair_granted"] = "pair_granted"
    station_id: StationId
    seat: Seat
    key: Hex32
    fingerprint: Hex32
    proof: Hex32


class Welcome(_Model):
    """Host -> station: authenticated.  ``epoch`` names this run of the host;
    ``resumed`` says the host still holds the station's session (unacknowledged messages
    are resent after ``last_seen``, the last station ``seq`` the host delivered)."""

    type: Literal["welcome"] = "welcome"
    station_id: StationId
    seat: Seat
    epoch: Hex16
    resumed: bool
    last_seen: HostSeq


class Heartbeat(_Model):
    """Either way: nothing but the envelope's ``ack``."""

    type: Literal["heartbeat"] = "heartbeat"


class ErrorMessage(_Model):
    """Either way: a refusal, by its stable ``code`` (e.g. ``auth.bad-key``, ``rate``)."""

    type: Literal["error"] = "error"
    code: Name
    detail: Text = ""


# --- application: station -> host ------------------------------------------------------


class ResyncRequest(_Model):
    """Station -> host: send me the whole table state (after a reset or on doubt)."""

    type: Literal["resync_request"] = "resync_request"
    reason: Text = ""


class Bet(_Model):
    """Station -> host: the seat's wager for betting window ``round_id`` (the Blind
    equals the Ante; ``progressive_cents``: the progressive's fixed wager, 0 for none,
    checked again by the host against the paytable in force)."""

    type: Literal["bet"] = "bet"
    round_id: RoundId
    ante_cents: PositiveCents
    trips_cents: Cents = 0
    progressive_cents: Cents = 0


class Decide(_Model):
    """Station -> host: the seat's decision in ``phase`` of ``round_id``, made after
    seeing host message ``last_seen`` (see :mod:`kiosk.link.decisions`)."""

    type: Literal["decide"] = "decide"
    round_id: RoundId
    phase: Phase
    action: Action
    last_seen: HostSeq


class PassRound(_Model):
    """Station -> host: the seat sits out betting window ``round_id``."""

    type: Literal["pass"] = "pass"
    round_id: RoundId


class CashOutRequest(_Model):
    """Station -> host: pay out the station's credits."""

    type: Literal["cash_out_request"] = "cash_out_request"


class HandpayReset(_Model):
    """Station -> host: the attendant paid the station's pending handpay by hand."""

    type: Literal["handpay_reset"] = "handpay_reset"


class ClearTilt(_Model):
    """Station -> host: the attendant at the station cleared tilt ``code`` (e.g. a
    jackpot paid by hand)."""

    type: Literal["clear_tilt"] = "clear_tilt"
    code: Name


class Escrow(_Model):
    """Station -> host: the validator holds a note (``denomination_cents``) or a ticket
    (``ticket``, its validation number) in escrow as transaction ``txn``; the host records
    it before the station stacks.  A note's ``amount_cents`` equals its denomination; a
    ticket's is not sent (a validator reads only the number: its amount is the host's
    ledger's)."""

    type: Literal["escrow"] = "escrow"
    txn: Name
    denomination_cents: PositiveCents | None = None
    ticket: Annotated[str, Field(pattern=r"^[0-9]{6,32}$")] | None = None
    amount_cents: PositiveCents | None = None

    @model_validator(mode="after")
    def _one_instrument(self) -> Escrow:
        if (self.denomination_cents is None) == (self.ticket is None):
            raise ValueError("an escrow holds either a note or a ticket")
        if self.denomination_cents is not None and self.denomination_cents != self.amount_cents:
            raise ValueError("a note's amount is its denomination")
        if self.ticket is not None and self.amount_cents is not None:
            raise ValueError("a ticket's amount is the host's to read")
        return self


class ValidatorReport(_Model):
    """Station -> host, phase two: the validator ended escrow ``txn`` as ``end``;
    ``reason``: the driver's word (the host keeps its first 64 characters: a long one is
    cut, never refused, so that a VEND VALID is never lost to its words); ``cents``: the
    amount the driver reported with a ticket's VEND VALID (None: not reported).
    Answered by an :class:`EscrowAck` with its ``outcome``."""

    type: Literal["validator_report"] = "validator_report"
    txn: Name
    end: EscrowEnd
    reason: str = ""
    cents: Cents | None = None


class PrinterState(_Model):
    """Station -> host: the station's ticket printer can print now (``ready``) or not."""

    type: Literal["printer_state"] = "printer_state"
    ready: bool


class PrinterReport(_Model):
    """Station -> host: how the printer ended the ticket of cash-out ``txn``
    (``validation``: the number it reported done; ``reason``: the driver's detail).
    Answered by an :class:`EscrowAck` with its ``outcome``."""

    type: Literal["printer_report"] = "printer_report"
    txn: Name
    outcome: PrintOutcome
    validation: Annotated[str, Field(max_length=64)] = ""
    reason: Annotated[str, Field(max_length=128)] = ""


class TestCreditsReport(_Model):
    """Station -> host: a burn-in's test credits of ``cents`` keyed in as ``txn`` (once
    by their transaction).  Answered by an :class:`EscrowAck` with its ``outcome``."""

    __test__ = False  # not a test case
    type: Literal["test_credits"] = "test_credits"
    txn: Name
    cents: PositiveCents


class DeviceFault(_Model):
    """Station -> host: ``device``'s fault or warning ``kind`` began (``active``) or
    ended; ``detail``: the driver's words.  The host tilts, clears or settles that
    station's escrow (a validator's own reports after a restart)."""

    type: Literal["device_fault"] = "device_fault"
    device: Literal["validator", "printer"]
    kind: DeviceEventKind
    detail: Annotated[str, Field(max_length=256)] = ""
    active: bool


class DoorSwitch(_Model):
    """Station -> host: the station's main door switch, ``open`` or shut; sent at every
    change and again after every (re)connect (the host records only a change)."""

    type: Literal["door"] = "door"
    open: bool


# --- application: host -> station ------------------------------------------------------


class Snapshot(_Model):
    """Host -> station: the whole table state as the station may see it (JSON object)."""

    type: Literal["snapshot"] = "snapshot"
    state: dict[str, JsonValue]


class EscrowAck(_Model):
    """Host -> station, the answer about transaction ``txn``.

    Phase one (``outcome`` None), to an :class:`Escrow`: recorded (``accepted``: stack
    it; a ticket's ``amount_cents``, the host's ledger's) or refused (return it).  Phase
    two, to a :class:`ValidatorReport`, :class:`PrinterReport` or
    :class:`TestCreditsReport`: how the service left it (``outcome``; ``accepted`` when
    it is ``credited`` or ``issued``; ``refused`` when the service refused the report).
    ``reason``: why, in words for people, never parsed; ``code``: the refusal's
    :class:`~kiosk.game.error_codes.ErrorCode`, when the service refused it."""

    type: Literal["escrow_ack"] = "escrow_ack"
    txn: Name
    accepted: bool
    reason: Text = ""
    code: Name | None = None
    amount_cents: PositiveCents | None = None
    outcome: MoneyOutcome | None = None

    @model_validator(mode="after")
    def _phase_fits(self) -> EscrowAck:
        if self.amount_cents is not None and (not self.accepted or self.outcome is not None):
            raise ValueError("only an accepted escrow (phase one) says a ticket's amount")
        if self.outcome is not None and self.accepted != (self.outcome in ACCEPTED):
            raise ValueError(f"a report answered {self.outcome} is not accepted so")
        return self


class PrintTicket(_Model):
    """Host -> station: print the cash-out ticket of payout ``txn``, whose row the host
    has written *pending* (the ticket's text as the host's ledger and configuration
    give it); the station reports how it ended with a :class:`PrinterReport`.  ``resume``: sent again after a restart of the host or the
    station, so it may already have been printed."""

    type: Literal["print_ticket"] = "print_ticket"
    txn: Name
    validation: Annotated[str, Field(pattern=r"^[0-9]{18}$")]
    amount_cents: PositiveCents
    sequence: Annotated[int, Field(ge=0, le=99_999_999)]
    issued_at: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")]
    expires_on: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None
    casino_name: Annotated[str, Field(min_length=1, max_length=64)]
    address: Annotated[str, Field(max_length=128)] = ""
    machine_number: Annotated[str, Field(min_length=1, max_length=16)]
    resume: bool = False


# --- application: the operator menu at a station --------------------------------------

#: A station's number for one operator request, echoed by the host's answer.
OperatorRef = Annotated[int, Field(ge=1, le=2**31 - 1)]
#: A tilt's code (a device's carries colons: ``device:validator:jam``).
TiltCode = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_.:-]{0,79}$")]
Role = Literal["attendant", "technician", "manager"]


class OperatorLogin(_Model):
    """Station -> host: a person typed ``pin`` (up to 12 digits) on the station's operator
    keypad.  It travels only over the station's TLS link and is never logged nor shown in
    a repr.  Answered by an :class:`OperatorSession` with the same ``ref``."""

    type: Literal["operator_login"] = "operator_login"
    ref: OperatorRef
    pin: Annotated[str, Field(pattern=r"^[0-9]{0,12}$", repr=False)]


class OperatorSession(_Model):
    """Host -> station: the answer to login ``ref``: the person's ``name`` and ``role``
    (``accepted``), or the refusal's ``code`` (e.g. ``wrong_pin``, ``pin_locked``) and
    ``detail``."""

    type: Literal["operator_session"] = "operator_session"
    ref: OperatorRef
    accepted: bool
    name: Annotated[str, Field(max_length=64)] = ""
    role: Role | None = None
    code: Name | None = None
    detail: Text = ""

    @model_validator(mode="after")
    def _role_when_accepted(self) -> OperatorSession:
        if self.accepted != (self.role is not None):
            raise ValueError("an accepted login names a role, a refused one none")
        return self


class OperatorLogout(_Model):
    """Station -> host: the operator at the station leaves (answered by an
    :class:`OperatorReply`)."""

    type: Literal["operator_logout"] = "operator_logout"
    ref: OperatorRef


class OperatorLift(_Model):
    """Station -> host: with the station's main door open, a manager or technician
    (``pin``) and a second person (``witness_pin``) lift every PIN lock of the table.
    The PINs travel as :class:`OperatorLogin`'s do.  Answered by an
    :class:`OperatorReply` (``data["operator"]``: the first person's name)."""

    type: Literal["operator_lift"] = "operator_lift"
    ref: OperatorRef
    pin: Annotated[str, Field(pattern=r"^[0-9]{0,12}$", repr=False)]
    witness_pin: Annotated[str, Field(pattern=r"^[0-9]{0,12}$", repr=False)]


class OperatorQuery(_Model):
    """Station -> host: an operator page's data: ``status`` (every station), ``meters``
    (station ``station``'s and the table's), ``recall`` (station ``station``'s last 10
    rounds), ``paytables`` (the paytables the table may switch to, with their RTP) or
    ``progressive`` (the table's progressive: :class:`ProgressiveFigures`).  Answered by
    an :class:`OperatorReply`."""

    type: Literal["operator_query"] = "operator_query"
    ref: OperatorRef
    page: Literal["status", "meters", "recall", "paytables", "progressive"]
    station: Seat | None = None


class OperatorAdjust(_Model):
    """Station -> host: the manager logged in at the station, its main door open, sets
    the table's standalone progressive meter to ``cents``, countersigned by a second
    person's PIN ``witness_pin`` (travelling as :class:`OperatorLogin`'s does), for
    ``reason``.  Answered by an :class:`OperatorReply` with the progressive after it."""

    type: Literal["operator_adjust"] = "operator_adjust"
    ref: OperatorRef
    cents: Cents
    witness_pin: Annotated[str, Field(pattern=r"^[0-9]{0,12}$", repr=False)]
    reason: Literal["correction", "transfer", "promotion"] = "correction"


class ProgressiveFigures(_Model):
    """The table's progressive as the operator's page shows it: whether the paytable in
    force offers one (its ``reset`` and ``ceiling``, cents) and whether it is ``linked``
    (the casino's controller keeps the meter); the ``meter`` and the hidden ``reserve``
    (cents; the meter None while a linked level is not heard yet); and the lifetime
    meters, each a count and its cents: wagers, contributions to the meter and to the
    reserve, resets, awards on the meter (``hits``), awards won, the hand-paid jackpots
    among them, and managers' adjustments (up, down)."""

    offered: bool
    linked: bool = False
    reset: Cents = 0
    ceiling: Cents = 0
    meter: Cents | None = None
    reserve: Cents = 0
    wagers: Cents = 0
    wagered: Cents = 0
    contributed: Cents = 0
    reserved: Cents = 0
    reserve_drawn: Cents = 0
    resets: Cents = 0
    reset_cents: Cents = 0
    hits: Cents = 0
    hit_cents: Cents = 0
    awards: Cents = 0
    paid: Cents = 0
    jackpots: Cents = 0
    jackpot_cents: Cents = 0
    adjustments: Cents = 0
    adjusted_up: Cents = 0
    adjusted_down: Cents = 0


class OperatorAction(_Model):
    """Station -> host: an operator's action at station ``station``: ``clear_tilt``
    (``code``), ``handpay_reset``, ``set_limits`` (cents; None keeps the value) or
    ``set_paytable`` (the paytable of SHA-256 ``sha256`` the host offered).  Answered by
    an :class:`OperatorReply`."""

    type: Literal["operator_action"] = "operator_action"
    ref: OperatorRef
    action: Literal["clear_tilt", "handpay_reset", "set_limits", "set_paytable"]
    station: Seat
    code: TiltCode | None = None
    sha256: Hex32 | None = None
    ante_min: PositiveCents | None = None
    ante_max: PositiveCents | None = None
    trips_min: PositiveCents | None = None
    trips_max: PositiveCents | None = None

    @model_validator(mode="after")
    def _code_for_tilts(self) -> OperatorAction:
        if (self.action == "clear_tilt") != (self.code is not None):
            raise ValueError("clearing a tilt names its code, nothing else does")
        if (self.action == "set_paytable") != (self.sha256 is not None):
            raise ValueError("a paytable change names its SHA-256, nothing else does")
        return self


class OperatorReply(_Model):
    """Host -> station: the answer to operator request ``ref``: ``data`` (a JSON object),
    or for the progressive's page ``progressive``, when ``ok``, else the refusal's
    ``code`` and ``detail``."""

    type: Literal["operator_reply"] = "operator_reply"
    ref: OperatorRef
    ok: bool
    code: Name | None = None
    detail: Text = ""
    data: dict[str, JsonValue] = Field(default_factory=dict)
    progressive: ProgressiveFigures | None = None


# --- application: a station's own game recall -----------------------------------------

#: The rounds of a station's game recall (the standards' last 10).
RECALL_ROUNDS = 10


class RecallRequest(_Model):
    """Station -> host: the station's own last ``last`` settled rounds (the player's
    History; no PIN).  It names no seat: the host answers for the link's.  Answered by a
    :class:`RecallReply` with the same ``ref``."""

    type: Literal["recall_request"] = "recall_request"
    ref: OperatorRef
    last: Annotated[int, Field(ge=1, le=RECALL_ROUNDS)] = RECALL_ROUNDS


class RecallReply(_Model):
    """Host -> station: the answer to recall ``ref``: the seat's rounds, most recent
    first (JSON objects, see :mod:`kiosk.tablehost.recall_service`) when ``ok``, else the
    refusal's ``code`` and ``detail``."""

    type: Literal["recall_reply"] = "recall_reply"
    ref: OperatorRef
    ok: bool
    code: Name | None = None
    detail: Text = ""
    rounds: list[dict[str, JsonValue]] = Field(default_factory=list, max_length=RECALL_ROUNDS)


# --- application: either way -----------------------------------------------------------

#: The longest text a :class:`FriendsFrame` carries, in bytes of its JSON string (quotes
#: and escapes included), so that its envelope fits in one link frame (64 KiB).
FRIENDS_TEXT_BYTES = 60 * 1024


class FriendsFrame(_Model):
    """Either way: one message of a friends game's seat protocol (a JSON text, see
    :mod:`kiosk.friends.messages` for what a seat sends and :mod:`kiosk.friends.views` for
    what the host answers), carried between a paired cabinet and the game's host."""

    type: Literal["friends_frame"] = "friends_frame"
    text: str

    @model_validator(mode="after")
    def _fits_a_frame(self) -> FriendsFrame:
        if len(json.dumps(self.text, ensure_ascii=False).encode("utf-8")) > FRIENDS_TEXT_BYTES:
            raise ValueError(f"a friends frame carries at most {FRIENDS_TEXT_BYTES} bytes")
        return self


Body = Annotated[
    Challenge
    | Hello
    | PairRequest
    | PairGranted
    | Welcome
    | Heartbeat
    | ErrorMessage
    | ResyncRequest
    | Bet
    | Decide
    | PassRound
    | CashOutRequest
    | HandpayReset
    | ClearTilt
    | Escrow
    | ValidatorReport
    | PrinterState
    | PrinterReport
    | TestCreditsReport
    | DeviceFault
    | DoorSwitch
    | Snapshot
    | EscrowAck
    | PrintTicket
    | OperatorLogin
    | OperatorSession
    | OperatorLogout
    | OperatorQuery
    | OperatorAction
    | OperatorReply
    | OperatorLift
    | OperatorAdjust
    | RecallRequest
    | RecallReply
    | FriendsFrame,
    Field(discriminator="type"),
]

#: Bodies that belong to one connection (``seq`` 0, never resent, never delivered).
CONTROL_TYPES = frozenset(
    {"challenge", "hello", "pair_request", "pair_granted", "welcome", "heartbeat", "error"}
)
#: Application bodies a station may send.
STATION_TYPES = frozenset(
    {
        "resync_request",
        "bet",
        "decide",
        "pass",
        "cash_out_request",
        "handpay_reset",
        "clear_tilt",
        "escrow",
        "validator_report",
        "printer_state",
        "printer_report",
        "test_credits",
        "device_fault",
        "door",
        "friends_frame",
        "operator_login",
        "operator_logout",
        "operator_query",
        "operator_action",
        "operator_lift",
        "operator_adjust",
        "recall_request",
    }
)
#: Application bodies the host may send.
HOST_TYPES = frozenset(
    {
        "snapshot",
        "escrow_ack",
        "print_ticket",
        "error",
        "friends_frame",
        "operator_session",
        "operator_reply",
        "recall_reply",
    }
)
ALL_TYPES = CONTROL_TYPES | STATION_TYPES | HOST_TYPES


class Envelope(_Model):
    """One frame: version, body type, sequence, acknowledgement and body (see module)."""

    v: int
    seq: Annotated[int, Field(ge=0)]
    ack: Annotated[int, Field(ge=0)]
    body: Body

    @property
    def type(self) -> str:
        return self.body.type

    @model_validator(mode="before")
    @classmethod
    def _type_into_body(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("body"), dict):
            return data
        if "type" in data["body"]:
            raise ValueError("the body type is given once, beside the body")
        out = {k: v for k, v in data.items() if k != "type"}
        if "type" in data:
            out["body"] = {**data["body"], "type": data["type"]}
        return out

    @model_serializer(mode="wrap")
    def _type_beside_body(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        body = dict(data["body"])
        type_name = body.pop("type")
        return {
            "v": data["v"],
            "type": type_name,
            "seq": data["seq"],
            "ack": data["ack"],
            "body": body,
        }
