"""Frames to envelopes and back, with the size cap checked before any parsing.

:func:`decode` raises a :class:`kiosk.link.errors.FrameRefused` subclass for every frame
that is not a valid message: :class:`FrameTooLarge` (checked on the raw length first),
:class:`MalformedFrame`, :class:`WrongVersion`, :class:`UnknownType`,
:class:`WrongDirection`.  Nothing is acted on before :func:`decode` returns.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import ValidationError

from kiosk.link.errors import (
    FrameTooLarge,
    MalformedFrame,
    UnknownType,
    WrongDirection,
    WrongVersion,
)
from kiosk.link.messages import (
    ALL_TYPES,
    CONTROL_TYPES,
    HOST_TYPES,
    PROTOCOL_VERSION,
    STATION_TYPES,
    Body,
    Envelope,
)

#: The largest frame either side accepts, in bytes of UTF-8 JSON.
MAX_FRAME_BYTES = 64 * 1024

Side = Literal["host", "station"]


def encode(body: Body, seq: int, ack: int) -> str:
    """The JSON text frame of ``body`` (``seq`` 0 for a control body)."""
    return Envelope(v=PROTOCOL_VERSION, seq=seq, ack=ack, body=body).model_dump_json()


def decode(frame: str | bytes, sender: Side) -> Envelope:
    """The envelope in ``frame`` sent by ``sender``, or a typed refusal (see module)."""
    size = len(frame.encode("utf-8")) if isinstance(frame, str) else len(frame)
    if size > MAX_FRAME_BYTES:
        raise FrameTooLarge(size, MAX_FRAME_BYTES)
    if isinstance(frame, bytes):
        raise MalformedFrame("binary frame (the link speaks JSON text frames)")
    try:
        envelope = Envelope.model_validate_json(frame)
    except ValidationError as exc:
        raise _classify(frame, exc) from None
    if envelope.v != PROTOCOL_VERSION:
        raise WrongVersion(envelope.v, PROTOCOL_VERSION)
    _check_direction(envelope, sender)
    return envelope


def _classify(frame: str, exc: ValidationError) -> Exception:
    try:
        data = json.loads(frame)
    except ValueError:
        return MalformedFrame("not JSON")
    if not isinstance(data, dict):
        return MalformedFrame("not a JSON object")
    if data.get("v") != PROTOCOL_VERSION or type(data.get("v")) is not int:
        return WrongVersion(data.get("v"), PROTOCOL_VERSION)
    if "type" not in data:
        return MalformedFrame("no message type")
    if data.get("type") not in ALL_TYPES:
        return UnknownType(data.get("type"))
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return MalformedFrame(f"{data['type']}: {where}: {first['msg']}")


def _check_direction(envelope: Envelope, sender: Side) -> None:
    type_name = envelope.type
    if envelope.seq == 0:
        allowed = CONTROL_TYPES
    else:
        allowed = STATION_TYPES if sender == "station" else HOST_TYPES
    if type_name not in allowed:
        raise WrongDirection(type_name)
    if envelope.seq == 0 and type_name in {"challenge", "welcome", "pair_granted"}:
        if sender == "station":
            raise WrongDirection(type_name)
    if envelope.seq == 0 and type_name in {"hello", "pair_request"} and sender == "host":
        raise WrongDirection(type_name)
