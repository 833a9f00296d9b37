"""The link to the casino's slot system started for a game service, as its
configuration asks: the lone cabinet and the table host start it the same way, the
cabinet in a process of its own (:mod:`kiosk.sas.process`: its screens' interpreter never
delays an answer), the headless table host (nothing draws there) in its own."""

from __future__ import annotations

from kiosk.sas.game_port import TablePort
from kiosk.sas.process import LinkProcess
from kiosk.sas.service import SasService, serve_port
from kiosk.service.table import Table


def start_slot_system(
    table: Table, *, own_process: bool = False
) -> SasService | LinkProcess | None:
    """The link to the casino's slot system when the configuration names its port
    (``sas_port``): every station of ``table`` at its address from ``sas_address``, the
    system's validation and redemption as configured; None without one.  ``own_process``:
    the link runs in a child process (:class:`~kiosk.sas.process.LinkProcess`) whose port
    calls this process answers."""
    config = table.config
    if config.sas_port is None or table.ledger is None:
        return None
    table.use_slot_system(config.sas_system_validation, config.sas_ticket_redemption)
    if own_process:
        return LinkProcess(
            lambda: TablePort(table), config.db_path, config.sas_port, config.sas_address
        ).start()
    return serve_port(TablePort(table), config.db_path, config.sas_port, config.sas_address)
