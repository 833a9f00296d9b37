"""``uth devices simulate validator`` shows what the cash box holds (for reconciliation)."""

from __future__ import annotations

from devices.sim.id003 import Bill, Id003Simulator, Ticket
from kiosk.commands.devices import _handle_line


def test_the_validator_console_lists_the_cash_box_and_the_returns() -> None:
    sim = Id003Simulator()
    try:
        sim.cashbox += [Bill(2000), Ticket("001234567890123456")]
        sim.returned.append(Bill(500))
        text = _handle_line(sim, "validator", "cashbox")
        assert text.splitlines() == [
            "cash box: 2 items, notes $20.00",
            "  note $20.00",
            "  ticket 001234567890123456",
            "returned: 1 items",
            "  note $5.00",
        ]
        assert "cashbox" in _handle_line(sim, "validator", "help")
    finally:
        sim.stop()
