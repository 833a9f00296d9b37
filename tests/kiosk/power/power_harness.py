"""The power-cut harness: the controller is SIGKILLed at every phase of the money path
while the validator and the printer keep their power, then restarted on the same
database and the same still-running devices; at the end every note in the cash box is
credited once, every stacked ticket redeemed once, every printed ticket paid once (by
ticket or handpay), and ``uth audit verify --replay`` passes.

Processes: the peripherals (:mod:`power_peripherals`, both simulators on ptys, and the
kills armed on their states) run for the whole harness; this process (run as a script,
single-threaded and warm: everything is imported) plays the patron (it inserts notes and
printed tickets) and forks one controller after the other.  A controller is a cabinet
like ``uth kiosk`` without screens: :class:`kiosk.station.devices.StationDevices` with
the real ID-003 and TCL drivers on the peripherals' ptys, a real SQLite ledger, and an
autoplay loop (bets, deal, random decisions, cash-outs by ticket, attendant handpays).

Each cut is armed on one phase: the validator entering ESCROW (before the decision),
STACKING (acceptance committed, STACK sent), VEND VALID (credit being written), STACKED
(credited and ACKed), the printer accepting or validating a ticket, or a random moment
(deals, decisions, settlements, cash-outs, the start-up itself); each with a random
delay of a few milliseconds.  The controller's own phases are cut at named points
(:data:`CONTROLLER_PHASES`): the controller cuts its own power there (SIGKILL to
itself, after telling the harness which point it reached), steering its play towards
that point.  What the next start-up finds (an open round, a pending payout, an accepted
escrow not finished) is counted.

Prints one JSON line: the cuts tried and landed, by phase, what restarts found, the
reconciliation, and the money lost (cents, which must be 0).
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from devices.id003 import ValidatorConfig
from devices.tcl import PrinterConfig
from engine.rng import SeededRandomSource
from kiosk.cli import main as uth
from kiosk.config import CabinetConfig, load_config
from kiosk.game.commands import (
    CashOut,
    ClearBets,
    ClearTilt,
    Deal,
    Decide,
    HandpayReset,
    OperatorLogin,
    OperatorLogout,
    PlaceChip,
)
from kiosk.game.errors import MachineError
from kiosk.game.snapshot import MachinePhase
from kiosk.game.vocabulary import LEDGER_TILT
from kiosk.ledger.ledger import Ledger, balance
from kiosk.service.escrows import unresolved
from kiosk.station.devices import StationDevices
from kiosk.station.paperless import PaperlessPrinter
from kiosk.wiring.lone_cabinet import LoneCabinet

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
VALIDATOR = ValidatorConfig(poll_interval=0.004, response_timeout=0.3, comm_error_threshold=25)
PRINTER = PrinterConfig(
    poll_interval=0.004,
    response_timeout=0.3,
    busy_timeout=3.0,
    start_timeout=2.0,
    print_timeout=5.0,
)
ANTE = 500
NOTES = (500, 1000, 2000, 5000, 10000)
PIN = "1111"
VALIDATOR_PHASES = ("ESCROW", "STACKING", "VEND_VALID", "STACKED")
PRINTER_PHASES = ("print", "validated")
#: The controller's named cut points: the round row and deck commitment committed, no
#: card shown yet (``deal``); a decision committed, the round still open (``decision``);
#: the settlement committed (``settled``); the cash-out recorded, no print job yet
#: (``cashout``).
CONTROLLER_PHASES = ("deal", "decision", "settled", "cashout")


class Peripherals:
    """The peripherals process and its JSON-lines control channel."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "power_peripherals.py")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        self.ports: dict[str, str] = json.loads(self.proc.stdout.readline())

    def ask(self, **command: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        reply: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return reply

    def close(self) -> None:
        try:
            self.ask(op="quit")
        except (BrokenPipeError, json.JSONDecodeError):
            pass
        self.proc.wait(10)


# -- the controller (a forked child) ------------------------------------------------------
def cut_points(target: str, ready_w: int) -> None:
    """Arm the named point ``target`` (:data:`CONTROLLER_PHASES`) in this controller: when
    it is reached, a line ``{"cut": target}`` goes to the harness and the power goes."""
    from kiosk.service.payouts import Payouts
    from kiosk.service.play import TablePlay

    def cut() -> None:
        os.write(ready_w, (json.dumps({"cut": target}) + "\n").encode())
        os.kill(os.getpid(), signal.SIGKILL)

    deal, decide, cash_out = TablePlay.deal, TablePlay.decide, Payouts.cash_out

    def dealt(self: TablePlay) -> None:
        deal(self)
        if target == "deal":
            cut()

    def decided(self: TablePlay, number: int, action: Any, values: Any = None) -> None:
        decide(self, number, action, values)
        if target == ("decision" if self.state.round_open else "settled"):
            cut()

    def cashed_out(self: Payouts, number: int) -> Any:
        payout = cash_out(self, number)
        if target == "cashout":  # recorded, the ticket written: no print job yet
            cut()
        return payout

    TablePlay.deal = dealt  # type: ignore[method-assign]
    TablePlay.decide = decided  # type: ignore[method-assign]
    Payouts.cash_out = cashed_out  # type: ignore[method-assign]


def cash_out_at(cabinet: LoneCabinet) -> None:
    """Cash out at the cabinet's station (a payout is then pending or paid)."""
    cabinet.station.execute(CashOut())
    assert cabinet.station.snapshot().cashout is not None


def cabinet(
    config: CabinetConfig,
    seed: int,
    ready_w: int,
    stop_r: int,
    target: str | None = None,
    cash_out: bool = False,
) -> int:
    """One controller's life: open, report what the last cut left, then play until
    killed (or until the named point ``target`` cuts it), or (once ``stop_r`` is
    written) cash out and shut down.  ``cash_out``: cash out as soon as there are credits
    (a cycle aimed at the printer)."""
    machine = LoneCabinet.open(config, rng=SeededRandomSource(seed))  # the devices' printer
    devices = StationDevices.of_cabinet(
        config, machine.link, validator_config=VALIDATOR, printer_config=PRINTER
    )
    snap = machine.station.snapshot()
    if any(t.code == LEDGER_TILT for t in snap.tilts):
        os.write(ready_w, (json.dumps({"ledger": snap.tilts[0].message}) + "\n").encode())
        return 3
    assert machine.table.ledger is not None
    found = {
        "round": snap.phase == MachinePhase.IN_ROUND,
        "cashout": snap.cashout is not None,
        "escrow": len(unresolved(machine.table.ledger)),
    }
    devices.start()
    os.write(ready_w, (json.dumps(found) + "\n").encode())
    if target is not None:
        cut_points(target, ready_w)
    rng = random.Random(seed)
    stopping = False
    rounds = 0

    def attendant(*jobs: Any) -> None:
        machine.station.execute(OperatorLogin(PIN))
        try:
            for job in jobs:
                job()
        finally:
            machine.station.execute(OperatorLogout())

    while True:
        if not stopping and select.select([stop_r], [], [], 0)[0]:
            stopping = True
        snap = machine.station.snapshot()
        try:
            if any(t.code == LEDGER_TILT for t in snap.tilts):
                return 3
            if snap.tilts:  # clear what the cut left (recorded; reconciled at the end)
                codes = [t.code for t in snap.tilts]
                attendant(*(lambda c=c: machine.station.execute(ClearTilt(c)) for c in codes))
                time.sleep(0.005)
            elif snap.cashout is not None:
                if snap.cashout.method == "handpay":
                    attendant(lambda: machine.station.execute(HandpayReset()))
                else:
                    time.sleep(0.003)  # printing
            elif snap.phase == MachinePhase.IN_ROUND:
                steer = [a for a in snap.legal if a.value == "check" and target == "decision"]
                machine.station.execute(Decide(steer[0] if steer else rng.choice(snap.legal)))
            elif (target == "cashout" or cash_out) and snap.credits:
                cash_out_at(machine)
            elif stopping:
                if snap.credits:
                    cash_out_at(machine)
                elif devices.idle:
                    break
                else:
                    time.sleep(0.003)
            elif snap.available >= 3 * ANTE:
                if snap.bet_ante != ANTE:
                    machine.station.execute(ClearBets())
                    machine.station.execute(PlaceChip("ante", ANTE))
                machine.station.execute(Deal())
                rounds += 1
                if rounds % 3 == 0:
                    machine.station.execute(Decide(rng.choice(machine.station.snapshot().legal)))
            elif snap.credits and rng.random() < 0.3:
                cash_out_at(machine)
            else:
                time.sleep(0.003)
        except MachineError:
            time.sleep(0.003)
    devices.close()
    machine.close()
    return 0


def forked(
    config: CabinetConfig, seed: int, target: str | None = None, cash_out: bool = False
) -> tuple[int, int, int]:
    """Fork a controller (cut at the named point ``target``, if given); returns (pid,
    ready fd to read, stop fd to write)."""
    ready_r, ready_w = os.pipe()
    stop_r, stop_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the controller: never return into the harness
        code = 1
        try:
            os.close(ready_r)
            os.close(stop_w)
            code = cabinet(config, seed, ready_w, stop_r, target, cash_out)
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(ready_w)
    os.close(stop_r)
    return pid, ready_r, stop_w


def read_line(fd: int, timeout: float) -> str:
    """One line from ``fd`` within ``timeout`` seconds ("" at EOF or timeout)."""
    data = b""
    deadline = time.monotonic() + timeout
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
    return data.decode()


def exited(pid: int) -> bool:
    """Whether the child ended, without reaping it (its pid stays ours)."""
    info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    return info is not None


def patron(
    peripherals: Peripherals, rng: random.Random, inserted: set[str], note: int | None = None
) -> dict[str, Any]:
    """Once the validator takes notes (or after a short wait), insert a note now and
    then (always, when ``note`` cents are given), and printed tickets (now and then one
    again)."""
    deadline = time.monotonic() + 0.3
    held = peripherals.ask(op="state")
    while held["validator"] != "IDLING" and time.monotonic() < deadline:
        time.sleep(0.005)
        held = peripherals.ask(op="state")
    if held["queue"] == 0:
        if rng.random() < 0.75 or note is not None:
            peripherals.ask(op="bill", cents=note or rng.choice(NOTES))
        fresh = [b for b in held["printed"] if b not in inserted]
        if fresh and rng.random() < 0.6:
            inserted.add(fresh[0])
            peripherals.ask(op="ticket", barcode=fresh[0])
        elif held["printed"] and rng.random() < 0.05:
            peripherals.ask(op="ticket", barcode=rng.choice(held["printed"]))
    return held


def pick_phase(rng: random.Random, cycle: int, phases: tuple[str, ...]) -> str:
    """The phase cycle ``cycle`` cuts: ``phases`` in turn when given (a controller's named
    point, or ``device:PHASE``), else drawn at random from every kind of phase."""
    if phases:
        phase = phases[cycle % len(phases)]
        return phase if ":" in phase else f"controller:{phase}"
    roll = rng.random()
    if roll < 0.55:
        return f"validator:{rng.choice(VALIDATOR_PHASES)}"
    if roll < 0.75:
        return f"printer:{rng.choice(PRINTER_PHASES)}"
    if roll < 0.87:
        return f"controller:{rng.choice(CONTROLLER_PHASES)}"
    return "random"


def run(db: Path, cuts: int, seed: int = 11, phases: tuple[str, ...] = ()) -> dict[str, Any]:
    """``cuts`` cycles, each a controller cut at one phase (only the controller's named
    ``phases``, in turn, when given), then a last controller left alone; the summary."""
    started = time.monotonic()
    peripherals = Peripherals()
    try:
        config = load_config(
            db_path=db,
            validator_port=peripherals.ports["validator"],
            printer_port=peripherals.ports["printer"],
        )
        cabinet = LoneCabinet.open(config)  # first run: the ledger, before any fork
        PaperlessPrinter(ready=False).attach(cabinet.link)
        cabinet.close()
        rng = random.Random(seed)
        # the phases come from their own stream: how many cuts each phase gets is fixed by
        # the seed, whatever the patrons' and the delays' draws took meanwhile
        phase_rng = random.Random(f"phases:{seed}")
        inserted: set[str] = set()
        tried: Counter[str] = Counter()
        landed: Counter[str] = Counter()
        found: Counter[str] = Counter()
        for cycle in range(cuts):
            phase = pick_phase(phase_rng, cycle, phases)
            tried[phase] += 1
            device, _, point = phase.partition(":")
            target = point if device == "controller" else None
            printing = device == "printer"
            pid, ready_r, stop_w = forked(config, seed * 100_000 + cycle, target, printing)
            try:
                if device in ("validator", "printer"):
                    delay = 0.0 if rng.random() < 0.4 else rng.uniform(0.0, 0.015)
                    peripherals.ask(op="arm", pid=pid, on=phase, delay=delay)
                kills_before = peripherals.ask(op="state")["kills"]
                first, *more = read_line(ready_r, 10.0).splitlines() or [""]
                if first:
                    facts = json.loads(first)
                    if "ledger" in facts:
                        raise SystemExit(f"cycle {cycle}: ledger fault: {facts['ledger']}")
                    for key in ("round", "cashout", "escrow"):
                        found[key] += bool(facts[key])
                credits_needed = target is not None or printing  # a round or a cash-out
                note = NOTES[-1] if credits_needed else None
                if not exited(pid):  # a round to cut needs credits for it
                    patron(peripherals, rng, inserted, note)
                # a named point may need a note stacked and credited first: give it time (the
                # wait ends as soon as the controller is cut)
                limits = {"random": rng.uniform(0.0, 0.3), "controller": 15.0, "printer": 3.0}
                limit = limits.get(device, 0.3)
                deadline = time.monotonic() + limit
                again = time.monotonic() + 1.0
                while time.monotonic() < deadline and not exited(pid):
                    time.sleep(0.002)
                    if note is not None and time.monotonic() > again:
                        # the validator was busy (a cash-out finishing): offer the note again
                        patron(peripherals, rng, inserted, note)
                        again = time.monotonic() + 1.0
                peripherals.ask(op="disarm")
                if exited(pid):
                    more += read_line(ready_r, 0.05).splitlines()
                if target is not None and json.dumps({"cut": target}) in more:
                    landed[phase] += 1
                elif peripherals.ask(op="state")["kills"] > kills_before:
                    landed[phase] += 1
                elif not exited(pid):
                    os.kill(pid, signal.SIGKILL)
                    landed["timed"] += 1
                _, status = os.waitpid(pid, 0)
                if not os.WIFSIGNALED(status):
                    raise SystemExit(f"cycle {cycle}: the controller exited with {status}")
            finally:
                os.close(ready_r)
                os.close(stop_w)
        final = finish(config, peripherals)
        summary = reconcile(db, peripherals.ask(op="state"))
    finally:
        peripherals.close()
    summary.update(
        cuts=cuts,
        tried=dict(tried),
        landed=dict(landed),
        restarts_found=dict(found),
        final=final,
        seconds=round(time.monotonic() - started, 1),
    )
    return summary


def finish(config: CabinetConfig, peripherals: Peripherals) -> str:
    """A last controller, left alone: it settles what the last cut left, takes every
    item still queued, then cashes out and shuts down."""
    pid, ready_r, stop_w = forked(config, 999_999)
    try:
        read_line(ready_r, 10.0)
        deadline = time.monotonic() + 60
        quiet = 0
        while time.monotonic() < deadline:
            held = peripherals.ask(op="state")
            idle = held["validator"] in ("IDLING", "DISABLED") and not held["item"]
            quiet = quiet + 1 if idle and not held["queue"] and not held["printing"] else 0
            if quiet >= 20:
                break
            time.sleep(0.01)
        os.write(stop_w, b"s")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not exited(pid):
            time.sleep(0.01)
        if not exited(pid):
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        return f"exit {os.waitstatus_to_exitcode(status)}"
    finally:
        os.close(ready_r)
        os.close(stop_w)


def reconcile(db: Path, held: dict[str, Any]) -> dict[str, Any]:
    """The devices' contents against the ledger; money lost in cents."""
    ledger = Ledger.open(db, readonly=True)
    try:
        report = ledger.verify(replay=True)
        bills_box = Counter(i["bill"] for i in held["cashbox"] if "bill" in i)
        tickets_box = Counter(i["ticket"] for i in held["cashbox"] if "ticket" in i)
        bill_in = ledger.events(("bill_in",))
        ticket_in = ledger.events(("ticket_in",))
        credited = Counter(e.amount for e in bill_in)
        redeemed = Counter(str(e.detail["validation"]) for e in ticket_in)
        notes_lost = bills_box - credited
        notes_forged = credited - bills_box
        tickets_lost = tickets_box - redeemed
        tickets_forged = redeemed - tickets_box
        ticket_amount = {
            str(e.detail["validation"]): e.amount for e in ledger.events(("ticket_issue",))
        }
        paid: dict[str, list[str]] = {}
        for e in ledger.events(("cashout", "ticket_out", "handpay", "cashout_failed")):
            if e.txn is not None:
                paid.setdefault(e.txn, []).append(e.kind)
        unpaid = [t for t, k in paid.items() if k[1:] not in (["ticket_out"], ["handpay"])]
        unpaid = [t for t in unpaid if paid[t][1:] != ["cashout_failed"]]
        printed = held["printed"]
        printed_unknown = [b for b in printed if ledger.ticket(b) is None]
        printed_void_unpaid, printed_void = [], []
        for b in printed:
            ticket = ledger.ticket(b)
            if ticket is not None and ticket.status == "void":
                printed_void.append(b)
                kinds = paid.get(ticket.cashout_txn or "", [])
                if "handpay" not in kinds:
                    printed_void_unpaid.append(b)
        tilts = Counter(str(e.detail.get("code")) for e in ledger.events(("tilt",)))
        by_state = dict(ledger.conn.execute("SELECT state, COUNT(*) FROM rounds GROUP BY state"))
        lost = sum(c * n for c, n in notes_lost.items()) + sum(
            ticket_amount.get(b, 0) * n for b, n in tickets_lost.items()
        )
        bal = balance(report.meters)
        return {
            "verify_ok": report.ok,
            "problem": report.problem,
            "balanced": bal["balanced"],
            "credits_left": bal["credits"],
            "notes_in_box": sum(bills_box.values()),
            "notes_credited": len(bill_in),
            "notes_lost": sum(notes_lost.values()),
            "notes_forged": sum(notes_forged.values()),
            "credit_txns_unique": len({e.txn for e in bill_in}) == len(bill_in),
            "tickets_in_box": sum(tickets_box.values()),
            "tickets_redeemed": len(ticket_in),
            "tickets_lost": sum(tickets_lost.values()),
            "tickets_forged": sum(tickets_forged.values()),
            "tickets_printed": len(printed),
            "printed_unknown": len(printed_unknown),
            "printed_void_unpaid": len(printed_void_unpaid),
            # printed, yet voided and paid by hand: the printer's job journal tells a ticket
            # that came out from one that did not, so only a cut while the job was being
            # sent leaves one
            "printed_void": len(printed_void),
            "cashouts": len(paid),
            "cashouts_not_paid_once": len(unpaid),
            "rounds": report.rounds,
            "rounds_by_state": by_state,  # a settled row never changes (a trigger): once
            "rounds_open": by_state.get("open", 0),
            "rounds_resumed": len(ledger.events(("round_resumed",))),
            "escrows_open": len(unresolved(ledger)),
            "tilts": dict(tilts),
            "money_lost_cents": lost,
            "audit_verify_replay": uth(["audit", "verify", "--db", str(db), "--replay"]),
        }
    finally:
        ledger.close()


def without_recovery() -> None:
    """The mutant the harness must catch: VEND VALID after a restart is only a tilt (the
    accepted escrow is never credited), as before two-phase escrows."""
    from kiosk.service.money_in import MoneyIn

    def tilt_only(self: MoneyIn, number: int, event: Any) -> None:
        self._money_tilt(number, event, "no escrow in the driver")

    MoneyIn._vend_unmatched = tilt_only  # type: ignore[method-assign]


if __name__ == "__main__":
    if "--mutant" in sys.argv:
        without_recovery()
    named = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--phases=")), "")
    chosen = tuple(p for p in named.split(",") if p)
    devices = {f"printer:{p}" for p in PRINTER_PHASES} | {
        f"validator:{p}" for p in VALIDATOR_PHASES
    }
    assert set(chosen) <= set(CONTROLLER_PHASES) | devices, chosen
    print(json.dumps(run(Path(sys.argv[1]), int(sys.argv[2]), phases=chosen)))
