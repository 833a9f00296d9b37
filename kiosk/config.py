"""Cabinet configuration: where the ledger lives, the paytable, identity, operators, devices.

Read from a TOML file (``--config PATH``, else ``$UTH_CONFIG``, else built-in defaults)
and validated by pydantic, strictly: nothing is coerced (``true``, ``"500"`` and
``500.0`` are not amounts), unknown fields are refused, and every refusal is a
:class:`ConfigError` naming the file, the field and the reason.  Relative paths are
taken from the current directory.  Amounts are integer cents in ``1..2**63-1`` and at
most ``credit_limit_cents``; RTP bounds are percentages within 75-100; names are
printable text of at most 64 characters (no control, format or bidi characters).

Demo mode (``demo``): the built-in defaults are the demo (no file: ``demo`` is true);
a configuration file runs a cabinet unless it says ``demo = true``.  In demo mode,
without ``[[operators]]``, the demo accounts log in with the demo PINs (attendant 1111,
technician 2222, manager 3333) and the operator screens say DEMO.  Outside demo mode
there are no default PINs: the operators are the ``[[operators]]`` accounts, and a
cabinet without any comes up with operator login disabled and the ``operators`` tilt
(:mod:`kiosk.game.rules.operators`).

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

    [[operators]]                      # one table per person (python -m kiosk.pins)
    name = "Ann Smith"
    role = "attendant"                 # attendant, technician or manager
    pin = "pbkdf2_sha256$100000$<salt hex>$<hash hex>"

``"sim"`` runs the protocol simulator of :mod:`devices.sim` on a pseudo-terminal and
the real driver over it; a path names the cabinet's serial port.  PINs follow the rules
of :mod:`kiosk.pins` (6 to 12 digits, not all one digit, one PIN per person).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from devices.door import DoorField
from engine.uth.paytable import PAYTABLE_DIR
from engine.uth.paytable_rules import (
    INT64_MAX,
    RuleError,
    check_key_depth,
    check_text,
    field_name,
    shown,
)
from kiosk.pins import (
    DEMO_PINS,
    PIN_MAX,
    hash_problem,
    is_hashed,
    pin_matches,
    pin_problem,
)

#: Operator roles, least to most privileged.
ROLES = ("attendant", "technician", "manager")
Role = Literal["attendant", "technician", "manager"]
#: A device port value meaning "run the simulator on a pseudo-terminal".
SIMULATED_PORT = "sim"
#: The largest configuration file read, bytes.
MAX_FILE_BYTES = 64 * 1024
#: The longest path or port name, characters.
MAX_PATH_LENGTH = 4096
#: The most operator accounts and bill denominations a configuration holds.
MAX_OPERATORS = 64
MAX_BILLS = 32


class ConfigError(ValueError):
    """A configuration that cannot be used: ``file``, ``field`` (dotted path, or
    ``(file)`` / ``(syntax)``) and ``reason``; ``str()`` is ``file: field: reason``."""

    def __init__(self, file: str, field: str, reason: str) -> None:
        super().__init__(f"{file}: {field}: {reason}")
        self.file = file
        self.field = field
        self.reason = reason


def _check_path(value: Path) -> Path:
    text = str(value)
    if not text or text == ".":
        raise ValueError("must name a file")
    if len(text) > MAX_PATH_LENGTH:
        raise ValueError(f"is longer than {MAX_PATH_LENGTH} characters")
    if not text.isprintable():
        raise ValueError("contains a control or non-printable character")
    return value


def _check_port(value: str) -> str:
    if len(value) > MAX_PATH_LENGTH or not value.isprintable() or not value:
        raise ValueError(
            f"must be printable text of 1 to {MAX_PATH_LENGTH} characters, not {shown(value)}"
        )
    return value


#: A name shown or printed (see :func:`engine.uth.paytable_rules.check_text`).
Text = Annotated[str, AfterValidator(check_text)]
#: A file path: TOML gives a string (the one lax field kind), checked for sanity.
FilePath = Annotated[Path, Field(strict=False), AfterValidator(_check_path)]
#: An amount in cents: a TOML integer in 1..2**63-1.
Cents = Annotated[int, Field(gt=0, le=INT64_MAX)]
Port = Annotated[str, AfterValidator(_check_port)]


#: The bets whose RTP the bounds may hold, as the PAR report names them
#: (``main_total``: the main game per total wager; ``main_initial``: per Ante).
BOUNDED_BETS = ("ante", "blind", "play", "trips", "main_total", "main_initial")
#: Limits' fields the bounds may hold (cents).
BOUNDED_LIMITS = ("ante_min", "ante_max", "ante_step", "trips_min", "trips_max")
_PAY_LINES = {
    "blind": (
        "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
    ),
    "trips": (
        "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
        "three_of_a_kind",
    ),
}


class PaytableBounds(BaseModel):
    """The jurisdiction's bounds of a paytable made on the cabinet (``[paytable_bounds]``).

    ``pays``: per line (``"blind.flush"``, ``"trips.full_house"``), the pay values it
    may take, as ``"N:D"`` texts (a line not listed may take any value the loader
    accepts).  ``rtp_pct``: per bet (:data:`BOUNDED_BETS`), ``[minimum, maximum]``
    percent under optimal play; ``main_total`` and ``trips`` default to the cabinet's
    ``rtp_min_pct`` / ``rtp_max_pct``.  ``limits``: per limit field
    (:data:`BOUNDED_LIMITS`), ``[minimum, maximum]`` cents.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    pays: dict[str, list[str]] = {}
    rtp_pct: dict[str, Annotated[list[float], Field(min_length=2, max_length=2)]] = {}
    limits: dict[str, Annotated[list[int], Field(min_length=2, max_length=2)]] = {}

    @model_validator(mode="after")
    def _check(self) -> PaytableBounds:
        for line, values in self.pays.items():
            section, _, name = line.partition(".")
            if name not in _PAY_LINES.get(section, ()):
                raise RuleError(f"paytable_bounds.pays.{line}", "not a Blind or Trips line")
            if not values:
                raise RuleError(f"paytable_bounds.pays.{line}", "lists no pay value")
            for value in values:
                num, sep, den = value.partition(":")
                if not (sep and num.strip().isdigit() and den.strip().isdigit()):
                    raise RuleError(
                        f"paytable_bounds.pays.{line}", f"{shown(value)} is not a pay N:D"
                    )
        for bet, (lo, hi) in self.rtp_pct.items():
            if bet not in BOUNDED_BETS:
                raise RuleError(f"paytable_bounds.rtp_pct.{bet}", "not a bet of the PAR report")
            if not (0 <= lo <= hi <= 1000):
                raise RuleError(
                    f"paytable_bounds.rtp_pct.{bet}", f"needs 0 <= minimum <= maximum, not {lo}, {hi}"
                )
        for name, (lo_c, hi_c) in self.limits.items():
            if name not in BOUNDED_LIMITS:
                raise RuleError(f"paytable_bounds.limits.{name}", "not a table limit")
            if not (0 < lo_c <= hi_c):
                raise RuleError(
                    f"paytable_bounds.limits.{name}", f"needs 0 < minimum <= maximum, not {lo_c}, {hi_c}"
                )
        return self

    def allowed_pays(self, line: str) -> tuple[str, ...] | None:
        """The pay values ``line`` may take (``"N:D"``), or None for any."""
        values = self.pays.get(line)
        return None if values is None else tuple(values)


