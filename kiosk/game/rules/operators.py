"""The operators' side of the cabinet: tilts, the door, login by PIN, RAM clear.

Operators are people (:attr:`kiosk.config.CabinetConfig.accounts`: a name, a role and
a PIN).  A PIN logs its person in: an attendant clears tilts and keys off handpays; a
technician also changes the paytable and limits (:mod:`kiosk.game.rules.settings`, with the
main door open); a manager also performs a RAM clear, with the door open and a second
person's PIN: :meth:`Operators.ram_clear_witness` (the second PIN), then
:meth:`Operators.ram_clear_request` and :meth:`Operators.ram_clear` with the code it
returned.  A RAM clear voids an open round, removes the credits and clears tilts but
keeps the history and the lifetime meters.

Every login, failed login and operator action is recorded with the person: events carry
``operator`` (the account's name) and ``role``.  :data:`~kiosk.game.rules.lockout.MAX_FAILURES`
wrong PINs in a row lock the PIN pad, and as many since an account's own right PIN lock
that account, for 15 minutes doubling with each recent lock up to 4 hours
(:mod:`kiosk.game.rules.lockout`; the ``operator_lockout`` / ``operator_accounts_locked``
events and the tilt), unless people lift them (``operator_lockout_lifted``).  A cabinet with no accounts (outside demo mode, without ``[[operators]]``) has
operator login disabled and stands in the ``operators`` tilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol

from kiosk.config import CabinetConfig, OperatorAccount
from kiosk.game.error_codes import ErrorCode
from kiosk.game.errors import NotAuthorised
from kiosk.game.rules.lockout import (
    MAX_FAILURES,
    Failure,
    PinLockout,
)
from kiosk.ledger.chain import utc_stamp
from kiosk.ledger.kinds import EventKind

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
            code=ErrorCode.LOGIN_DISABLED,
        )
    until = lockout.locked_until(now)
    if until is not None:
        raise NotAuthorised(
            f"the PIN pad is locked until {until:%H:%M} UTC after {MAX_FAILURES} wrong PINs",
            code=ErrorCode.PIN_LOCKED,
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
        return NotAuthorised("wrong PIN", code=ErrorCode.WRONG_PIN)
    return NotAuthorised(
        f"wrong PIN, or the PIN of an account locked until {until:%H:%M} UTC after "
        f"{MAX_FAILURES} wrong PINs",
        code=ErrorCode.WRONG_PIN,
        params={"until": until.isoformat()},
    )


def failure_events(
    failure: Failure, purpose: str, shared: bool, detail: Mapping[str, object]
) -> list[tuple[EventKind, dict[str, object]]]:
    """The events (kind, detail) that record one more wrong PIN (``failure``, from
    :meth:`PinLockout.next_failure`) before the lockout counts it:
    ``operator_login_failed`` (``detail`` added), ``operator_lockout`` when it locks the PIN
    pad and ``operator_accounts_locked`` when it locks accounts."""
    failed = {"purpose": purpose, "failures": failure.failures, **detail}
    if shared:
        failed["reason"] = "the PIN of more than one account"
    out = [(EventKind.OPERATOR_LOGIN_FAILED, failed)]
    if failure.pad_until is not None:
        until = utc_stamp(failure.pad_until)
        out.append(
            (
                EventKind.OPERATOR_LOCKOUT,
                {"failures": failure.failures, "purpose": purpose, "until": until},
            )
        )
    if failure.accounts:
        assert failure.accounts_until is not None
        locked = {
            "accounts": list(failure.accounts),
            "failures": MAX_FAILURES,
            "purpose": purpose,
            "until": utc_stamp(failure.accounts_until),
        }
        out.append((EventKind.OPERATOR_ACCOUNTS_LOCKED, locked))
    return out
