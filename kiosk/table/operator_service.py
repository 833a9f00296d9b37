"""The table's operator menu, opened at any station: login by PIN, pages and actions.

The host answers each station's operator messages (:mod:`kiosk.link.messages`):

* :class:`OperatorLogin` -> an :class:`OperatorSession`: the PIN is checked against the
  host's ``config.accounts`` with the cabinet's rules
  (:func:`kiosk.machine.operators.pin_accounts`): exactly one account matches.  Wrong PINs
  are counted for the whole table and for every account by the cabinet's one
  implementation (:class:`~kiosk.machine.lockout.PinLockout`, rebuilt from the table's
  ledger at start): the :data:`~kiosk.machine.lockout.MAX_FAILURES`-th in a row locks the
  PIN pad of every station, the :data:`~kiosk.machine.lockout.MAX_FAILURES`-th since an
  account's own right PIN locks that account (another account's right PIN never resets
  it), each for 15 minutes doubling with every recent lock, and tilts the station it was
  typed at (``operator_lockout``, cleared by an attendant).  A login opens that
  station's session; it ends at logout, at the next login there, when the station's link
  disconnects (:meth:`OperatorService.end`), or after :data:`SESSION_IDLE_S` seconds
  without a request.
* :class:`OperatorQuery` -> an :class:`OperatorReply` with the page's data: ``status``
  (every station's credits, tilts with their text, door, devices' faults, payout
  pending, in the round, connected; the limits and the paytable in force), ``meters`` (a
  station's and the table's, cents or counts), ``recall`` (a station's last 10 finished
  rounds, its seat and the dealer: a round still open is shown to nobody, its cards
  neither) or ``paytables`` (the paytables folder's, each with its RTP
  per bet, :mod:`kiosk.table.paytable_change`).
* :class:`OperatorAction` -> an :class:`OperatorReply`: ``clear_tilt`` and
  ``handpay_reset`` at a station (attendant or above; a host tilt is not a station's and
  is not cleared here), ``set_limits`` and ``set_paytable`` (technician or above) for the
  table, which the :class:`Table` allows only with the door of the station it is sent
  from open, no round open and every station at zero credits with no payout pending (and
  a paytable only with its RTP proven on this table, as at the cabinet).

Every login, failed login, lockout, logout and action is recorded in the table's ledger
as an event about the station it came from, with the person's name and role
(``operator_login``, ``operator_login_failed``, ``operator_lockout``,
``operator_logout``, ``operator_action``).  The PIN itself is never recorded nor logged.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from kiosk.config import OperatorAccount, role_at_least
from kiosk.ledger.records import RoundRecord
from kiosk.link.messages import (
    OperatorAction,
    OperatorLogin,
    OperatorLogout,
    OperatorQuery,
    OperatorReply,
    OperatorSession,
)
from kiosk.machine import commands as cmd
from kiosk.machine.errors import MachineError, NotAuthorised, WrongState
from kiosk.machine.lockout import LOCK_EVENTS, MAX_FAILURES, RESTORE_EVENTS, PinLockout
from kiosk.machine.operators import (
    LOCKOUT_TILT,
    account_names,
    failure_events,
    pin_accounts,
    wrong_pin_refusal,
)
from kiosk.machine.state import DEVICE_TILT_PREFIX, LEDGER_TILT
from kiosk.table.paytable_change import SetTablePaytable, listing_json, offered
from kiosk.table.table import Table

log = logging.getLogger(__name__)

#: The bodies this service answers.
OPERATOR_BODIES = (OperatorLogin, OperatorLogout, OperatorQuery, OperatorAction)
#: Seconds without a request after which a station's operator session ends.
SESSION_IDLE_S = 600.0
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


@dataclass
class _Session:
    """The person logged in at one station."""

    account: OperatorAccount
    seen: float  # time.monotonic() of the last request


class OperatorService:
    """The table's operator menu (see module); thread-safe.  ``connected(station)`` says
    whether a station's link is up (for the status page)."""

    def __init__(
        self,
        table: Table,
        connected: Callable[[int], bool] = lambda _n: False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self.connected = connected
        self.clock = clock
        self.lockout = PinLockout()
        self._lock = threading.Lock()
        self._sessions: dict[int, _Session] = {}
        if table.ledger is not None:
            events = table.ledger.events(LOCK_EVENTS, last=RESTORE_EVENTS)
            self.lockout.restore(events, account_names(table.config))

    def handle(self, station: int, body: object) -> Answer:
        """The answer to operator message ``body`` from ``station``."""
        with self._lock:
            if isinstance(body, OperatorLogin):
                return self._login(station, body)
            if isinstance(body, OperatorLogout):
                self._logout(station, "logout")
                return OperatorReply(ref=body.ref, ok=True)
            if not isinstance(body, (OperatorQuery, OperatorAction)):
                raise TypeError(f"not an operator message: {type(body).__name__}")
            try:
                session = self._session(station)
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
        with self._lock:
            found = self._sessions.get(station)
            return None if found is None else (found.account.name, found.account.role)

    # -- login ---------------------------------------------------------------------------
    def _login(self, station: int, body: OperatorLogin) -> OperatorSession:
        self._logout(station, "login")
        now = self.table.clock()
        try:
            found = pin_accounts(self.table.config, self.lockout, body.pin, now)
        except NotAuthorised as exc:
            return _refused(body.ref, exc)
        if len(found) != 1:
            who: dict[str, Any] = {"operator": None, "role": None, "at_station": station}
            names = account_names(self.table.config)
            failure = self.lockout.next_failure(now, names)
            self.table.record(station, *failure_events(failure, "login", len(found) > 1, who))
            self.lockout.apply(failure, names)
            if failure.pad_until is not None or failure.accounts:
                what = (
                    f"the PIN pad is locked until {failure.pad_until:%H:%M} UTC"
                    if failure.pad_until is not None
                    else f"{len(failure.accounts)} operator account(s) locked until "
                    f"{failure.accounts_until:%H:%M} UTC"
                )
                self.table.tilt(station, LOCKOUT_TILT, f"{MAX_FAILURES} wrong PINs: {what}")
                log.warning("station %d: %d wrong PINs, %s", station, MAX_FAILURES, what)
                self.table.tick()  # the stations hear of the tilt
            return _refused(body.ref, wrong_pin_refusal(self.lockout, now))
        account = found[0]
        self.lockout.succeeded(account.name)
        detail = {"operator": account.name, "role": account.role, "at_station": station}
        self.table.record(station, ("operator_login", detail))
        self._sessions[station] = _Session(account, self.clock())
        log.info("station %d: operator %s (%s) logged in", station, account.name, account.role)
        return OperatorSession(ref=body.ref, accepted=True, name=account.name, role=account.role)

    def end(self, station: int, reason: str) -> None:
        """End ``station``'s session, if any (its link disconnected: ``reason``)."""
        with self._lock:
            try:
                self._logout(station, reason)
            except MachineError as exc:  # the ledger is shut: nothing more to record
                log.warning("station %d: operator session end not recorded: %s", station, exc)

    def _logout(self, station: int, reason: str) -> None:
        session = self._sessions.pop(station, None)
        if session is not None:
            detail = {
                "operator": session.account.name,
                "role": session.account.role,
                "reason": reason,
            }
            self.table.record(station, ("operator_logout", detail))

    def _session(self, station: int) -> _Session:
        session = self._sessions.get(station)
        now = self.clock()
        if session is not None and now - session.seen > SESSION_IDLE_S:
            self._logout(station, "idle")
            session = None
        if session is None:
            raise NotAuthorised("an operator must log in first", code="operator_required")
        session.seen = now
        return session

    # -- pages ---------------------------------------------------------------------------
    def _query(self, station: int, body: OperatorQuery) -> dict[str, JsonValue]:
        if body.page == "status":
            return self.status()
        if body.page == "paytables":
            sha = self.table.paytable.sha256
            found: list[JsonValue] = [listing_json(e, sha) for e in offered(self.table)]
            return {"paytables": found, "in_force": sha}
        target = body.station or station
        if target not in self.table.stations:
            raise WrongState(f"station {target} is not at this table", code="no_station")
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
    def _act(self, station: int, session: _Session, body: OperatorAction) -> dict[str, JsonValue]:
        account = session.account
        needed = ACTION_ROLES[body.action]
        if not role_at_least(account.role, needed):
            raise NotAuthorised(
                f"this needs a {needed} (logged in: {account.role})",
                code="role_required",
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
                    "a ledger fault is cleared only by restoring the ledger", code="ledger_fault"
                )
            self.table.execute(target, cmd.ClearTilt(body.code))
            detail["code"] = body.code
        elif body.action == "handpay_reset":
            self.table.execute(target, cmd.HandpayReset())
        elif body.action == "set_limits":
            old = self.table.limits.model_dump(mode="json")
            change = cmd.SetLimits(body.ante_min, body.ante_max, body.trips_min, body.trips_max)
            _configure(self.table, target, change, "a limits change")
            detail.update(old=old, new=self.table.limits.model_dump(mode="json"))
        else:
            assert body.sha256 is not None
            swap = SetTablePaytable(body.sha256, account.name)
            shas = _configure(self.table, target, swap, "a paytable change")
            assert isinstance(shas, dict)
            detail.update(old=shas["old"], new=shas["new"])
        self.table.record(target, ("operator_action", detail))
        log.info("station %d: %s %s at station %d", station, account.name, body.action, target)
        return self.status()


def _configure(table: Table, station: int, change: object, what: str) -> object:
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
