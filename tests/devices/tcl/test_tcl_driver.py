"""The TCL printer driver against the simulator over a real pty."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import date, datetime

import pytest
from support.fast_devices import FAST_PRINTER, wait_for

from devices.errors import PrinterLayoutError, TicketDataError
from devices.host import DeviceEventKind
from devices.itf import itf_decode
from devices.sim import RecordingHost, TclSimulator
from devices.tcl import (
    CASHOUT_LAYOUT,
    Layout,
    PrintOutcome,
    PrintResult,
    Region,
    StatusFlag,
    Template,
    TicketPrinter,
    cashout_texts,
)
from devices.ticket import TicketData
from devices.validation import new_validation_number


def ticket(**changes: object) -> TicketData:
    fields: dict[str, object] = dict(
        casino_name="THE LUCKY ^|~ PALACE",
        address="1 MAIN ST, RENO NV",
        machine_number="0042",
        issued_at=datetime(2026, 5, 8, 21, 15, 3),
        amount_cents=12345,
        sequence_number=17,
        validation_number=new_validation_number(),
        expires_on=date(2026, 8, 6),
    )
    fields.update(changes)
    return TicketData(**fields)  # type: ignore[arg-type]


def events(host: RecordingHost, kind: DeviceEventKind, active: bool = True) -> list:
    return [e for e in host.events if e.kind is kind and e.active == active]


def print_commands(sim: TclSimulator) -> list[bytes]:
    return [c for c in sim.commands if c.startswith(b"^P|")]


def test_open_defines_the_layout_in_ram(
    printer: TicketPrinter, printer_sim: TclSimulator, host: RecordingHost
) -> None:
    assert printer_sim.templates == {"C": CASHOUT_LAYOUT.template.region_ids}
    assert set(printer_sim.regions) == {r.region_id for r in CASHOUT_LAYOUT.regions}
    [reset] = events(host, DeviceEventKind.PRINTER_RESET)  # the power-up flag, then cleared
    assert not reset.tilt
    status = printer.status()
    assert status is not None and not status.has(StatusFlag.RESET)


def test_happy_path_prints_every_field_and_the_barcode(
    printer: TicketPrinter, printer_sim: TclSimulator
) -> None:
    t = ticket()
    result = printer.print_ticket(t)
    assert result.outcome is PrintOutcome.PRINTED and result.printed
    assert result.validation_number == t.validation_number
    [printed] = printer_sim.printed
    assert [text for _, text in printed.fields] == list(cashout_texts(t))
    assert printed.text("1") == "THE LUCKY ^|~ PALACE"  # escaped on the wire, intact on paper
    assert b"~094~124~126" in print_commands(printer_sim)[0]
    assert printed.text("9") == "ONE HUNDRED TWENTY-THREE DOLLARS AND 45 CENTS"
    assert printed.text(":") == "$123.45"
    assert itf_decode(printed.barcode) == t.validation_number
    assert printer_sim.job is None


def test_counted_printed_only_when_validation_done_is_reported(
    printer_sim: TclSimulator, host: RecordingHost
) -> None:
    printer_sim.validation_polls = 10**9  # the printer never reports the number printed
    with TicketPrinter(printer_sim.port, host, replace(FAST_PRINTER, print_timeout=1.0)) as p:
        result = p.print_ticket(ticket())
    assert result.outcome is PrintOutcome.UNKNOWN and not result.printed
    assert not printer_sim.printed


def test_paper_out_mid_print_is_not_printed_and_reported(
    printer: TicketPrinter, printer_sim: TclSimulator, host: RecordingHost
) -> None:
    printer_sim.fail_next_print("paper_out", after_polls=1)
    result = printer.print_ticket(ticket())
    assert result.outcome is PrintOutcome.NOT_PRINTED and "paper_out" in result.detail
    [event] = events(host, DeviceEventKind.PAPER_OUT)
    assert event.tilt
    assert len(printer_sim.aborted) == 1 and not printer_sim.printed
    printer_sim.clear_fault("paper_out")
    assert printer.print_ticket(ticket()).printed
    assert events(host, DeviceEventKind.PAPER_OUT, active=False)


@pytest.mark.parametrize(
    ("fault", "kind"),
    [
        ("paper_out", DeviceEventKind.PAPER_OUT),
        ("head_up", DeviceEventKind.HEAD_UP),
        ("printer_jam", DeviceEventKind.PAPER_JAM),
        ("chassis_open", DeviceEventKind.CHASSIS_OPEN),
        ("head_error", DeviceEventKind.PRINTER_FAILURE),
        ("temperature_error", DeviceEventKind.PRINTER_FAILURE),
    ],
)
def test_tilting_fault_blocks_printing_and_clears(
    printer: TicketPrinter,
    printer_sim: TclSimulator,
    host: RecordingHost,
    fault: str,
    kind: DeviceEventKind,
) -> None:
    printer_sim.set_fault(fault)
    result = printer.print_ticket(ticket())
    assert result.outcome is PrintOutcome.NOT_PRINTED and not print_commands(printer_sim)
    [event] = events(host, kind)
    assert event.tilt and event.device == "printer"
    printer_sim.clear_fault(fault)
    printer.status()
    assert events(host, kind, active=False) and not printer.active_faults


@pytest.mark.parametrize("fault", ["printer_jam", "head_up", "chassis_open"])
def test_fault_mid_print_before_validation_is_not_printed(
    printer: TicketPrinter, printer_sim: TclSimulator, fault: str
) -> None:
    printer_sim.fail_next_print(fault, after_polls=1)
    result = printer.print_ticket(ticket())
    assert result.outcome is PrintOutcome.NOT_PRINTED and fault.split("_")[-1] in result.detail


def test_paper_low_is_a_warning_and_printing_goes_on(
    printer: TicketPrinter, printer_sim: TclSimulator, host: RecordingHost
) -> None:
    printer_sim.set_fault("paper_low")
    assert printer.print_ticket(ticket()).printed
    [event] = events(host, DeviceEventKind.PAPER_LOW)
    assert not event.tilt


def test_busy_printer_is_waited_for(
    printer: TicketPrinter, printer_sim: TclSimulator, host: RecordingHost
) -> None:
    printer_sim.set_fault("busy")
    results: list[PrintResult] = []
    worker = threading.Thread(target=lambda: results.append(printer.print_ticket(ticket())))
    worker.start()
    assert wait_for(lambda: printer_sim.status_requests > 5)
    assert not print_commands(printer_sim)  # nothing sent while busy
    printer_sim.clear_fault("busy")
    worker.join(timeout=15)
    assert results and results[0].printed
    assert not [e for e in host.events if e.tilt]  # busy is not a fault


def test_busy_too_long_is_not_printed(printer_sim: TclSimulator, host: RecordingHost) -> None:
    printer_sim.set_fault("busy")
    with TicketPrinter(printer_sim.port, host, replace(FAST_PRINTER, busy_timeout=0.3)) as p:
        result = p.print_ticket(ticket())
    assert result.outcome is PrintOutcome.NOT_PRINTED and result.detail == "printer busy"


def test_bad_ticket_text_is_refused_before_anything_is_sent(
    printer: TicketPrinter, printer_sim: TclSimulator
) -> None:
    sent = len(printer_sim.commands)
    with pytest.raises(TicketDataError):
        printer.print_ticket(ticket(casino_name="CAF\u00c9 ROYAL"))
    with pytest.raises(TicketDataError):
        printer.print_ticket(ticket(address="X" * 49))
    assert len(printer_sim.commands) == sent


def test_printer_power_cycle_between_tickets_redefines_layout(
    printer: TicketPrinter, printer_sim: TclSimulator, host: RecordingHost
) -> None:
    assert printer.print_ticket(ticket()).printed
    printer_sim.power_cycle()
    assert not printer_sim.templates
    assert printer.print_ticket(ticket()).printed
    assert len(printer_sim.printed) == 2 and printer_sim.templates
    assert len(events(host, DeviceEventKind.PRINTER_RESET)) == 2


def test_power_cut_mid_print_is_unknown_never_printed(
    printer: TicketPrinter, printer_sim: TclSimulator
) -> None:
    printer_sim.validation_polls = 10**9
    results: list[PrintResult] = []
    worker = threading.Thread(target=lambda: results.append(printer.print_ticket(ticket())))
    worker.start()
    assert wait_for(lambda: printer_sim.job is not None)
    printer_sim.power_cycle()
    worker.join(timeout=15)
    assert results[0].outcome is PrintOutcome.UNKNOWN and "reset" in results[0].detail


def test_print_refused_by_the_printer_is_not_printed(
    printer: TicketPrinter, printer_sim: TclSimulator
) -> None:
    with printer_sim.lock:
        printer_sim.templates.clear()  # the printer lost the template behind our back
    result = printer.print_ticket(ticket())
    assert result.outcome is PrintOutcome.NOT_PRINTED and "refused" in result.detail


def test_layout_rejected_by_printer(printer_sim: TclSimulator, host: RecordingHost) -> None:
    too_big = Region("1", 0, 0, 2000, 520, "2", 10)  # longer than the template
    layout = Layout((too_big,), Template("C", 1248, 520, ("1",)))
    p = TicketPrinter(printer_sim.port, host, replace(FAST_PRINTER, layout=layout))
    with pytest.raises(PrinterLayoutError):
        p.open()
    p.close()
    [event] = events(host, DeviceEventKind.LAYOUT_REJECTED)
    assert event.tilt


@pytest.mark.parametrize("inject", ["send_garbage", "send_partial"])
def test_garbled_status_is_logged_and_retried(
    printer: TicketPrinter, printer_sim: TclSimulator, warnings_of, inject: str
) -> None:
    getattr(printer_sim, inject)(2)
    assert printer.print_ticket(ticket()).printed
    assert len(warnings_of("devices.tcl")) >= 2 and printer.bad_responses >= 2


def test_silence_mid_print_raises_comm_error_and_recovers(
    printer: TicketPrinter, printer_sim: TclSimulator, host: RecordingHost
) -> None:
    printer_sim.validation_polls = 3
    results: list[PrintResult] = []
    worker = threading.Thread(target=lambda: results.append(printer.print_ticket(ticket())))
    worker.start()
    assert wait_for(lambda: printer_sim.job is not None)
    printer_sim.go_silent(1500)
    worker.join(timeout=20)
    assert results and results[0].printed
    assert events(host, DeviceEventKind.COMM_ERROR) and events(
        host, DeviceEventKind.COMM_ERROR, active=False
    )


def test_monitor_thread_reports_idle_faults(
    printer: TicketPrinter, printer_sim: TclSimulator, host: RecordingHost
) -> None:
    printer.start()
    printer_sim.set_fault("chassis_open")
    assert wait_for(lambda: events(host, DeviceEventKind.CHASSIS_OPEN))
    printer_sim.clear_fault("chassis_open")
    assert wait_for(lambda: events(host, DeviceEventKind.CHASSIS_OPEN, active=False))
    printer.stop()
