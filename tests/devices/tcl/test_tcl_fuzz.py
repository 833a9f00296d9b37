"""Fuzzing the TCL printer driver: random and damaged status answers through the pty.

Invariants: nothing crashes; a damaged answer is logged and retried; a ticket is reported
PRINTED only if the printer printed it, and a ticket the printer printed is never reported
NOT_PRINTED (so a cash-out can never be paid twice).
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime

from support.fast_devices import FAST_PRINTER

from devices.sim import RecordingHost, TclSimulator
from devices.tcl import PrinterStatus, PrintOutcome, StatusFlag, TicketPrinter, format_status
from devices.ticket import TicketData
from devices.validation import new_validation_number


def ticket() -> TicketData:
    return TicketData(
        "CASINO",
        "ADDRESS",
        "7",
        datetime(2026, 1, 2, 3, 4, 5),
        500,
        1,
        new_validation_number(),
        None,
    )


def test_random_and_damaged_status_answers(warnings_of) -> None:
    rng = random.Random(77)
    host = RecordingHost()
    quick = replace(FAST_PRINTER, response_timeout=0.08)
    with TclSimulator(seed=3) as sim, TicketPrinter(sim.port, host, quick) as p:
        for _ in range(80):
            flags = StatusFlag(rng.getrandbits(40) & 0x3F3F3F3F3F)
            good = format_status(PrinterStatus("0", "GURFUZZ-1", flags, rng.choice(" C")))
            kind = rng.randrange(5)
            if kind == 0:
                raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
            elif kind == 1:
                raw = good[: rng.randrange(1, len(good))]
            elif kind == 2:  # structural damage: a separator or the end marker
                pos = rng.choice([1, 2, len(good) - 2, len(good) - 1])
                raw = good[:pos] + b"#" + good[pos + 1 :]
            else:
                raw = good
            before = len(warnings_of("devices.tcl"))
            sim.script([raw])
            status = p.status()  # never raises; a damaged answer is retried
            if raw == good:
                assert status is not None and status.flags == flags
            else:
                assert len(warnings_of("devices.tcl")) > before
        assert sim.script_pending == 0


def test_printing_under_chaos_is_never_paid_twice() -> None:
    host = RecordingHost()
    config = replace(FAST_PRINTER, response_timeout=0.1, comm_error_threshold=10)
    outcomes = []
    with TclSimulator(seed=11) as sim, TicketPrinter(sim.port, host, config) as p:
        sim.set_chaos(0.3, seed=12)
        for _ in range(8):
            t = ticket()
            result = p.print_ticket(t)
            printed = [x for x in sim.printed if x.text("5") == t.validation_number]
            outcomes.append(result.outcome)
            if result.outcome is PrintOutcome.PRINTED:
                assert printed
            if printed:
                assert result.outcome is not PrintOutcome.NOT_PRINTED
        assert sim.injected >= 5
    assert PrintOutcome.PRINTED in outcomes
