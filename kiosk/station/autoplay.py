"""The station's burn-in: a seeded random player on a :class:`RemoteTable`, headless.

Each betting window it inserts a note (``test_credits``: a burn-in's test credits)
when its credits cannot cover a round at the Ante it picks (with ``own_notes`` off, at a station with a validator, it waits for a
patron's note instead), sometimes passes, sometimes cashes out, else places a random Ante (a
multiple of the step within the limits) and sometimes Trips, and presses Deal; in a
round it picks a random decision among those offered.  It plays the attendant's part
too: a pending handpay is reset and a jackpot tilt cleared (the jackpot paid by hand),
each by an attendant logged in at the station with ``attendant_pin`` (the demo's, by
default), as the table records every such action with the person.  A refused login
(``pin_locked``: the PIN pad locked by wrong PINs; ``wrong_pin``) or refused test credits
(``credit_limit``...) are tried again only after a back-off that doubles from
``backoff[0]`` to ``backoff[1]`` seconds; what it waits for is said once, and again when
it ends.
It stops after ``rounds`` rounds its seat was settled in, cashing out what is left so
the table no longer waits for it.  The same seed makes the same choices for the same
snapshots.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from kiosk.config import DEMO_PINS
from kiosk.game import commands as cmd
from kiosk.game.vocabulary import JACKPOT_TILT
from kiosk.link.messages import OperatorLogin, OperatorLogout, OperatorSession
from kiosk.service.device_commands import Pass
from kiosk.service.snapshot import StationSnapshot
from kiosk.station.remote import RemoteTable

#: The most one round can take from the meter, in Antes (Ante, Blind and a 4x Play).
ROUND_ANTES = 6
#: The first and the longest wait (seconds) before a refused login or test credits are
#: tried again.
BACKOFF_S = (1.0, 60.0)


@dataclass
class AutoplayReport:
    """What one burn-in session did (amounts in cents)."""

    rounds: list[int] = field(default_factory=list)  # the seat's settled rounds, in order
    notes_in: int = 0
    test_credits_in: int = 0  # a burn-in's test credits (a station without a validator)
    decisions: int = 0
    passes: int = 0
    cash_outs: int = 0
    refusals: int = 0
    timed_out: int = 0


Say = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


class Backoff:
    """Waits between tries of one refused request: none until the first refusal, then
    ``first`` seconds doubling to ``longest``; :meth:`ok` ends the wait."""

    def __init__(self, first: float, longest: float) -> None:
        self.first, self.longest = first, longest
        self.delay = 0.0
        self.after = 0.0  # monotonic time before which the request is not sent again
        self.why: str | None = None  # the refusal's code while backing off

    def ready(self) -> bool:
        return time.monotonic() >= self.after

    def refused(self, code: str) -> bool:
        """Count a refusal of ``code``; True when it starts a wait (say it once)."""
        self.delay = min(self.longest, self.delay * 2 if self.delay else self.first)
        self.after = time.monotonic() + self.delay
        first, self.why = self.why != code, code
        return first

    def ok(self) -> bool:
        """The request went through; True when that ends a wait (say so)."""
        ended = self.why is not None
        self.delay, self.after, self.why = 0.0, 0.0, None
        return ended


class RandomPlayer:
    """A seeded random player (see module); :meth:`run` plays until done."""

    def __init__(
        self,
        remote: RemoteTable,
        seed: int,
        *,
        note: int = 10_000,
        think_s: float = 0.0,
        pass_chance: float = 0.1,
        cash_out_chance: float = 0.05,
        own_notes: bool = True,
        say: Say = _quiet,
        test_credits: bool = False,
        attendant_pin: str | None = DEMO_PINS["attendant"],
        backoff: tuple[float, float] = BACKOFF_S,
    ) -> None:
        self.remote = remote
        self.login_wait = Backoff(*backoff)  # after a refused attendant login
        self.credits_wait = Backoff(*backoff)  # after refused test credits
        self.attendant_pin = attendant_pin
        self.test_credits = test_credits  # a burn-in's test credits instead of notes
        self.rng = random.Random(seed)
        self.note = note
        self.think_s = think_s
        self.pass_chance = pass_chance
        self.cash_out_chance = cash_out_chance
        self.own_notes = own_notes  # False at a station with a validator: patrons feed it
        self.say = say
        self.report = AutoplayReport()
        self._acted_window = 0  # the betting window we have bet or passed in
        self._decided: set[tuple[int, str]] = set()
        self._timed_out: set[tuple[int, str]] = set()
        self._errors_seen = 0
        self._last_decision: tuple[int, str] | None = None
        self._resets = 0
        self._tilts: tuple[str, ...] = ()
        self._said_tilts: tuple[str, ...] = ()
        self._handpay_window = 0
        self._handpay_after = 0.0  # no handpay reset before then (a ticket is printing)
        self._mark = (0, 0.0)  # progress and time when the last action was sent
        self._waiting = False

    def run(
        self, rounds: int, timeout: float = 120.0, stop: threading.Event | None = None
    ) -> AutoplayReport:
        """Play until the seat has been settled in ``rounds`` rounds, then cash out (or
        until ``stop`` is set).  Raises :class:`TimeoutError` when the table shows nothing
        new for ``timeout`` seconds."""
        first = self.remote.wait_for(lambda s: True, timeout)
        if first is None:
            raise TimeoutError("no snapshot from the table host")
        self.say(f"resynced credits={first.credits} round_open={first.round_open}")
        progress = -1
        idle_since = time.monotonic()
        while stop is None or not stop.is_set():
            snap = self.remote.snapshot()
            assert snap is not None
            self._note(snap)
            if not self._answered():
                pass  # the host has not answered the last action yet
            elif snap.tilts:
                self._tilted(snap)
            elif len(self.report.rounds) >= rounds and not snap.round_open:
                if self._finish(snap):
                    return self.report
            else:
                self._tilts = self._said_tilts = ()
                self._step(snap)
            now = self.remote.wait_change(progress, 0.5)
            if now != progress or self.login_wait.why or self.credits_wait.why:
                progress, idle_since = now, time.monotonic()  # a back-off is no idle table
            elif time.monotonic() - idle_since > timeout:
                raise TimeoutError(f"the table showed nothing new for {timeout} s")
        return self.report

    # -- one look at the table ---------------------------------------------------------------
    def _send(self, command: object) -> None:
        """Send ``command``; the next look waits for the host's answer (or a second)."""
        self._mark = (self.remote.progress(), time.monotonic())
        self.remote.execute(command)
        self._waiting = True

    def _answered(self) -> bool:
        if self._waiting and (
            self.remote.progress() > self._mark[0] or time.monotonic() - self._mark[1] > 1.0
        ):
            self._waiting = False
        return not self._waiting

    def _note(self, snap: StationSnapshot) -> None:
        if self.remote.resets != self._resets:
            # the host restarted: what was in flight is gone, so decide and bet again
            self._resets = self.remote.resets
            self._decided.clear()
            self._acted_window = self._handpay_window = 0
            # a ticket in the printer is reported (and ordered again) before any handpay
            self._handpay_after = time.monotonic() + 2.0
        errors = self.remote.errors
        if len(errors) > self._errors_seen:
            for err in errors[self._errors_seen :]:
                self.say(f"refused {err.code}: {err.detail}")
                if err.code == "table.ticket_printing":  # its ticket is printing: wait
                    self._handpay_after = time.monotonic() + 1.0
                if err.code == "decision.stale" and self._last_decision is not None:
                    self._decided.discard(self._last_decision)  # decide again, up to date
            self.report.refusals += len(errors) - self._errors_seen
            self._errors_seen = len(errors)
            self._acted_window = self._handpay_window = 0  # try again in this window
        if snap.result is not None and snap.round_id is not None:
            if snap.round_id not in self.report.rounds:
                self.report.rounds.append(snap.round_id)
                self.say(
                    f"settled round={snap.round_id} credits={snap.credits} "
                    f"net={snap.result.returned - snap.result.staked}"
                )
        timed = snap.timed_out
        if timed is not None and (timed.round_id, timed.phase.value) not in self._timed_out:
            self._timed_out.add((timed.round_id, timed.phase.value))
            self.report.timed_out += 1
            self.say(f"timed out round={timed.round_id} phase={timed.phase.value}")

    def _pause(self) -> None:
        if self.think_s:
            time.sleep(self.rng.uniform(self.think_s / 2, self.think_s))

    def _step(self, snap: StationSnapshot) -> None:
        if snap.payout_pending:
            self._handpay()
            return
        if snap.round_open:
            self._decide(snap)
        elif self.remote.window != self._acted_window:
            self._bet(snap)

    def _handpay(self) -> None:
        """The attendant pays the pending handpay and resets it (once per window)."""
        if self._handpay_window != self.remote.window and time.monotonic() >= self._handpay_after:
            if not self.login_wait.ready():
                return
            self._handpay_window = self.remote.window
            self._pause()
            self._attended(cmd.HandpayReset())

    def _attended(self, command: object) -> bool:
        """``command`` sent by the attendant, logged in at this station for it; False
        (nothing sent) when the login is refused: the next try waits (:class:`Backoff`)."""
        if self.attendant_pin is not None:
            if not self.login_wait.ready():
                return False
            pin = self.attendant_pin
            answer = self.remote.operator_request(lambda ref: OperatorLogin(ref=ref, pin=pin), 5.0)
            if not isinstance(answer, OperatorSession) or not answer.accepted:
                code = "no_answer" if answer is None else str(getattr(answer, "code", "refused"))
                detail = getattr(answer, "detail", "") or "the host did not answer"
                self._acted_window = self._handpay_window = 0  # try again after the wait
                if self.login_wait.refused(code):
                    self.say(
                        f"attendant login refused ({code}): {detail}; waiting, trying again "
                        f"at most every {self.login_wait.longest:g} s"
                    )
                return False
            if self.login_wait.ok():
                self.say("attendant login accepted again")
        self._send(command)
        if self.attendant_pin is not None:
            self.remote.operator_request(lambda ref: OperatorLogout(ref=ref), 5.0)
        return True

    def _tilted(self, snap: StationSnapshot) -> None:
        """A tilt stops the station; the attendant pays a jackpot by hand and clears it."""
        if snap.tilts == self._tilts:
            return
        if JACKPOT_TILT in snap.tilts and not self.login_wait.ready():
            return  # the attendant's login waits (the PIN pad's lock)
        if snap.tilts != self._said_tilts:
            self._said_tilts = snap.tilts
            self.say(f"tilted {','.join(snap.tilts)}")
        self._tilts = snap.tilts
        if JACKPOT_TILT in snap.tilts:
            self._pause()
            if not self._attended(cmd.ClearTilt(JACKPOT_TILT)):
                self._tilts = ()  # looked at again once the wait is over

    def _decide(self, snap: StationSnapshot) -> None:
        if not snap.in_round or not snap.offers or snap.round_id is None or snap.phase is None:
            return
        key = (snap.round_id, snap.phase.value)
        if key in self._decided:
            return
        self._pause()
        offer = self.rng.choice(snap.offers)
        self._decided.add(key)
        self._last_decision = key
        self._send(cmd.Decide(offer.action))
        self.report.decisions += 1
        self.say(f"decided round={snap.round_id} phase={snap.phase.value} {offer.action.value}")

    def _bet(self, snap: StationSnapshot) -> None:
        limits = self.remote.limits
        if limits is None:
            return
        step, low, high = limits.ante_step, limits.ante_min, limits.ante_max
        if snap.credits >= ROUND_ANTES * low and self.rng.random() < self.cash_out_chance:
            if self.report.rounds:
                self._pause()
                self._send(cmd.CashOut())
                self.report.cash_outs += 1
                self.say(f"cash out credits={snap.credits}")
                return
        if snap.credits < ROUND_ANTES * low:
            if self.test_credits:
                if not self.credits_wait.ready():
                    return
                self._pause()
                ack = self.remote.test_credits(self.note, 10.0)
                if ack is not None and ack.accepted:
                    self.report.test_credits_in += self.note
                    self.credits_wait.ok()
                    self.say(f"test credits in cents={self.note}")
                    return
                code = "no_answer" if ack is None else ack.code or "refused"
                if self.credits_wait.refused(code):
                    why = "the host did not answer" if ack is None else ack.reason
                    self.say(
                        f"test credits refused ({code}): {why}; trying again at most every "
                        f"{self.credits_wait.longest:g} s"
                    )
                return
            if not self.own_notes:
                return  # a note of its own would supersede the validator's escrow
            self._pause()
            ack = self.remote.insert_note(self.note, 10.0)
            if ack is not None and ack.accepted:
                self.report.notes_in += self.note
                self.say(f"note in cents={self.note}")
            return
        self._pause()
        others_ready = any(s.ready for s in snap.seats if s.seat != snap.station)
        if others_ready and self.rng.random() < self.pass_chance:  # sit one out, not all
            self._acted_window = self.remote.window
            self._send(Pass())
            self.report.passes += 1
            self.say(f"pass window={self._acted_window}")
            return
        top = min(high, snap.credits // ROUND_ANTES) // step * step
        ante = self.rng.randrange(low, top + 1, step)
        self.remote.execute(cmd.PlaceChip("ante", ante))
        left = snap.credits - ROUND_ANTES * ante
        t_low, t_high = limits.trips_min, min(limits.trips_max, left)
        if t_high >= t_low and self.rng.random() < 0.3:
            self.remote.execute(cmd.PlaceChip("trips", self.rng.randrange(t_low, t_high + 1)))
        self._acted_window = self.remote.window
        self._send(cmd.Deal())

    def _finish(self, snap: StationSnapshot) -> bool:
        """Cash out what is left; True once the meter is at zero with nothing pending."""
        if snap.payout_pending:
            self._handpay()
            return False
        if snap.credits:
            if self.remote.window != self._acted_window:
                self._acted_window = self.remote.window
                self._send(cmd.CashOut())
                self.report.cash_outs += 1
            return False
        return True
