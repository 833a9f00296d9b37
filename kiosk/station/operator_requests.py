"""The operator port's requests and their answers, shared by both adapters.

Both adapters speak to the same service, :class:`~kiosk.tablehost.operator_service.
OperatorService`, in the same messages (:mod:`kiosk.link.messages`): the remote one over
the station's TLS link, the in-process one by a call.  :class:`OperatorRequests` holds
everything but the transport, so the two behave the same: it makes each request's
message and turns the answer into the port's records
(:mod:`kiosk.station.operator_port`), once, where it enters.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TypeVar

from pydantic import JsonValue

from kiosk.game.commands import AdjustReason
from kiosk.link.messages import (
    Body,
    OperatorAction,
    OperatorAdjust,
    OperatorLift,
    OperatorLogin,
    OperatorLogout,
    OperatorQuery,
    OperatorReply,
    OperatorSession,
    ProgressiveFigures,
)
from kiosk.station.operator_port import (
    LIMIT_FIELDS,
    Capability,
    DeviceFault,
    Done,
    Lifetime,
    MeterReadings,
    PaytableChoice,
    PaytableName,
    Paytables,
    Person,
    ProgressiveMeters,
    RecalledRound,
    Refused,
    StationStatus,
    TableLimits,
    TableStatus,
    TiltLine,
)

T = TypeVar("T")

#: What the service answers a message with (None: no answer).
Answer = OperatorSession | OperatorReply | None
#: The pages the service answers at any station.
SERVICE_PAGES = frozenset(
    {
        Capability.TABLE_STATUS,
        Capability.METERS,
        Capability.RECALL,
        Capability.LIMITS,
        Capability.PAYTABLES,
        Capability.PROGRESSIVE,
    }
)


class OperatorRequests(ABC):
    """The operator port over the operator service's messages; subclasses carry them
    (:meth:`submit`) and say what the station last heard of the limits."""

    capabilities: frozenset[Capability] = SERVICE_PAGES

    @property
    @abstractmethod
    def station(self) -> int: ...

    @property
    @abstractmethod
    def busy(self) -> bool: ...

    @abstractmethod
    def submit(self, make: Callable[[int], Body], done: Callable[[Answer], None]) -> bool:
        """Send ``make(ref)``; ``done(answer)`` later (see the port)."""

    @abstractmethod
    def poll(self) -> None:
        """Hand the answers that arrived to their callbacks (the screen's thread)."""

    def offers(self, capability: Capability) -> bool:
        return capability in self.capabilities

    # -- the person ----------------------------------------------------------------------
    def login(self, pin: str, done: Done[Person]) -> bool:
        def answered(answer: Answer) -> None:
            if isinstance(answer, OperatorSession) and answer.accepted and answer.role:
                done(Person(answer.name, answer.role))
            elif isinstance(answer, OperatorSession):
                done(Refused(answer.code or "refused", answer.detail))
            else:
                done(None)

        return self.submit(lambda r: OperatorLogin(ref=r, pin=pin), answered)

    def logout(self) -> None:
        self.submit(lambda r: OperatorLogout(ref=r), lambda _a: None)

    def lift_lockout(self, pin: str, witness_pin: str, done: Done[str]) -> bool:
        return self.submit(
            lambda r: OperatorLift(ref=r, pin=pin, witness_pin=witness_pin),
            _reply(done, lambda data: _str(data.get("operator"))),
        )

    # -- reading -------------------------------------------------------------------------
    def table_status(self, done: Done[TableStatus]) -> bool:
        return self.submit(lambda r: OperatorQuery(ref=r, page="status"), _reply(done, status))

    def meters(self, station: int, done: Done[MeterReadings]) -> bool:
        return self.submit(
            lambda r: OperatorQuery(ref=r, page="meters", station=station),
            _reply(done, meter_readings),
        )

    def recall(self, station: int, done: Done[tuple[RecalledRound, ...]]) -> bool:
        return self.submit(
            lambda r: OperatorQuery(ref=r, page="recall", station=station),
            _reply(done, rounds),
        )

    def paytables(self, done: Done[Paytables]) -> bool:
        return self.submit(
            lambda r: OperatorQuery(ref=r, page="paytables"), _reply(done, paytables)
        )

    # -- acting --------------------------------------------------------------------------
    def clear_tilt(self, station: int, code: str, done: Done[TableStatus]) -> bool:
        return self.submit(
            lambda r: OperatorAction(ref=r, action="clear_tilt", station=station, code=code),
            _reply(done, status),
        )

    def handpay_paid(self, station: int, done: Done[TableStatus]) -> bool:
        return self.submit(
            lambda r: OperatorAction(ref=r, action="handpay_reset", station=station),
            _reply(done, status),
        )

    def set_limits(self, limits: TableLimits, done: Done[TableStatus]) -> bool:
        return self.submit(
            lambda r: OperatorAction(
                ref=r,
                action="set_limits",
                station=self.station,
                ante_min=limits.ante_min,
                ante_max=limits.ante_max,
                trips_min=limits.trips_min,
                trips_max=limits.trips_max,
            ),
            _reply(done, status),
        )

    def set_paytable(self, sha256: str, done: Done[TableStatus]) -> bool:
        return self.submit(
            lambda r: OperatorAction(
                ref=r, action="set_paytable", station=self.station, sha256=sha256
            ),
            _reply(done, status),
        )

    # -- the progressive -----------------------------------------------------------------
    def progressive(self, done: Done[ProgressiveMeters]) -> bool:
        return self.submit(
            lambda r: OperatorQuery(ref=r, page="progressive"), _progressive_reply(done)
        )

    def adjust_progressive(
        self, cents: int, witness_pin: str, reason: AdjustReason, done: Done[ProgressiveMeters]
    ) -> bool:
        return self.submit(
            lambda r: OperatorAdjust(
                ref=r, cents=cents, witness_pin=witness_pin, reason=AdjustReason(reason).value
            ),
            _progressive_reply(done),
        )


def _progressive_reply(done: Done[ProgressiveMeters]) -> Callable[[Answer], None]:
    """The progressive page's callback: its figures when ok, the refusal, or None."""

    def answered(answer: Answer) -> None:
        if not isinstance(answer, OperatorReply):
            done(None)
        elif not answer.ok:
            done(Refused(answer.code or "refused", answer.detail))
        elif answer.progressive is None:
            done(None)
        else:
            done(progressive_meters(answer.progressive))

    return answered


def progressive_meters(f: ProgressiveFigures) -> ProgressiveMeters:
    """The progressive's figures as the port's record."""
    return ProgressiveMeters(
        offered=f.offered,
        linked=f.linked,
        reset=f.reset,
        ceiling=f.ceiling,
        meter=f.meter,
        reserve=f.reserve,
        wagers=Lifetime(f.wagers, f.wagered),
        contributed=f.contributed,
        reserved=f.reserved,
        reserve_drawn=f.reserve_drawn,
        resets=Lifetime(f.resets, f.reset_cents),
        hits=Lifetime(f.hits, f.hit_cents),
        awards=Lifetime(f.awards, f.paid),
        jackpots=Lifetime(f.jackpots, f.jackpot_cents),
        adjustments=f.adjustments,
        adjusted_up=f.adjusted_up,
        adjusted_down=f.adjusted_down,
    )


def _reply(done: Done[T], read: Callable[[dict[str, JsonValue]], T]) -> Callable[[Answer], None]:
    """An :class:`OperatorReply`'s callback: ``read(data)`` when ok, the refusal, or None."""

    def answered(answer: Answer) -> None:
        if not isinstance(answer, OperatorReply):
            done(None)
        elif not answer.ok:
            done(Refused(answer.code or "refused", answer.detail))
        else:
            done(read(answer.data))

    return answered


# -- the service's data, as records (the edge: read once, here) ------------------------------
def _int(value: JsonValue) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _str(value: JsonValue) -> str:
    return value if isinstance(value, str) else ""


def _objects(value: JsonValue) -> list[dict[str, JsonValue]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _cards(value: JsonValue) -> tuple[int, ...]:
    return tuple(_int(c) for c in value) if isinstance(value, list) else ()


def _counts(value: JsonValue) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): _int(v) for k, v in value.items() if isinstance(v, (int, float))}


