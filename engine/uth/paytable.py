"""Paytables: TOML data validated by pydantic, strictly.

A paytable fixes the table limits (cents), the Blind and Trips pay lines (exact
ratios such as ``"3:2"``), the dealer's qualifying hand and a name and version.
Pays are ``odds`` ratios: a winning stake of ``s`` cents returns the stake plus
``s * numerator // denominator``; the remainder is breakage (see :mod:`engine.uth.settlement`).

Nothing is coerced: an amount is a TOML integer (``true``, ``"500"`` and ``500.0`` are
refused), a name a TOML string.  The bounds (amounts, pays, names, file size) are in
:mod:`engine.uth.paytable_rules`; every refusal is a :class:`PaytableError` naming the
file, the field and the reason.
"""

from __future__ import annotations

import hashlib
import math
import os
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from engine.hands.categories import HandCategory
from engine.uth.paytable_rules import (
    INTERNAL_FIELDS,
    MAX_AMOUNT,
    MAX_CHIPS,
    MAX_FILE_BYTES,
    MAX_PAY_DENOMINATOR,
    MAX_PAY_NUMERATOR,
    RuleError,
    check_chips,
    check_currency,
    check_key_depth,
    check_pay_unit,
    check_text,
    field_name,
    pay_parts,
    reduced_pay,
    shown,
)
from engine.uth.progressive import Progressive

PAYTABLE_DIR = Path(str(files("paytables")))

BLIND_LINES = (
    HandCategory.ROYAL_FLUSH,
    HandCategory.STRAIGHT_FLUSH,
    HandCategory.FOUR_OF_A_KIND,
    HandCategory.FULL_HOUSE,
    HandCategory.FLUSH,
    HandCategory.STRAIGHT,
)
TRIPS_LINES = (*BLIND_LINES, HandCategory.THREE_OF_A_KIND)


class PaytableError(ValueError):
    """A paytable file that cannot be used: names the file, the field and the reason."""

    def __init__(self, file: str, field: str, reason: str) -> None:
        super().__init__(f"{file}: {field}: {reason}")
        self.file = file
        self.field = field
        self.reason = reason


class Pay(BaseModel):
    """An exact pay ratio ``numerator:denominator`` (``3:2`` pays 3 for every 2 staked)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    numerator: Annotated[int, Strict(), Field(ge=1, le=MAX_PAY_NUMERATOR)]
    denominator: Annotated[int, Strict(), Field(ge=1, le=MAX_PAY_DENOMINATOR)]

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.numerator, self.denominator)

    def __str__(self) -> str:
        return f"{self.numerator}:{self.denominator}"


def _parse_pay(value: Any) -> Pay:
    if isinstance(value, Pay):
        return value
    num, den = reduced_pay(*pay_parts(value))
    return Pay(numerator=num, denominator=den)


PayField = Annotated[Pay, Field(description="exact ratio 'N:D'")]
#: A whole number of cents in 1..MAX_AMOUNT; never a bool, a float or a string.
Amount = Annotated[int, Strict(), Field(gt=0, le=MAX_AMOUNT)]
#: A printable name of at most 64 characters (see :func:`check_text`).
Text = Annotated[str, Strict(), AfterValidator(check_text)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PayLines(_Strict):
    """Pay lines keyed by category name; lines absent from a table lose (Trips) or push (Blind)."""

    royal_flush: PayField
    straight_flush: PayField
    four_of_a_kind: PayField
    full_house: PayField
    flush: PayField
    straight: PayField

    @field_validator("*", mode="before")
    @classmethod
    def _pay(cls, v: Any) -> Pay:
        return _parse_pay(v)

    def lines(self) -> dict[HandCategory, Pay]:
        return {HandCategory[name.upper()]: getattr(self, name) for name in type(self).model_fields}


class BlindTable(PayLines):
    """The Blind pays on a winning hand of straight or better; anything less pushes."""


class TripsTable(PayLines):
    """Trips pays on the player's final hand of three of a kind or better."""

    three_of_a_kind: PayField


