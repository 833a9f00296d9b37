"""A paytable derived from another: named line edits, the canonical TOML text, the bounds.

An edit names one value by its dotted path and gives its new text: ``blind.flush=2:1``,
``trips.full_house=9:1``, ``limits.ante_max=100000`` (cents), ``limits.chips=100,500``,
``name=Custom``, ``version=1.1``.  A table's ``[progressive]`` section is kept as it is
(no edit names it) and written back.  The derived table is rendered as TOML and read back by
the strict loader (:func:`engine.uth.paytable.parse_paytable`), so a draft is valid
exactly when the file it would write is; its SHA-256 is that of the text.

Bounds (:class:`kiosk.config.PaytableBounds`) are the jurisdiction's: the pay values each
line may take and the RTP range of each bet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from engine.uth.paytable import Paytable, PaytableError, parse_paytable
from engine.uth.progressive import Progressive
from kiosk.config import BOUNDED_BETS, CabinetConfig

#: The sections whose lines an edit may set, and the limits' fields.
PAY_SECTIONS = ("blind", "trips")
LIMIT_FIELDS = ("ante_min", "ante_max", "ante_step", "trips_min", "trips_max", "chips")
TEXT_FIELDS = ("name", "version")


class EditError(ValueError):
    """An edit that cannot apply: ``field`` is its dotted path, ``reason`` why."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def parse_edit(text: str) -> tuple[str, str]:
    """``"blind.flush=2:1"`` -> ``("blind.flush", "2:1")``; raises :class:`EditError`."""
    path, sep, value = text.partition("=")
    path, value = path.strip(), value.strip()
    if not sep or not path or not value:
        raise EditError(text, "expected FIELD=VALUE, e.g. blind.flush=2:1")
    return path, value


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _toml_value(value: object) -> str:
    return _toml_string(value) if isinstance(value, str) else str(value)


def progressive_toml(progressive: Progressive | None) -> list[str]:
    """The ``[progressive]`` section's lines (a blank line first), and its
    ``[progressive.awards]``, each line an inline table; none without a progressive."""
    if progressive is None:
        return []
    fields = [f for f in type(progressive).model_fields if f != "awards"]
    out = ["", "[progressive]", *(f"{f} = {_toml_value(getattr(progressive, f))}" for f in fields)]
    out += ["", "[progressive.awards]"]
    for name in type(progressive.awards).model_fields:
        award = getattr(progressive.awards, name)
        if award is not None:
            kind = "meter_bp" if award.on_meter else "cents"
            out.append(f"{name} = {{ {kind} = {getattr(award, kind)} }}")
    return out


def paytable_toml(table: Paytable, comment: str = "") -> str:
    """The canonical TOML text of ``table`` (amounts in cents, pays as ``"N:D"``), its
    progressive (:func:`progressive_toml`) last."""
    lim = table.limits
    out = [f"# {line}" for line in comment.splitlines()] if comment else []
    out += [
        f"name = {_toml_string(table.name)}",
        f"version = {_toml_string(table.version)}",
        f"currency = {_toml_string(table.currency)}",
        "",
        "[limits]",
        *(f"{f} = {getattr(lim, f)}" for f in LIMIT_FIELDS[:-1]),
        f"chips = [{', '.join(str(c) for c in lim.chips)}]",
        "",
        "[dealer]",
        f"qualifies_with = {_toml_string(table.dealer.qualifies_with)}",
    ]
    for section in PAY_SECTIONS:
        lines = getattr(table, section)
        out += ["", f"[{section}]"]
        out += [f'{name} = "{getattr(lines, name)}"' for name in type(lines).model_fields]
    out += progressive_toml(table.progressive)
    return "\n".join(out) + "\n"


def _as_data(table: Paytable) -> dict[str, object]:
    """The table as TOML-shaped data (pays as text), ready for edits."""
    data: dict[str, object] = {f: getattr(table, f) for f in (*TEXT_FIELDS, "currency")}
    data["limits"] = {f: getattr(table.limits, f) for f in LIMIT_FIELDS}
    data["dealer"] = {"qualifies_with": table.dealer.qualifies_with}
    for section in PAY_SECTIONS:
        lines = getattr(table, section)
        data[section] = {name: str(getattr(lines, name)) for name in type(lines).model_fields}
    return data


