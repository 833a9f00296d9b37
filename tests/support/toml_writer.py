"""A small TOML writer for the fuzz tests: it writes any value the mutators produce,
including ones TOML cannot hold as data (NaN, deeply nested arrays and inline tables),
so the parsers under test see exactly the document the test meant.

Shared by the paytable and configuration fuzzers (``from support.toml_writer import
...``: the folder of the root conftest.py is on the import path).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Deep:
    """``inner`` wrapped ``depth`` times in arrays (``kind`` "[") or inline tables ("{")."""

    inner: Any
    depth: int
    kind: str


def string(s: str) -> str:
    """A TOML basic string, control characters escaped."""
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def key(k: str) -> str:
    """A bare key when TOML allows one, else a quoted key."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else string(k)


def value(v: Any) -> str:
    """``v`` as an inline TOML value."""
    if isinstance(v, Deep):
        if v.kind == "[":
            return "[" * v.depth + value(v.inner) + "]" * v.depth
        return "{a = " * v.depth + value(v.inner) + "}" * v.depth
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def document(data: dict[str, Any], *, tables: bool = True) -> str:
    """The document: top-level dicts as ``[table]`` sections when ``tables``, every value
    inline otherwise."""
    if not tables:
        return "".join(f"{key(k)} = {value(v)}\n" for k, v in data.items())
    lines = [f"{key(k)} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for k, v in data.items():
        if isinstance(v, dict):
            lines.append(f"\n[{key(k)}]")
            lines += [f"{key(kk)} = {value(vv)}" for kk, vv in v.items()]
    return "\n".join(lines) + "\n"
