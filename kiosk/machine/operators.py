"""The operator side of :class:`Machine`: tilts, the door, operator login, paytable and
limit changes, RAM clear."""

from __future__ import annotations

import importlib
import logging
import secrets
import time
from pathlib import Path

from pydantic import ValidationError

from engine.uth.paytable import Limits, Paytable, PaytableError, load_paytable
from kiosk.ledger.ledger import CREDITS
from kiosk.machine.operation import _operation
from kiosk.machine.types import (
    BOUNDED_RTPS,
    LEDGER_TILT,
    RAM_CLEAR_CODE_SECONDS,
    ConfigurationError,
    MachineError,
    NotAuthorised,
    WrongState,
)

log = logging.getLogger("kiosk.machine.controller")


class OperatorMixin:
    """Tilts, door, operators, configuration and RAM clear (mixed into :class:`Machine`)."""

    # -- tilts, door, operators -----------------------------------------------------------------------
    @_operation
    def tilt(self, code: str, message: str) -> None:
        """Stop play with a tilt (recorded).  Codes starting ``device:`` are for devices."""
        self._require_ledger()
        if not code or code == LEDGER_TILT:
            raise MachineError(f"tilt code {code!r} is reserved or empty")
        self._set_tilt(code, message)

    @_operation
    def clear_tilt(self, code: str) -> None:
        """An operator clears a tilt.  The ledger tilt cannot be cleared from here."""
        if code == LEDGER_TILT:
            raise NotAuthorised(
                "a ledger fault is cleared only by restoring the ledger", code="ledger_fault"
            )
        self._require_ledger()
        self._require_role("attendant")
        if code not in self._tilts:
            raise WrongState(f"no tilt {code!r} stands", code="no_tilt", params={"tilt": code})
        self._event("tilt_cleared", {"code": code, "operator": self._operator})
        del self._tilts[code]

    @_operation
    def door(self, open: bool) -> None:
        """The main door switch.  Recorded when it changes."""
        self._require_ledger()
        if bool(open) != self._door_open:
            self._event("door_open" if open else "door_closed", {})
            self._door_open = bool(open)

    @_operation
    def operator_login(self, pin: str) -> str:
        """Log an operator in by PIN; returns the role.  Failures are recorded."""
        self._require_ledger()
        role = self.config.role_for_pin(pin)
        if role is None:
            self._event("operator_login_failed", {})
            raise NotAuthorised("wrong PIN", code="wrong_pin")
        self._event("operator_login", {"role": role})
        self._operator = role
        return role

    @_operation
    def operator_logout(self) -> None:
        if self._operator is not None:
            self._require_ledger()
            self._event("operator_logout", {"role": self._operator})
            self._operator = None

    @_operation
    def set_paytable(self, path: str | Path) -> None:
        """Put another paytable in force (technician or manager; zero credits, no round).

        Its RTP is checked against the configured bounds when :mod:`engine.maths.par` can tell
        it; the change is recorded with the operator, the old and the new paytable."""
        ledger = self._require_ledger()
        self._require_role("technician")
        self._require_quiet("the paytable changes")
        try:
            table = load_paytable(path)
        except PaytableError as exc:
            raise ConfigurationError(str(exc)) from None
        rtp = self._check_rtp(table)
        old = self._paytable
        with ledger.transaction():
            ledger.store_paytable(table)
            self._event(
                "paytable_changed",
                {
                    "operator": self._operator,
                    "rtp": rtp,
                    "old": {"sha256": old.sha256, "name": old.name, "version": old.version},
                    "new": {
                        "sha256": table.sha256,
                        "name": table.name,
                        "version": table.version,
                        "source": table.source_name,
                    },
                },
            )
        self._paytable, self._limits = table, table.limits
        self._pending = {"ante": 0, "trips": 0}

    def _check_rtp(self, table: Paytable) -> dict[str, float]:
        """RTP of ``table`` (percent) from ``engine.maths.par.cached_rtp``, with the main game (per
        total wager) and Trips checked against the configured bounds.  A table whose exact
        RTP is not known (not computed yet, or the maths unavailable) is refused: a
        paytable goes live only with its return proven within the bounds."""
        unknown = ConfigurationError(
            f"the exact RTP of {table.name} {table.version} is not known: "
            f"run `uth paytable check {table.source_name or 'FILE'}` first",
            code="rtp_unknown",
        )
        try:
            par = importlib.import_module("engine.maths.par")
            figures = par.cached_rtp(table)
        except Exception as exc:  # noqa: BLE001 - any failure means the RTP is not proven
            log.warning("RTP of %s unavailable: %s", table.name, exc)
            raise unknown from None
        if not figures:
            raise unknown
        pct = {str(k): round(float(v) * 100, 4) for k, v in figures.items()}
        lo, hi = self.config.rtp_min_pct, self.config.rtp_max_pct
        for key in BOUNDED_RTPS:
            if key in pct and not lo <= pct[key] <= hi:
                raise ConfigurationError(
                    f"{table.name} {table.version}: {key} RTP {pct[key]:.3f}% is outside the approved {lo}%-{hi}%"
                )
        return pct

    @_operation
    def set_limits(
        self,
        *,
        ante_min: int | None = None,
        ante_max: int | None = None,
        trips_min: int | None = None,
        trips_max: int | None = None,
    ) -> None:
        """Narrow the table limits within the paytable's (technician or manager; zero
        credits, no round).  Recorded with the operator, old and new limits."""
        self._require_ledger()
        self._require_role("technician")
        self._require_quiet("the limits change")
        old = self._limits
        update = {
            k: v
            for k, v in (
                ("ante_min", ante_min),
                ("ante_max", ante_max),
                ("trips_min", trips_min),
                ("trips_max", trips_max),
            )
            if v is not None
        }
        try:
            new = Limits.model_validate({**old.model_dump(), **update})
        except ValidationError as exc:
            raise ConfigurationError(exc.errors()[0]["msg"].removeprefix("Value error, ")) from None
        base = self._paytable.limits
        if (
            new.ante_min < base.ante_min
            or new.ante_max > base.ante_max
            or new.trips_min < base.trips_min
            or new.trips_max > base.trips_max
        ):
            raise ConfigurationError(
                f"limits must stay within the paytable's: Ante {base.ante_min}-{base.ante_max}, "
                f"Trips {base.trips_min}-{base.trips_max} cents"
            )
        self._event(
            "limits_changed",
            {
                "operator": self._operator,
                "old": old.model_dump(mode="json"),
                "new": new.model_dump(mode="json"),
            },
        )
        self._limits = new
        self._pending = {"ante": 0, "trips": 0}

    # -- RAM clear --------------------------------------------------------------------------------------------
    @_operation
    def ram_clear_request(self) -> str:
        """Step one of a RAM clear (manager): returns a code to confirm within two minutes."""
        self._require_ledger()
        self._require_role("manager")
        code = f"{secrets.randbelow(10**6):06d}"
        self._ram_code = (code, time.monotonic() + RAM_CLEAR_CODE_SECONDS)
        self._event("ram_clear_requested", {"operator": self._operator})
        return code

    @_operation
    def ram_clear(self, confirm_code: str) -> None:
        """Step two (manager): void an open round (stakes refunded), fail a pending payout,
        remove the credits, clear tilts and bets.  The history and lifetime meters stay."""
        ledger = self._require_ledger()
        self._require_role("manager")
        pending, self._ram_code = self._ram_code, None
        if pending is None or time.monotonic() > pending[1]:
            raise WrongState(
                "request a RAM clear first (the code expires after two minutes)",
                code="ram_clear_not_requested",
            )
        if not secrets.compare_digest(confirm_code, pending[0]):
            raise NotAuthorised("wrong RAM clear confirmation code", code="wrong_code")
        with ledger.transaction():
            row = ledger.open_round
            if row is not None:
                staked = row["ante"] + row["blind"] + row["trips"] + row["play"]
                ledger.update_round(
                    {
                        "state": "voided",
                        "settled_at": self._stamp(),
                        "outcome": "void",
                        "paid": staked,
                        "jackpot": 0,
                        "credits_after": row["credits_before"],
                    }
                )
            if self._cashout is not None:
                self._void_ticket_of(self._cashout.transaction_id, "ram_clear")
                self._event(
                    "cashout_failed",
                    {"reason": "ram_clear"},
                    amount=self._cashout.amount,
                    txn=self._cashout.transaction_id,
                )
            meters = dict(ledger.meters)
            self._event(
                "ram_clear",
                {
                    "operator": self._operator,
                    "meters": meters,
                    "voided_round": row["id"] if row else None,
                },
                amount=ledger.meters[CREDITS],
            )
        self._round, self._round_open, self._cashout = None, False, None
        self._tilts.clear()
        self._pending = {"ante": 0, "trips": 0}
        self._show_result = False
        self._last_bets = (0, 0)