def _set(data: dict[str, object], path: str, value: str) -> None:
    section, _, name = path.partition(".")
    if section in TEXT_FIELDS and not name:
        data[section] = value
        return
    target = data.get(section)
    if section not in (*PAY_SECTIONS, "limits") or not isinstance(target, dict):
        raise EditError(path, "only blind.*, trips.*, limits.*, name and version can be set")
    if name not in target:
        raise EditError(path, f"unknown field; one of {', '.join(target)}")
    if section in PAY_SECTIONS:
        target[name] = value
    elif name == "chips":
        try:
            target[name] = [int(v) for v in value.split(",")]
        except ValueError:
            raise EditError(path, "expected cents separated by commas") from None
    else:
        try:
            target[name] = int(value)
        except ValueError:
            raise EditError(path, f"expected a whole number of cents, not {value!r}") from None


def _render(data: Mapping[str, object], progressive: Progressive | None = None) -> str:
    def value(v: object) -> str:
        if isinstance(v, str):
            return _toml_string(v)
        if isinstance(v, list | tuple):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return str(v)

    out = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for k, v in data.items():
        if isinstance(v, dict):
            out += ["", f"[{k}]", *(f"{name} = {value(x)}" for name, x in v.items())]
    out += progressive_toml(progressive)
    return "\n".join(out) + "\n"


def derive(
    base: Paytable, edits: Iterable[tuple[str, str]], source: str = "<draft>"
) -> Paytable:
    """``base`` with ``edits`` applied, validated by the strict loader from its canonical
    TOML (so its ``sha256`` is that of :func:`paytable_toml`'s text).  Raises
    :class:`EditError` for an edit that names no field (or the progressive's: it is
    kept as it is), :class:`PaytableError` for a table the loader refuses."""
    data = _as_data(base)
    for path, value in edits:
        _set(data, path, value)
    # the loader's rules, first refusal
    draft = parse_paytable(_render(data, base.progressive), source)
    return parse_paytable(paytable_toml(draft), source)


@dataclass(frozen=True)
class BoundRefusal:
    """A value outside the jurisdiction's bounds: the field (``blind.flush``, ``rtp.trips``),
    the value found and the bounds it should keep, as text."""

    field: str
    value: str
    allowed: str

    def __str__(self) -> str:
        return f"{self.field} {self.value} is outside {self.allowed}"


def _ratio(text: str) -> Fraction:
    num, _, den = text.partition(":")
    return Fraction(int(num), int(den))


def line_refusals(table: Paytable, config: CabinetConfig) -> list[BoundRefusal]:
    """The Blind and Trips lines and the limits of ``table`` outside the bounds."""
    bounds = config.paytable_bounds
    out = []
    for section in PAY_SECTIONS:
        lines = getattr(table, section)
        for name in type(lines).model_fields:
            allowed = bounds.allowed_pays(f"{section}.{name}")
            pay = getattr(lines, name)
            if allowed is not None and pay.ratio not in {_ratio(a) for a in allowed}:
                out.append(BoundRefusal(f"{section}.{name}", str(pay), " / ".join(allowed)))
    for name, (lo, hi) in bounds.limits.items():
        value = getattr(table.limits, name)
        if not lo <= value <= hi:
            out.append(BoundRefusal(f"limits.{name}", str(value), f"{lo}..{hi} cents"))
    return out


def rtp_refusals(rtps: Mapping[str, float], config: CabinetConfig) -> list[BoundRefusal]:
    """The bets whose RTP (fractions of 1, as :meth:`ParReport.rtps`) is outside the bounds."""
    out = []
    for bet in BOUNDED_BETS:
        bounds = config.rtp_bounds(bet)
        if bounds is None or bet not in rtps:
            continue
        lo, hi = bounds
        if not lo <= 100 * rtps[bet] <= hi:
            out.append(BoundRefusal(f"rtp.{bet}", f"{100 * rtps[bet]:.4f}%", f"{lo:g}%..{hi:g}%"))
    return out


__all__ = [
    "BoundRefusal",
    "EditError",
    "PaytableError",
    "derive",
    "line_refusals",
    "parse_edit",
    "paytable_toml",
    "progressive_toml",
    "rtp_refusals",
]


def default_stem(name: str, sha256: str) -> str:
    """The files' common name: ``<table name>-<first 8 of its SHA-256>``."""
    return f"{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-') or 'paytable'}-{sha256[:8]}"
