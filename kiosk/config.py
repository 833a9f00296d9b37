"""Cabinet configuration: where the ledger lives, the paytable, identity, PINs, devices.

Read from a TOML file (``--config PATH``, else ``$UTH_CONFIG``, else built-in defaults)
and validated by pydantic.  Relative paths are taken from the current directory.
Amounts are integer cents; RTP bounds are percentages.

Example ``cabinet.toml``::

    db_path = "var/uth.db"
    paytable = "paytables/standard.toml"
    machine_number = "0042"
    casino_name = "Casino Royale"
    rtp_min_pct = 80.0
    rtp_max_pct = 100.0
    casino_address = "1 Casino Way, Las Vegas NV"
    ticket_expiry_days = 30            # 0: tickets do not expire
    validator_port = "/dev/serial/by-id/usb-JCM_..."   # or "sim" (the default)
    printer_port = "sim"               # or /dev/serial/by-id/usb-FutureLogic_...

``"sim"`` runs the protocol simulator of :mod:`devices.sim` on a pseudo-terminal and
the real driver over it (demo mode); a path names the cabinet's serial port.

    [operator_pins]                    # role -> PIN, or "sha256:<hex of the PIN>"
    attendant = "sha256:..."
    technician = "sha256:..."
    manager = "sha256:..."
"""

from __future__ import annotations

import hashlib
import hmac
import os
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.uth.paytable import PAYTABLE_DIR

#: Operator roles, least to most privileged.
ROLES = ("attendant", "technician", "manager")
#: A device port value meaning "run the simulator on a pseudo-terminal".
SIMULATED_PORT = "sim"


class ConfigError(ValueError):
    """A configuration file that cannot be used: names the file and the reason."""


class CabinetConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    db_path: Path = Path("var/uth.db")
    #: Proof that this cabinet has been installed (see :mod:`kiosk.ledger.ledger`): a missing
    #: ledger with the marker present is a fault, not a first run.  Default: db_path + ".install".
    install_marker: Path | None = None
    #: The cabinet key that MACs the ledger (see :mod:`kiosk.ledger.key`): outside the
    #: database's directory on a cabinet, mode 0600.  Default (demo): db_path + ".key".
    ledger_key_path: Path | None = None
    #: Where each commit's head is anchored (see :mod:`kiosk.ledger.anchor`): another
    #: partition or medium on a cabinet.  Default (demo): db_path + ".anchor".
    anchor_path: Path | None = None
    paytable: Path = PAYTABLE_DIR / "standard.toml"
    machine_number: str = "0001"
    casino_name: str = "Demo Casino"
    rtp_min_pct: float = Field(80.0, ge=0, le=200)
    rtp_max_pct: float = Field(100.0, ge=0, le=200)
    operator_pins: dict[str, str] = Field(
        default_factory=lambda: {"attendant": "1111", "technician": "2222", "manager": "3333"}
    )
    #: Printed on cash-out tickets under the casino name.
    casino_address: str = "Demo City"
    #: A ticket is valid through the day ``ticket_expiry_days`` after it is printed;
    #: 0 means tickets do not expire.
    ticket_expiry_days: int = Field(30, ge=0, le=3650)
    #: Serial ports of the bill validator (JCM ID-003) and the ticket printer (TCL):
    #: ``"sim"`` for the simulator on a pseudo-terminal, else a device path, preferably
    #: ``/dev/serial/by-id/...`` (stable across reboots and USB re-plugs).
    validator_port: str = "sim"
    printer_port: str = "sim"
    #: Bill denominations accepted, cents.
    accepted_bills: tuple[int, ...] = (100, 500, 1000, 2000, 5000, 10000)
    #: No bill or ticket is accepted that would take the credit meter above this.
    credit_limit_cents: int = Field(1_000_000, gt=0)
    #: A round returning this much or more is paid by an attendant (jackpot handpay).
    jackpot_limit_cents: int = Field(120_000, gt=0)

    @model_validator(mode="after")
    def _check(self) -> CabinetConfig:
        if self.rtp_min_pct > self.rtp_max_pct:
            raise ValueError(
                f"rtp_min_pct {self.rtp_min_pct} is above rtp_max_pct {self.rtp_max_pct}"
            )
        for role in self.operator_pins:
            if role not in ROLES:
                raise ValueError(f"unknown operator role {role!r}; roles are {', '.join(ROLES)}")
        if any(b <= 0 for b in self.accepted_bills):
            raise ValueError("accepted_bills must be positive cents")
        for name in ("validator_port", "printer_port"):
            port = getattr(self, name)
            if port != SIMULATED_PORT and not (port.startswith("/") or "://" in port):
                raise ValueError(
                    f"{name} must be {SIMULATED_PORT!r}, a device path (/dev/serial/by-id/...) "
                    f"or a pyserial URL, not {port!r}"
                )
        for name in ("casino_name", "casino_address", "machine_number"):
            if not getattr(self, name).strip():
                raise ValueError(f"{name} must not be empty (it is printed on tickets)")
        return self

    @property
    def simulated_devices(self) -> bool:
        """True when both devices are simulated (demo mode)."""
        return self.validator_port == SIMULATED_PORT and self.printer_port == SIMULATED_PORT

    @property
    def marker_path(self) -> Path:
        return self.install_marker or self.db_path.with_name(self.db_path.name + ".install")

    @property
    def key_path(self) -> Path:
        return self.ledger_key_path or self.db_path.with_name(self.db_path.name + ".key")

    @property
    def anchor_file(self) -> Path:
        return self.anchor_path or self.db_path.with_name(self.db_path.name + ".anchor")

    def role_for_pin(self, pin: str) -> str | None:
        """The most privileged role whose PIN is ``pin``, or None (constant-time compares)."""
        found = None
        digest = hashlib.sha256(pin.encode()).hexdigest()
        for role in ROLES:
            want = self.operator_pins.get(role)
            if want is None:
                continue
            got = "sha256:" + digest if want.startswith("sha256:") else pin
            if hmac.compare_digest(want.encode(), got.encode()):
                found = role
        return found


def role_at_least(role: str | None, needed: str) -> bool:
    """Whether ``role`` has the rights of ``needed`` (manager > technician > attendant)."""
    return role is not None and ROLES.index(role) >= ROLES.index(needed)


def load_config(path: str | Path | None = None, **overrides: object) -> CabinetConfig:
    """Load ``path`` (else ``$UTH_CONFIG``, else defaults) and apply ``overrides``."""
    path = path or os.environ.get("UTH_CONFIG")
    data: dict[str, object] = {}
    if path:
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{p}: {exc}") from None
    data.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return CabinetConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "(file)"
        raise ConfigError(f"{path or '(defaults)'}: {where}: {err['msg']}") from None
