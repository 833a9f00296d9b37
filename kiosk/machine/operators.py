"""The operators' side of the cabinet: tilts, the door, login by PIN, RAM clear.

Operators are people (:attr:`kiosk.config.CabinetConfig.accounts`: a name, a role and
a PIN).  A PIN logs its person in: an attendant clears tilts and keys off handpays; a
technician also changes the paytable and limits (:mod:`kiosk.machine.settings`, with the
main door open); a manager also performs a RAM clear, with the door open and a second
person's PIN: :meth:`Operators.ram_clear_witness` (the second PIN), then
:meth:`Operators.ram_clear_request` and :meth:`Operators.ram_clear` with the code it
returned.  A RAM clear voids an open round, removes the credits and clears tilts but
keeps the history and the lifetime meters.

Every login, failed login and operator action is recorded with the person: events carry
``operator`` (the account's name) and ``role``.  :data:`~kiosk.machine.lockout.MAX_FAILURES`
wrong PINs in a row lock the PIN pad, and as many since an account's own right PIN lock
that account, for 15 minutes doubling with each recent lock (:mod:`kiosk.machine.lockout`;
the ``operator_lockout`` / ``operator_accounts_locked`` events and the tilt).  A cabinet with no accounts (outside demo mode, without ``[[operators]]``) has
operator login disabled and stands in the ``operators`` tilt.
"""

from __future__ import annotations

import secrets
import time
from datetime import datetime
from typing import Any, Protocol

from kiosk.config import CabinetConfig, OperatorAccount
from kiosk.ledger.chain import utc_stamp
from kiosk.ledger.meters import CREDITS
from kiosk.machine.errors import MachineError, NotAuthorised, WrongState
from kiosk.machine.lockout import (
    ACCOUNTS_LOCKED,
    LOCK_EVENTS,
    MAX_FAILURES,
    RESTORE_EVENTS,
    Failure,
    PinLockout,
)
from kiosk.machine.state import LEDGER_TILT, Bets, CabinetState

#: How long the RAM clear confirmation code and a second operator's PIN stay valid, seconds.
RAM_CLEAR_CODE_SECONDS = 120.0
#: The tilt of a cabinet whose configuration names no operator (login disabled).
OPERATORS_TILT = "operators"
#: The tilt of a PIN pad locked by wrong PINs.
LOCKOUT_TILT = "operator_lockout"


class OpenRound(Protocol):
    """The round on the table, as a RAM clear sees it."""

    def void(self) -> int | None:
        """Void the open round inside the caller's transaction; its id, or None."""
        ...


class PendingPayout(Protocol):
    """The pending payout, as a RAM clear sees it."""

    def cancel(self, reason: str) -> None:
        """Fail the pending payout (if any) inside the caller's transaction."""
        ...


def pin_accounts(
    config: CabinetConfig, lockout: PinLockout, pin: str, now: datetime
) -> list[OperatorAccount]:
    """Every account of ``config`` whose PIN is ``pin`` and that is not locked (one: that
    person; none or more than one: a wrong PIN, a locked account's PIN included, so a
    guesser cannot tell it matched).  Raises :class:`NotAuthorised` when no account is
    configured (login disabled) or while the PIN pad's lock holds at ``now``."""
    if not config.accounts:
        raise NotAuthorised(
            "operator login is disabled: the configuration names no operator",
            code="login_disabled",
        )
    until = lockout.locked_until(now)
    if until is not None:
        raise NotAuthorised(
            f"the PIN pad is locked until {until:%H:%M} UTC after {MAX_FAILURES} wrong PINs",
            code="pin_locked",
            params={"until": until.isoformat()},
        )
    found = config.accounts_for_pin(pin)
    if len(found) == 1 and lockout.account_locked(found[0].name, now) is not None:
        return []
    return found


def account_names(config: CabinetConfig) -> list[str]:
    """Every configured account's name, in the configuration's order."""
    return [a.name for a in config.accounts]


def wrong_pin_refusal(lockout: PinLockout, now: datetime) -> NotAuthorised:
    """The refusal of a wrong PIN at ``now``: the same for a locked account's right PIN."""
    until = lockout.accounts_locked(now)
    if until is None:
        return NotAuthorised("wrong PIN", code="wrong_pin")
    return NotAuthorised(
        f"wrong PIN, or the PIN of an account locked until {until:%H:%M} UTC after "
        f"{MAX_FAILURES} wrong PINs",
        code="wrong_pin",
        params={"until": until.isoformat()},
    )


