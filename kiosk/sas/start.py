"""The link to the casino's slot system started for a game service, as its
configuration asks: the lone cabinet and the table host start it the same way."""

from __future__ import annotations

from kiosk.sas.game_port import TablePort
from kiosk.sas.service import SasService, serve_port
from kiosk.table.table import Table


def start_slot_system(table: Table) -> SasService | None:
    """The link to the casino's slot system when the configuration names its port
    (``sas_port``): every station of ``table`` at its address from ``sas_address``, the
    system's validation and redemption as configured; None without one."""
    config = table.config
    if config.sas_port is None or table.ledger is None:
        return None
    table.use_slot_system(config.sas_system_validation, config.sas_ticket_redemption)
    return serve_port(TablePort(table), config.db_path, config.sas_port, config.sas_address)