class OperatorAccount(BaseModel):
    """One person who may open the operator menu: a name, a role and a PIN (plain
    digits, or hashed by :func:`kiosk.pins.hash_pin`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: Text
    role: Role
    pin: str = Field(repr=False)

    @field_validator("pin")
    @classmethod
    def _pin_form(cls, value: str) -> str:
        if value.startswith("sha256:"):
            raise ValueError(
                "an unsalted sha256 PIN is not accepted; hash the PIN with python -m kiosk.pins"
            )
        if is_hashed(value):
            problem = hash_problem(value)
            if problem is not None:
                raise ValueError(problem)
        elif not (value.isascii() and value.isdigit() and 0 < len(value) <= PIN_MAX):
            raise ValueError(f"a PIN is 1 to {PIN_MAX} digits, or a hashed PIN")
        return value

    def matches(self, pin: str) -> bool:
        """Whether ``pin`` is this person's PIN (constant-time compare)."""
        return pin_matches(self.pin, pin)


#: The demo accounts (demo mode without ``[[operators]]``): named after their roles.
DEMO_ACCOUNTS = tuple(
    OperatorAccount.model_validate({"name": role, "role": role, "pin": pin})
    for role, pin in DEMO_PINS.items()
)


class ProgressiveLink(BaseModel):
    """The progressive linked through the casino's progressive controller over SAS
    (``[progressive_link]``; without it the progressive is standalone, the game service's
    own meter).

    ``group``: the SAS progressive group the controller broadcasts (long polls 80 / 86,
    SAS 6.02), 1..255.  ``level``: the SAS level whose amount is the
    paytable's meter (level 1 is the top meter line, the line with the largest share;
    every meter line of the paytable pays its share of that one level), 1..32.  The
    machine shows the controller's last amount and keeps no local meter for it; it stops
    play when the group's broadcasts stop for 5 seconds
    (:data:`devices.sas.progressive.BROADCAST_TIMEOUT_S`).  Needs ``sas_port``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    group: int = Field(ge=1, le=255)
    level: int = Field(1, ge=1, le=32)


def _decision_values_default() -> bool:
    return os.environ.get("UTH_DECISION_VALUES", "1") != "0"


class CabinetConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: Demo mode: demo PINs without ``[[operators]]``, DEMO on the operator screens.
    demo: bool = True
    #: An installed cabinet (``systemd/install.sh`` writes it; not in demo mode): the
    #: ledger's witnesses (anchor, marker, file counter) are outside ``db_path``'s folder
    #: (refused at load) and on another device (else a power-up tilt: kiosk.ledger.media).
    installed: bool = False
    #: A hardware monotonic counter that witnesses the ledger's power cycles
    #: (:mod:`kiosk.ledger.witness`): ``"tpm:0x1500016"`` (a TPM 2.0 NV counter through
    #: tpm2-tools) or ``"file:/path"`` (a number in a file on another medium); none
    #: when unset.
    witness_counter: Port | None = None
    db_path: FilePath = Path("var/uth.db")
    #: Proof that this cabinet has been installed (see :mod:`kiosk.ledger.ledger`): a missing
    #: ledger with the marker present is a fault, not a first run.  Default: db_path + ".install".
    install_marker: FilePath | None = None
    #: The cabinet key that MACs the ledger (see :mod:`kiosk.ledger.key`): outside the
    #: database's directory on a cabinet, mode 0600.  Default (demo): db_path + ".key".
    ledger_key_path: FilePath | None = None
    #: Where each commit's head is anchored (see :mod:`kiosk.ledger.anchor`): another
    #: device on a cabinet.  Default (demo): db_path + ".anchor".
    anchor_path: FilePath | None = None
    paytable: FilePath = PAYTABLE_DIR / "standard.toml"
    machine_number: Text = "0001"
    casino_name: Text = "Demo Casino"
    #: The approved RTP range of a paytable change, percent (within 75-100).
    rtp_min_pct: float = Field(80.0, ge=75, le=100, allow_inf_nan=False)
    rtp_max_pct: float = Field(100.0, ge=75, le=100, allow_inf_nan=False)
    #: The bounds of a paytable made on the cabinet (lines, RTP per bet, limits).
    paytable_bounds: PaytableBounds = PaytableBounds()
    #: Compute and record each decision's exact value (about 0.1 s of CPU a round, beside
    #: the play).  Default on; ``$UTH_DECISION_VALUES=0`` turns the default off (burn-in
    #: and the test suite's long soak and power-cut runs).
    decision_values: bool = Field(default_factory=lambda: _decision_values_default())
    #: The people who may open the operator menu (``[[operators]]`` tables).
    operators: Annotated[
        tuple[OperatorAccount, ...], Field(strict=False, max_length=MAX_OPERATORS)
    ] = ()
    #: Printed on cash-out tickets under the casino name.
    casino_address: Text = "Demo City"
    #: A ticket is valid through the day ``ticket_expiry_days`` after it is printed;
    #: 0 means tickets do not expire.
    ticket_expiry_days: int = Field(30, ge=0, le=3650)
    #: Serial ports of the bill validator (JCM ID-003) and the ticket printer (TCL):
    #: ``"sim"`` for the simulator on a pseudo-terminal, else a device path, preferably
    #: ``/dev/serial/by-id/...`` (stable across reboots and USB re-plugs).
    validator_port: Port = SIMULATED_PORT
    printer_port: Port = SIMULATED_PORT
    #: The slot door switch (:mod:`devices.door`): none, a GPIO line or a simulated door.
    door: DoorField | None = None
    #: Bill denominations accepted, cents (each at most ``credit_limit_cents``).
    accepted_bills: Annotated[tuple[Cents, ...], Field(strict=False, max_length=MAX_BILLS)] = (
        100, 500, 1000, 2000, 5000, 10000,
    )
    #: No bill or ticket is accepted that would take the credit meter above this.
    credit_limit_cents: Cents = 1_000_000
    #: A round returning this much or more is paid by an attendant (jackpot handpay);
    #: at most ``credit_limit_cents``.
    jackpot_limit_cents: Cents = 120_000
    #: Friends games hosted here: where the phones' page and socket listen (``"0.0.0.0"``
    #: on a venue's network) and on which port (0: any free one); with
    #: ``friends_link_host_pairing`` (the table host's pairing folder) paired cabinets
    #: join through the table link on ``friends_link_port``.
    friends_bind: Text = "127.0.0.1"
    friends_port: int = Field(0, ge=0, le=65535)
    friends_link_host_pairing: FilePath | None = None
    friends_link_port: int = Field(0, ge=0, le=65535)
    #: Joining others' games: the venue's cabinets that may host one (``"host:port"``),
    #: and, once this cabinet is paired as a station (``friends_link_pairing``, its
    #: station folder), the hosts' friends links (``"host:port"``).
    friends_hosts: Annotated[tuple[Text, ...], Field(strict=False, max_length=16)] = ()
    friends_link_pairing: FilePath | None = None
    friends_link_hosts: Annotated[tuple[Text, ...], Field(strict=False, max_length=16)] = ()
    #: The casino's slot system (:mod:`kiosk.sas`): its line's port, station 1's address.
    sas_port: Port | None = None
    sas_address: int = Field(1, ge=1, le=127)
    #: Tickets numbered by the casino's system (57 / 58: a cash-out waits for its number, a
    #: handpay when none comes), others' tickets redeemed through it (67 / 70 / 71 / 68).
    #: Off: this cabinet numbers its tickets and redeems its own only.
    sas_system_validation: bool = False
    sas_ticket_redemption: bool = False
    #: The progressive linked through the casino's progressive controller (SAS 80 / 86
    #: broadcasts): its group and level; none: standalone (the game service's meter).
    progressive_link: ProgressiveLink | None = None

    @model_validator(mode="after")
    def _check(self) -> CabinetConfig:
        if self.rtp_min_pct > self.rtp_max_pct:
            raise RuleError(
                "rtp_min_pct", f"{self.rtp_min_pct} is above rtp_max_pct {self.rtp_max_pct}"
            )
        for i, bill in enumerate(self.accepted_bills):
            if bill > self.credit_limit_cents:
                raise RuleError(
                    f"accepted_bills.{i}",
                    f"{bill} is above credit_limit_cents {self.credit_limit_cents}",
                )
        if self.jackpot_limit_cents > self.credit_limit_cents:
            raise RuleError(
                "jackpot_limit_cents",
                f"{self.jackpot_limit_cents} is above credit_limit_cents {self.credit_limit_cents}",
            )
        for name in ("validator_port", "printer_port"):
            port = getattr(self, name)
            if port != SIMULATED_PORT and not (port.startswith("/") or "://" in port):
                raise RuleError(
                    name,
                    f"must be {SIMULATED_PORT!r}, a device path (/dev/serial/by-id/...) "
                    f"or a pyserial URL, not {shown(port)}",
                )
            if "://" in port and not self.demo:
                raise RuleError(
                    name,
                    f"{shown(port)} is a pyserial URL: outside demo mode a money device is a "
                    "local serial port (/dev/serial/by-id/...), never a network link "
                    "(socket://, rfc2217://) or a loopback (loop://)",
                )
        if self.sas_port is not None and not self.sas_port.startswith("/"):
            raise RuleError(
                "sas_port",
                f"must be a serial device path (/dev/serial/by-id/..., /dev/ttyS0) or a "
                f"pseudo-terminal (/dev/pts/N), not {shown(self.sas_port)}: the slot system's "
                "line is a local serial port, never a network link (socket://, rfc2217://) "
                "or a loopback (loop://)",
            )
        if self.progressive_link is not None and self.sas_port is None:
            raise RuleError(
                "progressive_link",
                "a linked progressive needs sas_port: the controller's level broadcasts "
                "come over the SAS line",
            )
        self._check_operators()
        if self.witness_counter is not None:
            kind, _, rest = self.witness_counter.partition(":")
            if not (
                (kind == "tpm" and rest[:2].lower() == "0x" and _is_hex(rest[2:]))
                or (kind == "file" and rest.startswith("/"))
            ):
                raise RuleError(
                    "witness_counter",
                    f"must be tpm:<NV index, 0x...> or file:<absolute path>, not "
                    f"{shown(self.witness_counter)}",
                )
        self._check_files()
        return self

    def _check_files(self) -> None:
        """Every file the ledger uses (a file counter too) is a distinct file, none is a
        folder, and an installed cabinet's witnesses are not in the database's folder
        (their devices are checked at power-up, where a medium not mounted is a tilt)."""
        if self.db_path.is_dir():
            raise RuleError("db_path", f"{self.db_path} is a folder; name the database file in it")
        db = self.db_path.absolute()
        taken = {
            Path(os.path.normpath(f"{db}{suffix}")): f"db_path's {what}"
            for suffix, what in (
                ("-wal", "write-ahead log"), ("-shm", "shared memory"),
                ("-journal", "journal"), (".lock", "lock"), (".new", "file being created"),
            )
        }  # fmt: skip
        taken[Path(os.path.normpath(db))] = "db_path"
        files = [
            ("ledger_key_path", self.key_path),
            ("anchor_path", self.anchor_file),
            ("install_marker", self.marker_path),
        ]
        files += [("witness_counter", self.counter_file)] if self.counter_file else []
        for name, path in files:
            if path.is_dir():
                raise RuleError(name, f"{path} is a folder; name a file in it")
            full = Path(os.path.normpath(path.absolute()))
            for other in (full, full.with_name(full.name + ".tmp")):
                if other in taken:
                    raise RuleError(
                        name,
                        f"{path} is also the {taken[other]}: every file of the ledger must be "
                        "its own (writing one would destroy the other)",
                    )
            taken[full] = name
            taken[full.with_name(full.name + ".tmp")] = f"{name}'s temporary file"
        if self.installed:
            if self.demo:
                raise RuleError("installed", "an installed cabinet is not in demo mode")
            folder = Path(os.path.normpath(db.parent))
            for name, path in self.witness_files.items():
                if Path(os.path.normpath(path.absolute())).parent == folder:
                    raise RuleError(
                        name,
                        f"{path} is in the ledger's folder {folder}, on the same filesystem "
                        "as the database: a copy of that medium put back would roll the "
                        "ledger back unseen.  Put it on another medium, another device than "
                        "the ledger's (systemd/install.sh --witness-dir DIR)",
                    )

    def _check_operators(self) -> None:
        names: dict[str, int] = {}
        pins: dict[str, int] = {}
        for i, account in enumerate(self.operators):
            where = f"operators.{i}"
            folded = account.name.casefold()
            if folded in names:
                raise RuleError(
                    f"{where}.name", f"{shown(account.name)} is also operators.{names[folded]}"
                )
            names[folded] = i
            if account.pin in pins:
                raise RuleError(
                    f"{where}.pin", f"the same PIN as operators.{pins[account.pin]}"
                )
            pins[account.pin] = i
            if is_hashed(account.pin):
                continue  # the rules were checked when it was hashed
            if self.demo and account.pin in DEMO_PINS.values():
                continue  # demo PINs: demo mode only
            problem = pin_problem(account.pin)
            if problem is not None:
                raise RuleError(f"{where}.pin", problem)

    # -- derived --------------------------------------------------------------------
    @property
    def simulated_devices(self) -> bool:
        """True when both devices are simulated."""
        return self.validator_port == SIMULATED_PORT and self.printer_port == SIMULATED_PORT

    @property
    def accounts(self) -> tuple[OperatorAccount, ...]:
        """Who may log in: the ``[[operators]]``, else in demo mode the demo accounts,
        else nobody (operator login disabled)."""
        if self.operators:
            return self.operators
        return DEMO_ACCOUNTS if self.demo else ()

    @property
    def operator_pins(self) -> dict[str, str]:
        """Role -> the first plain-digit PIN of that role (the demo PINs in demo mode);
        hashed PINs are not listed."""
        out: dict[str, str] = {}
        for account in self.accounts:
            if not is_hashed(account.pin):
                out.setdefault(account.role, account.pin)
        return out

    def accounts_for_pin(self, pin: str) -> list[OperatorAccount]:
        """Every account whose PIN is ``pin`` (each one checked: no early exit)."""
        return [account for account in self.accounts if account.matches(pin)]

    def rtp_bounds(self, bet: str) -> tuple[float, float] | None:
        """``(minimum, maximum)`` percent of ``bet``'s RTP (:data:`BOUNDED_BETS`), or None
        when unbounded; the main game and Trips default to ``rtp_min_pct``..``rtp_max_pct``."""
        if bet in self.paytable_bounds.rtp_pct:
            lo, hi = self.paytable_bounds.rtp_pct[bet]
            return (lo, hi)
        if bet in ("main_total", "trips"):
            return (self.rtp_min_pct, self.rtp_max_pct)
        return None

    @property
    def marker_path(self) -> Path:
        return self.install_marker or self.db_path.with_name(self.db_path.name + ".install")

    @property
    def key_path(self) -> Path:
        return self.ledger_key_path or self.db_path.with_name(self.db_path.name + ".key")

    @property
    def witness_files(self) -> dict[str, Path]:
        """The files that witness the database from another medium on an installed
        cabinet: field name -> path (anchor, install marker, file counter)."""
        files = {"anchor_path": self.anchor_file, "install_marker": self.marker_path}
        if self.counter_file is not None:
            files["witness_counter"] = self.counter_file
        return files

    @property
    def counter_file(self) -> Path | None:
        """The file of a ``file:`` witness counter (None for a TPM counter or none)."""
        spec = self.witness_counter or ""
        return Path(spec.removeprefix("file:")) if spec.startswith("file:") else None

    @property
    def anchor_file(self) -> Path:
        return self.anchor_path or self.db_path.with_name(self.db_path.name + ".anchor")


def _is_hex(text: str) -> bool:
    return bool(text) and all(c in "0123456789abcdefABCDEF" for c in text)


def role_at_least(role: str | None, needed: str) -> bool:
    """Whether ``role`` has the rights of ``needed`` (manager > technician > attendant)."""
    return role in ROLES and ROLES.index(role) >= ROLES.index(needed)


def _field_path(loc: tuple[Any, ...]) -> str:
    return ".".join(field_name(p) for p in loc) or "(file)"


def _refusal(source: str, err: ErrorDetails) -> ConfigError:
    """The :class:`ConfigError` for pydantic's first error."""
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, RuleError):
        return ConfigError(source, cause.field, cause.reason)
    kind = err["type"]
    if kind == "extra_forbidden":
        reason = "unknown field"
    elif kind == "value_error":
        reason = err["msg"].removeprefix("Value error, ")
    elif err["loc"] and err["loc"][-1] == "pin":
        reason = err["msg"]  # never echo a PIN
    else:
        reason = f"{err['msg']} (found {shown(err.get('input'))})"
    return ConfigError(source, _field_path(err["loc"]), reason)


