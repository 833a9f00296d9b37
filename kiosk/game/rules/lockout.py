"""The PIN pad's lock and the accounts' locks, shared by the cabinet and the table host.

Two counts of wrong PINs, each rebuilt at power-up from the recorded events (a right
PIN: ``operator_login``, ``ram_clear_witnessed``; a wrong one: ``operator_login_failed``;
the locks: ``operator_lockout``, ``operator_accounts_locked``), so a power cycle neither
resets a count nor lifts a lock:

* **The PIN pad** (the cabinet's, or the whole table's): :data:`MAX_FAILURES` wrong PINs
  in a row lock it (every PIN refused, ``pin_locked``); any right PIN starts this count
  again.
* **Each account**: a wrong PIN is a guess at every account, so it counts against every
  account not locked; only that account's own right PIN starts its count again, never
  another account's.  The :data:`MAX_FAILURES`-th locks the accounts it reaches: while
  locked, the account's own PIN is answered exactly as a wrong PIN is (and counted as
  one), so a guesser cannot tell that a guess matched.

Each lock lasts :data:`LOCK_DURATION` doubled for every earlier lock of the same pad or
account within :data:`BACKOFF_WINDOW` (15, 30, 60, 120 minutes), at most
:data:`MAX_LOCK` (4 hours).  Times are the cabinet clock's (UTC).

The cap's arithmetic: a guesser gets :data:`MAX_FAILURES` wrong PINs per lock, so at most
5 x 24 h / 4 h = 30 guesses a day once the cap is reached (about 50 on the first day).
A PIN has 6 to 12 digits (:mod:`kiosk.pins`), so at least 10^6 - 10 of them; each guess
is tried against every account at once, so with ``k`` accounts the expected number of
guesses before one matches is about 10^6 / (k + 1): 500,000 guesses (45 years) for one
account, 90,900 (8.3 years) for ten; every lock tilts the station it was typed at and
is recorded.  What the cap bounds in turn is how long a guesser can keep the staff out:
4 hours, and a lock ends before its time when a manager or technician proves presence
another way (``operator_lockout_lifted``, recorded with the people: the main door opened
with its key and two people's PINs, or a technician's PIN at the table host):
:meth:`PinLockout.lift`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from kiosk.ledger.kinds import EventKind
from kiosk.ledger.records import EventRecord

#: Wrong PINs that lock the PIN pad (in a row) or an account (since its own right PIN).
MAX_FAILURES = 5
#: How long a first lock lasts; each earlier lock within :data:`BACKOFF_WINDOW` doubles it.
LOCK_DURATION = timedelta(minutes=15)
#: The longest lock (the cap of the doubling; see the module for the arithmetic).
MAX_LOCK = timedelta(hours=4)
#: Locks this recent make the next one longer.
BACKOFF_WINDOW = timedelta(hours=24)
#: The event kinds the locks are rebuilt from.
LOCK_EVENTS = (
    EventKind.OPERATOR_LOGIN,
    EventKind.RAM_CLEAR_WITNESSED,
    EventKind.OPERATOR_LOGIN_FAILED,
    EventKind.OPERATOR_LOCKOUT,
    EventKind.OPERATOR_ACCOUNTS_LOCKED,
    EventKind.OPERATOR_LOCKOUT_LIFTED,
)
#: How many of the last :data:`LOCK_EVENTS` power-up reads (enough for a day of locks).
RESTORE_EVENTS = 5000
#: The key of the PIN pad in :attr:`PinLockout.history`.
PAD = ""


def parse_stamp(stamp: str) -> datetime:
    """A ledger time stamp (``2025-03-01T12:00:00.123Z``) as an aware datetime."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


@dataclass(frozen=True)
class Failure:
    """What one more wrong PIN at ``now`` does: the pad's count after it (``failures``),
    the pad's lock end if it locks the pad, and the accounts it locks with their end."""

    now: datetime
    failures: int
    pad_until: datetime | None
    accounts: tuple[str, ...]
    accounts_until: datetime | None


