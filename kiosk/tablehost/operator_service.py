"""The table's operator menu over the link: a station's operator messages answered by
the game service's one operator implementation (:mod:`kiosk.service.operators`: login by
PIN, the PIN pad's lock, sessions, tilts, handpays, paytable and limits changes).

The host answers each station's operator messages (:mod:`kiosk.link.messages`):

* :class:`OperatorLogin` -> an :class:`OperatorSession`: the person whose PIN it is
  logged in at that station (wrong PINs counted for the whole table; the lock tilts the
  station the PIN was typed at);
* :class:`OperatorQuery` -> an :class:`OperatorReply` with the page's data: ``status``
  (every station's credits, tilts with their text, door, devices' faults, payout
  pending, in the round, connected; the limits and the paytable in force), ``meters`` (a
  station's and the table's, cents or counts), ``recall`` (a station's last 10 finished
  rounds, its seat and the dealer: a round still open is shown to nobody, its cards
  neither) or ``paytables`` (the paytables folder's, each with its RTP per bet);
* :class:`OperatorAdjust` -> an :class:`OperatorReply` with the progressive's figures
  after it: the manager logged in at that station, its door open, sets the table's
  standalone progressive meter with a second person's PIN
  (:mod:`kiosk.service.progressive_adjust`); the ``progressive`` query answers the same
  figures (:mod:`kiosk.tablehost.progressive_page`);
* :class:`OperatorLift` -> an :class:`OperatorReply`: the door of that station open, a
  manager's or technician's PIN and a second person's lift every PIN lock of the table
  (:mod:`kiosk.service.locks`);
* :class:`OperatorAction` -> an :class:`OperatorReply`: ``clear_tilt`` and
  ``handpay_reset`` at a station (attendant or above; a host tilt is not cleared here),
  ``set_limits`` and ``set_paytable`` (technician or above) for the table, made from the
  station they are sent from (its door open, no round open, every station at zero
  credits, no payout pending; a paytable only with its RTP proven on this table).

Every action is recorded as an ``operator_action`` event about the station it concerns,
with the person and the station it was typed at, beside the service's own record of the
change.  The PIN itself is never recorded nor logged.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, cast

from pydantic import JsonValue

from kiosk.config import Role, role_at_least
from kiosk.game import commands as cmd
from kiosk.game.commands import AdjustReason
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, NotAuthorised, WrongState
from kiosk.game.paytables.editor import Listing, list_paytables
from kiosk.game.rules.lockout import PinLockout
from kiosk.game.vocabulary import DEVICE_TILT_PREFIX, LEDGER_TILT
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import RoundRecord
from kiosk.link.messages import (
    OperatorAction,
    OperatorAdjust,
    OperatorLift,
    OperatorLogin,
    OperatorLogout,
    OperatorQuery,
    OperatorReply,
    OperatorSession,
)
from kiosk.service.device_commands import SetTablePaytable
from kiosk.service.operators import SESSION_IDLE_S  # noqa: F401 (the link's idle rule)
from kiosk.service.state import Session
from kiosk.service.table import Table
from kiosk.tablehost.progressive_page import progressive_figures

log = logging.getLogger(__name__)

#: The bodies this service answers.
OPERATOR_BODIES = (
    OperatorLogin,
    OperatorLogout,
    OperatorQuery,
    OperatorAction,
    OperatorLift,
    OperatorAdjust,
)
#: The rounds a station's recall page shows.
RECALL_ROUNDS = 10
#: action -> the least role that may take it.
ACTION_ROLES = {
    "clear_tilt": "attendant",
    "handpay_reset": "attendant",
    "set_limits": "technician",
    "set_paytable": "technician",
}
#: Actions that change the table's configuration: taken at the station they are sent from.
CONFIGURATION = ("set_limits", "set_paytable")
#: What a refused configuration change adds to the reason.
QUIET_RULE = "needs the door of this station open, no round open and every station at zero credits"

Answer = OperatorSession | OperatorReply


class OperatorService:
    """The table's operator menu over the link (see module); thread-safe.
    ``connected(station)`` says whether a station's link is up (for the status page)."""

    def __init__(
        self,
        table: Table,
        connected: Callable[[int], bool] = lambda _n: False,
    ) -> None:
        self.table = table
        self.connected = connected
        self._lock = threading.Lock()

    @property
    def lockout(self) -> PinLockout:
        """The table's PIN pad and accounts' locks."""
        return self.table.lockout

    def handle(self, station: int, body: object) -> Answer:
        """The answer to operator message ``body`` from ``station``."""
        with self._lock:
            if isinstance(body, OperatorLogin):
                return self._login(station, body)
            if isinstance(body, OperatorLogout):
                self.table.end_session(station, "logout")
                return OperatorReply(ref=body.ref, ok=True)
            if isinstance(body, OperatorLift):
                return self._lift(station, body)
            if not isinstance(body, (OperatorQuery, OperatorAction, OperatorAdjust)):
                raise TypeError(f"not an operator message: {type(body).__name__}")
            try:
                session = self._session(station)
                if isinstance(body, OperatorAdjust):
                    return self._adjust(station, session, body)
                if isinstance(body, OperatorQuery) and body.page == "progressive":
                    figures = progressive_figures(self.table, station)
                    return OperatorReply(ref=body.ref, ok=True, progressive=figures)
                data = (
                    self._query(station, body)
                    if isinstance(body, OperatorQuery)
                    else self._act(station, session, body)
                )
            except MachineError as exc:
                return OperatorReply(
                    ref=body.ref, ok=False, code=_code(exc.code), detail=exc.reason[:512]
                )
            return OperatorReply(ref=body.ref, ok=True, data=data)

    def operator(self, station: int) -> tuple[str, str] | None:
        """The (name, role) logged in at ``station``, if any."""
        found = self.table.session(station)
        return None if found is None else (found.name, found.role)

    # -- login ---------------------------------------------------------------------------
    def _login(self, station: int, body: OperatorLogin) -> OperatorSession:
        try:
            self.table.execute(station, cmd.OperatorLogin(body.pin))
        except MachineError as exc:
            return _refused(body.ref, exc)
        found = self.table.session(station)
        assert found is not None
        log.info("station %d: operator %s (%s) logged in", station, found.name, found.role)
        role = cast(Role, found.role)
        return OperatorSession(ref=body.ref, accepted=True, name=found.name, role=role)

    def _lift(self, station: int, body: OperatorLift) -> OperatorReply:
        try:
            name = self.table.execute(station, cmd.LiftLockout(body.pin, body.witness_pin))
        except MachineError as exc:
            return OperatorReply(
                ref=body.ref, ok=False, code=_code(exc.code), detail=exc.reason[:512]
            )
        log.info("station %d: %s lifted the PIN locks", station, name)
        return OperatorReply(ref=body.ref, ok=True, data={"operator": str(name)})

    def _adjust(self, station: int, account: Session, body: OperatorAdjust) -> OperatorReply:
        """A manager's countersigned adjustment of the progressive meter from ``station``
        (the service checks the role, the door, the witness and the amount), recorded
        also as an ``operator_action`` beside the service's ``progressive_adjusted_*``."""
        change = cmd.AdjustProgressive(body.cents, body.witness_pin, AdjustReason(body.reason))
        before = self.table.execute(station, change)
        detail: dict[str, Any] = {
            "operator": account.name,
            "role": account.role,
            "action": "adjust_progressive",
            "station": station,
            "at_station": station,
            "old": before,
            "new": body.cents,
        }
        self.table.record(station, (EventKind.OPERATOR_ACTION, detail))
        log.info("station %d: %s set the progressive meter", station, account.name)
        figures = progressive_figures(self.table, station)
        return OperatorReply(ref=body.ref, ok=True, progressive=figures)

    def end(self, station: int, reason: str) -> None:
        """End ``station``'s session, if any (its link disconnected: ``reason``)."""
        self.table.end_session(station, reason)

    def _session(self, station: int) -> Session:
        found = self.table.session(station)
        if found is None:
            raise NotAuthorised("an operator must log in first", code=ErrorCode.OPERATOR_REQUIRED)
        return found

    # -- pages ---------------------------------------------------------------------------
    def _query(self, station: int, body: OperatorQuery) -> dict[str, JsonValue]:
        if body.page == "status":
            return self.status()
        if body.page == "paytables":
            sha = self.table.paytable.sha256
            found: list[JsonValue] = [listing_json(e, sha) for e in list_paytables(self.table)]
            return {"paytables": found, "in_force": sha}
        target = body.station or station
        if target not in self.table.stations:
            raise WrongState(f"station {target} is not at this table", code=ErrorCode.NO_STATION)
        if body.page == "meters":
            return {
                "station": target,
                "meters": dict(self.table.meter_readings(target)),
                "table": dict(self.table.meter_readings()),
            }
        # an open round's cards are shown to nobody until it settles
        latest = self.table.recall(RECALL_ROUNDS + 1, station=target)
        rounds = [r for r in latest if r.state != "open"][:RECALL_ROUNDS]
        return {"station": target, "rounds": [_round(r) for r in rounds]}

    def status(self) -> dict[str, JsonValue]:
        """The table status page: every station (cents), the host's state and limits."""
        view = self.table.display()
        stations: list[JsonValue] = []
        for s in self.table.statuses():
            texts = self.table.tilt_texts(s.station)
            devices: list[JsonValue] = [
                {"device": code.split(":")[1], "kind": code.split(":")[-1], "text": texts[code]}
                for code in s.tilts
                if code.startswith(DEVICE_TILT_PREFIX) and code.count(":") >= 2
            ]
            stations.append(
                {
                    "station": s.station,
                    "credits": s.credits,
                    "tilts": [{"code": c, "text": texts.get(c, "")} for c in s.tilts],
                    "devices": devices,
                    "door_open": s.door_open,
                    "payout_pending": s.payout_pending,
                    "in_round": s.in_round,
                    "connected": bool(self.connected(s.station)),
                }
            )
        return {
            "stations": stations,
            "stopped": view.stopped,
            "round_open": view.round_open,
            "limits": self.table.limits.model_dump(mode="json"),
            "paytable": {
                "name": self.table.paytable.name,
                "version": self.table.paytable.version,
                "sha256": self.table.paytable.sha256,
            },
        }

    # -- actions -------------------------------------------------------------------------
    def _act(self, station: int, account: Session, body: OperatorAction) -> dict[str, JsonValue]:
        needed = ACTION_ROLES[body.action]
        if not role_at_least(account.role, needed):
            raise NotAuthorised(
                f"this needs a {needed} (logged in: {account.role})",
                code=ErrorCode.ROLE_REQUIRED,
                params={"role": needed},
            )
        target = station if body.action in CONFIGURATION else body.station
        detail: dict[str, Any] = {
            "operator": account.name,
            "role": account.role,
            "action": body.action,
            "station": target,
            "at_station": station,
        }
        if body.action == "clear_tilt":
            assert body.code is not None
            if body.code == LEDGER_TILT:
                raise NotAuthorised(
                    "a ledger fault is cleared only by restoring the ledger",
                    code=ErrorCode.LEDGER_FAULT,
                )
            if body.code not in self.table.station_tilts(target):
                raise WrongState(
                    f"no tilt {body.code!r} at station {target} (a host tilt is cleared at "
                    "the host)",
                    code=ErrorCode.NO_TILT,
                )
            self.table.execute(target, cmd.ClearTilt(body.code), at=station)
            detail["code"] = body.code
        elif body.action == "handpay_reset":
            self.table.execute(target, cmd.HandpayReset(), at=station)
        elif body.action == "set_limits":
            old = self.table.limits.model_dump(mode="json")
            change = cmd.SetLimits(body.ante_min, body.ante_max, body.trips_min, body.trips_max)
            _configure(self.table, target, change, "a limits change")
            detail.update(old=old, new=self.table.limits.model_dump(mode="json"))
        else:
            assert body.sha256 is not None
            swap = SetTablePaytable(body.sha256)
            shas = _configure(self.table, target, swap, "a paytable change")
            assert isinstance(shas, dict)
            detail.update(old=shas["old"], new=shas["new"])
        self.table.record(target, (EventKind.OPERATOR_ACTION, detail))
        log.info("station %d: %s %s at station %d", station, account.name, body.action, target)
        return self.status()


