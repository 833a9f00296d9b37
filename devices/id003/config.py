"""Settings of the ID-003 driver."""

from __future__ import annotations

from dataclasses import dataclass

from devices.id003.denominations import DEFAULT_USD, DenominationTable


@dataclass(frozen=True, slots=True)
class ValidatorConfig:
    """Driver settings.  Times are seconds."""

    device_name: str = "validator"
    denominations: DenominationTable = DEFAULT_USD
    accept_tickets: bool = True
    ticket_digits: int = 18
    poll_interval: float = 0.1
    response_timeout: float = 0.2
    max_retries: int = 2
    comm_error_threshold: int = 5