class Limits(_Strict):
    """Table limits in cents.  The Blind always equals the Ante; Trips is optional."""

    ante_min: Amount
    ante_max: Amount
    ante_step: Amount
    trips_min: Amount
    trips_max: Amount
    chips: tuple[Amount, ...] = Field(
        min_length=1, max_length=MAX_CHIPS, description="chip denominations in cents"
    )

    @model_validator(mode="after")
    def _ordered(self) -> Limits:
        if self.ante_min > self.ante_max:
            raise ValueError(f"ante_min {self.ante_min} is above ante_max {self.ante_max}")
        if self.trips_min > self.trips_max:
            raise ValueError(f"trips_min {self.trips_min} is above trips_max {self.trips_max}")
        if self.ante_min % self.ante_step or self.ante_max % self.ante_step:
            raise ValueError(
                f"ante_min and ante_max must be multiples of ante_step {self.ante_step}"
            )
        if any(c <= 0 for c in self.chips) or list(self.chips) != sorted(set(self.chips)):
            raise ValueError("chips must be positive, distinct and in increasing order")
        return self


class Dealer(_Strict):
    qualifies_with: Annotated[str, Strict()] = "pair"

    @field_validator("qualifies_with")
    @classmethod
    def _category(cls, v: str) -> str:
        name = v.strip().upper().replace(" ", "_")
        if name not in HandCategory.__members__:
            raise ValueError(
                f"unknown hand {shown(v)}; use one of {', '.join(m.lower() for m in HandCategory.__members__)}"
            )
        return name.lower()

    @property
    def category(self) -> HandCategory:
        return HandCategory[self.qualifies_with.upper()]


class Paytable(_Strict):
    """One complete, validated paytable.  ``sha256`` hashes the file's bytes.

    Invariants beyond the fields' own: every chip is a multiple of ``limits.ante_step``
    and at most ``limits.ante_max``; the LCM of the pay denominators is at most
    ``MAX_PAY_UNIT``.  ``progressive`` (:mod:`engine.uth.progressive`) is optional: a
    table without it offers no progressive bet.  ``source_sha256`` and ``source_name`` are set by the loader and
    refused in a file.
    """

    name: Text
    version: Text
    currency: Annotated[str, Strict(), AfterValidator(check_currency)] = "USD"
    limits: Limits
    dealer: Dealer = Dealer()
    blind: BlindTable
    trips: TripsTable
    progressive: Progressive | None = None
    source_sha256: Annotated[str, Strict()] = ""
    source_name: Annotated[str, Strict()] = ""

    @model_validator(mode="after")
    def _whole_table(self) -> Paytable:
        lim = self.limits
        check_chips(lim.chips, lim.ante_step, lim.ante_max)
        check_pay_unit(
            [
                (f"{section}.{name}", getattr(lines, name).denominator)
                for section, lines in (("blind", self.blind), ("trips", self.trips))
                for name in type(lines).model_fields
            ]
        )
        return self

    @cached_property
    def sha256(self) -> str:
        """SHA-256 of the file's bytes, or of the canonical JSON of a table built in code."""
        # A table without a progressive hashes as it did before the section existed.
        absent = {"progressive"} if self.progressive is None else None
        dump = self.model_dump_json(exclude=absent)
        return self.source_sha256 or hashlib.sha256(dump.encode()).hexdigest()

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Paytable:
        """A copy; with ``update``, a freshly validated table whose hash is of its new content.

        (A plain pydantic copy would keep the file's hash and any cached value.)
        """
        if not update:
            return super().model_copy(deep=deep)
        data = {name: getattr(self, name) for name in type(self).model_fields}
        data.update(update)
        if "source_sha256" not in update:
            data["source_sha256"] = ""
        return type(self).model_validate(data)

    @property
    def pay_denominator(self) -> int:
        """LCM of every pay denominator: breakage is counted in 1/this of a cent."""
        dens = [p.denominator for p in (*self.blind.lines().values(), *self.trips.lines().values())]
        return math.lcm(*dens)