def limits_of(value: JsonValue) -> TableLimits | None:
    """The four limits of a JSON object (None when one is missing)."""
    if not isinstance(value, dict) or not all(f in value for f in LIMIT_FIELDS):
        return None
    return TableLimits.of({f: _int(value[f]) for f in LIMIT_FIELDS})


def status(data: dict[str, JsonValue]) -> TableStatus:
    """The status page's answer."""
    stations = tuple(
        StationStatus(
            station=_int(s.get("station")),
            credits=_int(s.get("credits")),
            tilts=tuple(
                TiltLine(_str(t.get("code")), _str(t.get("text"))) for t in _objects(s.get("tilts"))
            ),
            devices=tuple(
                DeviceFault(_str(d.get("device")), _str(d.get("kind")), _str(d.get("text")))
                for d in _objects(s.get("devices"))
            ),
            door_open=bool(s.get("door_open")),
            payout_pending=_int(s.get("payout_pending")),
            in_round=bool(s.get("in_round")),
            connected=bool(s.get("connected")),
        )
        for s in _objects(data.get("stations"))
    )
    paytable = data.get("paytable")
    named = (
        PaytableName(
            _str(paytable.get("name")), _str(paytable.get("version")), _str(paytable.get("sha256"))
        )
        if isinstance(paytable, dict)
        else None
    )
    return TableStatus(
        stations=stations,
        stopped=bool(data.get("stopped")),
        round_open=bool(data.get("round_open")),
        limits=limits_of(data.get("limits")),
        paytable=named,
    )