def failure_events(
    failure: Failure, purpose: str, shared: bool, detail: dict[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """The events (kind, detail) that record one more wrong PIN (``failure``, from
    :meth:`PinLockout.next_failure`) before the lockout counts it:
    ``operator_login_failed`` (``detail`` added), ``operator_lockout`` when it locks the PIN
    pad and ``operator_accounts_locked`` when it locks accounts."""
    failed = {"purpose": purpose, "failures": failure.failures, **detail}
    if shared:
        failed["reason"] = "the PIN of more than one account"
    out = [("operator_login_failed", failed)]
    if failure.pad_until is not None:
        until = utc_stamp(failure.pad_until)
        out.append(
            ("operator_lockout", {"failures": failure.failures, "purpose": purpose, "until": until})
        )
    if failure.accounts:
        assert failure.accounts_until is not None
        locked = {
            "accounts": list(failure.accounts),
            "failures": MAX_FAILURES,
            "purpose": purpose,
            "until": utc_stamp(failure.accounts_until),
        }
        out.append((ACCOUNTS_LOCKED, locked))
    return out


class Operators:
    """Tilts, the door switch, operator login and RAM clear.  Owns the PIN pad's lock,
    the pending RAM clear code and the second operator's countersignature (each with its
    monotonic deadline)."""

    def __init__(self, state: CabinetState, round_: OpenRound, payout: PendingPayout) -> None:
        self.state = state
        self.round = round_
        self.payout = payout
        self._ram_code: tuple[str, float] | None = None
        self._witness: tuple[OperatorAccount, float] | None = None
        self.lockout = PinLockout()
        if state.ledger is not None:
            events = state.ledger.events(LOCK_EVENTS, last=RESTORE_EVENTS)
            self.lockout.restore(events, account_names(state.config))

    def power_up(self) -> None:
        """At power-up: without accounts the ``operators`` tilt stands (login disabled);
        with accounts configured again it is cleared (recorded)."""
        st = self.state
        st.require_ledger()
        if not st.config.accounts:
            if OPERATORS_TILT not in st.tilts and st.config.marker_path.exists():
                st.set_tilt(
                    OPERATORS_TILT,
                    "no operator accounts in the configuration: operator login is disabled; "
                    "add [[operators]] (systemd/install.sh does) and restart",
                )
        elif OPERATORS_TILT in st.tilts:
            st.event(
                "tilt_cleared",
                {"code": OPERATORS_TILT, "operator": None, "reason": "accounts configured"},
            )
            del st.tilts[OPERATORS_TILT]

    # -- tilts and the door -----------------------------------------------------------
    def tilt(self, code: str, message: str) -> None:
        """Stop play with a tilt (recorded).  Codes starting ``device:`` are for devices."""
        self.state.require_ledger()
        if not code or code == LEDGER_TILT:
            raise MachineError(f"tilt code {code!r} is reserved or empty")
        self.state.set_tilt(code, message)

    def clear_tilt(self, code: str) -> None:
        """An operator clears a tilt.  The ledger tilt cannot be cleared from here."""
        st = self.state
        if code == LEDGER_TILT:
            raise NotAuthorised(
                "a ledger fault is cleared only by restoring the ledger", code="ledger_fault"
            )
        st.require_ledger()
        operator = st.require_role("attendant")
        if code not in st.tilts:
            raise WrongState(f"no tilt {code!r} stands", code="no_tilt", params={"tilt": code})
        st.event("tilt_cleared", {"code": code, "operator": operator, "role": st.operator})
        del st.tilts[code]

    def door(self, open: bool) -> None:
        """The main door switch.  Recorded when it changes; closing it withdraws a RAM
        clear in preparation."""
        st = self.state
        st.require_ledger()
        if bool(open) != st.door_open:
            st.event("door_open" if open else "door_closed", {})
            st.door_open = bool(open)
            if not open:
                self._ram_code = self._witness = None

    # -- login ------------------------------------------------------------------------
    def login(self, pin: str) -> str:
        """Log the person whose PIN is ``pin`` in; returns their role.  Failures are
        recorded and counted towards the PIN pad's lock."""
        st = self.state
        account = self._account(pin, "login")
        self.lockout.succeeded(account.name)
        st.event("operator_login", {"operator": account.name, "role": account.role})
        st.operator, st.operator_name = account.role, account.name
        self._ram_code = self._witness = None
        return account.role

    def logout(self) -> None:
        st = self.state
        if st.operator is not None:
            st.require_ledger()
            st.event("operator_logout", {"operator": st.operator_name, "role": st.operator})
            st.operator = st.operator_name = None
        self._ram_code = self._witness = None

    def _account(self, pin: str, purpose: str) -> OperatorAccount:
        """The one account whose PIN is ``pin``; else the failure is recorded (and may
        lock the PIN pad) and :class:`NotAuthorised` raised."""
        st = self.state
        st.require_ledger()
        found = pin_accounts(st.config, self.lockout, pin, st.clock())
        if len(found) == 1:
            return found[0]
        self._failed(purpose, shared=len(found) > 1)
        raise wrong_pin_refusal(self.lockout, st.clock())

    def _failed(self, purpose: str, *, shared: bool) -> None:
        st = self.state
        ledger = st.require_ledger()
        names = account_names(st.config)
        failure = self.lockout.next_failure(st.clock(), names)
        # who was logged in (a second PIN's manager)
        who = {"operator": st.operator_name, "role": st.operator}
        with ledger.transaction():
            for kind, detail in failure_events(failure, purpose, shared, who):
                st.event(kind, detail)
        self.lockout.apply(failure, names)
        if failure.pad_until is not None:
            st.set_tilt(
                LOCKOUT_TILT,
                f"{MAX_FAILURES} wrong PINs: the PIN pad is locked until "
                f"{failure.pad_until:%H:%M} UTC",
            )
        elif failure.accounts:
            st.set_tilt(
                LOCKOUT_TILT,
                f"{MAX_FAILURES} wrong PINs: {len(failure.accounts)} operator account(s) "
                f"locked until {failure.accounts_until:%H:%M} UTC",
            )

    def require_door_change(self, role: str, what: str) -> None:
        """A configuration change (paytable, limits): an operator of ``role`` or above
        logged in, and the main door open."""
        st = self.state
        st.require_ledger()
        st.require_role(role)
        st.require_door_open(what)

    # -- RAM clear --------------------------------------------------------------------
    def ram_clear_witness(self, pin: str) -> str:
        """A second person countersigns the logged-in manager's RAM clear with their PIN
        (door open); returns their name.  Valid for two minutes, until the door closes or
        the manager logs out."""
        st = self.state
        st.require_ledger()
        manager = st.require_role("manager")
        st.require_door_open("a RAM clear")
        account = self._account(pin, "ram_clear_witness")
        if account.name == st.operator_name:
            raise NotAuthorised(
                "the second PIN must be another operator's", code="same_operator"
            )
        self.lockout.succeeded(account.name)
        st.event(
            "ram_clear_witnessed",
            {
                "operator": manager,
                "role": st.operator,
                "witness": account.name,
                "witness_role": account.role,
            },
        )
        self._witness = (account, time.monotonic() + RAM_CLEAR_CODE_SECONDS)
        return account.name

    def _require_witness(self) -> OperatorAccount:
        witness = self._witness
        if witness is None or time.monotonic() > witness[1]:
            self._witness = None
            raise NotAuthorised(
                "a RAM clear needs a second operator's PIN first (valid for two minutes)",
                code="witness_required",
            )
        return witness[0]

    def ram_clear_request(self) -> str:
        """Step one of a RAM clear (manager, door open, a second operator's PIN given):
        returns a code to confirm within two minutes."""
        st = self.state
        st.require_ledger()
        operator = st.require_role("manager")
        st.require_door_open("a RAM clear")
        witness = self._require_witness()
        code = f"{secrets.randbelow(10**6):06d}"
        st.event(
            "ram_clear_requested",
            {"operator": operator, "role": st.operator, "witness": witness.name},
        )
        self._ram_code = (code, time.monotonic() + RAM_CLEAR_CODE_SECONDS)
        return code

    def ram_clear(self, confirm_code: str) -> None:
        """Step two (manager, door open, the second operator's PIN still valid): void an
        open round (stakes refunded), fail a pending payout, remove the credits, clear
        tilts and bets.  The history and lifetime meters stay."""
        st = self.state
        ledger = st.require_ledger()
        operator = st.require_role("manager")
        st.require_door_open("a RAM clear")
        pending, self._ram_code = self._ram_code, None
        if pending is None or time.monotonic() > pending[1]:
            raise WrongState(
                "request a RAM clear first (the code expires after two minutes)",
                code="ram_clear_not_requested",
            )
        if not secrets.compare_digest(confirm_code.encode(), pending[0].encode()):
            raise NotAuthorised("wrong RAM clear confirmation code", code="wrong_code")
        witness = self._require_witness()
        with ledger.transaction():
            voided = self.round.void()
            self.payout.cancel("ram_clear")
            st.event(
                "ram_clear",
                {
                    "operator": operator,
                    "role": st.operator,
                    "witness": witness.name,
                    "witness_role": witness.role,
                    "meters": dict(ledger.meters),
                    "voided_round": voided,
                },
                amount=ledger.meters[CREDITS],
            )
        self._witness = None
        st.round, st.round_open, st.cashout = None, False, None
        st.tilts.clear()
        st.clear_bets()
        st.last_bets = Bets()
