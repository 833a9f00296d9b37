"""The operators' side of the cabinet: tilts, the door, login by PIN, RAM clear.

Operators log in by PIN (:mod:`kiosk.config` maps PINs to roles): an attendant clears
tilts and keys off handpays; a technician also changes the paytable and limits
(:mod:`kiosk.machine.settings`); a manager also performs a RAM clear
(:meth:`Operators.ram_clear_request`, then :meth:`Operators.ram_clear` with the code it
returned), which voids an open round, removes the credits and clears tilts but keeps
the history and the lifetime meters.  Every step is recorded.
"""

from __future__ import annotations

import secrets
import time
from typing import Protocol

from kiosk.ledger.meters import CREDITS
from kiosk.machine.errors import MachineError, NotAuthorised, WrongState
from kiosk.machine.state import LEDGER_TILT, Bets, CabinetState

#: How long the RAM clear confirmation code stays valid, seconds.
RAM_CLEAR_CODE_SECONDS = 120.0


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


class Operators:
    """Tilts, the door switch, operator login and RAM clear.  Owns the pending RAM
    clear code (with its monotonic deadline)."""

    def __init__(self, state: CabinetState, round_: OpenRound, payout: PendingPayout) -> None:
        self.state = state
        self.round = round_
        self.payout = payout
        self._ram_code: tuple[str, float] | None = None

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
        st.event("tilt_cleared", {"code": code, "operator": operator})
        del st.tilts[code]

    def door(self, open: bool) -> None:
        """The main door switch.  Recorded when it changes."""
        st = self.state
        st.require_ledger()
        if bool(open) != st.door_open:
            st.event("door_open" if open else "door_closed", {})
            st.door_open = bool(open)

    # -- login ------------------------------------------------------------------------
    def login(self, pin: str) -> str:
        """Log an operator in by PIN; returns the role.  Failures are recorded."""
        st = self.state
        st.require_ledger()
        role = st.config.role_for_pin(pin)
        if role is None:
            st.event("operator_login_failed", {})
            raise NotAuthorised("wrong PIN", code="wrong_pin")
        st.event("operator_login", {"role": role})
        st.operator = role
        return role

    def logout(self) -> None:
        st = self.state
        if st.operator is not None:
            st.require_ledger()
            st.event("operator_logout", {"role": st.operator})
            st.operator = None

    # -- RAM clear --------------------------------------------------------------------
    def ram_clear_request(self) -> str:
        """Step one of a RAM clear (manager): returns a code to confirm within two minutes."""
        st = self.state
        st.require_ledger()
        operator = st.require_role("manager")
        code = f"{secrets.randbelow(10**6):06d}"
        self._ram_code = (code, time.monotonic() + RAM_CLEAR_CODE_SECONDS)
        st.event("ram_clear_requested", {"operator": operator})
        return code

    def ram_clear(self, confirm_code: str) -> None:
        """Step two (manager): void an open round (stakes refunded), fail a pending payout,
        remove the credits, clear tilts and bets.  The history and lifetime meters stay."""
        st = self.state
        ledger = st.require_ledger()
        operator = st.require_role("manager")
        pending, self._ram_code = self._ram_code, None
        if pending is None or time.monotonic() > pending[1]:
            raise WrongState(
                "request a RAM clear first (the code expires after two minutes)",
                code="ram_clear_not_requested",
            )
        if not secrets.compare_digest(confirm_code, pending[0]):
            raise NotAuthorised("wrong RAM clear confirmation code", code="wrong_code")
        with ledger.transaction():
            voided = self.round.void()
            self.payout.cancel("ram_clear")
            st.event(
                "ram_clear",
                {"operator": operator, "meters": dict(ledger.meters), "voided_round": voided},
                amount=ledger.meters[CREDITS],
            )
        st.round, st.round_open, st.cashout = None, False, None
        st.tilts.clear()
        st.clear_bets()
        st.last_bets = Bets()