def meter_readings(data: dict[str, JsonValue]) -> MeterReadings:
    """The meters page's answer."""
    return MeterReadings(
        _int(data.get("station")), _counts(data.get("meters")), _counts(data.get("table"))
    )


def rounds(data: dict[str, JsonValue]) -> tuple[RecalledRound, ...]:
    """The recall page's answer, most recent first."""
    return tuple(
        RecalledRound(
            id=_int(r.get("id")),
            started_at=_str(r.get("started_at")),
            ante=_int(r.get("ante")),
            blind=_int(r.get("blind")),
            trips=_int(r.get("trips")),
            play=_int(r.get("play")),
            player_hole=_cards(r.get("player_hole")),
            dealer_hole=_cards(r.get("dealer_hole")),
            board=_cards(r.get("board")),
            paid=_int(r.get("paid")),
            jackpot=_int(r.get("jackpot")),
        )
        for r in _objects(data.get("rounds"))
    )


def paytables(data: dict[str, JsonValue]) -> Paytables:
    """The paytable page's answer."""
    found = []
    for t in _objects(data.get("paytables")):
        rtp = t.get("rtp")
        figures = (
            {str(k): float(v) for k, v in rtp.items() if isinstance(v, (int, float))}
            if isinstance(rtp, dict)
            else {}
        )
        found.append(
            PaytableChoice(
                file=_str(t.get("file")),
                name=_str(t.get("name")),
                version=_str(t.get("version")),
                sha256=_str(t.get("sha256")),
                rtp=figures,
                proven=bool(t.get("proven")),
                in_force=bool(t.get("in_force")),
                ante_min=_int(t["ante_min"]) if "ante_min" in t else None,
                ante_max=_int(t["ante_max"]) if "ante_max" in t else None,
                error=_str(t.get("error")),
            )
        )
    return Paytables(tuple(found), _str(data.get("in_force")))
