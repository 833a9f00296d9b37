"""The operators' side of the game, at any station: login by PIN, tilts, the door, RAM
clear.  The one implementation for the lone cabinet's own screens and for the operator
menu opened at a table's station.

Operators are people (:attr:`kiosk.config.CabinetConfig.accounts`: a name, a role and
a PIN).  A PIN logs its person in at the station it is typed at (a session: it ends at
logout, at the next login there, when a remote station's link goes, or after
:data:`SESSION_IDLE_S` seconds without an action).  An attendant clears tilts and keys
off handpays; a technician also changes the paytable and limits
(:mod:`kiosk.service.settings`, the main door open); a manager also performs a RAM clear,
with the door open and a second person's PIN: :meth:`Operators.ram_clear_witness` (the
second PIN), then :meth:`Operators.ram_clear_request` and :meth:`Operators.ram_clear`
with the code it returned.  A RAM clear voids an open round, cancels every pending
payout, removes every station's credits and clears the tilts, but keeps the history and
the lifetime meters.

Every login, failed login and operator action is recorded with the person (events carry
``operator``, ``role`` and ``at_station``); the PIN itself never.  Wrong PINs count for
the whole table (:class:`~kiosk.game.rules.lockout.PinLockout`, rebuilt from the ledger at
power-up): :data:`~kiosk.game.rules.lockout.MAX_FAILURES` in a row lock the PIN pad of every
station, as many since an account's own right PIN lock that account, each for 15 minutes
doubling with every recent lock up to 4 hours, and tilt the station they were typed at;
people who prove presence lift them before their time (:mod:`kiosk.service.locks`).  A
configuration with no accounts (outside demo mode, without ``[[operators]]``) has login
disabled and the host stands in the ``operators`` tilt.
"""

from __future__ import annotations

import secrets
from typing import Any

from kiosk.config import OperatorAccount
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import MachineError, NotAuthorised, WrongState
from kiosk.game.paytables.rtp_record import RTP_GATE
from kiosk.game.rules.lockout import LOCK_EVENTS, MAX_FAILURES, RESTORE_EVENTS
from kiosk.game.rules.operators import (
    LOCKOUT_TILT,
    OPERATORS_TILT,
    RAM_CLEAR_CODE_SECONDS,
    account_names,
    failure_events,
    pin_accounts,
    wrong_pin_refusal,
)
from kiosk.game.vocabulary import LEDGER_TILT, Bets
from kiosk.ledger.kinds import EventKind
from kiosk.ledger.meters import CREDITS
from kiosk.service.payouts import Payouts
from kiosk.service.play import TablePlay
from kiosk.service.state import Session, TableState

#: Seconds without an action after which an operator's session ends.
SESSION_IDLE_S = 600.0


