"""The cabinet's peripherals in their own process, as real ones have their own power:
an ID-003 validator and a TCL printer simulator on pseudo-terminals that outlive every
controller the power-cut harness starts and kills.

Run as a script.  It prints one JSON line ``{"validator": <pty>, "printer": <pty>}``,
then answers one JSON line per JSON command read on stdin:

* ``{"op": "bill", "cents": 2000}`` / ``{"op": "ticket", "barcode": "..."}``: a patron
  inserts a note or a ticket (queued until the validator is idle and polled);
* ``{"op": "arm", "pid": 123, "on": "validator:STACKING", "delay": 0.002}``: SIGKILL the
  controller ``pid`` ``delay`` seconds after the validator enters that state (any
  :class:`devices.id003.codes.Status` name), or after the printer accepts a job
  (``printer:print``) or validates it (``printer:validated``);
* ``{"op": "disarm"}``: no armed kill fires any more (answered once that holds);
* ``{"op": "state"}``: what the devices hold: the cash box (notes in cents and tickets
  by number), what was returned, the printed tickets' numbers, the validator's state,
  the queue, and whether an item or a print job is in hand;
* ``{"op": "quit"}``.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from typing import Any

from devices.id003.codes import Status
from devices.sim.id003 import Bill, Id003Simulator, Ticket
from devices.sim.tcl import TclSimulator


class Killer:
    """One armed kill at a time; :meth:`disarm` makes every earlier arming harmless."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.generation = 0
        self.kills = 0

    def arm(self, pid: int, delay: float) -> Any:
        with self.lock:
            generation = self.generation

        def fire() -> None:
            with self.lock:
                if generation != self.generation:
                    return
                self.generation += 1  # once
                try:
                    os.kill(pid, signal.SIGKILL)
                    self.kills += 1
                except ProcessLookupError:
                    pass

        def trigger() -> None:
            if delay <= 0:
                fire()
            else:
                timer = threading.Timer(delay, fire)
                timer.daemon = True
                timer.start()

        return trigger

    def disarm(self) -> None:
        with self.lock:
            self.generation += 1


class HookedPrinter(TclSimulator):
    """A printer simulator that calls hooks when a job is accepted and validated."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.hooks: dict[str, list[Any]] = {"print": [], "validated": []}

    def _fire(self, name: str) -> None:
        hooks, self.hooks[name] = self.hooks[name], []
        for hook in hooks:
            hook()

    def _on_print(self, args: list[str]) -> None:
        super()._on_print(args)
        if self.job is not None:
            self._fire("print")

    def _advance_job(self) -> None:
        before = len(self.printed)
        super()._advance_job()
        if len(self.printed) > before:
            self._fire("validated")


def describe(item: Bill | Ticket) -> dict[str, Any]:
    if isinstance(item, Ticket):
        return {"ticket": item.barcode}
    return {"bill": item.cents}


def state(validator: Id003Simulator, printer: HookedPrinter, killer: Killer) -> dict[str, Any]:
    with validator.lock:
        held = {
            "validator": validator.state.name,
            "queue": len(validator.queue),
            "item": validator.item is not None,
            "cashbox": [describe(i) for i in validator.cashbox],
            "returned": [describe(i) for i in validator.returned],
            "inhibited": validator.inhibited,
        }
    with printer.lock:
        held["printed"] = [t.text(t.barcode_region) for t in printer.printed if t.barcode_region]
        held["printing"] = printer.job is not None
    held["kills"] = killer.kills
    return held


def main() -> int:
    validator = Id003Simulator(seed=1)
    printer = HookedPrinter(seed=1)
    killer = Killer()
    validator.start()
    printer.start()
    out = sys.stdout
    out.write(json.dumps({"validator": validator.port, "printer": printer.port}) + "\n")
    out.flush()
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd["op"]
        reply: dict[str, Any] = {"ok": True}
        if op == "bill":
            validator.insert_bill(int(cmd["cents"]))
        elif op == "ticket":
            validator.insert_ticket(str(cmd["barcode"]))
        elif op == "arm":
            device, _, what = str(cmd["on"]).partition(":")
            trigger = killer.arm(int(cmd["pid"]), float(cmd.get("delay", 0.0)))
            if device == "validator":
                validator.on_state(Status[what], trigger)
            else:
                with printer.lock:
                    printer.hooks[what].append(trigger)
        elif op == "disarm":
            killer.disarm()
        elif op == "state":
            reply = state(validator, printer, killer)
        elif op == "quit":
            break
        else:
            reply = {"ok": False, "error": f"unknown op {op!r}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    validator.stop()
    printer.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