def _field_path(loc: tuple[Any, ...]) -> str:
    return ".".join(field_name(p) for p in loc) or "(file)"


def _refusal(source: str, err: ErrorDetails) -> PaytableError:
    """The :class:`PaytableError` for pydantic's first error."""
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, RuleError):
        return PaytableError(source, cause.field, cause.reason)
    kind = err["type"]
    if kind == "missing":
        reason = "line is missing"
    elif kind == "extra_forbidden":
        reason = "unknown field"
    elif kind == "value_error":
        reason = err["msg"].removeprefix("Value error, ")
    else:
        reason = f"{err['msg']} (found {shown(err.get('input'))})"
    return PaytableError(source, _field_path(err["loc"]), reason)


def _read_toml(text: str, source: str) -> dict[str, Any]:
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise PaytableError(source, "(file)", f"contains a NUL character (line {line})")
    try:
        check_key_depth(text)
    except RuleError as exc:
        raise PaytableError(source, exc.field, exc.reason) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PaytableError(source, "(syntax)", str(exc)) from None
    except RecursionError:
        raise PaytableError(source, "(syntax)", "values are nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise PaytableError(source, "(syntax)", f"unreadable value: {exc}") from None


def parse_paytable(text: str, source: str = "<text>") -> Paytable:
    """Validate TOML ``text``; raise :class:`PaytableError` naming ``source``, field and reason.

    ``sha256`` is the SHA-256 of ``text`` encoded as UTF-8.
    """
    try:
        encoded = text.encode()
    except UnicodeEncodeError as exc:
        raise PaytableError(source, "(file)", f"not UTF-8 text (character {exc.start})") from None
    if len(encoded) > MAX_FILE_BYTES:
        raise PaytableError(
            source,
            "(file)",
            f"{len(encoded):,} bytes, more than the {MAX_FILE_BYTES:,} a paytable may have",
        )
    data = _read_toml(text, source)
    for name in INTERNAL_FIELDS:
        if name in data:
            raise PaytableError(source, name, "set by the loader; a file may not set it")
    try:
        table = Paytable.model_validate(data)
    except ValidationError as exc:
        raise _refusal(source, exc.errors()[0]) from None
    except RecursionError:
        raise PaytableError(source, "(file)", "values are nested too deeply") from None
    digest = hashlib.sha256(encoded).hexdigest()
    return table.model_copy(update={"source_sha256": digest, "source_name": source})


def parse_paytable_bytes(raw: bytes, source: str = "<bytes>") -> Paytable:
    """Validate a paytable file's bytes: UTF-8, at most ``MAX_FILE_BYTES``; line ends
    ``\\r\\n`` and ``\\r`` read as ``\\n`` (as :meth:`Path.read_text` does), then
    :func:`parse_paytable`."""
    if len(raw) > MAX_FILE_BYTES:
        raise PaytableError(
            source, "(file)", f"more than the {MAX_FILE_BYTES:,} bytes a paytable may have"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PaytableError(source, "(file)", f"not UTF-8 text (byte {exc.start})") from None
    return parse_paytable(text.replace("\r\n", "\n").replace("\r", "\n"), source)


def load_paytable(path: str | Path) -> Paytable:
    """Read and validate a paytable file; a file over ``MAX_FILE_BYTES`` is refused
    before it is read."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            if os.fstat(f.fileno()).st_size > MAX_FILE_BYTES:
                raise PaytableError(
                    str(p), "(file)", f"more than the {MAX_FILE_BYTES:,} bytes a paytable may have"
                )
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise PaytableError(str(p), "(file)", exc.strerror or str(exc)) from None
    except ValueError as exc:  # a path the OS cannot name (an embedded NUL)
        raise PaytableError(str(p), "(file)", str(exc)) from None
    return parse_paytable_bytes(raw, str(p))


def shipped_paytables() -> list[Path]:
    """The TOML files in the project's ``paytables/`` folder."""
    return sorted(PAYTABLE_DIR.glob("*.toml"))