class Operators:
    """Sessions, tilts, doors and the RAM clear.  Owns each station's RAM clear in
    preparation (the confirmation code and the second operator's countersignature, each
    with its monotonic deadline)."""

    def __init__(self, state: TableState, play: TablePlay, payouts: Payouts) -> None:
        self.state = state
        self.play = play
        self.payouts = payouts
        self._ram_code: dict[int, tuple[str, float]] = {}
        self._witness: dict[int, tuple[OperatorAccount, float]] = {}
        if state.ledger is not None:
            events = state.ledger.events(LOCK_EVENTS, last=RESTORE_EVENTS)
            state.lockout.restore(events, account_names(state.config))

    def power_up(self) -> None:
        """Without accounts the ``operators`` host tilt stands on an installed machine
        (login disabled); with accounts configured again it is cleared (recorded)."""
        st = self.state
        st.require_ledger()
        if not st.config.accounts:
            if OPERATORS_TILT not in st.table_tilts and st.config.marker_path.exists():
                st.table_tilt(
                    OPERATORS_TILT,
                    "no operator accounts in the configuration: operator login is disabled; "
                    "add [[operators]] (systemd/install.sh does) and restart",
                )
            return
        for number, station in st.stations.items():
            if OPERATORS_TILT in station.tilts:  # recorded before tilts were the host's
                st.event(
                    EventKind.TILT_CLEARED,
                    {"code": OPERATORS_TILT, "operator": None, "reason": "accounts configured"},
                    number,
                )
                del station.tilts[OPERATORS_TILT]
        if OPERATORS_TILT in st.table_tilts:
            st.event(
                EventKind.TILT_CLEARED,
                {
                    "code": OPERATORS_TILT,
                    "operator": None,
                    "reason": "accounts configured",
                    "host": True,
                },
                1,
            )
            del st.table_tilts[OPERATORS_TILT]

    # -- sessions ------------------------------------------------------------------------
    def session(self, n: int) -> Session | None:
        """Who is logged in at station ``n`` (a session idle too long ends here)."""
        own = self.state.station(n)
        session = own.operator
        if session is not None and self.state.ticks() - session.seen > SESSION_IDLE_S:
            self.logout(n, "idle")
            return None
        return session

    def touch(self, n: int) -> None:
        """The operator at station ``n`` did something: the session goes on."""
        session = self.session(n)
        if session is not None:
            self.state.station(n).operator = Session(session.name, session.role, self.state.ticks())

    def login(self, n: int, pin: str) -> Session:
        """Log the person whose PIN is ``pin`` in at station ``n``; returns the session.
        Failures are recorded and counted towards the PIN pad's lock."""
        st = self.state
        self.logout(n, "login")
        account = self._account(n, pin, "login")
        st.lockout.succeeded(account.name)
        detail = {"operator": account.name, "role": account.role, **st.at(n)}
        st.event(EventKind.OPERATOR_LOGIN, detail, n)
        session = Session(account.name, account.role, st.ticks())
        st.station(n).operator = session
        self._ram_code.pop(n, None)
        self._witness.pop(n, None)
        return session

    def logout(self, n: int, reason: str = "logout") -> None:
        """End station ``n``'s session, if any (recorded with ``reason``)."""
        st = self.state
        own = st.station(n)
        session = own.operator
        if session is not None:
            own.operator = None
            detail = {"operator": session.name, "role": session.role}
            if reason != "logout":
                detail["reason"] = reason
            if st.ledger is not None:
                st.event(EventKind.OPERATOR_LOGOUT, detail, n)
        self._ram_code.pop(n, None)
        self._witness.pop(n, None)

    def _account(self, n: int, pin: str, purpose: str) -> OperatorAccount:
        """The one account whose PIN is ``pin``; else the failure is recorded (and may
        lock the PIN pad, tilting station ``n``) and :class:`NotAuthorised` raised."""
        st = self.state
        st.require_ledger()
        found = pin_accounts(st.config, st.lockout, pin, st.now())
        if len(found) == 1:
            return found[0]
        self.failed(n, purpose, shared=len(found) > 1)
        raise wrong_pin_refusal(st.lockout, st.now())

    def failed(self, n: int, purpose: str, *, shared: bool, at_host: bool = False) -> None:
        """Record and count one wrong PIN typed at station ``n`` (``at_host``: at the
        table host's console, about station 1, tilting nothing) for ``purpose``."""
        st = self.state
        ledger = st.require_ledger()
        names = account_names(st.config)
        failure = st.lockout.next_failure(st.now(), names)
        session = None if at_host else st.station(n).operator  # a second PIN's manager
        who: dict[str, Any] = {
            "operator": session.name if session else None,
            "role": session.role if session else None,
            **({"at_host": True} if at_host else st.at(n)),
        }
        with ledger.transaction():
            for kind, detail in failure_events(failure, purpose, shared, who):
                st.event(kind, detail, n)
        st.lockout.apply(failure, names)
        if at_host:
            return
        if failure.pad_until is not None:
            st.set_tilt(
                n,
                LOCKOUT_TILT,
                f"{MAX_FAILURES} wrong PINs: the PIN pad is locked until "
                f"{failure.pad_until:%H:%M} UTC",
            )
        elif failure.accounts:
            st.set_tilt(
                n,
                LOCKOUT_TILT,
                f"{MAX_FAILURES} wrong PINs: {len(failure.accounts)} operator account(s) "
                f"locked until {failure.accounts_until:%H:%M} UTC",
            )

    # -- tilts and the door ------------------------------------------------------------
    def tilt(self, n: int, code: str, message: str) -> None:
        """Stop station ``n`` with a tilt (recorded).  Codes starting ``device:`` are for
        devices."""
        self.state.require_ledger()
        if not code or code == LEDGER_TILT:
            raise MachineError(f"tilt code {code!r} is reserved or empty")
        self.state.set_tilt(n, code, message)

    def clear_tilt(self, n: int, code: str, at: int) -> None:
        """The attendant logged in at station ``at`` clears station ``n``'s tilt
        ``code``, or a host tilt.  The ledger's tilt is cleared only by restoring the
        ledger."""
        st = self.state
        if code == LEDGER_TILT:
            raise NotAuthorised(
                "a ledger fault is cleared only by restoring the ledger",
                code=ErrorCode.LEDGER_FAULT,
            )
        if code == RTP_GATE:  # play opens by itself once the paytable's return is proven
            raise WrongState(
                st.table_tilts.get(code, "no proven return"), code=ErrorCode.RTP_UNKNOWN
            )
        st.require_ledger()
        operator = st.require_role(at, "attendant")
        session = st.station(at).operator
        role = session.role if session is not None else None
        own = st.station(n)
        detail = {"code": code, "operator": operator, "role": role, **st.at(at)}
        if code in own.tilts:
            st.event(EventKind.TILT_CLEARED, detail, n)
            del own.tilts[code]
        elif code in st.table_tilts:
            st.event(EventKind.TILT_CLEARED, {**detail, "host": True}, n)
            del st.table_tilts[code]
        else:
            raise WrongState(
                f"no tilt {code!r} stands", code=ErrorCode.NO_TILT, params={"tilt": code}
            )

    def door(self, n: int, open: bool) -> None:
        """Station ``n``'s main door switch, recorded when it changes (the station stops
        while it is open); closing it withdraws a RAM clear in preparation there."""
        st = self.state
        st.require_ledger_open()
        own = st.station(n)
        if bool(open) != own.door_open:
            st.event(EventKind.DOOR_OPEN if open else EventKind.DOOR_CLOSED, {}, n)
            own.door_open = bool(open)
            if not open:
                self._ram_code.pop(n, None)
                self._witness.pop(n, None)

    def require_door_change(self, n: int, role: str, what: str) -> str:
        """A configuration change (paytable, limits) from station ``n``: an operator of
        ``role`` or above logged in there, its main door open.  Returns their name."""
        st = self.state
        st.require_ledger()
        name = st.require_role(n, role)
        st.require_door_open(n, what)
        return name

    # -- RAM clear ---------------------------------------------------------------------
    def ram_clear_witness(self, n: int, pin: str) -> str:
        """A second person countersigns the RAM clear of the manager logged in at station
        ``n`` (door open) with their PIN; returns their name.  Valid for two minutes,
        until the door closes or the manager logs out."""
        st = self.state
        st.require_ledger()
        manager = st.require_role(n, "manager")
        st.require_door_open(n, "a RAM clear")
        account = self.second_person(n, pin, manager, "ram_clear_witness")
        session = st.station(n).operator
        detail = {
            "operator": manager,
            "role": session.role if session else None,
            "witness": account.name,
            "witness_role": account.role,
            **st.at(n),
        }
        st.event(EventKind.RAM_CLEAR_WITNESSED, detail, n)
        self._witness[n] = (account, st.ticks() + RAM_CLEAR_CODE_SECONDS)
        return account.name

    def second_person(self, n: int, pin: str, first: str, purpose: str) -> OperatorAccount:
        """The person whose PIN ``pin`` is, typed at station ``n`` to countersign what
        ``first`` (the operator logged in there) does: another account than ``first``'s.
        A wrong PIN is recorded and counted for ``purpose`` as every wrong PIN is."""
        account = self._account(n, pin, purpose)
        if account.name == first:
            raise NotAuthorised(
                "the second PIN must be another operator's", code=ErrorCode.SAME_OPERATOR
            )
        self.state.lockout.succeeded(account.name)
        return account

    def _require_witness(self, n: int) -> OperatorAccount:
        witness = self._witness.get(n)
        if witness is None or self.state.ticks() > witness[1]:
            self._witness.pop(n, None)
            raise NotAuthorised(
                "a RAM clear needs a second operator's PIN first (valid for two minutes)",
                code=ErrorCode.WITNESS_REQUIRED,
            )
        return witness[0]

    def ram_clear_request(self, n: int) -> str:
        """Step one of a RAM clear (a manager at station ``n``, its door open, a second
        operator's PIN given): returns a code to confirm within two minutes."""
        st = self.state
        st.require_ledger()
        operator = st.require_role(n, "manager")
        st.require_door_open(n, "a RAM clear")
        witness = self._require_witness(n)
        code = f"{secrets.randbelow(10**6):06d}"
        session = st.station(n).operator
        detail = {
            "operator": operator,
            "role": session.role if session else None,
            "witness": witness.name,
            **st.at(n),
        }
        st.event(EventKind.RAM_CLEAR_REQUESTED, detail, n)
        self._ram_code[n] = (code, st.ticks() + RAM_CLEAR_CODE_SECONDS)
        return code

    def ram_clear(self, n: int, confirm_code: str) -> None:
        """Step two (the manager at station ``n``, its door open, the second operator's
        PIN still valid): void an open round (stakes refunded), cancel every pending
        payout, remove every station's credits (one ``ram_clear`` event per station,
        each with its credits), clear the tilts and the chips.  The history and the
        lifetime meters stay."""
        st = self.state
        ledger = st.require_ledger()
        operator = st.require_role(n, "manager")
        st.require_door_open(n, "a RAM clear")
        pending = self._ram_code.pop(n, None)
        if pending is None or st.ticks() > pending[1]:
            raise WrongState(
                "request a RAM clear first (the code expires after two minutes)",
                code=ErrorCode.RAM_CLEAR_NOT_REQUESTED,
            )
        if not secrets.compare_digest(confirm_code.encode(), pending[0].encode()):
            raise NotAuthorised("wrong RAM clear confirmation code", code=ErrorCode.WRONG_CODE)
        witness = self._require_witness(n)
        session = st.station(n).operator
        with ledger.transaction():
            voided = self.play.void()
            for number in sorted(st.stations):
                self.payouts.cancel(number, "ram_clear")
            for number in sorted(st.stations):
                credits = ledger.station_meters.get(number, {}).get(CREDITS, 0)
                if number != n and not credits:
                    continue
                detail = {
                    "operator": operator,
                    "role": session.role if session else None,
                    "witness": witness.name,
                    "witness_role": witness.role,
                    "meters": dict(ledger.station_meter_readings(number)),
                    "voided_round": voided,
                    **st.at(n),
                }
                st.event(EventKind.RAM_CLEAR, detail, number, amount=credits)
        self._witness.pop(n, None)
        gate = st.table_tilts.get(RTP_GATE)  # a state of the power-up: a RAM clear keeps it
        st.table_tilts.clear()
        if gate is not None:
            st.table_tilts[RTP_GATE] = gate
        for station in st.stations.values():
            station.tilts.clear()
            station.reset_window()
            station.last_bets = Bets()
            station.show_result = False
            station.jackpot = 0
