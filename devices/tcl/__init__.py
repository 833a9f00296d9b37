"""TCL ticket printer (FutureLogic GEN2/GEN5 style): status, commands, layout, driver."""

from devices.tcl.commands import Region, Template, escape_field, print_command, unescape_field
from devices.tcl.driver import PrinterConfig, PrintOutcome, PrintResult, TicketPrinter
from devices.tcl.layout import CASHOUT_LAYOUT, Layout, cashout_texts
from devices.tcl.status import PrinterStatus, StatusFlag, format_status, parse_status

__all__ = [
    "CASHOUT_LAYOUT",
    "Layout",
    "PrintOutcome",
    "PrintResult",
    "PrinterConfig",
    "PrinterStatus",
    "Region",
    "StatusFlag",
    "Template",
    "TicketPrinter",
    "cashout_texts",
    "escape_field",
    "format_status",
    "parse_status",
    "print_command",
    "unescape_field",
]