def _configure(
    table: Table, station: int, change: cmd.SetLimits | SetTablePaytable, what: str
) -> dict[str, str] | None:
    """Carry out a configuration ``change`` from ``station``; a refusal's reason says the
    rule (:data:`QUIET_RULE`) unless it is about the change itself."""
    try:
        return table.execute(station, change)
    except MachineError as exc:
        if exc.code not in (
            "door_closed",
            "round_in_progress",
            "credits_on_meter",
            "payout_in_progress",
        ):
            raise
        raise type(exc)(f"{exc.reason} ({what} {QUIET_RULE})", code=exc.code) from None


def _refused(ref: int, exc: MachineError) -> OperatorSession:
    return OperatorSession(ref=ref, accepted=False, code=_code(exc.code), detail=exc.reason[:512])


def _code(code: str) -> str:
    """A refusal's code as the link carries it."""
    clean = "".join(c if c.isalnum() or c in "_.-" else "_" for c in code.lower())[:48]
    return clean if clean[:1].isalpha() else "refused"


def _round(r: RoundRecord) -> dict[str, JsonValue]:
    """One round of a station's recall, as the page shows it (cards as ints, cents)."""
    return {
        "id": r.id,
        "state": r.state,
        "started_at": r.started_at,
        "seat": r.seat,
        "ante": r.ante,
        "blind": r.blind,
        "trips": r.trips,
        "play": r.play,
        "player_hole": list(r.player_hole),
        "dealer_hole": list(r.dealer_hole),
        "board": list(r.board),
        "player_category": r.player_category,
        "dealer_category": r.dealer_category,
        "outcome": r.outcome,
        "paid": r.paid,
        "jackpot": r.jackpot,
    }


def listing_json(found: Listing, in_force: str) -> dict[str, JsonValue]:
    """One paytable of the folder as the operator page shows it: name, version,
    SHA-256, file, RTP per bet (percent, when known), ``proven``, ``in_force``, the
    Ante limits (cents); or the file and the reason it cannot be read."""
    if found.table is None:
        return {"file": found.path.name, "error": found.error[:200]}
    t = found.table
    rtp: dict[str, JsonValue] = {
        str(k): round(100 * float(v), 4) for k, v in (found.rtps or {}).items()
    }
    return {
        "file": found.path.name,
        "name": t.name,
        "version": t.version,
        "sha256": t.sha256,
        "rtp": rtp,
        "proven": found.proven,
        "in_force": t.sha256 == in_force,
        "ante_min": t.limits.ante_min,
        "ante_max": t.limits.ante_max,
    }
