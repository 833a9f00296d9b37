"""A station's snapshot on the wire: :class:`StationSnapshot` to a JSON object and back.

The host sends ``{"window": W, "snapshot": {...}}`` in a link :class:`Snapshot` body:
``snapshot`` is every field of the station's :class:`StationSnapshot` (enums by value,
tuples as lists, nested records as objects) and ``window`` the number a station quotes
as ``round_id`` in its :class:`~kiosk.link.messages.Bet` and
:class:`~kiosk.link.messages.PassRound` (the betting window on the table now).
:func:`snapshot_from_json` rebuilds the same frozen dataclass, checking every type, so
a station reads exactly what the host's :meth:`Table.snapshot` returned.

The host adds the table's ``limits`` in force (cents, as :class:`Limits` fields) and its
``paytable`` as ``{"sha256": ..., "toml": ...}`` (the paytable file's text as the ledger
keeps it) to the first snapshot after a (re)connect or a resync and to the first after
either changes; a snapshot without them leaves the last ones in force at the station.
:func:`paytable_from_state` parses the paytable and checks the text's SHA-256 against
the one sent before a station shows a single pay line.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable
from typing import TypeVar, overload

from pydantic import JsonValue

from engine.uth.paytable import Paytable, PaytableError, parse_paytable
from engine.uth.round import Phase
from kiosk.link.messages import Decide
from kiosk.service.display import TableSnapshot
from kiosk.service.snapshot import StationSnapshot

T = TypeVar("T")


def to_json(value: object) -> JsonValue:
    """``value`` (dataclasses, enums, tuples, ints, strings, floats, None) as JSON."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"no JSON form for {type(value).__name__}")


@overload
def from_json(kind: type[T], data: object) -> T: ...
@overload
def from_json(kind: object, data: object) -> object: ...


def from_json(kind: object, data: object) -> object:
    """``data`` rebuilt as type ``kind`` (a class, or a union or tuple of them); raises
    :class:`ValueError` when it does not fit."""
    return _decoder(kind)(data)


#: A function rebuilding JSON as one type.
Decoder = Callable[[object], object]


@functools.cache
def _decoder(kind: object) -> Decoder:
    """A function rebuilding JSON as ``kind`` (made once per type)."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return _union([a for a in typing.get_args(kind) if a is not type(None)], kind)
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_of(_decoder(args[0]), kind)
        return _fixed_tuple(tuple(_decoder(a) for a in args), kind)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _record(kind)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _enum(kind)
    if kind in _SCALARS:
        return _SCALARS[kind]
    raise ValueError(f"cannot rebuild {kind!r}")


def _union(options: list[object], kind: object) -> Decoder:
    decoders = [_decoder(o) for o in options]

    def decode(data: object) -> object:
        if data is None:
            return None
        for one in decoders:
            try:
                return one(data)
            except ValueError:
                continue
        raise ValueError(f"{data!r} is none of {kind}")

    return decode


def _tuple_of(item: Decoder, kind: object) -> Decoder:
    def decode(data: object) -> object:
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {kind}, got {data!r}")
        return tuple(item(v) for v in data)

    return decode


def _fixed_tuple(items: tuple[Decoder, ...], kind: object) -> Decoder:
    def decode(data: object) -> object:
        if not isinstance(data, list) or len(data) != len(items):
            raise ValueError(f"expected {len(items)} items for {kind}, got {data!r}")
        return tuple(one(v) for one, v in zip(items, data, strict=True))

    return decode


def _record(kind: type) -> Decoder:
    hints = typing.get_type_hints(kind)
    names = frozenset(f.name for f in dataclasses.fields(kind) if f.init)
    fields = {n: _decoder(hints[n]) for n in names}

    def decode(data: object) -> object:
        if not isinstance(data, dict) or data.keys() != names:
            raise ValueError(f"{kind.__name__} fields {sorted(names)}, got {data!r:.200}")
        return kind(**{n: one(data[n]) for n, one in fields.items()})

    return decode


def _enum(kind: type[enum.Enum]) -> Decoder:
    def decode(data: object) -> object:
        try:
            return kind(data)
        except ValueError:
            raise ValueError(f"{data!r} is not a {kind.__name__}") from None

    return decode


def _scalar(kind: type, accepts: tuple[type, ...]) -> Decoder:
    def decode(data: object) -> object:
        if isinstance(data, bool) is not (kind is bool) or not isinstance(data, accepts):
            raise ValueError(f"expected {kind.__name__}, got {data!r}")
        return kind(data)

    return decode


_SCALARS: dict[object, Decoder] = {
    bool: _scalar(bool, (bool,)),
    int: _scalar(int, (int,)),
    float: _scalar(float, (int, float)),
    str: _scalar(str, (str,)),
}


def snapshot_state(snapshot: StationSnapshot, window: int) -> dict[str, JsonValue]:
    """The JSON object a link :class:`~kiosk.link.messages.Snapshot` carries."""
    return {"window": window, "snapshot": to_json(snapshot)}


def snapshot_from_json(data: object) -> StationSnapshot:
    """The :class:`StationSnapshot` in a snapshot's ``snapshot`` object."""
    snap = from_json(StationSnapshot, data)
    assert isinstance(snap, StationSnapshot)
    return snap


def paytable_state(sha256: str, toml: str) -> dict[str, JsonValue]:
    """The ``paytable`` object of a snapshot: the in-force paytable's text and hash."""
    return {"sha256": sha256, "toml": toml}


def paytable_from_state(data: object) -> Paytable:
    """The paytable in a snapshot's ``paytable`` object; raises :class:`ValueError` when
    it is missing, does not parse or its text does not hash to the SHA-256 sent."""
    if not isinstance(data, dict) or not isinstance(data.get("toml"), str):
        raise ValueError("the snapshot carries no paytable text")
    sha = data.get("sha256")
    try:
        table = parse_paytable(data["toml"], "table host")
    except PaytableError as exc:
        raise ValueError(f"the host's paytable does not parse: {exc}") from None
    if table.sha256 != sha:
        raise ValueError(f"the host's paytable text hashes to {table.sha256}, not {sha!r}")
    return table


def steady(snap: StationSnapshot) -> StationSnapshot:
    """``snap`` with its countdowns reduced to whether they run."""
    return dataclasses.replace(
        snap,
        betting_seconds=None if snap.betting_seconds is None else -1.0,
        decision_seconds=None if snap.decision_seconds is None else -1.0,
    )


def steady_view(view: TableSnapshot) -> TableSnapshot:
    """``view`` with its countdowns reduced to whether they run."""
    return dataclasses.replace(
        view,
        betting_seconds=None if view.betting_seconds is None else -1.0,
        decision_seconds=None if view.decision_seconds is None else -1.0,
    )


def open_decision(snap: StationSnapshot, seat: int) -> tuple[int, Phase] | None:
    """The (round, phase) the seat has still to decide in, if any."""
    if not (snap.round_open and snap.in_round and snap.round_id is not None):
        return None
    phase = snap.phase
    if phase is None or phase not in (Phase.PREFLOP, Phase.FLOP, Phase.RIVER):
        return None
    own = next((s for s in snap.seats if s.seat == seat), None)
    if own is None or own.decided:
        return None
    return snap.round_id, phase


def describe_decision(body: Decide) -> str:
    return (
        f"{body.action.value} for round {body.round_id} {body.phase.value} (seen {body.last_seen})"
    )
