"""Paytables: TOML data validated by pydantic.

A paytable fixes the table limits (cents), the Blind and Trips pay lines (exact
ratios such as ``"3:2"``), the dealer's qualifying hand and a name and version.
Pays are ``odds`` ratios: a winning stake of ``s`` cents returns the stake plus
``s * numerator // denominator``; the remainder is breakage (see :mod:`engine.uth.settlement`).
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.hands.categories import HandCategory

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

    model_config = ConfigDict(frozen=True)
    numerator: int
    denominator: int

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.numerator, self.denominator)

    def __str__(self) -> str:
        return f"{self.numerator}:{self.denominator}"


def _parse_pay(value: Any) -> Pay:
    if isinstance(value, Pay):
        return value
    if isinstance(value, dict) and set(value) == {"numerator", "denominator"}:
        value = f"{value['numerator']}:{value['denominator']}"
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError("a pay is written 'N:D' (for example \"3:2\") or a whole number N (N:1)")
    if isinstance(value, int):
        num, den = value, 1
    else:
        parts = value.strip().split(":")
        if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            raise ValueError(f"{value!r} is not of the form 'N:D' with whole numbers")
        num, den = int(parts[0]), int(parts[1])
    if num <= 0 or den <= 0:
        raise ValueError(f"pay {num}:{den} must be positive")
    g = math.gcd(num, den)
    return Pay(numerator=num // g, denominator=den // g)


PayField = Annotated[Pay, Field(description="exact ratio 'N:D'")]


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

    ante_min: int = Field(gt=0)
    ante_max: int = Field(gt=0)
    ante_step: int = Field(gt=0)
    trips_min: int = Field(gt=0)
    trips_max: int = Field(gt=0)
    chips: tuple[int, ...] = Field(min_length=1, description="chip denominations in cents")

    @model_validator(mode="after")
    def _ordered(self) -> Limits:
        if self.ante_min > self.ante_max:
            raise ValueError(f"ante_min {self.ante_min} is above ante_max {self.ante_max}")
        if self.trips_min > self.trips_max:
            raise ValueError(f"trips_min {self.trips_min} is above trips_max {self.trips_max}")
        if self.ante_min % self.ante_step or self.ante_max % self.ante_step:
            raise ValueError(f"ante_min and ante_max must be multiples of ante_step {self.ante_step}")
        if any(c <= 0 for c in self.chips) or list(self.chips) != sorted(set(self.chips)):
            raise ValueError("chips must be positive, distinct and in increasing order")
        return self


class Dealer(_Strict):
    qualifies_with: str = "pair"

    @field_validator("qualifies_with")
    @classmethod
    def _category(cls, v: str) -> str:
        name = v.strip().upper().replace(" ", "_")
        if name not in HandCategory.__members__:
            raise ValueError(f"unknown hand {v!r}; use one of {', '.join(m.lower() for m in HandCategory.__members__)}")
        return name.lower()

    @property
    def category(self) -> HandCategory:
        return HandCategory[self.qualifies_with.upper()]


class Paytable(_Strict):
    """One complete, validated paytable.  ``sha256`` hashes the file's bytes."""

    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    currency: str = "USD"
    limits: Limits
    dealer: Dealer = Dealer()
    blind: BlindTable
    trips: TripsTable
    source_sha256: str = ""
    source_name: str = ""

    @cached_property
    def sha256(self) -> str:
        """SHA-256 of the file's bytes, or of the canonical JSON of a table built in code."""
        return self.source_sha256 or hashlib.sha256(self.model_dump_json().encode()).hexdigest()

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Paytable:
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
    return ".".join(str(p) for p in loc) or "(file)"


def parse_paytable(text: str, source: str = "<text>") -> Paytable:
    """Validate TOML ``text``; raise :class:`PaytableError` naming ``source``, field and reason."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PaytableError(source, "(syntax)", str(exc)) from None
    try:
        table = Paytable.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        reason = err["msg"].removeprefix("Value error, ")
        if err["type"] == "missing":
            reason = "line is missing"
        elif err["type"] == "extra_forbidden":
            reason = "unknown field"
        raise PaytableError(source, _field_path(err["loc"]), reason) from None
    digest = hashlib.sha256(text.encode()).hexdigest()
    return table.model_copy(update={"source_sha256": digest, "source_name": source})


def load_paytable(path: str | Path) -> Paytable:
    """Read and validate a paytable file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PaytableError(str(p), "(file)", exc.strerror or str(exc)) from None
    except UnicodeDecodeError:
        raise PaytableError(str(p), "(file)", "not UTF-8 text") from None
    return parse_paytable(text, str(p))


def shipped_paytables() -> list[Path]:
    """The TOML files in the project's ``paytables/`` folder."""
    return sorted(PAYTABLE_DIR.glob("*.toml"))
