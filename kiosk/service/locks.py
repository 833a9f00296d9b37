"""Locks that people lift: the PIN pad's and the accounts' locks ended before their time,
and the table host's pairing lock, each recorded in the ledger with the people.

* **At a station's main door** (:class:`~kiosk.game.commands.LiftLockout`): the door
  open with its key, a manager's or technician's PIN and a second person's PIN end every
  PIN lock.  Both PINs are checked against the accounts as configured, locked or not
  (the door's key is the proof of presence); a wrong one is recorded and counted as any
  wrong PIN, and one door opening allows :data:`~kiosk.game.rules.lockout.MAX_FAILURES`
  wrong PINs at most (then the door is closed and opened again, each recorded).
* **At the table host's console** (:class:`~kiosk.service.device_commands.LiftLockoutAtHost`,
  ``uth table serve --lift-lockout``): a technician's (or manager's) PIN ends them.
* **Pairing** (:class:`~kiosk.service.device_commands.PairingMiss`,
  :class:`~kiosk.service.device_commands.ReopenPairing`): every wrong pairing code is a chained,
  MAC'd ``pairing_code_wrong`` row of the table's ledger (``pairing_locked`` at the
  limit), so the count survives the loss of any file beside the ledger; only a
  technician's PIN at the host reopens pairing (``pairing_reopened``).
  :func:`pairing_misses` counts them back from the ledger.

A PIN typed at the host is checked with the locks ignored too (whoever stands at the
host's console stands where the ledger, its key and the configuration are); a wrong one
is recorded (``at_host``) and counted.
"""

from __future__ import annotations

from typing import Any

from kiosk.config import OperatorAccount, role_at_least
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import NotAuthorised, WrongState
from kiosk.game.rules.lockout import MAX_FAILURES
from kiosk.game.rules.operators import LOCKOUT_TILT
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.ledger import Ledger
from kiosk.service.operators import Operators
from kiosk.service.state import TableState

#: The pairing scopes of a table host: its stations' and its dealer displays'.
PAIRING_SCOPES = ("stations", "displays")
#: The station host events are recorded about.
HOST = 1


def pairing_misses(ledger: Ledger, scope: str) -> int:
    """The wrong pairing codes of ``scope`` recorded since its last reopening."""
    count = 0
    for ev in ledger.events((EventKind.PAIRING_CODE_WRONG, EventKind.PAIRING_REOPENED)):
        if ev.detail.get("scope") != scope:
            continue
        count = 0 if ev.kind == EventKind.PAIRING_REOPENED else count + 1
    return count


class Locks:
    """The lifting of the PIN locks and the pairing lock (see module), on the operators'
    one PIN check and count."""

    def __init__(self, state: TableState, operators: Operators) -> None:
        self.state = state
        self.operators = operators
        self._door_misses: dict[int, tuple[int, int]] = {}  # station -> (door opening, misses)

    # -- the PIN locks -------------------------------------------------------------------
    def lift_at_door(self, n: int, pin: str, witness_pin: str) -> str:
        """End every PIN lock: station ``n``'s door open, ``pin`` a manager's or
        technician's, ``witness_pin`` another person's.  Returns the first one's name."""
        st = self.state
        st.require_ledger()
        st.require_door_open(n, "lifting the PIN locks")
        self._require_locked()
        opening = len(st.require_ledger().events((EventKind.DOOR_OPEN,), station=n))
        seen, misses = self._door_misses.get(n, (opening, 0))
        if seen != opening:
            misses = 0
        if misses >= MAX_FAILURES:
            raise NotAuthorised(
                f"{MAX_FAILURES} wrong PINs since the door was opened: close it and open it again",
                code=ErrorCode.WRONG_PIN,
            )
        try:
            first = self._account(n, pin, "technician", at_host=False)
            second = self._account(n, witness_pin, None, at_host=False)
        except NotAuthorised as exc:
            if exc.code == ErrorCode.WRONG_PIN:
                self._door_misses[n] = (opening, misses + 1)
            raise
        if second.name == first.name:
            raise NotAuthorised(
                "the second PIN must be another operator's", code=ErrorCode.SAME_OPERATOR
            )
        detail = {
            "operator": first.name,
            "role": first.role,
            "witness": second.name,
            "witness_role": second.role,
            "how": "door",
            **st.at(n),
        }
        self._lift(n, detail)
        self._door_misses.pop(n, None)
        return first.name

    def lift_at_host(self, pin: str) -> str:
        """End every PIN lock with a technician's (or manager's) PIN typed at the host."""
        self.state.require_ledger()
        self._require_locked()
        account = self._account(HOST, pin, "technician", at_host=True)
        self._lift(HOST, {"operator": account.name, "role": account.role, "how": "host"})
        return account.name

    def _require_locked(self) -> None:
        if not self.state.lockout.locked(self.state.now()):
            raise WrongState("no PIN lock stands", code=ErrorCode.WRONG_STATE)

    def _lift(self, n: int, detail: dict[str, Any]) -> None:
        st = self.state
        with st.require_ledger().transaction():
            st.event(EventKind.OPERATOR_LOCKOUT_LIFTED, detail, n)
            for number, station in sorted(st.stations.items()):
                if LOCKOUT_TILT in station.tilts:
                    cleared = {
                        "code": LOCKOUT_TILT,
                        "operator": detail["operator"],
                        "role": detail["role"],
                        "reason": "PIN locks lifted",
                    }
                    st.event(EventKind.TILT_CLEARED, cleared, number)
        st.lockout.lift()
        for station in st.stations.values():
            station.tilts.pop(LOCKOUT_TILT, None)

    def _account(
        self, n: int, pin: str, role: str | None, *, at_host: bool, purpose: str = "lift_lockout"
    ) -> OperatorAccount:
        """The one account whose PIN is ``pin``, locks ignored, of ``role`` or above; a
        wrong PIN is recorded and counted (for ``purpose``)."""
        found = self.state.config.accounts_for_pin(pin)
        if len(found) != 1:
            self.operators.failed(n, purpose, shared=len(found) > 1, at_host=at_host)
            raise NotAuthorised("wrong PIN", code=ErrorCode.WRONG_PIN)
        account = found[0]
        if role is not None and not role_at_least(account.role, role):
            raise NotAuthorised(
                f"this needs a {role} or a manager (the PIN is a {account.role}'s)",
                code=ErrorCode.ROLE_REQUIRED,
                params={"role": role},
            )
        return account

    # -- the pairing lock ------------------------------------------------------------------
    def pairing_miss(self, scope: str, station_id: str, seat: int, limit: int) -> int:
        """Record one wrong pairing code of ``scope``; the count since the last reopening."""
        st = self.state
        ledger = st.require_ledger_open()
        misses = pairing_misses(ledger, scope) + 1
        detail = {"scope": scope, "station_id": station_id[:64], "seat": seat, "misses": misses}
        with ledger.transaction():
            st.event(EventKind.PAIRING_CODE_WRONG, detail, HOST)
            if misses == limit:
                st.event(EventKind.PAIRING_LOCKED, {"scope": scope, "misses": misses}, HOST)
        return misses

    def reopen_pairing(self, scope: str, pin: str) -> str:
        """A technician's PIN at the host reopens pairing of ``scope``; their name."""
        st = self.state
        ledger = st.require_ledger_open()
        account = self._account(HOST, pin, "technician", at_host=True, purpose="reopen_pairing")
        detail = {
            "scope": scope,
            "operator": account.name,
            "role": account.role,
            "misses": pairing_misses(ledger, scope),
        }
        st.event(EventKind.PAIRING_REOPENED, detail, HOST)
        return account.name
