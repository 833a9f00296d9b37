"""The cash-out ticket layout: its regions, its template and how a ticket fills them.

The layout is defined in the printer's RAM at start (and again after a printer reset), so
the printer needs no pre-loaded templates.  Sizes are dots at 203 dpi on a 65 x 156 mm
ticket.
"""

from __future__ import annotations

from dataclasses import dataclass

from devices.errors import TicketDataError
from devices.tcl.commands import BARCODE_I2OF5, Region, Template, escape_field
from devices.ticket import TicketData
from devices.validation import format_validation_number


@dataclass(frozen=True, slots=True)
class Layout:
    """Regions plus the template that orders them."""

    regions: tuple[Region, ...]
    template: Template

    def __post_init__(self) -> None:
        ids = {r.region_id for r in self.regions}
        missing = [r for r in self.template.region_ids if r not in ids]
        if missing:
            raise ValueError(f"template uses undefined regions {missing}")

    def region(self, region_id: str) -> Region:
        """The region with ``region_id``."""
        for r in self.regions:
            if r.region_id == region_id:
                return r
        raise KeyError(region_id)


_R = Region
CASHOUT_REGIONS: tuple[Region, ...] = (
    _R("1", 40, 0, 60, 520, "3", 32),  # casino name
    _R("2", 100, 0, 40, 520, "2", 48),  # address line
    _R("3", 150, 0, 60, 520, "3", 32),  # ticket type
    _R("4", 215, 0, 40, 520, "2", 40),  # VALIDATION 12-3456-7890-1234-5678
    _R("5", 260, 20, 160, 480, BARCODE_I2OF5, 18, mul_1=2, mul_2=3),  # barcode
    _R("6", 430, 0, 40, 260, "2", 10, justify=0),  # date
    _R("7", 430, 260, 40, 260, "2", 8, justify=2),  # time
    _R("8", 475, 0, 40, 520, "2", 24),  # TICKET # 0042
    _R("9", 520, 0, 120, 520, "2", 120),  # amount in words (wraps)
    _R(":", 645, 0, 70, 520, "4", 20),  # amount in figures
    _R(";", 720, 0, 40, 520, "2", 32),  # expiry
    _R("<", 765, 0, 40, 520, "2", 24),  # MACHINE # 1234
)
CASHOUT_TEMPLATE = Template("C", 1248, 520, tuple(r.region_id for r in CASHOUT_REGIONS))
CASHOUT_LAYOUT = Layout(CASHOUT_REGIONS, CASHOUT_TEMPLATE)


def cashout_texts(ticket: TicketData) -> tuple[str, ...]:
    """The text of each region of the cash-out template, in template order (unescaped)."""
    issued = ticket.issued_at
    return (
        ticket.casino_name,
        ticket.address,
        ticket.ticket_type,
        f"VALIDATION {format_validation_number(ticket.validation_number)}",
        ticket.validation_number,
        f"{issued:%m/%d/%Y}",
        f"{issued:%H:%M:%S}",
        f"TICKET # {ticket.sequence_number:04d}",
        ticket.amount_words,
        ticket.amount_figures,
        ticket.expiry_text,
        f"MACHINE # {ticket.machine_number}",
    )


def checked_fields(layout: Layout, texts: tuple[str, ...]) -> tuple[str, ...]:
    """Validate ``texts`` against ``layout``; raises TicketDataError before any I/O."""
    regions = layout.template.region_ids
    if len(texts) != len(regions):
        raise TicketDataError(f"{len(texts)} fields for {len(regions)} regions")
    for region_id, text in zip(regions, texts, strict=True):
        region = layout.region(region_id)
        escape_field(text)  # printable ASCII only
        if len(text) > region.max_chars:
            raise TicketDataError(
                f"field {text!r} is longer than region {region_id!r} allows ({region.max_chars})"
            )
        if region.is_barcode and (len(text) % 2 or not text.isdigit()):
            raise TicketDataError(f"I2of5 barcode needs an even number of digits: {text!r}")
    return texts