@dataclass
class PinLockout:
    """The counts and locks of the module.  Invariants: ``failures`` and every
    ``account_failures`` value are below :data:`MAX_FAILURES`; a lock restarts its count."""

    failures: int = 0
    until: datetime | None = None
    account_failures: dict[str, int] = field(default_factory=dict)
    account_until: dict[str, datetime] = field(default_factory=dict)
    history: dict[str, list[datetime]] = field(default_factory=dict)

    # -- reading ---------------------------------------------------------------------
    def locked_until(self, now: datetime) -> datetime | None:
        """When the PIN pad's lock ends, while it holds at ``now``; else None."""
        if self.until is not None and now >= self.until:
            self.until = None
        return self.until

    def account_locked(self, name: str, now: datetime) -> datetime | None:
        """When account ``name``'s lock ends, while it holds at ``now``; else None."""
        until = self.account_until.get(name)
        if until is not None and now >= until:
            del self.account_until[name]
            return None
        return until

    def accounts_locked(self, now: datetime) -> datetime | None:
        """The latest end of any account's lock holding at ``now``; None when none holds."""
        ends = [u for n in list(self.account_until) if (u := self.account_locked(n, now))]
        return max(ends) if ends else None

    def lock_length(self, key: str, now: datetime) -> timedelta:
        """How long a new lock of ``key`` (:data:`PAD` or an account) at ``now`` lasts."""
        earlier = [t for t in self.history.get(key, []) if now - t < BACKOFF_WINDOW]
        return min(LOCK_DURATION * (2 ** min(len(earlier), 10)), MAX_LOCK)

    # -- counting --------------------------------------------------------------------
    def next_failure(self, now: datetime, accounts: Iterable[str]) -> Failure:
        """What one more wrong PIN at ``now`` would do, ``accounts`` being every
        configured account's name; changes nothing (:meth:`apply` does)."""
        failures = self.failures + 1
        pad_until = now + self.lock_length(PAD, now) if failures >= MAX_FAILURES else None
        locking = tuple(
            name
            for name in accounts
            if self.account_locked(name, now) is None
            and self.account_failures.get(name, 0) + 1 >= MAX_FAILURES
        )
        longest = max((self.lock_length(n, now) for n in locking), default=None)
        return Failure(
            now, failures, pad_until, locking, None if longest is None else now + longest
        )

    def apply(self, failure: Failure, accounts: Iterable[str]) -> None:
        """Count ``failure`` (from :meth:`next_failure`, once recorded)."""
        now = failure.now
        for name in accounts:
            if name in failure.accounts:
                assert failure.accounts_until is not None
                self._lock(name, now, failure.accounts_until)
            elif self.account_locked(name, now) is None:
                self.account_failures[name] = min(
                    self.account_failures.get(name, 0) + 1, MAX_FAILURES - 1
                )
        if failure.pad_until is not None:
            self.failures, self.until = 0, failure.pad_until
            self.history.setdefault(PAD, []).append(now)
        else:
            self.failures = min(failure.failures, MAX_FAILURES - 1)

    def succeeded(self, name: str | None = None) -> None:
        """A right PIN (of account ``name``): the pad's count and that account's start
        again; other accounts' counts stay."""
        self.failures = 0
        if name is not None:
            self.account_failures.pop(name, None)

    def locked(self, now: datetime) -> bool:
        """Whether the PIN pad or any account is locked at ``now``."""
        return self.locked_until(now) is not None or self.accounts_locked(now) is not None

    def lift(self) -> None:
        """Every lock ends now and every count starts again (people proved presence); the
        history stays, so the next lock is as long as it would have been."""
        self.failures, self.until = 0, None
        self.account_failures, self.account_until = {}, {}

    def _lock(self, name: str, at: datetime, until: datetime) -> None:
        self.account_failures.pop(name, None)
        self.account_until[name] = until
        self.history.setdefault(name, []).append(at)

    # -- power-up --------------------------------------------------------------------
    def restore(self, events: Iterable[EventRecord], accounts: Iterable[str] = ()) -> None:
        """Rebuild from the last :data:`LOCK_EVENTS` events, oldest first, ``accounts``
        being every configured account's name."""
        names = list(accounts)
        self.failures, self.until = 0, None
        self.account_failures, self.account_until, self.history = {}, {}, {}
        for ev in events:
            at, d = parse_stamp(ev.at), ev.detail
            if ev.kind == EventKind.OPERATOR_LOGIN:
                self.succeeded(str(d.get("operator")))
            elif ev.kind == EventKind.RAM_CLEAR_WITNESSED:
                self.succeeded(str(d.get("witness")))
            elif ev.kind == EventKind.OPERATOR_LOGIN_FAILED:
                self.failures = min(self.failures + 1, MAX_FAILURES - 1)
                for name in names:
                    if self.account_locked(name, at) is None:
                        count = self.account_failures.get(name, 0) + 1
                        self.account_failures[name] = min(count, MAX_FAILURES - 1)
            elif ev.kind == EventKind.OPERATOR_LOCKOUT:
                self.failures = 0
                self.until = parse_stamp(str(d["until"])) if "until" in d else at + LOCK_DURATION
                self.history.setdefault(PAD, []).append(at)
            elif ev.kind == EventKind.OPERATOR_ACCOUNTS_LOCKED:
                until = parse_stamp(str(d["until"]))
                for name in d.get("accounts", []):
                    self._lock(str(name), at, until)
            elif ev.kind == EventKind.OPERATOR_LOCKOUT_LIFTED:
                self.lift()
