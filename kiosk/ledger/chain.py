"""How ledger rows are written down and chained: UTC timestamps, canonical JSON, the
sha256 hash chain (``hash = sha256(prev_hash + canonical(row))``) and the row MAC
(``mac = HMAC-SHA256(cabinet key, hash)``: the hash commits to the row and, through
``prev_hash``, to every row before it, so the MAC authenticates the whole chain up to
the row)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64


def utc_stamp(moment: datetime | None = None) -> str:
    """``2025-01-31T12:00:00.123Z`` (UTC, milliseconds)."""
    moment = (moment or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: Columns of a chained row that are not part of what its hash covers.
UNHASHED = ("hash", "mac")


#: The station a row is about when its ``station`` is not part of its hash (a single
#: cabinet's station, and every row written before stations existed).
HOME_STATION = 1


def canonical(row: Mapping[str, Any]) -> str:
    """Canonical JSON of a row without its hash and MAC, and without ``station`` when
    it is :data:`HOME_STATION`: sorted keys, no spaces, UTF-8 as is (exactly what
    SQLite's ``json_object`` renders, which :meth:`Ledger.verify` uses)."""
    if "hash" in row or "mac" in row or row.get("station", 0) == HOME_STATION:
        row = {
            k: v
            for k, v in row.items()
            if k not in UNHASHED and not (k == "station" and v == HOME_STATION)
        }
    return _CANONICAL.encode(row)


def chain_hash(prev_hash: str, row: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical(row)).encode()).hexdigest()


def dumps(obj: Any) -> str:
    """The same canonical JSON, for values stored inside rows (details, decisions)."""
    return _CANONICAL.encode(obj)