def _read(path: Path) -> dict[str, Any]:
    """The TOML table of the file at ``path`` (bounded size, UTF-8, no NUL)."""
    source = str(path)
    try:
        with path.open("rb") as f:
            if os.fstat(f.fileno()).st_size > MAX_FILE_BYTES:
                raise ConfigError(source, "(file)", f"more than {MAX_FILE_BYTES:,} bytes")
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError(source, "(file)", exc.strerror or str(exc)) from None
    except ValueError as exc:  # a path the OS cannot name (an embedded NUL)
        raise ConfigError(source, "(file)", str(exc)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise ConfigError(source, "(file)", f"more than {MAX_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(source, "(file)", f"not UTF-8 text (byte {exc.start})") from None
    if "\x00" in text:
        raise ConfigError(source, "(file)", "contains a NUL character")
    try:
        check_key_depth(text)
        return tomllib.loads(text.replace("\r\n", "\n"))
    except RuleError as exc:
        raise ConfigError(source, exc.field, exc.reason) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, "(syntax)", str(exc)) from None
    except RecursionError:
        raise ConfigError(source, "(syntax)", "values are nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise ConfigError(source, "(syntax)", f"unreadable value: {exc}") from None


def load_config(path: str | Path | None = None, **overrides: object) -> CabinetConfig:
    """Load ``path`` (else ``$UTH_CONFIG``, else the demo defaults) and apply
    ``overrides`` (``None`` values are ignored).  A file is a cabinet's configuration:
    ``demo`` is false unless the file sets it.  Raises :class:`ConfigError`."""
    path = path or os.environ.get("UTH_CONFIG")
    data: dict[str, Any] = {}
    source = "(defaults)"
    if path:
        source = str(path)
        data = _read(Path(path))
        data.setdefault("demo", False)
    data.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return CabinetConfig.model_validate(data)
    except ValidationError as exc:
        raise _refusal(source, exc.errors()[0]) from None
    except RecursionError:
        raise ConfigError(source, "(file)", "values are nested too deeply") from None
